// SPDX-License-Identifier: GPL-2.0
/*
 * The trace geometry, computed once: process spans in trace microseconds,
 * the slice each one is drawn directly under, exec sub-slices and which
 * processes must be drawn flat.  See include/model/trace_layout.h.
 */
#include <errno.h>
#include <stdlib.h>
#include "model/trace_layout.h"
#include "util/sorted_search.h"

__s64 trace_us(const struct model *m, __u64 ns)
{
	if (ns < m->start_ns)
		ns = m->start_ns;
	return (__s64)((ns - m->start_ns) / 1000) + 1;
}

bool trace_span_contains(struct trace_span outer, struct trace_span inner)
{
	return outer.ts <= inner.ts && inner.end <= outer.end;
}

static __u64 clamp_ns(__u64 ns, __u64 lo, __u64 hi)
{
	return ns < lo ? lo : ns > hi ? hi : ns;
}

static void place_images(const struct model *m, const struct proc_instance *p, struct proc_layout *pl)
{
	__u64 lo = pl->start_ns, start, end;
	size_t k;

	for (k = 0; k < p->nr_execs; k++) {
		start = clamp_ns(p->execs[k].start_ns, lo, pl->end_ns);
		end = clamp_ns(p->execs[k].end_ns, start, pl->end_ns);
		pl->images[k] = (struct image_layout){ start, end, { trace_us(m, start), trace_us(m, end) } };
		lo = end;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* The distinct lanes in use: every one gets a track, none more. */
static int collect_lanes(struct trace_layout *tl)
{
	const struct model *m = tl->m;
	size_t i, n = 0;

	tl->lanes = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*tl->lanes));
	if (!tl->lanes)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++)
		tl->lanes[i] = m->procs[i].lane;
	qsort(tl->lanes, m->nr_procs, sizeof(*tl->lanes), cmp_u32);
	for (i = 0; i < m->nr_procs; i++) {
		if (n == 0 || tl->lanes[n - 1] != tl->lanes[i])
			tl->lanes[n++] = tl->lanes[i];
	}
	tl->nr_lanes = n;
	return 0;
}

size_t trace_layout__lane_index(const struct trace_layout *tl, __u32 lane)
{
	const __u32 *found = bsearch(&lane, tl->lanes, tl->nr_lanes, sizeof(lane), cmp_u32);

	return found - tl->lanes;
}

/* Each lane's owner, and its number among its owner's lanes in lane order. */
static int number_lanes(struct trace_layout *tl)
{
	const struct model *m = tl->m;
	size_t i, k, n = tl->nr_lanes ? tl->nr_lanes : 1;

	tl->lane_owner = calloc(n, sizeof(*tl->lane_owner));
	tl->lane_number = calloc(n, sizeof(*tl->lane_number));
	if (!tl->lane_owner || !tl->lane_number)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++)
		tl->lane_owner[trace_layout__lane_index(tl, m->procs[i].lane)] = m->procs[i].run_by_daemon;
	/* Each scans back to the last lane of its owner: O(lanes x owners) in all. */
	for (i = 0; i < tl->nr_lanes; i++) {
		tl->lane_number[i] = 1;
		for (k = i; k-- > 0;)
			if (tl->lane_owner[k] == tl->lane_owner[i]) {
				tl->lane_number[i] = tl->lane_number[k] + 1;
				break;
			}
	}
	return 0;
}

/*
 * above: the slice the viewer draws each process directly under.  Procs
 * come sorted by start and the slices of a lane nest, so one stack per
 * lane (linked through above itself) finds it in a single pass.
 */
static int link_lane_stacks(struct trace_layout *tl)
{
	const struct model *m = tl->m;
	long *top;
	size_t i;

	top = malloc((tl->nr_lanes ? tl->nr_lanes : 1) * sizeof(*top));
	if (!top)
		return -ENOMEM;
	for (i = 0; i < tl->nr_lanes; i++)
		top[i] = -1;
	for (i = 0; i < m->nr_procs; i++) {
		size_t row = trace_layout__lane_index(tl, m->procs[i].lane);
		long t = top[row];

		while (t >= 0 && !trace_span_contains(tl->procs[t].span, tl->procs[i].span))
			t = tl->procs[t].above;
		tl->procs[i].above = t;
		tl->procs[i].row = row;
		top[row] = i;
	}
	free(top);
	return 0;
}

