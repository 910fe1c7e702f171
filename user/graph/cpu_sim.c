// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "graph/cpu_sim.h"
#include "graph/job_contention.h"

/* A binary min-heap of (key, job): ties go to the smaller job, the one the build started first. */
struct dheap_item {
	double key;
	size_t job;
};

struct dheap {
	struct dheap_item *items;
	size_t nr;
};

static bool dless(const struct dheap_item *a, const struct dheap_item *b)
{
	return a->key != b->key ? a->key < b->key : a->job < b->job;
}

static void dswap(struct dheap *h, size_t i, size_t k)
{
	struct dheap_item t = h->items[i];

	h->items[i] = h->items[k];
	h->items[k] = t;
}

/* Room for every job: a job is in each heap at most once. */
static void dpush(struct dheap *h, double key, size_t job)
{
	size_t i = h->nr++;

	h->items[i] = (struct dheap_item){ key, job };
	for (; i && dless(&h->items[i], &h->items[(i - 1) / 2]); i = (i - 1) / 2)
		dswap(h, i, (i - 1) / 2);
}

static size_t dpop(struct dheap *h)
{
	size_t job = h->items[0].job, i = 0;

	h->items[0] = h->items[--h->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < h->nr && dless(&h->items[l], &h->items[min]))
			min = l;
		if (r < h->nr && dless(&h->items[r], &h->items[min]))
			min = r;
		if (min == i)
			return job;
		dswap(h, i, min);
		i = min;
	}
}

static double dtop(const struct dheap *h)
{
	return h->nr ? h->items[0].key : INFINITY;
}

/*
 * Processor sharing by thread, as the kernel's fair scheduler shares: a job
 * that ran w CPUs' worth of threads at once counts w times.  Every thread
 * needing a CPU then progresses at one rate, so the CPU phases are keyed by
 * a shared virtual clock (CPU work per thread): O(log n) per event.
 */
struct sim_state {
	const struct job_graph *jg;
	const struct job_contention *c;
	const struct cpu_machine *mc;
	size_t nodes;	      /* jobs, then marks (graph/job_graph.h) */
	size_t *succ_off, *succ, *left;
	double *lag;	      /* per succ entry: from its node's end to the successor's release */
	/* Per succ entry: the share of its job's run after which the successor may go (a file it published
	 * while running on: cargo's .rmeta), 1: at its end; and whether it let the successor go already. */
	double *share;
	bool *passed;
	double *work;	      /* per job: its CPU work (alone, ns), 0: none (in the blocked phase from its start) */
	struct dheap early_cpu;	    /* succ entries let go within a job's CPU phase, at the virtual clock's key */
	struct dheap early_blocked; /* succ entries let go within a job's blocked phase, at key (ns) */
	double *release;      /* per node: the latest its ended predecessors allow */
	struct dheap pending; /* released at key (ns from the build's start) */
	struct dheap ready;   /* startable: key minus its runner's rank, then the job first started first */
	struct dheap on_cpu;  /* in its CPU phase until the virtual clock reaches key */
	struct dheap blocked; /* in its blocked phase until key (ns) */
	double *width;	      /* per job: CPUs' worth of threads */
	double threads;	      /* summed width of the jobs in on_cpu */
	double virt;	      /* the virtual clock */
	size_t running;	      /* jobs in a slot */
};

double cpu_sim__blocked_ns(const struct job_graph *jg, size_t j)
{
	double wall = (double)(jg->jobs[j].end_ns - jg->jobs[j].start_ns);
	double busy = (double)(jg->jobs[j].cpu_ns + jg->jobs[j].runq_ns);

	if (!jg->cpu_known)
		return wall;
	return wall > busy ? wall - busy : 0;
}

/*
 * CPU and run-queue times are summed over a job's threads: past its wall,
 * several wanted a CPU at once (a go compile's workers, a pipe's two ends).
 * Their average number over the wall is the job's width: under fair
 * sharing each got the same share, so on a quiet machine's CPUs the job
 * needs its wall times that share.  Threads that waited for a CPU count as
 * much as those on one: their wait is what the outside work took.
 */
