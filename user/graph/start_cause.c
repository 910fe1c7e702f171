// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "graph/job_slots.h"
#include "graph/start_cause.h"
#include "model/proc_index.h"
#include "model/proc_tree.h"
#include "model/shell_call.h"
#include "model/tool_kind.h"

/* What attribute() looks things up in. */
struct lookup {
	const struct model *m;
	const struct proc_index *pids; /* instances by (pid, start) */
	struct proc_index *own_pids;   /* pids, when the model had none to lend */
	struct proc_tree tree;
	const struct job_slots *slots; /* borrowed: the graph stage computes them once */
};

/*
 * The instance of pid forked at ts by parent_tgid: the fork and start-wake
 * records come from two programs on one tracepoint, either first, and
 * their clocks are read apart (milliseconds under emulation): the
 * instance of the pid that started nearest, if that parent forked it.
 */
static long forked_at(const struct proc_index *x, const struct model *m, __u32 pid, __u32 parent_tgid, __u64 ts)
{
	long p = proc_index__nearest(x, pid, ts);

	return p >= 0 && m->procs[p].forked && m->procs[p].parent >= 0 && m->procs[m->procs[p].parent].pid == parent_tgid
		       ? p
		       : -1;
}

/*
 * ready_ns and input of every process from the data edges: the input of
 * its subtree from outside it that was ready last by its fork, as the
 * build graph found it.
 */
static void ready_from_inputs(struct start_causes *sc, const struct model *m, const struct build_graph *g)
{
	for (size_t i = 0; g && g->proc_input && i < m->nr_procs; i++) {
		long k = g->proc_input[i];
		__u64 ready = k >= 0 ? g->edges[k].ready_ns : 0;

		if (ready > sc->procs[i].ready_ns) {
			sc->procs[i].ready_ns = ready;
			sc->procs[i].input = (long)g->edges[k].writer;
			/* Published before its writer's end (a rename), and this started before that end too. */
			sc->procs[i].input_running = ready < m->procs[g->edges[k].writer].end_ns &&
						     m->procs[i].start_ns < m->procs[g->edges[k].writer].end_ns;
		}
	}
}

/* When the parent's program began: its image at the fork, else its own start. */
static __u64 parent_ready(const struct proc_instance *parent, __u64 fork_ns)
{
	const struct exec_image *x = proc_image_at(parent, fork_ns);

	return x ? x->start_ns : parent->start_ns;
}

/* One wakeup of the parent: when, who, and its run-queue wait from then to the fork. */
struct wakeup {
	__u64 ts, runq;
	long waker; /* model->procs; -1: not a build process */
	bool exit;  /* the waker was exiting */
};

/*
 * The wakeup of rec that ended the parent's wait for its child: the last
 * by an exit if there was one since ready (after it the parent may have
 * slept on I/O, woken by an interrupt), else the last.  false: none since
 * ready.  The exit of the job holding c's input wakes the parent before
 * that job ends, so before ready: it counts too.
 */
static bool wakeup_since_ready(const struct start_cause *c, const struct lookup *l,
			       const struct start_wake *rec, struct wakeup *w)
{
	bool runq = rec->flags & BB_WAKE_RUNQ_KNOWN;
	long exit_waker = -1;

	if ((rec->flags & BB_WAKE_EXIT_SEEN) && rec->exit_wake_ns <= c->start_ns)
		exit_waker = proc_index__at(l->pids, rec->exit_waker_tgid, rec->exit_wake_ns);
	if ((rec->flags & BB_WAKE_EXIT_SEEN) && rec->exit_wake_ns <= c->start_ns &&
	    (rec->exit_wake_ns >= c->ready_ns || proc_tree__within(&l->tree, c->input, exit_waker))) {
		*w = (struct wakeup){ rec->exit_wake_ns, runq ? rec->exit_runq_ns : 0, exit_waker, true };
		return true;
	}
	if ((rec->flags & BB_WAKE_SEEN) && rec->wake_ns >= c->ready_ns && rec->wake_ns <= c->start_ns) {
		*w = (struct wakeup){ rec->wake_ns, runq ? rec->runq_ns : 0, -1, rec->flags & BB_WAKE_WAKER_EXITING };
		w->waker = rec->waker_tgid ? proc_index__at(l->pids, rec->waker_tgid, rec->wake_ns) : -1;
		return true;
	}
	return false;
}