/* True when a slice drawn under a process sits inside one of its images or beside it. */
static bool fits_image(struct trace_span image, struct trace_span below)
{
	return trace_span_contains(image, below) || below.end <= image.ts || image.end <= below.ts;
}

struct images_below {
	const struct proc_layout *parent;
	struct trace_span below;
};

static bool image_ends_by_start(const void *key, size_t i)
{
	const struct images_below *k = key;

	return k->parent->images[i].span.end <= k->below.ts;
}

/*
 * Whether below fits every one of parent's nr images.  They are in order
 * and disjoint, so only those it overlaps can fail, and those follow the
 * first that ends after it starts.
 */
static bool fits_images(const struct proc_layout *parent, size_t nr, struct trace_span below)
{
	struct images_below key = { parent, below };
	size_t lo = sorted_first_not_before(0, nr, image_ends_by_start, &key);

	for (; lo < nr && parent->images[lo].span.ts < below.end; lo++)
		if (!fits_image(parent->images[lo].span, below))
			return false;
	return true;
}

/*
 * Lanes only make process slices nest.  A process that forks a child onto
 * its own lane and then execs while the child runs would have the child
 * straddle two of its exec sub-slices (or hold one whole, which the merge
 * could not keep its slices clear of): such a process keeps its single
 * slice, its images still listed in args.
 */
static void mark_flat(struct trace_layout *tl)
{
	const struct model *m = tl->m;
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		tl->procs[i].flat = m->procs[i].nr_execs < 2;
	for (i = 0; i < m->nr_procs; i++) {
		long up = tl->procs[i].above;

		if (up >= 0 && !tl->procs[up].flat &&
		    !fits_images(&tl->procs[up], m->procs[up].nr_execs, tl->procs[i].span))
			tl->procs[up].flat = true;
	}
}

struct trace_layout *trace_layout__new(const struct model *m)
{
	struct trace_layout *tl = calloc(1, sizeof(*tl));
	size_t i, nr_images = 0;

	if (!tl)
		return NULL;
	tl->m = m;
	tl->end_ns = m->end_ns < m->start_ns ? m->start_ns : m->end_ns;
	for (i = 0; i < m->nr_procs; i++)
		nr_images += m->procs[i].nr_execs;
	tl->procs = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*tl->procs));
	tl->image_store = calloc(nr_images ? nr_images : 1, sizeof(*tl->image_store));
	if (!tl->procs || !tl->image_store)
		goto fail;
	nr_images = 0;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		struct proc_layout *pl = &tl->procs[i];

		pl->start_ns = p->start_ns;
		pl->end_ns = p->end_ns < p->start_ns ? p->start_ns : p->end_ns;
		pl->span = (struct trace_span){ trace_us(m, pl->start_ns), trace_us(m, pl->end_ns) };
		pl->images = tl->image_store + nr_images;
		nr_images += p->nr_execs;
		place_images(m, p, pl);
	}
	if (collect_lanes(tl) || number_lanes(tl) || link_lane_stacks(tl))
		goto fail;
	mark_flat(tl);
	return tl;
fail:
	trace_layout__free(tl);
	return NULL;
}

bool trace_layout__clip(const struct trace_layout *tl, __u64 start_ns, __u64 end_ns, struct trace_span *out)
{
	const struct model *m = tl->m;
	__u64 start = clamp_ns(start_ns, m->start_ns, tl->end_ns);
	__u64 end = clamp_ns(end_ns, start, tl->end_ns);

	if (end_ns < m->start_ns || start_ns > tl->end_ns || (start == end && end_ns > start_ns))
		return false;
	*out = (struct trace_span){ trace_us(m, start), trace_us(m, end) };
	return true;
}

void trace_layout__box_at(const struct trace_layout *tl, size_t i, __s64 t_ns, __u64 *start_ns, __u64 *end_ns)
{
	const struct proc_layout *pl = &tl->procs[i];
	size_t k, last = tl->m->procs[i].nr_execs - 1;

	*start_ns = pl->start_ns;
	*end_ns = pl->end_ns;
	if (pl->flat)
		return;
	for (k = 0; k < last; k++) {
		if (t_ns < (__s64)pl->images[k].end_ns)
			break;
	}
	*start_ns = pl->images[k].start_ns;
	*end_ns = pl->images[k].end_ns;
}

void trace_layout__free(struct trace_layout *tl)
{
	if (!tl)
		return;
	free(tl->procs);
	free(tl->image_store);
	free(tl->lanes);
	free(tl->lane_owner);
	free(tl->lane_number);
	free(tl);
}
