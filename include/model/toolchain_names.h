/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How compilers, assemblers, linkers, archivers and programs nothing else
 * knows name their steps (the rows of model/step_detail.c).  A temporary
 * (gcc's /tmp/ccX.s) names nothing: it differs in every run.  Pure.
 */
#ifndef BUILDBPF_MODEL_TOOLCHAIN_NAMES_H
#define BUILDBPF_MODEL_TOOLCHAIN_NAMES_H

#include "model/step_namer.h"

/* Its first source operand and "+N more"; a program nothing else knows by its first file that is no temporary. */
step_namer_fn inputs_step_name;
/*
 * A compiler driver, compiler proper or assembler: by its input, by its
 * output ("-o x.o") when the input is missing or a temporary.
 */
step_namer_fn compiler_step_name;
/* A linker: by the output it writes. */
step_namer_fn linker_step_name;
/* ar: by the archive it writes. */
step_namer_fn ar_step_name;
/* ranlib: by the archive it indexes. */
step_namer_fn ranlib_step_name;

/* "-o shown" for an output path of an image run in dirs; NULL without memory. */
char *output_detail(const char *path, const struct name_dirs *dirs);

#endif /* BUILDBPF_MODEL_TOOLCHAIN_NAMES_H */