/* The child of runner that ended last by ts; -1: none. */
static long last_ended(const struct lookup *l, size_t runner, __u64 ts)
{
	const struct job_slots *s = l->slots;
	long best = -1;
	size_t k;

	for (k = s->child_off[runner]; k < s->child_off[runner + 1]; k++) {
		const struct proc_instance *c = &l->m->procs[s->children[k]];

		if (c->end_ns <= ts && (best < 0 || c->end_ns > l->m->procs[best].end_ns))
			best = (long)s->children[k];
	}
	return best;
}

/*
 * make ran a $(shell) call (model/shell_call.h) right before forking c and
 * that call's exit woke it: kbuild's exported KERNELRELEASE = $(shell cat
 * ...) runs in each job's environment.  The call is make's own work; what
 * make slept for before it ran the call is what c waited for: the call's
 * cause, computed already (it started before c).  NULL: not so.
 */
static const struct start_cause *call_before(const struct start_cause *causes, const struct lookup *l,
					     size_t parent, const struct wakeup *w)
{
	const struct start_cause *call = w->waker >= 0 ? &causes[w->waker] : NULL;

	return call && w->exit && shell_call__is(l->m, (size_t)w->waker) &&
		       l->m->procs[w->waker].parent == (long)parent && call->wait != START_UNKNOWN
		       ? call
		       : NULL;
}

/*
 * The gap of c, child of parent (ready to fork), given the parent's
 * wakeups (rec); causes: every process's, those that started before c set.
 */
