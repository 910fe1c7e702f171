/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process tree's subtrees as intervals of one depth-first order, so
 * "is d within a's subtree" is two comparisons, not a walk up a chain
 * that a recording can make as deep as it is long.  Pure.
 *
 *   struct proc_tree t;
 *   proc_tree__init(&t, model);
 *   if (proc_tree__within(&t, d, a)) ...
 *   proc_tree__free(&t);
 */
#ifndef BUILDBPF_PROC_TREE_H
#define BUILDBPF_PROC_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/model.h"

#define PROC_TREE_UNREACHED UINT32_MAX

struct proc_tree {
	/* procs[i]'s subtree is the processes whose enter lies in
	 * [enter[i], leave[i]); both PROC_TREE_UNREACHED for one the order never reached
	 * (a parent cycle, only in a model built by hand): within nothing.
	 * 32-bit, as a process's index is (model/model_types.h). */
	__u32 *enter, *leave;
	size_t nr;
};

/* 0, or -ENOMEM (t empty).  The model must not change while t is used. */
int proc_tree__init(struct proc_tree *t, const struct model *m);
/* Whether d is a or one of its descendants; false for an index out of range (-1: none). */
bool proc_tree__within(const struct proc_tree *t, long d, long a);
void proc_tree__free(struct proc_tree *t);

#endif /* BUILDBPF_PROC_TREE_H */
