// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "diff/diff_cache.h"

void diff_cache__compute(struct diff_cache *dc, const struct model *old_m, const struct audit *old_a,
			 const struct model *new_m, const struct audit *new_a, const struct proc_match *pm)
{
	const struct compiler_cache *oc = &old_a->cache, *nc = &new_a->cache;
	size_t j;

	memset(dc, 0, sizeof(*dc));
	dc->known = oc->nr_calls || nc->nr_calls;
	dc->nr_hits = nc->nr_hits_direct + nc->nr_hits_preprocessed;
	for (j = 0; j < new_m->nr_procs && dc->nr_hits; j++) {
		long i = pm->new_to_old[j];

		if (!compiler_cache__is_hit(compiler_cache__of(nc, j)) || i < 0 || compiler_cache__of(oc, (size_t)i) != CACHE_MISS)
			continue;
		dc->nr_saved++;
		compiler_cache__add_saving(oc, old_m, (size_t)i, nc, new_m, j, &dc->saved_cpu_ns, &dc->saved_wall_ns);
	}
}
