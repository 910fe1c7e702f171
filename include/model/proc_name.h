/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Short names that say which step of the build a process was: "cc1
 * kernel/sched/core.c", "as -o out/crc.o", "make -C lib", "sh -c make…".
 * Paths are shown from the build's directory: the recorded cwd of the
 * command (model->cwd) after the command's own -C.
 */
#ifndef BUILDBPF_PROC_NAME_H
#define BUILDBPF_PROC_NAME_H

#include "model/model.h"

/*
 * The display name of image k of process p in model m: its program's
 * basename plus what it works on where that is evident (its input, else
 * the output a compiler, linker or ar writes, the directory a make works
 * in).  m may be NULL (no directory known: paths stay as given).  Returns
 * a malloc'd, valid UTF-8 string (raw bytes are sanitised) of at most 80
 * bytes, or NULL on allocation failure.
 */
char *image_display_name(const struct model *m, const struct proc_instance *p, size_t k);
/* The name of a process span: its last image's name, or "comm (fork)". */
char *proc_display_name(const struct model *m, const struct proc_instance *p);
/*
 * A command line as one valid UTF-8 string, arguments joined by spaces and
 * cut to max_bytes with an ellipsis (0: never cut).  malloc'd, or NULL.
 */
char *argv_display_name(char *const *argv, size_t argc, size_t max_bytes);

/*
 * The build's directory, the one names are shown from: the recorded cwd
 * after the command's own -C ("." when unknown).  malloc'd, or NULL.
 */
char *proc_name__build_dir(const struct model *m);

/*
 * Where every process and image of m ran, inferred from the recorded cwd
 * and the directory changes of each one's ancestors (make -C, sh -c "cd
 * dir && …", cmake -E chdir), in one pass: model__finish() keeps it in
 * m->dirs for the names above.  A directory longer than PATH_MAX counts
 * as unknown.  NULL without memory.
 */
struct proc_dirs *proc_dirs__new(const struct model *m);
void proc_dirs__free(struct proc_dirs *d);

#endif /* BUILDBPF_PROC_NAME_H */
