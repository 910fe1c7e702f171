// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/slot_steps.h"
#include "util/array_grow.h"
#include "util/sorted_count.h"

static bool alive_at(const struct proc_instance *p, __u64 ts)
{
	return p->start_ns <= ts && p->end_ns > ts;
}

/* p's children alive at ts, as its sorted starts and ends count them. */
static size_t children_alive(const struct slot_pools *s, size_t p, __u64 ts)
{
	size_t lo = s->child_off[p], hi = s->child_off[p + 1];

	return sorted_count_at_most(s->starts + lo, hi - lo, ts) - sorted_count_at_most(s->ends + lo, hi - lo, ts);
}

/* A make on the walk down its pool: its slots so far, and the group of its sub-makes (one via) being summed. */
struct walk_frame {
	size_t p, k, held, within;
	long via;
};

/*
 * The definition (graph/job_slots.h), walked at one ts: make p's children
 * alive, where a child running sub-makes of the pool counts what those
 * alive hold, one at least; an orphaned sub-make holds its own.  Its own
 * stack: chains of sub-makes run thousands deep.  0, or -ENOMEM.
 */
static int held_by_walk(const struct slot_pools *s, size_t p, __u64 ts, size_t *held)
{
	struct walk_frame *stack = NULL, *f;
	size_t depth = 0, cap = 0, q;

	if (array_grow((void **)&stack, &cap, 1, sizeof(*stack)))
		return -ENOMEM;
	stack[depth++] = (struct walk_frame){ p, s->sub_off[p], children_alive(s, p, ts), 0, -1 };
	for (;;) {
		f = &stack[depth - 1];
		if (f->via >= 0 && (f->k == s->sub_off[f->p + 1] || s->via[s->subs[f->k]] != f->via)) {
			/* The child already counted one slot when alive. */
			if (alive_at(&s->m->procs[f->via], ts))
				f->held += f->within > 1 ? f->within - 1 : 0;
			else
				f->held += f->within;
			f->via = -1;
		} else if (f->k == s->sub_off[f->p + 1]) {
			if (--depth == 0)
				break;
			stack[depth - 1].within += f->held;
		} else {
			if (f->via < 0) {
				f->via = s->via[s->subs[f->k]];
				f->within = 0;
			}
			q = s->subs[f->k++];
			if (!alive_at(&s->m->procs[q], ts))
				continue;
			if (array_grow((void **)&stack, &cap, depth + 1, sizeof(*stack))) {
				free(stack);
				return -ENOMEM;
			}
			stack[depth++] = (struct walk_frame){ q, s->sub_off[q], children_alive(s, q, ts), 0, -1 };
		}
	}
	*held = stack[0].held;
	free(stack);
	return 0;
}

/*
 * The sweep's state of a process of the pool being swept (all zero
 * otherwise).  Held in the pool = the sum, over its makes that count (the
 * top, and each sub-make alive under makes alive up to it), of own = jobs -
 * busy_alive: a child running sub-makes holds what they hold, one at
 * least, and it is one of jobs, so a group of them holding any takes that
 * one back.  A sub-make holds any slot (holds()) when it has a job alive,
 * or a group holding some within a child that has ended; that is all its
 * runner needs of it (unless the child is a $(shell) call of its runner,
 * not one of its jobs: then the pool is walked at each step).
 */
struct sweep_node {
	size_t jobs;	   /* a make's children alive, its $(shell) calls left out */
	size_t busy_alive; /* a make's groups of sub-makes holding slots, within a child alive */
	size_t busy_ended; /* ... within a child that has ended */
	size_t busy_subs;  /* a child running sub-makes: those alive that hold a slot */
	bool in_tree;	   /* the top make, or a sub-make of its pool */
	bool is_job;	   /* one of a pool make's children, as jobs counts them */
	bool is_via;	   /* a pool make's child that runs sub-makes of the pool */
	bool listed, alive;
	bool counts; /* in_tree, alive (unless the top) under makes alive up to the top */
};

struct flip {
	__u64 ts;
	size_t proc;
	bool start;
};

struct sweep {
	const struct slot_pools *s;
	struct sweep_node *node;
	size_t top;
	long held; /* slots held in the pool now */
	size_t *list, nr_list, cap_list, *stack, cap_stack;
	struct flip *flips;
	size_t cap_flips;
	bool walk; /* a child of a make runs sub-makes without being one of its jobs */
};

static long own(const struct sweep_node *n)
{
	return (long)n->jobs - (long)n->busy_alive;
}

static bool holds(const struct sweep_node *n)
{
	return n->jobs || n->busy_ended;
}

/* Adds (or takes away) via child c's group from its make's busy counts, as they stand. */
static void group_tally(struct sweep *sw, size_t c, bool add)
{
	struct sweep_node *c_node = &sw->node[c], *owner = &sw->node[sw->s->m->procs[c].parent];
	size_t *busy = c_node->alive ? &owner->busy_alive : &owner->busy_ended;

	if (c_node->busy_subs)
		*busy = add ? *busy + 1 : *busy - 1;
}

