// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_tree.h"

int proc_tree__init(struct proc_tree *t, const struct model *m)
{
	size_t n = m->nr_procs, i, nr = 0;
	__u32 clock = 0, *child_off = NULL, *children = NULL, *stack, *next;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->enter = calloc(n ? n : 1, sizeof(*t->enter));
	t->leave = calloc(n ? n : 1, sizeof(*t->leave));
	stack = calloc(n ? n : 1, sizeof(*stack));
	next = calloc(n ? n : 1, sizeof(*next)); /* per process on the stack: its next child */
	if (!t->enter || !t->leave || !stack || !next || model__index_children(m, &child_off, &children))
		goto out;
	t->nr = n;
	for (i = 0; i < n; i++)
		t->enter[i] = t->leave[i] = PROC_TREE_UNREACHED; /* not reached (yet) */
	for (i = 0; i < n; i++) {
		long parent = m->procs[i].parent;

		/* Roots: no parent traced (or none in range). */
		if (parent >= 0 && (size_t)parent < n)
			continue;
		stack[nr++] = i;
		next[i] = child_off[i];
		t->enter[i] = clock++;
		while (nr > 0) {
			size_t top = stack[nr - 1];

			if (next[top] < child_off[top + 1]) {
				size_t c = children[next[top]++];

				stack[nr++] = c;
				next[c] = child_off[c];
				t->enter[c] = clock++;
				continue;
			}
			t->leave[top] = clock;
			nr--;
		}
	}
	err = 0;
out:
	free(stack);
	free(next);
	free(child_off);
	free(children);
	if (err)
		proc_tree__free(t);
	return err;
}

bool proc_tree__within(const struct proc_tree *t, long d, long a)
{
	if (d < 0 || a < 0 || (size_t)d >= t->nr || (size_t)a >= t->nr)
		return false;
	return d == a || (t->enter[a] <= t->enter[d] && t->enter[d] < t->leave[a]);
}

void proc_tree__free(struct proc_tree *t)
{
	if (!t)
		return;
	free(t->enter);
	free(t->leave);
	memset(t, 0, sizeof(*t));
}