double cpu_sim__width(const struct job_graph *jg, size_t j)
{
	double wall = (double)(jg->jobs[j].end_ns - jg->jobs[j].start_ns);
	double wanting = (double)(jg->jobs[j].cpu_ns + jg->jobs[j].runq_ns);

	return jg->cpu_known && wall > 0 && wanting > wall ? wanting / wall : 1;
}

/* The time a job blocks, in the replay its whole duration. */
static double job_blocked(const struct sim_state *st, size_t j)
{
	const struct sim_job *job = &st->jg->jobs[j];

	double keep = st->mc->keep ? st->mc->keep[j] : 1;

	if (st->mc->replay)
		return keep * (st->mc->dur ? (double)st->mc->dur[j] : (double)(job->end_ns - job->start_ns));
	return keep * cpu_sim__blocked_ns(st->jg, j);
}

/*
 * The successors job j lets go before its end, at their share of its run
 * (its CPU work, then its blocked time): at its start (starting) those
 * within its CPU phase, by the virtual clock, and, with no CPU phase,
 * those within its blocked phase; else, at t, the end of its CPU phase,
 * those within the blocked phase that follows.
 */
static void schedule_early(struct sim_state *st, size_t j, double t, bool starting)
{
	double blocked = job_blocked(st, j), work = st->work[j];
	size_t k;

	for (k = st->succ_off[j]; k < st->succ_off[j + 1]; k++) {
		double at = st->share[k] * (work + blocked);

		if (st->share[k] >= 1)
			continue;
		if (at < work && starting)
			dpush(&st->early_cpu, st->virt + at / st->width[j], k);
		else if (at >= work && (starting ? work <= 0 : work > 0))
			dpush(&st->early_blocked, t + (at - work), k);
	}
}

/* The job's CPU phase, then its blocked phase (none without --sched figures, none in the replay). */
static void start_job(struct sim_state *st, size_t j, double t)
{
	const struct job_graph *jg = st->jg;
	double work = jg->cpu_known && !st->mc->replay ? job_contention__alone_ns(st->c, jg, j) : 0;

	if (st->mc->keep)
		work *= st->mc->keep[j];

	st->running++;
	st->width[j] = cpu_sim__width(jg, j);
	st->work[j] = work > 0.5 ? work : 0;
	if (work > 0.5) {
		dpush(&st->on_cpu, st->virt + work / st->width[j], j);
		st->threads += st->width[j];
	} else {
		dpush(&st->blocked, t + job_blocked(st, j), j);
	}
	schedule_early(st, j, t, true);
}

/*
 * CPU work per thread per ns, now: the build's threads and the outside's
 * always-runnable ones share the CPUs equally; then each busy CPU beside a
 * thread slows it.
 */
static double thread_rate(const struct sim_state *st)
{
	const struct cpu_machine *mc = st->mc;
	double share, busy, slowdown = st->c ? st->c->slowdown : 0, wanting = st->threads + mc->outside;

	if (!mc->cpus || st->threads <= 0)
		return 1; /* unlimited CPUs: each job as fast as alone */
	share = wanting > (double)mc->cpus ? (double)mc->cpus / wanting : 1;
	busy = wanting * share;
	/* While a thread is on a CPU, the others busy are the rest. */
	return share / (1 + slowdown * (busy > 1 ? busy - 1 : 0));
}

/* Succ entry k lets its successor go at t (once): released when the last of its predecessors allows. */
static void pass(struct sim_state *st, size_t k, double t)
{
	size_t s = st->succ[k];

	if (st->passed[k])
		return;
	st->passed[k] = true;
	if (t + st->lag[k] > st->release[s])
		st->release[s] = t + st->lag[k];
	if (!--st->left[s])
		dpush(&st->pending, st->release[s], s);
}

