// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "graph/critical_path.h"
#include "model/tool_kind.h"

/* What the walk looks things up in, freed at its end. */
struct walk {
	const struct model *m;
	const struct build_graph *g;
	const struct start_causes *sc; /* NULL: no wake records */
	__u32 *child_off, *children;   /* CSR: children of proc i at children[child_off[i] ..) */
	/* The same ranges by (end, index): first those that ran (start < end),
	 * from ended_zero[i] on those of no length. */
	__u32 *by_end, *ended_zero;
	bool *sequential; /* ran its children one at a time (model__children_one_at_a_time()) */
	bool *runner;	  /* make, ninja, ...: starts jobs, is never a step */
	size_t cap;	  /* of the path's steps */
};

/* Children by end: those that ran before those of no length, each by (end, index). */
static int by_end(const void *a, const void *b, void *model)
{
	const struct model *m = model;
	size_t i = *(const __u32 *)a, j = *(const __u32 *)b;
	const struct proc_instance *x = &m->procs[i], *y = &m->procs[j];
	bool x_ran = x->start_ns < x->end_ns, y_ran = y->start_ns < y->end_ns;

	if (x_ran != y_ran)
		return x_ran ? -1 : 1;
	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Children per process (CSR, in start order), the same by end, whether they ran one at a time, runners. */
static int index_tree(struct walk *w)
{
	const struct model *m = w->m;
	size_t i, n = m->nr_procs;

	w->sequential = calloc(n ? n : 1, sizeof(*w->sequential));
	w->runner = calloc(n ? n : 1, sizeof(*w->runner));
	w->ended_zero = calloc(n ? n : 1, sizeof(*w->ended_zero));
	w->by_end = malloc((n ? n : 1) * sizeof(*w->by_end));
	if (!w->sequential || !w->runner || !w->ended_zero || !w->by_end ||
	    model__index_children(m, &w->child_off, &w->children))
		return -ENOMEM;
	memcpy(w->by_end, w->children, n * sizeof(*w->by_end));
	for (i = 0; i < n; i++) {
		size_t k, from = w->child_off[i], to = w->child_off[i + 1];

		w->runner[i] = tool_kind__is_runner(tool_kind__lookup(m->procs[i].comm));
		w->sequential[i] = model__children_one_at_a_time(m, w->child_off, w->children, i);
		qsort_r(w->by_end + from, to - from, sizeof(*w->by_end), by_end, (void *)m);
		for (k = from; k < to && m->procs[w->by_end[k]].start_ns < m->procs[w->by_end[k]].end_ns; k++)
			;
		w->ended_zero[i] = k;
	}
	return 0;
}

/*
 * Of by_end[lo, hi) (by end, then index), the first of those that ended
 * last by limit (at limit too when inclusive); -1: none.
 */
static long ended_last(const struct walk *w, size_t lo, size_t hi, __u64 limit, bool inclusive)
{
	const struct model *m = w->m;
	size_t from = lo, mid;
	__u64 end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		end = m->procs[w->by_end[mid]].end_ns;
		if (end < limit || (inclusive && end == limit))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == from)
		return -1;
	end = m->procs[w->by_end[lo - 1]].end_ns;
	hi = lo - 1;
	lo = from;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->procs[w->by_end[mid]].end_ns < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)w->by_end[lo];
}

/* The child of p that ended last by t, having started before t (the first such); -1: none. */
static long last_child_by(const struct walk *w, size_t p, __u64 t)
{
	const struct model *m = w->m;
	/* One that ran started before its end; one of no length, before t only if it ended before. */
	long ran = ended_last(w, w->child_off[p], w->ended_zero[p], t, true);
	long none = ended_last(w, w->ended_zero[p], w->child_off[p + 1], t, false);

	if (ran < 0 || none < 0)
		return ran < 0 ? none : ran;
	if (m->procs[ran].end_ns != m->procs[none].end_ns)
		return m->procs[ran].end_ns > m->procs[none].end_ns ? ran : none;
	return ran < none ? ran : none;
}

static int push_step(struct walk *w, struct critical_path *cp, size_t proc, __u64 from, __u64 to, enum graph_link via,
		     long edge)
{
	if (array_grow((void **)&cp->steps, &w->cap, cp->nr + 1, sizeof(*cp->steps)))
		return -ENOMEM;
	cp->steps[cp->nr++] = (struct critical_step){ proc, from < to ? from : to, to, via, edge };
	cp->held_ns += to > from ? to - from : 0;
	return 0;
}

