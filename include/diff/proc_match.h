/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which process of one build is which of another: processes are paired by
 * a normalised identity, the step name (proc_name's "cc1 foo.c") along the
 * parent chain from the root (a root by its program alone), plus the argv with its volatile parts taken
 * out (below).  Repeats of one identity pair in start order: the k-th
 * "cc1 foo.c" of one build with the k-th of the other.  What is left is
 * paired once more by the chain of names alone (an argv that changed: a new
 * flag), again in start order.  Pure.
 *
 *   struct proc_match pm;
 *   proc_match__compute(&pm, old_model, new_model);
 *   ... pm.old_to_new[i], pm.new_to_old[j] (-1: only in that build) ...
 *   proc_match__free(&pm);
 */
#ifndef BUILDBPF_PROC_MATCH_H
#define BUILDBPF_PROC_MATCH_H

#include <stddef.h>
#include "model/model.h"

struct proc_match {
	long *old_to_new; /* [old->nr_procs]: index in new->procs, -1: none */
	long *new_to_old; /* [new->nr_procs] */
	size_t matched;	  /* pairs */
	size_t matched_by_name; /* of them, paired by names only (argv differs) */
};

/* 0, or -ENOMEM (pm freed and empty). */
int proc_match__compute(struct proc_match *pm, const struct model *old_m, const struct model *new_m);
void proc_match__free(struct proc_match *pm);

/*
 * One argument without its volatile parts, malloc'd (NULL: no memory):
 * a file right in /tmp or /var/tmp as "/tmp/<tmp>" plus its extension
 * (gcc's /tmp/ccAbC123.s), the build directory (cwd: the model's, after the
 * command's -C; may be NULL) as ".", and
 * the decimal pid (or parent pid) as "<pid>".  Exposed for the tests.
 */
char *proc_match__normalise_arg(const char *arg, const char *cwd, __u32 pid, __u32 ppid);

#endif /* BUILDBPF_PROC_MATCH_H */