static void attribute(struct start_cause *c, const struct start_cause *causes, const struct lookup *l,
		      size_t parent, const struct start_wake *rec)
{
	const struct start_cause *call;
	__u64 gap = c->start_ns - c->ready_ns, runq, slept, after;
	size_t proc = (size_t)(c - causes), pool, depth;
	struct wakeup w = { .waker = -1 };
	bool woke = rec && wakeup_since_ready(c, l, rec, &w), full;

	/* The exit of the job that wrote its input woke the parent (or the
	 * writer, running on, told it: rustc's notice to cargo after the
	 * .rmeta): that write was what it waited for, however long the
	 * reaction took. */
	if (woke && (w.exit || c->input_running) && proc_tree__within(&l->tree, c->input, w.waker)) {
		c->wait = START_INPUT;
		c->by = c->input;
		return;
	}
	if (gap < START_PROMPT_NS) {
		c->wait = c->input >= 0 ? START_INPUT : START_NONE;
		c->by = c->input;
		return;
	}
	if (!rec) {
		c->wait = START_UNEXPLAINED;
		return;
	}
	if (!woke) {
		/* Not woken since it was ready: the parent ran, or waited for a CPU. */
		runq = (rec->flags & BB_WAKE_RUNQ_KNOWN) ? rec->runq_ns : 0;
		c->runq_ns = runq < gap ? runq : gap;
		c->wait = c->runq_ns * 2 > gap ? START_RUN_QUEUE : START_PARENT_BUSY;
		return;
	}
	if ((call = call_before(causes, l, parent, &w))) {
		c->wait = call->wait;
		c->by = call->by;
		c->slot_runner = call->slot_runner;
		c->runq_ns = call->runq_ns < gap ? call->runq_ns : gap;
		memcpy(c->waker_comm, call->waker_comm, sizeof(c->waker_comm));
		return;
	}
	/* [ready, wakeup] the parent slept; [wakeup, fork] it waited for a CPU
	 * (runq) or worked: the larger share names the cause. */
	slept = w.ts - c->ready_ns;
	after = c->start_ns - w.ts;
	c->runq_ns = w.runq < after ? w.runq : after;
	if (c->runq_ns > slept && c->runq_ns * 2 >= after) {
		c->wait = START_RUN_QUEUE;
	} else if (after > slept) {
		c->wait = START_PARENT_BUSY;
	} else if (w.waker >= 0 && w.exit) {
		/* An exit freed a slot the parent needed only if its pool
		 * (graph/job_slots.h) then held all its slots.  Slots are a
		 * runner's: a shell runs its commands in turn. */
		pool = l->slots->pool[parent];
		full = tool_kind__is_runner(tool_kind__lookup(l->m->procs[parent].comm)) &&
		       job_slots__held(l->slots, pool, w.ts) >= job_slots__limit(l->slots, pool);
		c->wait = full ? START_JOB_SLOT : START_AFTER_JOB;
		c->by = w.waker;
	} else if (w.waker >= 0 && (size_t)w.waker != parent && job_slots__shared(l->slots, (size_t)w.waker, proc)) {
		/* Another make of the pool handed a jobserver token back: its
		 * job's end freed the slot. */
		c->wait = START_JOB_SLOT;
		c->slot_runner = w.waker;
		c->by = last_ended(l, (size_t)w.waker, w.ts);
		/* A sub-make that ended gave back the token its last job held: name that job. */
		for (depth = 0; depth < l->m->nr_procs && c->by >= 0 &&
				job_slots__shared(l->slots, (size_t)c->by, proc) && last_ended(l, (size_t)c->by, w.ts) >= 0;
		     depth++) {
			c->slot_runner = c->by;
			c->by = last_ended(l, (size_t)c->by, w.ts);
		}
		if (c->by < 0)
			c->by = w.waker;
	} else if (w.waker >= 0) {
		c->wait = START_WOKEN;
		c->by = w.waker;
	} else {
		c->wait = START_UNEXPLAINED;
		if (!w.exit)
			memcpy(c->waker_comm, rec->waker_comm, sizeof(c->waker_comm));
	}
}

int start_causes__compute(struct start_causes *sc, const struct model *m, const struct build_graph *g,
			  const struct job_slots *slots, const struct start_wakes *w)
{
	struct lookup l = { .m = m, .slots = slots };
	const struct start_wake **rec_of = NULL;
	size_t i, n = m->nr_procs;
	int err = 0;

	memset(sc, 0, sizeof(*sc));
	if (n > INT32_MAX) /* a cause names processes in 32 bits (graph/start_cause.h) */
		return -EOVERFLOW;
	sc->procs = calloc(n ? n : 1, sizeof(*sc->procs));
	l.pids = proc_index__of(m, &l.own_pids);
	rec_of = calloc(n ? n : 1, sizeof(*rec_of));
	if (!sc->procs || !l.pids || !rec_of || proc_tree__init(&l.tree, m)) {
		err = -ENOMEM;
		goto out;
	}
	sc->nr_procs = n;
	for (i = 0; i < n; i++) {
		sc->procs[i].input = sc->procs[i].by = sc->procs[i].slot_runner = sc->procs[i].order_before = -1;
	}
	sc->records = w ? w->malformed : 0;
	for (i = 0; w && i < w->nr; i++) {
		const struct start_wake *r = &w->recs[i];
		long p = forked_at(l.pids, m, r->child_tgid, r->parent_tgid, r->fork_ns);

		sc->records++;
		if (p < 0)
			sc->unmatched++;
		else
			rec_of[p] = r;
	}
	ready_from_inputs(sc, m, g);
	for (i = 0; i < n; i++) {
		const struct proc_instance *p = &m->procs[i];
		struct start_cause *c = &sc->procs[i];
		__u64 parent_at;

		if (p->parent < 0 || !p->forked) {
			c->input = -1;
			c->ready_ns = 0;
			continue;
		}
		parent_at = parent_ready(&m->procs[p->parent], p->start_ns);
		/* A later line of a recipe was ready when the line before it ended:
		 * the recipe's wait is its first line's, not counted again for each.
		 * So is a shell's next command: a shell holds no job slots. */
		if (l.slots->order_before[i] >= 0 && m->procs[l.slots->order_before[i]].end_ns > parent_at)
			parent_at = m->procs[l.slots->order_before[i]].end_ns;
		if (parent_at > c->ready_ns) {
			c->ready_ns = parent_at;
			c->input = -1;
			c->input_running = false;
			if (l.slots->order_before[i] >= 0 && parent_at == m->procs[l.slots->order_before[i]].end_ns)
				c->order_before = l.slots->order_before[i];
		}
		if (c->ready_ns > p->start_ns)
			c->ready_ns = p->start_ns;
		c->start_ns = p->start_ns;
		c->wake_record = rec_of[i] != NULL;
		attribute(c, sc->procs, &l, (size_t)p->parent, rec_of[i]);
		if (shell_call__is(m, i)) {
			/* make's own work, not a job: its wait is make's, counted apart. */
			sc->shell_calls++;
			continue;
		}
		sc->counts[c->wait]++;
		sc->waited_ns[c->wait] += c->start_ns - c->ready_ns;
	}
out:
	proc_index__free(l.own_pids);
	free(rec_of);
	proc_tree__free(&l.tree);
	if (err)
		start_causes__free(sc);
	return err;
}