/*
 * Of a parallel parent's children (not waited for one by one), those
 * that ended before it exec'd the program it runs at t: it waited for
 * them before that exec (make restarts itself once the children that
 * remade its makefiles ended).  The one that ended last; -1: none.
 */
static long last_child_before_exec(const struct walk *w, size_t p, __u64 t)
{
	const struct proc_instance *q = &w->m->procs[p];
	const struct exec_image *x = proc_image_at(q, t);

	return x && x->start_ns > q->start_ns ? last_child_by(w, p, x->start_ns) : -1;
}

/* Where the walk goes from a step's start: the process, up to when it holds the path, and how. */
struct link {
	long to;
	__u64 t;
	enum graph_link via;
	long edge;	  /* LINK_INPUT: index in graph->edges; else -1 */
	bool children_ok; /* whether to's children may hold it (not a parallel parent's earlier ones) */
};

static void link_to(struct link *l, const struct model *m, long to, enum graph_link via, long edge, __u64 start)
{
	/* The clocks of an exit and of the fork it let happen are read apart: never past the start. */
	__u64 end = m->procs[to].end_ns;

	*l = (struct link){ to, end < start ? end : start, via, edge, true };
}

/* To the writer of edge in, up to when the edge was ready: its end, or a rename while it ran on. */
static void link_input(struct link *l, const struct walk *w, long in, __u64 start)
{
	const struct graph_edge *e = &w->g->edges[in];

	*l = (struct link){ (long)e->writer, e->ready_ns < start ? e->ready_ns : start, LINK_INPUT, in, true };
}

/*
 * Without start causes: whichever was later of the input of p's subtree
 * (the edge ready last before it started) and, when its parent ran
 * its children one at a time (a shell, a driver like cc), the sibling
 * before it; else its parent, which forked it.  A parallel parent (make
 * -jN) did not wait for its earlier children: they are not followed
 * without a data edge.  false: nothing before it.
 */
static bool start_link_guessed(const struct walk *w, size_t cur, struct link *l)
{
	const struct model *m = w->m;
	const struct proc_instance *p = &m->procs[cur];
	long in = w->g->proc_input ? w->g->proc_input[cur] : -1;
	long prev = p->parent >= 0 && w->sequential[p->parent] ? last_child_by(w, p->parent, p->start_ns) : -1;
	/* Without a sibling before it, the parent's own start competes: an
	 * input ready before the parent existed is not what p waited for
	 * (a compiler its job's shell ran after a sleep read gen.h). */
	__u64 spawn_ns = prev >= 0 ? m->procs[prev].end_ns : p->parent >= 0 ? m->procs[p->parent].start_ns : 0;

	if (in >= 0 && w->g->edges[in].ready_ns >= spawn_ns) {
		link_input(l, w, in, p->start_ns);
		return true;
	}
	if (p->parent < 0)
		return false;
	*l = (struct link){ p->parent, p->start_ns, LINK_SPAWN, -1, prev >= 0 };
	return true;
}

/*
 * With start causes (graph/start_cause.h), the one place that says why a
 * process started when it did: a job slot goes to the job whose end freed
 * it, another job's end (a slot was free) to that job, an input to its
 * writer, a recipe's next line (a shell's next command) to the one before.  A job its runner
 * started late for its own reasons (busy, the run queue, a wake from
 * outside) follows the runner's order: the runner's job that ended last
 * before it started, if after the job was ready (kbuild entering a
 * directory's subdirectories one after another).  Else its parent forked
 * it as soon as it could: the parent holds the path.
 */