/* Node i (a job or a mark) ended at t: its readers and the runner's order after it may be released. */
static void end_node(struct sim_state *st, size_t i, double t)
{
	size_t k;

	if (i < st->jg->nr_jobs)
		st->running--;
	for (k = st->succ_off[i]; k < st->succ_off[i + 1]; k++)
		pass(st, k, t);
}

static __u64 node_release(const struct job_graph *jg, size_t i)
{
	return i < jg->nr_jobs ? jg->jobs[i].release_ns : jg->marks[i - jg->nr_jobs].release_ns;
}

/* One successor entry, from -> to after lag, at share of from's run; counting (fill NULL) or filling. */
static void add_succ(struct sim_state *st, size_t *fill, size_t from, size_t to, double lag, double share)
{
	if (!fill) {
		st->succ_off[from + 1]++;
		return;
	}
	st->succ[fill[from]] = to;
	st->share[fill[from]] = share;
	st->lag[fill[from]++] = lag;
	st->left[to]++;
}

/* The share of job w's measured run after which it had published what a reader needs early_ns before its end. */
static double early_share(const struct job_graph *jg, size_t w, __u64 early_ns)
{
	__u64 wall = jg->jobs[w].end_ns - jg->jobs[w].start_ns;

	return early_ns && early_ns < wall ? (double)(wall - early_ns) / (double)wall : 1;
}

/*
 * The data edges (no lag; a file published while its writer ran on, at that
 * share of the writer's run) and the runners' order (its measured gaps;
 * quiet, their run-queue share out).
 */
static void each_link(struct sim_state *st, size_t *fill)
{
	const struct job_graph *jg = st->jg;
	size_t i, k;

	for (i = 0; i < jg->nr_jobs; i++)
		for (k = jg->pred_off[i]; k < jg->pred_off[i + 1]; k++)
			add_succ(st, fill, jg->preds[k], i, 0, early_share(jg, jg->preds[k], jg->pred_early_ns[k]));
	for (k = 0; k < jg->nr_links; k++)
		add_succ(st, fill, jg->links[k].from, jg->links[k].to,
			 (double)(st->mc->quiet ? jg->links[k].quiet_lag_ns : jg->links[k].lag_ns), 1);
}

static void successors(struct sim_state *st, size_t *fill)
{
	size_t n = st->nodes, i;

	each_link(st, NULL);
	for (i = 0; i < n; i++)
		st->succ_off[i + 1] += st->succ_off[i];
	memcpy(fill, st->succ_off, n * sizeof(*fill));
	each_link(st, fill);
	for (i = 0; i < n; i++) {
		st->release[i] = (double)node_release(st->jg, i);
		if (!st->left[i])
			dpush(&st->pending, st->release[i], i);
	}
}

/* The released nodes due by t: a job to the ready queue, a mark passed at once (it takes no time). */
static void release_due(struct sim_state *st, double t, double *makespan)
{
	while (st->pending.nr && dtop(&st->pending) <= t) {
		size_t i = dpop(&st->pending);

		if (i < st->jg->nr_jobs) {
			dpush(&st->ready, -(double)st->jg->jobs[i].rank, i);
			continue;
		}
		end_node(st, i, t);
		*makespan = t > *makespan ? t : *makespan;
	}
}

