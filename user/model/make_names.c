// SPDX-License-Identifier: GPL-2.0
/* How build runners and generators name their steps (include/model/make_names.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/make_names.h"
#include "model/name_text.h"
#include "model/proc_dirs.h"
#include "model/toolchain_names.h"

/*
 * Appends key and the directory img moves to (make -C, cmake --build) as
 * seen from the build's directory; given is the argument as written, shown
 * when it is the build's directory itself (the top make's -C).  0 or -ENOMEM.
 */
static int dir_change_detail(const struct exec_image *img, const struct name_dirs *dirs, const char *key,
			     const char *given, char **detail)
{
	char *after = image_dir_after(dirs->dir, img), *shown;
	int err;

	shown = after ? path_from(after, dirs->build) : NULL;
	free(after);
	if (shown && !strcmp(shown, ".")) {
		free(shown);
		shown = strdup(given);
	}
	if (!shown)
		return -ENOMEM;
	path_shorten(shown);
	err = name_append(detail, key, shown);
	free(shown);
	return err;
}

int make_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	const char *last_c = NULL, *obj = NULL, *file = NULL, *v;
	char *shown;
	size_t i;
	int err = 0;

	*detail = NULL;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if ((v = image_option_value(img, &i, "-C", tool == TOOL_MAKE ? "--directory" : NULL)))
			last_c = v;
		else if (tool == TOOL_MAKE && ((v = image_option_value(img, &i, "-f", "--file")) ||
					       (v = image_option_value(img, &i, "--makefile", NULL))))
			file = v;
		else if (tool == TOOL_MAKE && !strncmp(img->argv[i], "obj=", 4))
			obj = img->argv[i] + 4;
	}
	if (last_c)
		err = dir_change_detail(img, dirs, "-C ", last_c, detail);
	if (!err && obj)
		err = name_append(detail, "obj=", obj);
	if (!err && file && !last_c && !obj) {
		shown = name_dirs__shown(dirs, file);
		err = shown ? name_append(detail, "-f ", shown) : -ENOMEM;
		free(shown);
	}
	return err;
}

int cmake_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	const char *operand = NULL, *last = NULL;
	char *shown, *slash;
	size_t i;
	int err;

	*detail = NULL;
	if (img->argc < 3 || !img->argv[1] || !img->argv[2])
		return 0;
	if (!strcmp(img->argv[1], "--build"))
		return dir_change_detail(img, dirs, "--build ", img->argv[2], detail);
	if (!strcmp(img->argv[1], "-P")) {
		shown = name_dirs__shown(dirs, img->argv[2]);
		err = shown ? name_append(detail, "-P ", shown) : -ENOMEM;
		free(shown);
		return err;
	}
	if (strcmp(img->argv[1], "-E")) /* "--check-build-system CMakeFiles/Makefile.cmake" */
		return inputs_step_name(img, tool, dirs, detail);
	err = name_append(detail, "-E ", img->argv[2]);
	for (i = 3; !err && i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i];

		/* Options, and messages (cmake_echo_color's) are no operands. */
		if (arg[0] == '-' || !arg[0] || strpbrk(arg, " \t\n"))
			continue;
		if (!operand)
			operand = arg;
		last = arg;
	}
	if (err || !operand)
		return err;
	/* cmake_depends ... CMakeFiles/<target>.dir/DependInfo.cmake */
	shown = name_dirs__shown(dirs, !strcmp(img->argv[2], "cmake_depends") ? last : operand);
	if (!shown)
		return -ENOMEM;
	if (!strcmp(img->argv[2], "cmake_depends") && (slash = strrchr(shown, '/')))
		*slash = '\0';
	err = name_append(detail, "", shown);
	free(shown);
	return err;
}
