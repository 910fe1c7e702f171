// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff_races.h"

/* What makes two builds' races the same one: not pids or times, which change from run to run. */
static int cmp_race(const struct race *x, const struct race *y)
{
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = strcmp(x->file, y->file);
	c = c ? c : strcmp(x->writer_name, y->writer_name);
	return c ? c : strcmp(x->other_name, y->other_name);
}

static int cmp_race_ptr(const void *a, const void *b)
{
	return cmp_race(*(const struct race *const *)a, *(const struct race *const *)b);
}

int diff_races__compute(struct diff_races *r, const struct audit *old_a, const struct audit *new_a)
{
	const struct races *o, *n;
	const struct race **old_sorted;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!old_a->graph || !new_a->graph)
		return 0;
	r->known = true;
	o = &old_a->graph->races;
	n = &new_a->graph->races;
	old_sorted = malloc((o->nr ? o->nr : 1) * sizeof(*old_sorted));
	r->fresh = malloc((n->nr ? n->nr : 1) * sizeof(*r->fresh));
	if (!old_sorted || !r->fresh) {
		free(old_sorted);
		diff_races__free(r);
		return -ENOMEM;
	}
	for (i = 0; i < o->nr; i++)
		old_sorted[i] = &o->items[i];
	qsort(old_sorted, o->nr, sizeof(*old_sorted), cmp_race_ptr);
	for (i = 0; i < n->nr; i++) {
		const struct race *key = &n->items[i];

		if (!o->nr || !bsearch(&key, old_sorted, o->nr, sizeof(*old_sorted), cmp_race_ptr))
			r->fresh[r->nr_fresh++] = i;
	}
	free(old_sorted);
	return 0;
}

void diff_races__free(struct diff_races *r)
{
	if (!r)
		return;
	free(r->fresh);
	memset(r, 0, sizeof(*r));
}
