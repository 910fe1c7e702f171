// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "graph/ready_rank.h"
#include "graph/run_order.h"
#include "model/shell_call.h"
#include "model/tool_kind.h"
#include "util/sorted_count.h"

struct order {
	struct job_graph *jg;
	const struct model *m;
	const struct job_slots *s;
	long *mark;	/* per process outside any job: its start mark's node (the end's is the next); -1 */
	size_t cap;	/* of jg->links */
	/* CSR: per make, its $(shell) calls (model/shell_call.h) in start order (a process's index is its
	 * fork's order); one at a time, so in end order too */
	__u32 *call_off, *calls;
};

/* The node a child starts as, and ends as: its job, or its marks. */
static size_t start_node(const struct order *o, size_t proc)
{
	long j = o->jg->proc_job[proc];

	return j >= 0 ? (size_t)j : (size_t)o->mark[proc];
}

static size_t end_node(const struct order *o, size_t proc)
{
	long j = o->jg->proc_job[proc];

	return j >= 0 ? (size_t)j : (size_t)o->mark[proc] + 1;
}

/* A unit of a parent's order: a child that is no later line of a job's recipe; its measured span. */
static bool unit(const struct order *o, size_t proc, __u64 *start, __u64 *end)
{
	long j = o->jg->proc_job[proc];

	if (j >= 0 && o->jg->jobs[j].proc != proc)
		return false;
	*start = j >= 0 ? o->jg->jobs[j].start_ns : o->m->procs[proc].start_ns;
	*end = j >= 0 ? o->jg->jobs[j].end_ns : o->m->procs[proc].end_ns;
	return true;
}

static __u64 since(__u64 to, __u64 from)
{
	return to > from ? to - from : 0;
}

/* from -> to after lag; on a quiet machine the share quiet of it (the parent's run-queue share taken out). */
static int link(struct order *o, size_t from, size_t to, __u64 lag, double quiet)
{
	if (array_grow((void **)&o->jg->links, &o->cap, o->jg->nr_links + 1, sizeof(*o->jg->links)))
		return -ENOMEM;
	o->jg->links[o->jg->nr_links++] = (struct sim_link){ from, to, lag, (__u64)((double)lag * quiet) };
	return 0;
}

/*
 * A runner's units by end, for waited_for(): each distinct end once, with
 * the unit that ends then first among its children, ascending; and per
 * end, the last one at or before it that ended while the runner's pool
 * had a slot free (-1: none).  Built once per runner, each query a binary
 * search: walking back one end at a time, every child of a runner whose
 * slots stay full (one long job beside thousands of short ones) cost a
 * rescan of all its children per step.
 */
struct unit_ends {
	__u64 *end;
	size_t *unit;
	long *free_at_or_before;
	size_t nr;
};

struct unit_end {
	__u64 end;
	size_t k; /* the unit's place among its parent's children */
};

