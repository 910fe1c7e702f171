/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make's $(shell ...) calls: a child of make whose standard output make
 * read (BB_EXEC_OUTPUT_CAPTURED at its first exec, bpf/task_file.bpf.h).
 * make runs one each time it expands the call: while it parses, and, for
 * an exported variable, each time it builds a job's environment (kbuild's
 * KERNELRELEASE).  A recipe inherits make's own standard output instead.
 * Such a call is make's own work, not a job: it takes no job slot, and
 * what it touches is make's.  Never ninja's child: ninja reads every job's
 * output.  Recordings made before the bit have no calls.  Pure.
 */
#ifndef BUILDBPF_MODEL_SHELL_CALL_H
#define BUILDBPF_MODEL_SHELL_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"

/* Whether m->procs[proc] is a make's $(shell) call (its subtree is the call's). */
bool shell_call__is(const struct model *m, size_t proc);
/* How many of m's processes are. */
size_t shell_call__count(const struct model *m);

#endif /* BUILDBPF_MODEL_SHELL_CALL_H */
