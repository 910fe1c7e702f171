// SPDX-License-Identifier: GPL-2.0
/* How cargo's steps are named (include/model/rust_names.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "model/rust_names.h"

/* The crate cargo compiles a package's build.rs as. */
#define BUILD_SCRIPT_CRATE "build_script_build"

/*
 * The package of a cargo build directory ".../build/PKG-HASH[/...]":
 * PKG, malloc'd, the part after the last "/build/" up to its last dash.
 * NULL when path has no such part, or without memory (*oom).
 */
static char *build_dir_package(const char *path, bool *oom)
{
	const char *at = NULL, *c, *end, *dash;
	char *pkg;

	*oom = false;
	for (c = path; (c = strstr(c, "/build/")); c++)
		at = c + strlen("/build/");
	if (!at)
		return NULL;
	end = strchr(at, '/');
	if (!end)
		end = at + strlen(at);
	dash = NULL;
	for (c = at; c < end; c++)
		if (*c == '-')
			dash = c;
	if (!dash || dash == at)
		return NULL;
	pkg = strndup(at, dash - at);
	*oom = !pkg;
	return pkg;
}

/* "build script of PKG" in *detail, PKG from path; nothing when path names none.  0 or -ENOMEM. */
static int build_script_of(const char *path, char **detail)
{
	bool oom;
	char *pkg = path ? build_dir_package(path, &oom) : NULL;

	*detail = NULL;
	if (!pkg)
		return path && oom ? -ENOMEM : 0;
	*detail = name_join("build script of", " ", pkg);
	free(pkg);
	return *detail ? 0 : -ENOMEM;
}

int rustc_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	const char *crate = NULL, *type = NULL, *out_dir = NULL;
	bool unoptimised_off = false, optimised = false;
	char kind[48];
	size_t i;

	(void)tool;
	(void)dirs;
	*detail = NULL;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i], *v;

		if ((v = image_option_value(img, &i, "--crate-name", NULL)))
			crate = v;
		else if ((v = image_option_value(img, &i, "--crate-type", NULL)))
			type = type ? type : v;
		else if ((v = image_option_value(img, &i, "--out-dir", NULL)))
			out_dir = v;
		else if (!strcmp(arg, "--test"))
			type = "test";
		else if ((v = image_option_value(img, &i, "-C", NULL)))
			unoptimised_off |= !strcmp(v, "debug-assertions=off"), optimised |= !strncmp(v, "opt-level=", 10);
	}
	if (!crate)
		return 0;
	if (!strcmp(crate, BUILD_SCRIPT_CRATE))
		return build_script_of(out_dir, detail);
	/*
	 * rustc asserts by default at opt-level 0, so cargo turns assertions
	 * off there only for a profile that asks it: in a release build, the
	 * one for build scripts and their dependencies, whose crates are also
	 * built a second time for the program.
	 */
	snprintf(kind, sizeof(kind), "(%s%s)", type ? type : "bin",
		 unoptimised_off && !optimised && (!type || strcmp(type, "proc-macro")) ? ", build-dep" : "");
	*detail = name_join(crate, " ", kind);
	return *detail ? 0 : -ENOMEM;
}

int build_script_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs,
			   char **detail)
{
	const char *path = img->filename ? img->filename : img->argc ? img->argv[0] : NULL;

	(void)tool;
	(void)dirs;
	return build_script_of(path, detail);
}

int cargo_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	size_t i;

	(void)tool;
	(void)dirs;
	*detail = NULL;
	/* The first word that is no option, after a "+toolchain". */
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if (img->argv[i][0] != '-' && img->argv[i][0] != '+') {
			*detail = strdup(img->argv[i]);
			return *detail ? 0 : -ENOMEM;
		}
	}
	return 0;
}

bool rustc_is_probe(const struct exec_image *img)
{
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i];

		if (!strcmp(arg, "-") || !strcmp(arg, "-vV") || !strcmp(arg, "-V") || !strcmp(arg, "--version") ||
		    !strncmp(arg, "--print", 7))
			return true;
	}
	return false;
}
