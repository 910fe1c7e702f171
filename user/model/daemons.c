// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include "model/daemons.h"
#include "util/sorted_search.h"

static bool is_followed(__u32 pid, const pid_t *follow, size_t nr)
{
	size_t k;

	for (k = 0; k < nr; k++)
		if ((__u32)follow[k] == pid)
			return true;
	return false;
}

void daemons__mark(struct model *m, const pid_t *follow, size_t nr)
{
	size_t i;

	/* The trace draws at most DAEMONS_MAX daemons apart: the rest of a
	 * (hand-made) longer list is left to the command's. */
	if (nr > DAEMONS_MAX)
		nr = DAEMONS_MAX;
	/* Parents come first (procs are in start order), so one pass. */
	for (i = 0; i < m->nr_procs; i++) {
		struct proc_instance *p = &m->procs[i];

		p->run_by_daemon = 0;
		if (p->parent >= 0 && (size_t)p->parent < i)
			p->run_by_daemon = m->procs[p->parent].run_by_daemon;
		else if (p->parent < 0 && p->found && is_followed(p->pid, follow, nr))
			/* A followed daemon is found running, with no traced parent. */
			p->run_by_daemon = p->pid;
	}
}

void daemons__shares(const struct model *m, const pid_t *follow, size_t nr, struct daemon_share *out)
{
	size_t i, k;

	for (k = 0; k < nr; k++)
		out[k] = (struct daemon_share){ .pid = (__u32)follow[k], .proc = -1 };
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		for (k = 0; p->run_by_daemon && k < nr; k++) {
			if (out[k].pid != p->run_by_daemon)
				continue;
			if (out[k].proc < 0 && p->pid == out[k].pid && p->parent < 0)
				out[k].proc = (long)i;
			out[k].nr_procs++;
			out[k].cpu_ns += p->utime_ns + p->stime_ns;
			break;
		}
	}
}

/* A time interval, [start, end). */
struct span {
	__u64 start, end;
};

/*
 * The followed daemons' work during the trace, merged into disjoint
 * intervals in time order: what they started (their own long-lived
 * processes, found running, would cover everything and say nothing).
 */
static int daemon_work(const struct model *m, struct span **out, size_t *nr_out)
{
	struct span *w = NULL;
	size_t i, n = 0;

	*out = NULL;
	*nr_out = 0;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		if (!p->run_by_daemon || p->found || p->end_ns <= p->start_ns)
			continue;
		if (!w) {
			w = malloc(m->nr_procs * sizeof(*w));
			if (!w)
				return -ENOMEM;
		}
		/* Start order: each either extends the last interval or opens one. */
		if (n && p->start_ns <= w[n - 1].end)
			w[n - 1].end = p->end_ns > w[n - 1].end ? p->end_ns : w[n - 1].end;
		else
			w[n++] = (struct span){ p->start_ns, p->end_ns };
	}
	*out = w;
	*nr_out = n;
	return 0;
}

/* The daemons' work: disjoint intervals in time order, and their lengths summed before each. */
struct work {
	struct span *w;
	__u64 *before; /* nr + 1 */
	size_t nr;
};

struct work_at {
	const struct work *w;
	__u64 t;
};

static bool ends_by(const void *key, size_t i)
{
	const struct work_at *at = key;

	return at->w->w[i].end <= at->t;
}

static bool starts_before(const void *key, size_t i)
{
	const struct work_at *at = key;

	return at->w->w[i].start < at->t;
}

/* The first of w->w[from, w->nr) that is not past t, by past: ends_by or starts_before. */
static size_t first_not_past(const struct work *w, size_t from, __u64 t, sorted_before_fn *past)
{
	struct work_at at = { w, t };

	return sorted_first_not_before(from, w->nr, past, &at);
}

/*
 * The part of [a, b) that no interval of w covers: the lengths of those
 * that overlap it, from the sums, less what sticks out at either end.  A
 * process waiting across thousands of intervals costs two searches.
 */
static __u64 uncovered(const struct work *w, __u64 a, __u64 b)
{
	size_t lo = first_not_past(w, 0, a, ends_by), hi = first_not_past(w, lo, b, starts_before);
	__u64 covered;

	if (lo >= hi)
		return b - a;
	covered = w->before[hi] - w->before[lo];
	if (w->w[lo].start < a)
		covered -= a - w->w[lo].start;
	if (w->w[hi - 1].end > b)
		covered -= w->w[hi - 1].end - b;
	return b - a - covered;
}

/* Per process, while the walk runs: its children cover [start, cover_end). */
struct wait_state {
	__u64 cover_end;
	__u64 gaps_ns; /* time with no live child and no daemon work, so far */
};

static void add_gap(struct wait_state *st, const struct work *w, __u64 to)
{
	if (to > st->cover_end)
		st->gaps_ns += uncovered(w, st->cover_end, to);
}

int daemons__outside_wait(const struct model *m, struct outside_wait *out)
{
	struct wait_state *st;
	struct work w = {};
	size_t i;

	*out = (struct outside_wait){ .top = -1 };
	if (!m->nr_procs)
		return 0;
	if (daemon_work(m, &w.w, &w.nr))
		return -ENOMEM;
	w.before = malloc((w.nr + 1) * sizeof(*w.before));
	st = calloc(m->nr_procs, sizeof(*st));
	if (!st || !w.before) {
		free(st);
		free(w.before);
		free(w.w);
		return -ENOMEM;
	}
	w.before[0] = 0;
	for (i = 0; i < w.nr; i++)
		w.before[i + 1] = w.before[i] + (w.w[i].end - w.w[i].start);
	/* Start order: a child's start is a gap's end in its parent. */
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		st[i].cover_end = p->start_ns;
		if (p->parent >= 0 && (size_t)p->parent < i) {
			const struct proc_instance *pp = &m->procs[p->parent];
			struct wait_state *ps = &st[p->parent];
			__u64 s = p->start_ns < pp->end_ns ? p->start_ns : pp->end_ns;
			__u64 e = p->end_ns < pp->end_ns ? p->end_ns : pp->end_ns;

			add_gap(ps, &w, s);
			if (e > ps->cover_end)
				ps->cover_end = e;
		}
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		/* Its CPU, and (with --sched) its wait for a CPU: not outside. */
		__u64 cpu = p->utime_ns + p->stime_ns + p->sched.runq_ns, wait;

		if (p->run_by_daemon)
			continue;
		add_gap(&st[i], &w, p->end_ns);
		wait = st[i].gaps_ns > cpu ? st[i].gaps_ns - cpu : 0;
		if (wait < OUTSIDE_WAIT_MIN_NS)
			continue;
		out->wait_ns += wait;
		out->nr_procs++;
		if (wait > out->top_wait_ns) {
			out->top_wait_ns = wait;
			out->top = (long)i;
		}
	}
	free(st);
	free(w.before);
	free(w.w);
	return 0;
}

bool daemons__mostly_elsewhere(const struct outside_wait *w, __u64 cpu_ns, __u64 wall_ns)
{
	return w->wait_ns > cpu_ns && 2 * w->wait_ns >= wall_ns;
}
