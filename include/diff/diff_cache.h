/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiler caches across two builds: the new build's cache hits whose step
 * the old build ran as a miss (steps paired as proc_match.h pairs them), and
 * what those hits saved against the base's misses, reckoned as a build's own
 * log reckons a hit against its step's miss (audit/compiler_cache.h).  Pure.
 */
#ifndef BUILDBPF_DIFF_CACHE_H
#define BUILDBPF_DIFF_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "audit/audit.h"
#include "diff/proc_match.h"
#include "model/model.h"

struct diff_cache {
	bool known;	  /* either build called a compiler cache */
	size_t nr_hits;	  /* the new build's hits */
	size_t nr_saved;  /* of them, those whose step missed in the old build */
	__u64 saved_cpu_ns, saved_wall_ns;
};

void diff_cache__compute(struct diff_cache *dc, const struct model *old_m, const struct audit *old_a,
			 const struct model *new_m, const struct audit *new_a, const struct proc_match *pm);

#endif /* BUILDBPF_DIFF_CACHE_H */