void start_causes__free(struct start_causes *sc)
{
	if (!sc)
		return;
	free(sc->procs);
	memset(sc, 0, sizeof(*sc));
}

const char *start_wait__name(enum start_wait wait)
{
	switch (wait) {
	case START_NONE:
		return "none";
	case START_INPUT:
		return "input";
	case START_JOB_SLOT:
		return "job_slot";
	case START_AFTER_JOB:
		return "after_job";
	case START_RUN_QUEUE:
		return "run_queue";
	case START_PARENT_BUSY:
		return "parent_busy";
	case START_WOKEN:
		return "woken";
	case START_UNEXPLAINED:
		return "unexplained";
	default:
		return "unknown";
	}
}

const char *start_cause__text(const struct start_cause *c, const struct model *m, char *buf, size_t size)
{
	const struct proc_instance *by = c->by >= 0 ? &m->procs[c->by] : NULL;
	const char *name = by ? by->comm : "", *fmt;

	switch (c->wait) {
	case START_NONE:
		fmt = "nothing";
		break;
	case START_INPUT:
		fmt = c->input_running ? "input from %s [%u], still running" : "input from %s [%u]";
		break;
	case START_JOB_SLOT:
		if (by && c->by == c->slot_runner) {
			snprintf(buf, size, "a job slot (%s [%u] handed its token back)", name, by->pid);
			return buf;
		}
		if (by && c->slot_runner >= 0) {
			snprintf(buf, size, "a job slot held by %s [%u] of make [%u]", name, by->pid,
				 m->procs[c->slot_runner].pid);
			return buf;
		}
		fmt = "a job slot (%s [%u] ended)";
		break;
	case START_AFTER_JOB:
		fmt = "the end of %s [%u] (a slot was free)";
		break;
	case START_RUN_QUEUE:
		fmt = "the CPU run queue";
		break;
	case START_PARENT_BUSY:
		fmt = "its parent (busy)";
		break;
	case START_WOKEN:
		fmt = "woken by %s [%u]";
		break;
	case START_UNEXPLAINED:
		if (c->waker_comm[0]) {
			snprintf(buf, size, "unexplained (woken by %.*s)", BB_COMM_LEN, c->waker_comm);
			return buf;
		}
		fmt = "unexplained";
		break;
	default:
		fmt = "unknown";
	}
	if (!by)
		snprintf(buf, size, "%s", fmt);
	else
		snprintf(buf, size, fmt, name, by->pid);
	return buf;
}