static int by_end_then_place(const void *a, const void *b)
{
	const struct unit_end *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static void unit_ends__free(struct unit_ends *u)
{
	free(u->end);
	free(u->unit);
	free(u->free_at_or_before);
	memset(u, 0, sizeof(*u));
}

static int unit_ends__build(struct unit_ends *u, const struct order *o, size_t x)
{
	size_t k, n = 0, from = o->s->child_off[x], to = o->s->child_off[x + 1], pool = o->s->pool[x],
		  limit = job_slots__limit(o->s, pool);
	struct unit_end *all = malloc((to - from ? to - from : 1) * sizeof(*all));
	__u64 start, end;
	long free_at = -1;

	memset(u, 0, sizeof(*u));
	u->end = malloc((to - from ? to - from : 1) * sizeof(*u->end));
	u->unit = malloc((to - from ? to - from : 1) * sizeof(*u->unit));
	u->free_at_or_before = malloc((to - from ? to - from : 1) * sizeof(*u->free_at_or_before));
	if (!all || !u->end || !u->unit || !u->free_at_or_before) {
		free(all);
		unit_ends__free(u);
		return -ENOMEM;
	}
	for (k = from; k < to; k++)
		if (unit(o, o->s->children[k], &start, &end) && end)
			all[n++] = (struct unit_end){ end, k };
	qsort(all, n, sizeof(*all), by_end_then_place);
	for (k = 0; k < n; k++) {
		if (u->nr && u->end[u->nr - 1] == all[k].end)
			continue;
		u->end[u->nr] = all[k].end;
		u->unit[u->nr] = o->s->children[all[k].k];
		if (job_slots__held(o->s, pool, all[k].end - 1) < limit)
			free_at = (long)u->nr;
		u->free_at_or_before[u->nr++] = free_at;
	}
	free(all);
	return 0;
}

/*
 * What a child of a runner that started at ts waited for: the unit of the
 * runner that ended last by ts while its pool of slots (graph/job_slots.h)
 * had one free.  Then the child was not ready yet (make starts a ready job
 * while a slot is free): it waited for that unit (make's prerequisite
 * order), as start_cause.h tells "after job" from "job slot".  *lag_ns:
 * the runner's reaction when that unit ended last, 0 when slots freed
 * later (its wait since was for a slot).  -1: none.
 */
static long waited_for(const struct unit_ends *u, __u64 ts, __u64 *lag_ns)
{
	size_t by = sorted_count_at_most(u->end, u->nr, ts);
	long at = by ? u->free_at_or_before[by - 1] : -1;

	*lag_ns = at >= 0 && (size_t)at == by - 1 ? ts - u->end[at] : 0;
	return at >= 0 ? (long)u->unit[at] : -1;
}

/* Whether a data edge already orders node to after node from (both jobs): the files say it. */
static bool data_edge(const struct job_graph *jg, size_t from, size_t to)
{
	size_t k;

	for (k = to < jg->nr_jobs ? jg->pred_off[to] : 0; to < jg->nr_jobs && k < jg->pred_off[to + 1]; k++)
		if (jg->preds[k] == from)
			return true;
	return false;
}

/* x's own work from t to by: until the first child of x started or ended after t, else all of it. */
static __u64 own_work(const struct order *o, size_t x, __u64 t, __u64 by)
{
	size_t from = o->s->child_off[x], n = o->s->child_off[x + 1] - from,
	       s = sorted_count_at_most(o->s->starts + from, n, t), e = sorted_count_at_most(o->s->ends + from, n, t);

	by = s < n && o->s->starts[from + s] < by ? o->s->starts[from + s] : by;
	by = e < n && o->s->ends[from + e] < by ? o->s->ends[from + e] : by;
	return since(by, t);
}

/*
 * make is one thread: it runs each $(shell) call and reads it to the end
 * before it goes on.  So runner x's calls run one after another in start
 * order, the first after x started, each next after the one before ended,
 * and x ends after the last.  The lag is x's own work between: the
 * measured gap up to the first thing x's children did in it (a gap that
 * held a fork or an exit held waits the simulation orders by itself; as
 * measured, the chain would pin every call, and what follows one, to its
 * recorded time).
 */
static int chain_calls(struct order *o, size_t x, double quiet)
{
	const struct proc_instance *p = &o->m->procs[x];
	size_t k, s_x = (size_t)o->mark[x];
	long prev = -1;
	int err = 0;

	for (k = o->call_off[x]; k < o->call_off[x + 1] && !err; k++) {
		size_t c = o->calls[k];
		__u64 start = o->m->procs[c].start_ns;

		if (prev < 0)
			err = link(o, s_x, start_node(o, c), own_work(o, x, p->start_ns, start), quiet);
		else
			err = link(o, end_node(o, (size_t)prev), start_node(o, c),
				   own_work(o, x, o->m->procs[prev].end_ns, start), quiet);
		prev = (long)c;
	}
	if (!err && prev >= 0)
		err = link(o, end_node(o, (size_t)prev), s_x + 1, own_work(o, x, o->m->procs[prev].end_ns, p->end_ns),
			   quiet);
	return err;
}

/*
 * The $(shell) call of runner x that a unit started at ts followed: x's
 * last call that started before ts, when it ended by ts and x did nothing
 * else between (no child of x started or ended): make forked the unit
 * right after it read the call (kbuild's KERNELRELEASE, expanded for each
 * job's environment).  -1: none.
 */
static long call_before(const struct order *o, size_t x, __u64 ts)
{
	size_t lo = o->call_off[x], hi = o->call_off[x + 1];
	__u64 end;

	while (lo < hi) { /* the first call that started at ts or later */
		size_t mid = lo + (hi - lo) / 2;

		if (o->m->procs[o->calls[mid]].start_ns < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == o->call_off[x])
		return -1;
	end = o->m->procs[o->calls[lo - 1]].end_ns;
	return end <= ts && own_work(o, x, end, ts) == ts - end ? (long)o->calls[lo - 1] : -1;
}

/*
 * The links out of parent x's start and into its end.  A runner's children
 * ran as its slots and their inputs allowed, so only its parse time is
 * fixed; a shell that ran them one at a time waited for each.
 */
static int order_children(struct order *o, size_t x)
{
	const struct model *m = o->m;
	const struct proc_instance *p = &m->procs[x];
	size_t k, from = o->s->child_off[x], to = o->s->child_off[x + 1], s_x = (size_t)o->mark[x];
	/* x is outside any job: a non-runner's children are too, each a unit of its own process's span. */
	bool runner = tool_kind__is_runner(tool_kind__lookup(p->comm)),
	     chained = !runner && model__children_one_at_a_time(m, o->s->child_off, o->s->children, x);
	__u64 start, end, first = 0, last_end = 0, prev_end = 0, after_lag = 0, wall = since(p->end_ns, p->start_ns);
	double quiet = wall ? 1 - (double)(p->sched.runq_ns < wall ? p->sched.runq_ns : wall) / (double)wall : 1;
	long prev = -1, after, call;
	bool any = false;
	struct unit_ends ends = {};
	int err = runner ? chain_calls(o, x, quiet) : 0;

	for (k = from; k < to; k++)
		if (unit(o, o->s->children[k], &start, &end)) {
			first = any ? first : start;
			last_end = end > last_end ? end : last_end;
			any = true;
		}
	if (!any) /* no child: a fixed cost */
		return err ?: link(o, s_x, s_x + 1, wall, quiet);
	if (!err && runner)
		err = unit_ends__build(&ends, o, x);
	for (k = from; k < to && !err; k++) {
		size_t c = o->s->children[k];
		long before = o->s->line_before[c];

		if (!unit(o, c, &start, &end))
			continue;
		if (chained && prev >= 0)
			err = link(o, end_node(o, (size_t)prev), start_node(o, c), since(start, prev_end), quiet);
		else if (chained || runner)
			err = link(o, s_x, start_node(o, c), since(first, p->start_ns), quiet);
		else
			err = link(o, s_x, start_node(o, c), since(start, p->start_ns), quiet);
		/* A recipe line that runs a sub-make waits for the line before it. */
		if (!err && runner && before >= 0 && o->jg->proc_job[c] < 0)
			err = link(o, end_node(o, (size_t)before), start_node(o, c),
				   since(start, m->procs[before].end_ns), quiet);
		if (!err && runner && (after = waited_for(&ends, start, &after_lag)) >= 0 &&
		    !data_edge(o->jg, end_node(o, (size_t)after), start_node(o, c)))
			err = link(o, end_node(o, (size_t)after), start_node(o, c), after_lag, quiet);
		/* Forked right after a $(shell) call: not before make read it (a call is no job: no data edge). */
		if (!err && runner && (call = call_before(o, x, start)) >= 0)
			err = link(o, end_node(o, (size_t)call), start_node(o, c),
				   since(start, m->procs[call].end_ns), quiet);
		if (!err)
			err = link(o, end_node(o, c), s_x + 1, since(p->end_ns, last_end), quiet);
		prev = (long)c;
		prev_end = end;
	}
	unit_ends__free(&ends);
	return err;
}

int run_order__build(struct job_graph *jg, const struct model *m, const struct job_slots *s)
{
	struct order o = { .jg = jg, .m = m, .s = s };
	size_t i, k, kept = 0, from = 0;
	int err = 0;

	o.mark = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*o.mark));
	jg->marks = malloc((m->nr_procs ? 2 * m->nr_procs : 1) * sizeof(*jg->marks));
	if (!o.mark || !jg->marks || model__index_children(m, &o.call_off, &o.calls)) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < m->nr_procs; i++) { /* the children, but only the calls, each range kept in order */
		size_t to = o.call_off[i + 1];

		for (k = from; k < to; k++)
			if (shell_call__is(m, o.calls[k]))
				o.calls[kept++] = o.calls[k];
		from = to;
		o.call_off[i + 1] = kept;
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		__u64 at = since(p->start_ns, jg->origin_ns);

		o.mark[i] = -1;
		if (jg->proc_job[i] >= 0)
			continue;
		o.mark[i] = (long)(jg->nr_jobs + jg->nr_marks);
		/* Released by its parent's order; one without a traced parent when it started. */
		jg->marks[jg->nr_marks++] = (struct sim_mark){ i, false, p->parent < 0 ? at : 0 };
		jg->marks[jg->nr_marks++] = (struct sim_mark){ i, true, 0 };
	}
	for (i = 0; i < m->nr_procs && !err; i++)
		if (jg->proc_job[i] < 0)
			err = order_children(&o, i);
	err = err ?: ready_rank__fill(jg, m);
out:
	free(o.calls);
	free(o.call_off);
	free(o.mark);
	return err;
}
