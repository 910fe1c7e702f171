// SPDX-License-Identifier: GPL-2.0
/*
 * Lane packing.  Each lane is a stack of the spans open on it at the time
 * being placed: a span stays on the stack until a later span starts at or
 * after its end.  A new span goes
 *   1. onto its parent's lane, directly on top of the parent, when nothing
 *      else sits on the parent there and the child ends inside the part of
 *      the parent it starts in (the parent's span, or the exec image the
 *      exporter draws as a sub-span), so the two nest as Chrome needs; else
 *   2. onto the lowest lane whose stack is empty: a lane is free once every
 *      span on it has ended.
 * Spans are placed in start order, so with make -jN the lane count follows
 * the real peak concurrency rather than the number of processes.
 *
 * A lane belongs to the work it was opened for (run_by_daemon: the
 * command's, or one --follow daemon's) and only that work goes on it: the
 * trace draws each daemon's lanes in a trace process of its own.
 */
#include <stdlib.h>
#include "util/array_grow.h"
#include "model/lanes.h"

struct lane {
	size_t *stack; /* indices into procs, innermost last */
	size_t depth, cap;
	__u32 owner; /* run_by_daemon of the work it holds */
};

/*
 * A binary min-heap of (key, lane, proc), so a span finds the lanes it
 * retires and the lowest free lane without looking at every lane: make
 * -j1000 (or a recording claiming it) opens as many.  Entries go stale
 * rather than being removed; their reader checks them.
 */
struct heap_entry {
	__u64 key;
	size_t lane, proc;
};

struct heap {
	struct heap_entry *e;
	size_t nr, cap;
};

static int heap_push(struct heap *h, struct heap_entry x)
{
	size_t i;

	if (array_grow((void **)&h->e, &h->cap, h->nr + 1, sizeof(*h->e)))
		return -1;
	for (i = h->nr++; i > 0 && h->e[(i - 1) / 2].key > x.key; i = (i - 1) / 2)
		h->e[i] = h->e[(i - 1) / 2];
	h->e[i] = x;
	return 0;
}

static void heap_pop(struct heap *h)
{
	struct heap_entry last = h->e[--h->nr];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->nr) {
		if (c + 1 < h->nr && h->e[c + 1].key < h->e[c].key)
			c++;
		if (last.key <= h->e[c].key)
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	if (h->nr)
		h->e[i] = last;
}

/* The free lanes of one owner, lowest first. */
struct owner_lanes {
	__u32 owner;
	struct heap free;
};

/* Everything the packing keeps while it goes. */
struct packing {
	const struct proc_instance *procs;
	struct lane *lanes;
	size_t nr_lanes, lanes_cap;
	struct heap tops; /* each lane's innermost span, by end */
	struct owner_lanes *owners;
	size_t nr_owners, owners_cap;
};

/*
 * The end of the innermost drawn slice of parent that contains ts: the
 * exporter draws one sub-span per image when a process ran two or more,
 * and none before the first exec.
 */
static __u64 enclosing_end(const struct proc_instance *parent, __u64 ts)
{
	const struct exec_image *img;

	if (parent->nr_execs < 2)
		return parent->end_ns;
	if (ts < parent->execs[0].start_ns)
		return parent->execs[0].start_ns;
	img = proc_image_at(parent, ts);
	return img ? img->end_ns : parent->end_ns;
}

static struct owner_lanes *owner_lanes(struct packing *pk, __u32 owner)
{
	size_t i;

	/* Owners are the command and the few --follow daemons. */
	for (i = 0; i < pk->nr_owners; i++)
		if (pk->owners[i].owner == owner)
			return &pk->owners[i];
	if (array_grow((void **)&pk->owners, &pk->owners_cap, pk->nr_owners + 1, sizeof(*pk->owners)))
		return NULL;
	pk->owners[pk->nr_owners] = (struct owner_lanes){ .owner = owner };
	return &pk->owners[pk->nr_owners++];
}

