/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Races new in the second build: the new build's races (graph/races.h)
 * that the old one did not have, a race being the same when its kind, its
 * file and its two steps' names are.  Pure.
 */
#ifndef BUILDBPF_DIFF_RACES_H
#define BUILDBPF_DIFF_RACES_H

#include <stdbool.h>
#include <stddef.h>
#include "audit/audit.h"

struct diff_races {
	bool known;    /* both builds have a build graph (--deps=on) */
	size_t *fresh; /* indexes in the new build's graph->races.items, in its order */
	size_t nr_fresh;
};

/* 0, or -ENOMEM (r freed and empty). */
int diff_races__compute(struct diff_races *r, const struct audit *old_a, const struct audit *new_a);
void diff_races__free(struct diff_races *r);

#endif /* BUILDBPF_DIFF_RACES_H */
