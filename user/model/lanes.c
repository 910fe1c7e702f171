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
#include "model/lanes.h"

struct lane {
	size_t *stack; /* indices into procs, innermost last */
	size_t depth, cap;
	__u32 owner; /* run_by_daemon of the work it holds */
};

/*
 * The end of the innermost drawn slice of parent that contains ts: the
 * exporter draws one sub-span per image when a process ran two or more,
 * and none before the first exec.
 */
static __u64 enclosing_end(const struct proc_instance *parent, __u64 ts)
{
	size_t i;

	if (parent->nr_execs < 2)
		return parent->end_ns;
	if (ts < parent->execs[0].start_ns)
		return parent->execs[0].start_ns;
	for (i = parent->nr_execs; i > 0; i--)
		if (parent->execs[i - 1].start_ns <= ts)
			return parent->execs[i - 1].end_ns;
	return parent->end_ns;
}

static int lane_push(struct lane *lane, size_t idx)
{
	size_t *stack;

	if (lane->depth == lane->cap) {
		lane->cap = lane->cap ? lane->cap * 2 : 8;
		stack = realloc(lane->stack, lane->cap * sizeof(*stack));
		if (!stack)
			return -1;
		lane->stack = stack;
	}
	lane->stack[lane->depth++] = idx;
	return 0;
}

/* Pops the spans that ended by ts: touching ends do not overlap. */
static void lane_retire(struct lane *lane, const struct proc_instance *procs, __u64 ts)
{
	while (lane->depth && procs[lane->stack[lane->depth - 1]].end_ns <= ts)
		lane->depth--;
}

static size_t pick_lane(const struct proc_instance *procs, size_t idx, struct lane *lanes, size_t nr_lanes)
{
	const struct proc_instance *p = &procs[idx];
	size_t l;

	if (p->parent >= 0 && (size_t)p->parent < idx) {
		const struct proc_instance *parent = &procs[p->parent];
		struct lane *pl = &lanes[parent->lane];

		if (pl->depth && pl->stack[pl->depth - 1] == (size_t)p->parent && pl->owner == p->run_by_daemon &&
		    p->start_ns >= parent->start_ns && p->end_ns <= enclosing_end(parent, p->start_ns))
			return parent->lane;
	}
	for (l = 0; l < nr_lanes; l++)
		if (!lanes[l].depth && lanes[l].owner == p->run_by_daemon)
			return l;
	return nr_lanes;
}

size_t lanes__assign(struct proc_instance *procs, size_t nr)
{
	struct lane *lanes = NULL, *grown;
	size_t nr_lanes = 0, lanes_cap = 0, i, l, chosen, used = 0;

	for (i = 0; i < nr; i++) {
		for (l = 0; l < nr_lanes; l++)
			lane_retire(&lanes[l], procs, procs[i].start_ns);
		chosen = pick_lane(procs, i, lanes, nr_lanes);
		if (chosen == nr_lanes) {
			if (nr_lanes == lanes_cap) {
				lanes_cap = lanes_cap ? lanes_cap * 2 : 16;
				grown = realloc(lanes, lanes_cap * sizeof(*lanes));
				if (!grown)
					goto nomem;
				lanes = grown;
			}
			lanes[nr_lanes++] = (struct lane){ .owner = procs[i].run_by_daemon };
		}
		if (lane_push(&lanes[chosen], i))
			goto nomem;
		procs[i].lane = chosen;
		if (chosen + 1 > used)
			used = chosen + 1;
	}
	for (l = 0; l < nr_lanes; l++)
		free(lanes[l].stack);
	free(lanes);
	return used;

nomem:
	/* Out of memory: one lane per process still nests (nothing shares). */
	for (l = 0; l < nr_lanes; l++)
		free(lanes[l].stack);
	free(lanes);
	for (i = 0; i < nr; i++)
		procs[i].lane = i;
	return nr;
}

void lanes__assign_model(struct model *m)
{
	m->nr_lanes = lanes__assign(m->procs, m->nr_procs);
}
