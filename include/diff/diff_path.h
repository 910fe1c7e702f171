/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two builds' critical paths compared: when both recordings have the
 * build graph (--deps=on), each build's path is the one its audit lists
 * (graph/critical_path.h's path without the steps too short to list), and a
 * step moved onto the path when it holds the new build's path but its
 * match (proc_match) did not hold the old one's, or it ran only in the new
 * build; moved off the other way round.  Pure.
 */
#ifndef BUILDBPF_DIFF_PATH_H
#define BUILDBPF_DIFF_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "diff/proc_match.h"
#include "model/model.h"
#include "audit/audit.h"

/* A step that moved onto or off the critical path. */
struct diff_path_step {
	long old_proc, new_proc; /* index in each build's model->procs; -1: not in that build */
	__u64 old_ns, new_ns;	 /* time it held each build's path; 0: not on it */
};

struct diff_path {
	/* Both builds have a critical path from the build graph; else nothing below is set. */
	bool known;
	struct diff_path_step *moved_on, *moved_off; /* longest held first */
	size_t nr_moved_on, nr_moved_off;
};

/*
 * Compares the paths of the audits old_a and new_a of old_m and new_m,
 * whose processes pm paired.  0, or -ENOMEM (p freed and empty).
 */
int diff_path__compute(struct diff_path *p, const struct model *old_m, const struct audit *old_a,
		       const struct model *new_m, const struct audit *new_a, const struct proc_match *pm);
void diff_path__free(struct diff_path *p);

/* Whether an audit's chain is the build graph's critical path (not the timing estimate). */
bool diff_path__has_graph(const struct audit *a);

#endif /* BUILDBPF_DIFF_PATH_H */