/* Make p's counts changed from own old_own and holds() old_holds: the pool's total, and up the chain while holds() changes. */
static void settle(struct sweep *sw, size_t p, long old_own, bool old_holds)
{
	const struct slot_pools *s = sw->s;
	struct sweep_node *n = sw->node;

	for (;;) {
		bool now_holds = holds(&n[p]);
		size_t runner, c;

		if (n[p].counts)
			sw->held += own(&n[p]) - old_own;
		if (now_holds == old_holds || p == sw->top || !n[p].alive)
			return;
		runner = (size_t)s->runner[p];
		c = (size_t)s->via[p];
		old_own = own(&n[runner]);
		old_holds = holds(&n[runner]);
		group_tally(sw, c, false);
		n[c].busy_subs = now_holds ? n[c].busy_subs + 1 : n[c].busy_subs - 1;
		group_tally(sw, c, true);
		p = runner;
	}
}

/* Sub-make q starts (or stops) counting, and with it those alive below it. */
static int set_counts(struct sweep *sw, size_t q, bool counts)
{
	const struct slot_pools *s = sw->s;
	struct sweep_node *n = sw->node;
	size_t depth = 0, y, k;

	if (array_grow((void **)&sw->stack, &sw->cap_stack, 1, sizeof(*sw->stack)))
		return -ENOMEM;
	sw->stack[depth++] = q;
	while (depth) {
		y = sw->stack[--depth];
		n[y].counts = counts;
		sw->held += counts ? own(&n[y]) : -own(&n[y]);
		for (k = s->sub_off[y]; k < s->sub_off[y + 1]; k++) {
			size_t z = s->subs[k];

			if (counts ? !n[z].alive || n[z].counts : !n[z].counts)
				continue;
			if (array_grow((void **)&sw->stack, &sw->cap_stack, depth + 1, sizeof(*sw->stack)))
				return -ENOMEM;
			sw->stack[depth++] = z;
		}
	}
	return 0;
}

/* Process x of the pool starts (alive) or ends. */
static int flip(struct sweep *sw, size_t x, bool alive)
{
	const struct slot_pools *s = sw->s;
	struct sweep_node *n = sw->node;
	long parent = s->m->procs[x].parent, old_own;
	size_t runner, c;
	bool old_holds;

	if (parent >= 0 && n[parent].in_tree) {
		old_own = own(&n[parent]);
		old_holds = holds(&n[parent]);
		if (n[x].is_via)
			group_tally(sw, x, false);
		n[x].alive = alive;
		if (n[x].is_job)
			n[parent].jobs = alive ? n[parent].jobs + 1 : n[parent].jobs - 1;
		if (n[x].is_via)
			group_tally(sw, x, true);
		settle(sw, (size_t)parent, old_own, old_holds);
	}
	n[x].alive = alive;
	if (x == sw->top || !n[x].in_tree)
		return 0;
	runner = (size_t)s->runner[x];
	c = (size_t)s->via[x];
	if (holds(&n[x])) {
		old_own = own(&n[runner]);
		old_holds = holds(&n[runner]);
		group_tally(sw, c, false);
		n[c].busy_subs = alive ? n[c].busy_subs + 1 : n[c].busy_subs - 1;
		group_tally(sw, c, true);
		settle(sw, runner, old_own, old_holds);
	}
	if (alive ? n[runner].counts : n[x].counts)
		return set_counts(sw, x, alive);
	return 0;
}

static int list(struct sweep *sw, size_t x)
{
	if (sw->node[x].listed)
		return 0;
	if (array_grow((void **)&sw->list, &sw->cap_list, sw->nr_list + 1, sizeof(*sw->list)))
		return -ENOMEM;
	sw->node[x].listed = true;
	sw->list[sw->nr_list++] = x;
	return 0;
}

/* The pool's makes from its top down, their children and the children running sub-makes, in sw->list. */
static int list_pool(struct sweep *sw)
{
	const struct slot_pools *s = sw->s;
	struct sweep_node *n = sw->node;
	size_t next, k, p;

	sw->nr_list = 0;
	sw->walk = false;
	n[sw->top].in_tree = n[sw->top].counts = true;
	if (list(sw, sw->top))
		return -ENOMEM;
	/* The list is its own queue: makes are taken in turn as they were listed. */
	for (next = 0; next < sw->nr_list; next++) {
		p = sw->list[next];
		if (!n[p].in_tree)
			continue;
		for (k = s->child_off[p]; k < s->child_off[p + 1]; k++) {
			n[s->children[k]].is_job = true;
			if (list(sw, s->children[k]))
				return -ENOMEM;
		}
		for (k = s->sub_off[p]; k < s->sub_off[p + 1]; k++) {
			size_t q = s->subs[k], c = (size_t)s->via[q];

			n[c].is_via = n[q].in_tree = true;
			sw->walk |= !n[c].is_job;
			if (list(sw, c) || list(sw, q))
				return -ENOMEM;
		}
	}
	return 0;
}

