// SPDX-License-Identifier: GPL-2.0
/* How toolchain programs name their steps (include/model/toolchain_names.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/file_words.h"
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/toolchain_names.h"

/* The archive operand of ar: after the operation key and its positional arguments. */
static const char *ar_archive(const struct exec_image *img)
{
	const char *key = NULL;
	size_t i, skip = 0;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i];

		if (!strncmp(arg, "--", 2)) {
			if (!strcmp(arg, "--plugin") || !strcmp(arg, "--target") || !strcmp(arg, "--output"))
				i++;
			continue;
		}
		if (!key) {
			key = arg[0] == '-' ? arg + 1 : arg;
			/* relpos for a/b/i, count for N */
			skip = !!strpbrk(key, "abi") + !!strchr(key, 'N');
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		return arg;
	}
	return NULL;
}

/*
 * A program we know nothing of is named by the first file among its
 * arguments that is no temporary: "nm mm/filemap.o", "objtool
 * mm/filemap.o".  Options are skipped but not their values, which only
 * the program knows.  NULL when none; *oom on allocation failure.
 */
static const char *file_operand(const struct exec_image *img, const struct name_dirs *dirs, bool *oom)
{
	size_t i;

	*oom = false;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *path = file_word(img->argv[i], strlen(img->argv[i]), FILE_WORD_NAMED);
		bool temp;

		if (!path)
			continue;
		if (name_dirs__temporary(dirs, path, &temp)) {
			*oom = true;
			return NULL;
		}
		if (!temp)
			return path;
	}
	return NULL;
}

/*
 * ln is named by what it makes, its last operand: libtool's "ln -s
 * libx.so.2.0.9 libx.so.2" and "ln -s libx.so.2.0.9 libx.so" link one
 * file twice.  NULL for any other program, or an ln of one operand.
 */
static const char *link_made(const struct exec_image *img)
{
	const char *base = img->argc && img->argv[0] ? strrchr(img->argv[0], '/') : NULL, *last = NULL;
	size_t i, operands = 0;

	if (!img->argc || !img->argv[0] || strcmp(base ? base + 1 : img->argv[0], "ln"))
		return NULL;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if (img->argv[i][0] == '-')
			continue;
		last = img->argv[i];
		operands++;
	}
	return operands >= 2 ? last : NULL;
}

char *output_detail(const char *path, const struct name_dirs *dirs)
{
	char *shown = name_dirs__shown(dirs, path), *detail;

	if (!shown)
		return NULL;
	detail = name_join("-o ", "", shown);
	free(shown);
	return detail;
}

int inputs_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	size_t others;
	const char *input = image_sources(img, tool, &others);
	char *shown, more[32];

	*detail = NULL;
	if (!input && tool == TOOL_OTHER && (input = link_made(img)))
		others = 0;
	if (!input && tool == TOOL_OTHER) {
		bool oom;

		input = file_operand(img, dirs, &oom);
		if (oom)
			return -ENOMEM;
	}
	if (!input)
		return 0;
	shown = name_dirs__shown(dirs, input);
	if (!shown || !others) {
		*detail = shown;
		return shown ? 0 : -ENOMEM;
	}
	snprintf(more, sizeof(more), " +%zu more", others);
	*detail = name_join(shown, "", more);
	free(shown);
	return *detail ? 0 : -ENOMEM;
}

int compiler_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	size_t others;
	const char *input = image_sources(img, tool, &others), *output = image_output(img);
	bool temp;
	int err = 0;

	*detail = NULL;
	/* A temporary names nothing: gcc's /tmp/ccX.s differs in every run. */
	if (output && ((err = name_dirs__temporary(dirs, output, &temp)) || temp))
		output = NULL;
	if (!err && input && output && !(err = name_dirs__temporary(dirs, input, &temp)) && !temp)
		output = NULL;
	if (err)
		return err;
	if (!output)
		return inputs_step_name(img, tool, dirs, detail);
	*detail = output_detail(output, dirs);
	return *detail ? 0 : -ENOMEM;
}

/* *detail: path, shown; nothing for no path.  0 or -ENOMEM. */
static int path_detail(const char *path, const struct name_dirs *dirs, char **detail)
{
	*detail = path ? name_dirs__shown(dirs, path) : NULL;
	return path && !*detail ? -ENOMEM : 0;
}

int linker_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	const char *output = image_output(img);

	(void)tool;
	*detail = output ? output_detail(output, dirs) : NULL;
	return output && !*detail ? -ENOMEM : 0;
}

int ar_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	(void)tool;
	return path_detail(ar_archive(img), dirs, detail);
}

int ranlib_step_name(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs, char **detail)
{
	(void)tool;
	return path_detail(image_first_operand(img), dirs, detail);
}