/* Moves time on to the next event and handles every event due then; the time. */
static double step(struct sim_state *st, double t, double *makespan)
{
	double rate = thread_rate(st), dt = dtop(&st->pending) - t, d;

	d = (dtop(&st->on_cpu) - st->virt) / rate;
	dt = d < dt ? d : dt;
	d = (dtop(&st->early_cpu) - st->virt) / rate;
	dt = d < dt ? d : dt;
	d = dtop(&st->blocked) - t;
	dt = d < dt ? d : dt;
	d = dtop(&st->early_blocked) - t;
	dt = d < dt ? d : dt;
	dt = dt > 0 ? dt : 0;
	t += dt;
	st->virt += dt * rate;
	/* Within half a nanosecond of CPU work: done (floating point).  What a
	 * job let go before its end goes first: its key is never later. */
	while (st->early_cpu.nr && dtop(&st->early_cpu) <= st->virt + 0.5)
		pass(st, dpop(&st->early_cpu), t);
	while (st->on_cpu.nr && dtop(&st->on_cpu) <= st->virt + 0.5) {
		size_t j = dpop(&st->on_cpu);

		st->threads -= st->width[j];
		dpush(&st->blocked, t + job_blocked(st, j), j);
		schedule_early(st, j, t, false);
	}
	if (!st->on_cpu.nr)
		st->threads = 0; /* no drift left by the sums */
	while (st->early_blocked.nr && dtop(&st->early_blocked) <= t + 0.5)
		pass(st, dpop(&st->early_blocked), t);
	while (st->blocked.nr && dtop(&st->blocked) <= t + 0.5) {
		end_node(st, dpop(&st->blocked), t);
		*makespan = t;
	}
	release_due(st, t, makespan);
	return t;
}

static void simulate(struct sim_state *st, __u64 *wall_ns)
{
	double t = 0, makespan = 0;

	release_due(st, t, &makespan);
	for (;;) {
		while (st->ready.nr && st->running < st->mc->slots)
			start_job(st, dpop(&st->ready), t);
		if (!st->running && !st->pending.nr)
			break;
		t = step(st, t, &makespan);
	}
	*wall_ns = (__u64)(makespan + 0.5) + st->jg->tail_ns;
}

int cpu_sim__run(const struct job_graph *jg, const struct job_contention *c, const struct cpu_machine *mc,
		 __u64 *wall_ns)
{
	size_t n = jg->nr_jobs + jg->nr_marks, nr_succ = jg->nr_data_edges + jg->nr_links + 1, *fill;
	struct sim_state st = { .jg = jg, .c = c, .mc = mc, .nodes = n };
	int err = -ENOMEM;

	if (!jg->nr_jobs) {
		*wall_ns = jg->wall_ns;
		return 0;
	}
	st.succ_off = calloc(n + 1, sizeof(*st.succ_off));
	st.succ = malloc(nr_succ * sizeof(*st.succ));
	st.lag = malloc(nr_succ * sizeof(*st.lag));
	st.share = malloc(nr_succ * sizeof(*st.share));
	st.passed = calloc(nr_succ, sizeof(*st.passed));
	st.work = calloc(n, sizeof(*st.work));
	st.early_cpu.items = malloc(nr_succ * sizeof(*st.early_cpu.items));
	st.early_blocked.items = malloc(nr_succ * sizeof(*st.early_blocked.items));
	st.release = malloc(n * sizeof(*st.release));
	fill = malloc(n * sizeof(*fill));
	st.left = calloc(n, sizeof(*st.left));
	st.width = malloc(n * sizeof(*st.width));
	st.pending.items = malloc(n * sizeof(*st.pending.items));
	st.ready.items = malloc(n * sizeof(*st.ready.items));
	st.on_cpu.items = malloc(n * sizeof(*st.on_cpu.items));
	st.blocked.items = malloc(n * sizeof(*st.blocked.items));
	if (st.succ_off && st.succ && st.lag && st.release && fill && st.left && st.width && st.pending.items &&
	    st.ready.items && st.on_cpu.items && st.blocked.items && st.share && st.passed && st.work &&
	    st.early_cpu.items && st.early_blocked.items) {
		successors(&st, fill);
		simulate(&st, wall_ns);
		err = 0;
	}
	free(st.succ_off);
	free(st.succ);
	free(st.lag);
	free(st.share);
	free(st.passed);
	free(st.work);
	free(st.early_cpu.items);
	free(st.early_blocked.items);
	free(st.release);
	free(fill);
	free(st.left);
	free(st.width);
	free(st.pending.items);
	free(st.ready.items);
	free(st.on_cpu.items);
	free(st.blocked.items);
	return err;
}
