/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job is a recipe, not each shell of it: which children of a make are
 * later lines of a recipe (make runs a recipe's lines one after another
 * in one slot, each in its own shell), from when make forked and reaped
 * them and the files their command lines name; and, under a parent that
 * runs no jobs (a shell, a script), which command each came after in the
 * parent's own order.  Pure: the model in.
 */
#ifndef BUILDBPF_GRAPH_RECIPE_LINES_H
#define BUILDBPF_GRAPH_RECIPE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"

/*
 * Per process (m->nr_procs each): line_before, the line before it in its
 * make recipe, -1: none (a first line, or not make's child); order_before,
 * what it followed in its parent's order: its line before, or, its parent
 * being neither make nor ninja, the child that ended last by its fork.
 * child_off, children: the process tree (model__index_children()); is_make:
 * which processes are make.  0, or -ENOMEM.
 */
int recipe_lines__find(const struct model *m, const __u32 *child_off, const __u32 *children, const bool *is_make,
		       __s32 *line_before, __s32 *order_before);

#endif /* BUILDBPF_GRAPH_RECIPE_LINES_H */