static int by_time_starts_first(const void *a, const void *b)
{
	const struct flip *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (int)y->start - (int)x->start;
}

/* The pool's starts and ends in time order, starts first at one time; a process that ends before it starts: walk. */
static int pool_flips(struct sweep *sw, size_t *nr)
{
	size_t i, x;

	if (array_grow((void **)&sw->flips, &sw->cap_flips, 2 * sw->nr_list, sizeof(*sw->flips)))
		return -ENOMEM;
	*nr = 0;
	for (i = 0; i < sw->nr_list; i++) {
		const struct proc_instance *p = &sw->s->m->procs[x = sw->list[i]];

		if (x == sw->top)
			continue;
		sw->walk |= p->end_ns < p->start_ns;
		sw->flips[(*nr)++] = (struct flip){ p->start_ns, x, true };
		sw->flips[(*nr)++] = (struct flip){ p->end_ns, x, false };
	}
	qsort(sw->flips, *nr, sizeof(*sw->flips), by_time_starts_first);
	return 0;
}

/* Where the steps written go: st->at and st->held [0, nr), each grown by array_grow. */
struct steps_out {
	size_t nr, cap_at, cap_held;
};

/* The pool from out->nr - 1 back to from holds held from ts on: a step, unless it held that already. */
static int add_step(struct slot_steps *st, struct steps_out *out, size_t from, __u64 ts, size_t held)
{
	if (held == (out->nr > from ? st->held[out->nr - 1] : 0))
		return 0;
	if (array_grow((void **)&st->at, &out->cap_at, out->nr + 1, sizeof(*st->at)) ||
	    array_grow((void **)&st->held, &out->cap_held, out->nr + 1, sizeof(*st->held)))
		return -ENOMEM;
	st->at[out->nr] = ts;
	st->held[out->nr++] = held;
	return 0;
}

/* Pool top's steps, appended from st->off[top]; each where the slots held change. */
static int pool_steps(struct sweep *sw, struct slot_steps *st, struct steps_out *out)
{
	size_t i, k, nr_flips, held, from = out->nr;
	int err;

	err = list_pool(sw) ?: pool_flips(sw, &nr_flips);
	sw->held = 0;
	for (i = 0; !err && i < nr_flips; i = k) {
		for (k = i; k < nr_flips && sw->flips[k].ts == sw->flips[i].ts; k++)
			if (!sw->walk)
				err = err ?: flip(sw, sw->flips[k].proc, sw->flips[k].start);
		if (sw->walk)
			err = held_by_walk(sw->s, sw->top, sw->flips[i].ts, &held);
		else
			held = (size_t)sw->held;
		err = err ?: add_step(st, out, from, sw->flips[i].ts, held);
	}
	for (i = 0; i < sw->nr_list; i++)
		memset(&sw->node[sw->list[i]], 0, sizeof(*sw->node));
	return err;
}

static bool has_steps(const struct slot_pools *s, size_t p)
{
	return s->pool[p] == p && s->sub_off[p] < s->sub_off[p + 1];
}

int slot_steps__build(struct slot_steps *st, const struct slot_pools *s)
{
	size_t n = s->m->nr_procs, p;
	struct sweep sw = { .s = s };
	struct steps_out out = { 0 };
	int err = 0;

	memset(st, 0, sizeof(*st));
	st->off = calloc(n + 1, sizeof(*st->off));
	sw.node = calloc(n ? n : 1, sizeof(*sw.node));
	if (!st->off || !sw.node)
		err = -ENOMEM;
	for (p = 0; !err && p < n; p++) {
		st->off[p] = out.nr;
		sw.top = p;
		if (has_steps(s, p))
			err = pool_steps(&sw, st, &out);
	}
	if (!err)
		st->off[n] = out.nr;
	free(sw.node);
	free(sw.list);
	free(sw.stack);
	free(sw.flips);
	if (err)
		slot_steps__free(st);
	return err;
}

size_t slot_steps__held(const struct slot_steps *st, const struct slot_pools *s, size_t p, __u64 ts)
{
	size_t from, k;

	if (!has_steps(s, p))
		return children_alive(s, p, ts);
	from = st->off[p];
	k = sorted_count_at_most(st->at + from, st->off[p + 1] - from, ts);
	return k ? st->held[from + k - 1] : 0;
}

void slot_steps__free(struct slot_steps *st)
{
	if (!st)
		return;
	free(st->off);
	free(st->at);
	free(st->held);
	memset(st, 0, sizeof(*st));
}
