// SPDX-License-Identifier: GPL-2.0
/* How the go command's steps are named (include/model/go_names.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "model/go_names.h"
#include "model/toolchain_names.h"

/* Whether img's program is the go tool called name. */
static bool tool_is(const struct exec_image *img, const char *name)
{
	size_t len = 0;
	const char *base = img->argc && img->argv[0] ? path_basename(img->argv[0], &len) : NULL;

	return base && len == strlen(name) && !strncmp(base, name, len);
}

bool go_tool_is_link(const struct exec_image *img)
{
	return tool_is(img, "link");
}

/* The package img works on: -p (compile, asm), -importpath or -dynpackage (cgo); NULL when none. */
static const char *package_of(const struct exec_image *img, bool *dynimport)
{
	const char *pkg = NULL, *v;
	size_t i;

	*dynimport = false;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if (!strcmp(img->argv[i], "--"))
			break; /* cgo: the C compiler's flags follow */
		if ((v = image_option_value(img, &i, "-p", NULL)) && img->argv[i] == v)
			pkg = v;
		else if ((v = image_option_value(img, &i, "-importpath", NULL)) && img->argv[i] == v)
			pkg = v;
		else if ((v = image_option_value(img, &i, "-dynpackage", NULL)) && img->argv[i] == v)
			pkg = v, *dynimport = true;
	}
	return pkg;
}

/* Whether img has the exact option opt. */
static bool has_option(const struct exec_image *img, const char *opt)
{
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++)
		if (!strcmp(img->argv[i], opt))
			return true;
	return false;
}

int go_tool_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	bool dynimport;
	const char *pkg;

	*detail = NULL;
	if (go_tool_is_link(img)) {
		const char *out = image_output(img);
		bool temp;

		if (!out || name_dirs__temporary(dirs, out, &temp))
			return out ? -ENOMEM : 0;
		return temp ? 0 : linker_step_name(img, tool, dirs, detail);
	}
	pkg = package_of(img, &dynimport);
	if (!pkg)
		return inputs_step_name(img, TOOL_OTHER, dirs, detail);
	/* asm runs twice per package: once for the symbols' ABIs, once to assemble. */
	if (dynimport || (tool_is(img, "asm") && has_option(img, "-gensymabis")))
		*detail = name_join(pkg, " ", dynimport ? "(dynimport)" : "(symabis)");
	else
		*detail = strdup(pkg);
	return *detail ? 0 : -ENOMEM;
}

int go_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	(void)tool;
	(void)dirs;
	*detail = img->argc > 1 && img->argv[1] && img->argv[1][0] != '-' ? strdup(img->argv[1]) : NULL;
	return img->argc > 1 && img->argv[1] && img->argv[1][0] != '-' && !*detail ? -ENOMEM : 0;
}

bool go_tool_is_probe(const struct exec_image *img)
{
	return has_option(img, "-V=full") || has_option(img, "-V");
}
