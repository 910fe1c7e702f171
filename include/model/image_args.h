/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an image's command line says, as the step names read it: its
 * program, what kind of tool it is (model/tool_kind.h), an option's value,
 * its output and its source operands.  Pure.
 */
#ifndef BUILDBPF_MODEL_IMAGE_ARGS_H
#define BUILDBPF_MODEL_IMAGE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"
#include "model/tool_kind.h"

/* The program: argv[0]'s basename, else the exec'd file's, else comm, else "?".  Valid UTF-8, malloc'd, or NULL. */
char *image_program(const struct exec_image *img);
/* What img runs, by its program's name; "clang -cc1" is the compiler proper, "clang -cc1as" the assembler. */
enum tool_kind image_tool(const struct exec_image *img);
/* For the model, its image whole (words, file name, comm): image_tool() answers from it from then on. */
void image_keep_tool(struct exec_image *img);
/*
 * The value of option opt (or long_opt, may be NULL) at argv[*i]: "-C dir",
 * "-Cdir", "--directory=dir" or "--directory dir", advancing *i past a
 * separate value.  NULL when argv[*i] is not that option.
 */
const char *image_option_value(const struct exec_image *img, size_t *i, const char *opt, const char *long_opt);
/* The -o (or --output) value, or NULL; "-" (standard output) is none. */
const char *image_output(const struct exec_image *img);
/* The first argument that is no option, or NULL. */
const char *image_first_operand(const struct exec_image *img);
/*
 * Whether img is a script the kernel ran through its "#!" line, its
 * interpreter no shell: argv "perl /usr/bin/autom4te -o x" for the exec'd
 * file /usr/bin/autom4te.  Then *script is img from the script on (argv
 * "/usr/bin/autom4te -o x"), the program a person ran.  A shell keeps its
 * script as its operand (model/shell_step.h).
 */
bool image_script_run(const struct exec_image *img, struct exec_image *script);
/* Whether a compiler's option arg takes the next argument as its value (which is then never its input). */
bool image_option_takes_value(const char *arg);
/* Those options, in strcmp() order (*nr of them). */
const char *const *image_value_options(size_t *nr);
/*
 * The source-file operands of a compiler-like step run as tool: the first,
 * and in *others how many more.  NULL when it has none.
 */
const char *image_sources(const struct exec_image *img, enum tool_kind tool, size_t *others);
/* The index of p's image that ran at ts, or -1 before its first exec. */
long image_index_at(const struct proc_instance *p, __u64 ts);

#endif /* BUILDBPF_MODEL_IMAGE_ARGS_H */
