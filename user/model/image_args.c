// SPDX-License-Identifier: GPL-2.0
/* What an image's command line says (include/model/image_args.h). */
#include <string.h>
#include "model/file_words.h"
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "util/utf8.h"

/*
 * Options whose value is a separate argument that may itself look like a
 * source file (cc1's "-o /tmp/ccX.s" and "-dumpbase foo.c.c", clang -cc1's
 * "-main-file-name foo.c", "-include config.h"): never the input.
 */
static const char *const value_opts[] = {
	/* In strcmp() order: looked up by binary search, once per argument of every compiler-like step. */
	"-A", "-D", "-I", "-L", "-MF", "-MQ", "-MT", "-T", "-U", "-Xassembler", "-Xclang", "-Xlinker",
	"-Xpreprocessor", "-aux-info", "-auxbase", "-auxbase-strip", "-dependency-file", "-dumpbase",
	"-dumpbase-ext", "-dumpdir", "-idirafter", "-imacros", "-imultiarch", "-imultilib", "-include",
	"-internal-externc-isystem", "-internal-isystem", "-iprefix", "-iquote", "-isysroot", "-isystem",
	"-iwithprefix", "-main-file-name", "-mllvm", "-o", "-resource-dir", "-split-dwarf-file",
	"-split-dwarf-output", "-target-cpu", "-triple", "-tune-cpu", "-x",
};

/* GCC's compilers proper take the dependency file as -MD/-MMD's value. */
static const char *const gcc_proper_value_opts[] = { "-MD", "-MMD" };

/* The program: argv[0]'s basename, else the exec'd file's, else comm. */
char *image_program(const struct exec_image *img)
{
	const char *base = NULL;
	size_t len = 0;

	if (img->argc > 0 && img->argv[0])
		base = path_basename(img->argv[0], &len);
	if (!len && img->filename)
		base = path_basename(img->filename, &len);
	if (!len) {
		base = img->comm;
		len = strnlen(img->comm, BB_COMM_LEN);
	}
	if (!len) {
		base = "?";
		len = 1;
	}
	return utf8_sanitize(base, len);
}

static enum tool_kind tool_of(const struct exec_image *img)
{
	size_t len = 0;
	const char *base = NULL;
	enum tool_kind tool;

	if (img->argc > 0 && img->argv[0])
		base = path_basename(img->argv[0], &len);
	if (!len && img->filename)
		base = path_basename(img->filename, &len);
	tool = tool_kind__of(base, len);
	/* "clang -cc1" is the compiler proper, "clang -cc1as" the assembler. */
	if (tool == TOOL_CC_DRIVER && img->argc > 1 && img->argv[1]) {
		if (!strcmp(img->argv[1], "-cc1"))
			tool = TOOL_CC_PROPER;
		else if (!strcmp(img->argv[1], "-cc1as"))
			tool = TOOL_ASSEMBLER;
	}
	return tool;
}

enum tool_kind image_tool(const struct exec_image *img)
{
	return img->tool_kept ? (enum tool_kind)(img->tool_kept - 1) : tool_of(img);
}

void image_keep_tool(struct exec_image *img)
{
	img->tool_kept = (__u8)(tool_of(img) + 1);
}

/* The value of option opt at argv[*i] ("-C dir", "-Cdir", "--directory=dir"), advancing *i. */
const char *image_option_value(const struct exec_image *img, size_t *i, const char *opt, const char *long_opt)
{
	const char *arg = img->argv[*i];
	size_t ol = strlen(opt), ll = long_opt ? strlen(long_opt) : 0;

	if (!strcmp(arg, opt) || (long_opt && !strcmp(arg, long_opt))) {
		if (*i + 1 >= img->argc || !img->argv[*i + 1])
			return NULL;
		return img->argv[++*i];
	}
	if (!strncmp(arg, opt, ol) && arg[ol])
		return arg + ol;
	if (long_opt && !strncmp(arg, long_opt, ll) && arg[ll] == '=')
		return arg + ll + 1;
	return NULL;
}

/*
 * The source-file operands of a compiler-like step: the first, and in
 * *others how many more.  NULL when it has none.
 */
const char *image_sources(const struct exec_image *img, enum tool_kind tool, size_t *others)
{
	const char *first = NULL;
	size_t i;

	*others = 0;
	for (i = 1; i < img->argc; i++) {
		const char *arg = img->argv[i];

		if (!arg)
			break;
		if (arg[0] == '-') {
			if (image_option_takes_value(arg) ||
			    (tool == TOOL_CC_PROPER && NAME_IN_LIST(arg, gcc_proper_value_opts) && strcmp(img->argv[1], "-cc1")))
				i++;
			continue;
		}
		if (!file_word(arg, strlen(arg), FILE_WORD_SOURCE) ||
		    (tool == TOOL_OTHER && file_word(arg, strlen(arg), FILE_WORD_NAMED) != arg))
			continue;
		if (first)
			(*others)++;
		else
			first = arg;
	}
	return first;
}

/* The -o (or --output) value, or NULL. */
const char *image_output(const struct exec_image *img)
{
	const char *out = NULL, *v;
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if ((v = image_option_value(img, &i, "-o", "--output")) && (img->argv[i] == v || img->argv[i][1] == '-'))
			out = v; /* "-o x" and "--output=x", not "-openmp" */
	}
	return out && strcmp(out, "-") ? out : NULL;
}

bool image_script_run(const struct exec_image *img, struct exec_image *script)
{
	size_t at = 1, prog_len, file_len;
	const char *prog, *file;

	if (!img->filename || img->argc < 2 || !img->argv[0] || !img->argv[1] || image_tool(img) == TOOL_SHELL)
		return false;
	/* The kernel puts the script after the interpreter and its one optional argument ("#!/usr/bin/perl -w"). */
	if (strcmp(img->argv[1], img->filename) && img->argv[1][0] == '-' && img->argc > 2 && img->argv[2])
		at = 2;
	if (strcmp(img->argv[at], img->filename))
		return false;
	prog = path_basename(img->argv[0], &prog_len);
	file = path_basename(img->filename, &file_len);
	/* "perl x.pl" run as such execs perl itself: no script was run through its "#!". */
	if (!file_len || (prog_len == file_len && !memcmp(prog, file, file_len)))
		return false;
	*script = *img;
	script->argv = img->argv + at;
	script->argc = img->argc - at;
	script->tool_kept = 0; /* the script's words, not the interpreter's */
	return true;
}

/* The first argument that is no option, or NULL. */
const char *image_first_operand(const struct exec_image *img)
{
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if (img->argv[i][0] != '-')
			return img->argv[i];
	}
	return NULL;
}

/* The index of p's image that ran at ts, or -1 before its first exec. */
long image_index_at(const struct proc_instance *p, __u64 ts)
{
	const struct exec_image *img = proc_image_at(p, ts);

	return img ? img - p->execs : -1;
}

bool image_option_takes_value(const char *arg)
{
	return name_in_sorted(arg, value_opts, sizeof(value_opts) / sizeof(value_opts[0]));
}

const char *const *image_value_options(size_t *nr)
{
	*nr = sizeof(value_opts) / sizeof(value_opts[0]);
	return value_opts;
}