static bool start_link(const struct walk *w, size_t cur, struct link *l)
{
	const struct model *m = w->m;
	const struct proc_instance *p = &m->procs[cur];
	const struct start_cause *c = &w->sc->procs[cur];
	long in = w->g->proc_input ? w->g->proc_input[cur] : -1, prev;

	if (c->wait == START_UNKNOWN)
		return start_link_guessed(w, cur, l);
	if ((c->wait == START_JOB_SLOT || c->wait == START_AFTER_JOB) && c->by >= 0 && (size_t)c->by != cur) {
		link_to(l, m, c->by, c->wait == START_JOB_SLOT ? LINK_SLOT : LINK_ORDER, -1, p->start_ns);
		return true;
	}
	if (c->input >= 0 && in >= 0) {
		link_input(l, w, in, p->start_ns);
		return true;
	}
	if (c->order_before >= 0) {
		link_to(l, m, c->order_before, LINK_ORDER, -1, p->start_ns);
		return true;
	}
	if (p->parent < 0)
		return false;
	prev = w->runner[p->parent] || w->sequential[p->parent] ? last_child_by(w, p->parent, p->start_ns) : -1;
	if (prev >= 0 && w->runner[p->parent] && c->wait != START_NONE && m->procs[prev].end_ns >= c->ready_ns) {
		link_to(l, m, prev, LINK_ORDER, -1, p->start_ns);
		return true;
	}
	*l = (struct link){ p->parent, p->start_ns, LINK_SPAWN, -1, prev >= 0 && w->sequential[p->parent] };
	return true;
}

/*
 * Walks back from the command's end.  A process's end is held by the
 * child it waited for last (the child that ended last before it); its
 * start by what it waited for (start_link()).  The walk only goes back in
 * time: a link past where it stands is held at that time, so the steps
 * and the waits between them never add up to more than the wall.  (A
 * process that started after the time the walk reached it at: the records
 * of a reused pid put in the wrong life, clocks read apart.)
 */
static int walk(struct walk *w, struct critical_path *cp)
{
	const struct model *m = w->m;
	size_t iter, max_iter = 4 * m->nr_procs + 16, i;
	struct link l = { m->root, 0, LINK_END, -1, true };
	__u64 stand;

	if (m->root < 0)
		return 0;
	l.t = m->procs[m->root].end_ns;
	for (iter = 0; iter < max_iter; iter++) {
		size_t cur = (size_t)l.to;
		long c = l.children_ok ? last_child_by(w, cur, l.t) : last_child_before_exec(w, cur, l.t);

		if (c >= 0) {
			if (push_step(w, cp, cur, m->procs[c].end_ns, l.t, l.via, l.edge))
				return -ENOMEM;
			l = (struct link){ c, m->procs[c].end_ns, LINK_WAIT, -1, true };
			continue;
		}
		stand = m->procs[cur].start_ns < l.t ? m->procs[cur].start_ns : l.t;
		if (push_step(w, cp, cur, m->procs[cur].start_ns, l.t, l.via, l.edge))
			return -ENOMEM;
		if (!(w->sc && cur < w->sc->nr_procs ? start_link(w, cur, &l) : start_link_guessed(w, cur, &l)))
			break;
		l.t = l.t < stand ? l.t : stand;
	}
	for (i = 0; i < cp->nr / 2; i++) {
		struct critical_step s = cp->steps[i];

		cp->steps[i] = cp->steps[cp->nr - 1 - i];
		cp->steps[cp->nr - 1 - i] = s;
	}
	/* What no step held: the gaps between one step's end and the next one's start. */
	for (i = 1; i < cp->nr; i++)
		if (cp->steps[i].from_ns > cp->steps[i - 1].to_ns)
			cp->wait_ns += cp->steps[i].from_ns - cp->steps[i - 1].to_ns;
	return 0;
}

int critical_path__compute(struct critical_path *cp, const struct model *m, const struct build_graph *g,
			   const struct start_causes *sc)
{
	struct walk w = { .m = m, .g = g, .sc = sc };
	int err;

	memset(cp, 0, sizeof(*cp));
	err = index_tree(&w) ?: walk(&w, cp);
	if (err)
		critical_path__free(cp);
	free(w.child_off);
	free(w.children);
	free(w.by_end);
	free(w.ended_zero);
	free(w.sequential);
	free(w.runner);
	return err;
}

void critical_path__free(struct critical_path *cp)
{
	if (!cp)
		return;
	free(cp->steps);
	memset(cp, 0, sizeof(*cp));
}

const char *graph_link__name(enum graph_link link)
{
	switch (link) {
	case LINK_WAIT:
		return "wait";
	case LINK_INPUT:
		return "input";
	case LINK_SPAWN:
		return "spawn";
	case LINK_SLOT:
		return "slot";
	case LINK_ORDER:
		return "order";
	default:
		return "end";
	}
}