static int lane_push(struct packing *pk, size_t l, size_t idx)
{
	struct lane *lane = &pk->lanes[l];

	if (array_grow((void **)&lane->stack, &lane->cap, lane->depth + 1, sizeof(*lane->stack)))
		return -1;
	lane->stack[lane->depth++] = idx;
	return heap_push(&pk->tops, (struct heap_entry){ pk->procs[idx].end_ns, l, idx });
}

/*
 * Pops the spans that ended by ts, on every lane: touching ends do not
 * overlap.  A lane's spans nest, so its innermost ends first.  A lane
 * emptied is free for its owner's next span.
 */
static int lanes_retire(struct packing *pk, __u64 ts)
{
	while (pk->tops.nr && pk->tops.e[0].key <= ts) {
		struct heap_entry top = pk->tops.e[0];
		struct lane *lane = &pk->lanes[top.lane];
		struct owner_lanes *ol;

		heap_pop(&pk->tops);
		if (!lane->depth || lane->stack[lane->depth - 1] != top.proc)
			continue; /* stale */
		lane->depth--;
		if (lane->depth) {
			size_t below = lane->stack[lane->depth - 1];

			if (heap_push(&pk->tops, (struct heap_entry){ pk->procs[below].end_ns, top.lane, below }))
				return -1;
		} else if (!(ol = owner_lanes(pk, lane->owner)) ||
			   heap_push(&ol->free, (struct heap_entry){ top.lane, top.lane, 0 })) {
			return -1;
		}
	}
	return 0;
}

/* The lane for procs[idx]; pk->nr_lanes for a new one; (size_t)-1 without memory. */
static size_t pick_lane(struct packing *pk, size_t idx)
{
	const struct proc_instance *procs = pk->procs, *p = &procs[idx];
	struct owner_lanes *ol;

	if (p->parent >= 0 && (size_t)p->parent < idx) {
		const struct proc_instance *parent = &procs[p->parent];
		struct lane *pl = &pk->lanes[parent->lane];

		if (pl->depth && pl->stack[pl->depth - 1] == (size_t)p->parent && pl->owner == p->run_by_daemon &&
		    p->start_ns >= parent->start_ns && p->end_ns <= enclosing_end(parent, p->start_ns))
			return parent->lane;
	}
	ol = owner_lanes(pk, p->run_by_daemon);
	if (!ol)
		return (size_t)-1;
	/* The lowest free lane: entries of lanes taken since are stale. */
	while (ol->free.nr && pk->lanes[ol->free.e[0].lane].depth)
		heap_pop(&ol->free);
	if (!ol->free.nr)
		return pk->nr_lanes;
	return ol->free.e[0].lane;
}

static void packing_free(struct packing *pk)
{
	size_t l;

	for (l = 0; l < pk->nr_lanes; l++)
		free(pk->lanes[l].stack);
	free(pk->lanes);
	free(pk->tops.e);
	for (l = 0; l < pk->nr_owners; l++)
		free(pk->owners[l].free.e);
	free(pk->owners);
}

size_t lanes__assign(struct proc_instance *procs, size_t nr)
{
	struct packing pk = { .procs = procs };
	size_t i, chosen, used = 0;

	for (i = 0; i < nr; i++) {
		if (lanes_retire(&pk, procs[i].start_ns))
			goto nomem;
		chosen = pick_lane(&pk, i);
		if (chosen == (size_t)-1)
			goto nomem;
		if (chosen == pk.nr_lanes) {
			if (array_grow((void **)&pk.lanes, &pk.lanes_cap, pk.nr_lanes + 1, sizeof(*pk.lanes)))
				goto nomem;
			pk.lanes[pk.nr_lanes++] = (struct lane){ .owner = procs[i].run_by_daemon };
		}
		if (lane_push(&pk, chosen, i))
			goto nomem;
		procs[i].lane = chosen;
		if (chosen + 1 > used)
			used = chosen + 1;
	}
	packing_free(&pk);
	return used;

nomem:
	/* Out of memory: one lane per process still nests (nothing shares). */
	packing_free(&pk);
	for (i = 0; i < nr; i++)
		procs[i].lane = i;
	return nr;
}

void lanes__assign_model(struct model *m)
{
	m->nr_lanes = lanes__assign(m->procs, m->nr_procs);
}
