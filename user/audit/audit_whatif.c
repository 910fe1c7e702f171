// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "graph/cpu_sim.h"
#include "graph/slack.h"
#include "audit/audit.h"
#include "audit/audit_whatif.h"

__u64 audit_whatif__step_held(const struct audit *a, size_t i)
{
	const struct critical_step *s = &a->graph->path.steps[a->chain_step[i]];

	return s->to_ns - s->from_ns;
}

bool audit_whatif__is_step(const struct audit *a, size_t i)
{
	return !a->graph || !a->graph->jobs.nr_jobs || a->graph->jobs.proc_job[a->chain[i]] >= 0;
}

size_t audit_whatif__nr_steps(const struct audit *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nr_chain; i++)
		n += audit_whatif__is_step(a, i);
	return n;
}

size_t audit_whatif__base(const struct audit_whatif *w)
{
	size_t i, base = 0;

	for (i = 1; i < w->nr_rows; i++)
		if (w->rows[i].kind == WHATIF_OWN_QUIET)
			base = i;
	return base;
}

/* A row unless one like it is there: as run stands apart; a quiet row is one per (-j, CPUs). */
static int add_row(struct audit_whatif *w, const struct job_graph *jg, enum whatif_row_kind kind, size_t jobs,
		   size_t cpus)
{
	struct cpu_machine mc = { .slots = jobs, .cpus = cpus, .quiet = kind != WHATIF_AS_RUN };
	struct whatif_row *r;
	size_t i;

	/* On a machine that was quiet, as run stands for its own -j on a quiet machine too. */
	for (i = kind == WHATIF_AS_RUN ? w->nr_rows : w->was_quiet ? 0 : 1; i < w->nr_rows; i++)
		if (w->rows[i].jobs == jobs && w->rows[i].cpus == cpus)
			return 0;
	r = &w->rows[w->nr_rows++];
	*r = (struct whatif_row){ .kind = kind, .jobs = jobs, .cpus = cpus, .quiet = kind != WHATIF_AS_RUN,
				  .own = kind == WHATIF_AS_RUN || kind == WHATIF_OWN_QUIET };
	mc.outside = kind == WHATIF_AS_RUN ? w->outside_threads : w->burst_threads;
	return cpu_sim__run(jg, &w->contention, &mc, &r->wall_ns);
}

/* The CPUs the build could use: those it ran on, when it waited for a CPU 10 % of the wall (taskset -c 0). */
static size_t cpus_usable(const struct audit *a)
{
	size_t cpus = a->nr_cpus ? a->nr_cpus : 1;

	if (!a->par || !a->cpus_build_ran || a->runq_wall_ns * 1000 < a->wall_ns * WHATIF_CONFINED_WAIT_PERMILLE)
		return cpus;
	return a->cpus_build_ran < cpus ? a->cpus_build_ran : cpus;
}

/*
 * The outside threads the build's shared the CPUs with.  Under fair sharing
 * every thread wanting a CPU got cpus / (build's + outside's) of one, and
 * the build's got cpu / (cpu + run-queue wait) of theirs; when they hardly
 * waited, the outside work only took what the build left idle.
 *
 * Jobs' threads come in bursts, which their averages over each job's wall
 * smooth away, so the build waited more than its averages explain and the
 * inferred outside holds some of its own waits.  Of the wall time its
 * threads waited, the share while a CPU ran outside work was the outside's
 * doing (audit.noisy_ns); the rest, as the same share of the inferred
 * threads, is the build's own: w->burst_threads, kept on a quiet machine.
 */
static void learn_outside(struct audit_whatif *w, const struct audit *a, const struct job_graph *jg)
{
	double got = w->cpu_ns + w->runq_ns ? (double)w->cpu_ns / (double)(w->cpu_ns + w->runq_ns) : 1, wanting;
	__u64 first = UINT64_MAX, last = 0;
	size_t j;

	w->outside_threads = w->outside_cpus;
	if (got >= WHATIF_UNCONTENDED)
		return;
	for (j = 0; j < jg->nr_jobs; j++) {
		first = jg->jobs[j].start_ns < first ? jg->jobs[j].start_ns : first;
		last = jg->jobs[j].end_ns > last ? jg->jobs[j].end_ns : last;
	}
	/* The build's threads wanting a CPU, on average while its jobs ran. */
	wanting = last > first ? (double)(w->cpu_ns + w->runq_ns) / (double)(last - first) : 0;
	w->outside_threads = (double)w->cpus_as_run / got > wanting ? (double)w->cpus_as_run / got - wanting : 0;
	if (a->runq_wall_ns > a->noisy_ns)
		w->burst_threads = w->outside_threads * (double)(a->runq_wall_ns - a->noisy_ns) / (double)a->runq_wall_ns;
}

/* What the jobs were made of, and the machine they ran on. */
static int learn_jobs(struct audit_whatif *w, const struct audit *a)
{
	const struct job_graph *jg = &a->graph->jobs;
	size_t j, cpus = a->nr_cpus ? a->nr_cpus : 1;

	w->cpu_model = jg->cpu_known && a->par;
	w->cpus_as_run = cpus_usable(a);
	/* Outside work on the CPUs the build could use. */
	if (a->par && a->wall_ns)
		w->outside_cpus = (double)a->other_ns / (double)a->wall_ns * (double)w->cpus_as_run / (double)cpus;
	for (j = 0; w->cpu_model && j < jg->nr_jobs; j++) {
		w->cpu_ns += jg->jobs[j].cpu_ns;
		w->runq_ns += jg->jobs[j].runq_ns;
		w->blocked_ns += (__u64)cpu_sim__blocked_ns(jg, j);
	}
	if (!w->cpu_model)
		return 0;
	learn_outside(w, a, jg);
	w->was_quiet = w->outside_threads - w->burst_threads < WHATIF_QUIET_OUTSIDE && w->cpus_as_run == cpus;
	return job_contention__learn(&w->contention, jg, w->cpus_as_run, w->outside_cpus);
}

/* The chain's entries, longest held first. */
static int by_held(const void *x, const void *y, void *ctx)
{
	const struct audit *a = ctx;
	__u64 hx = audit_whatif__step_held(a, *(const size_t *)x), hy = audit_whatif__step_held(a, *(const size_t *)y);

	return hx != hy ? (hx > hy ? -1 : 1) : (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

/*
 * A step inside a job shortens that job and the jobs are re-simulated on
 * the CPUs, as the rows are.  A
 * part held by no job (a runner reading its makefiles, starting jobs one
 * after another, waiting for a slot) is not a step: the audit sums it, with
 * the parts too short to list, into chain_no_job_ns; it is never simulated,
 * so no runner is named to speed up.
 */
static int compute_steps(struct audit_whatif *w, const struct audit *a)
{
	const struct job_graph *jg = &a->graph->jobs;
	size_t *order = malloc((a->nr_chain ? a->nr_chain : 1) * sizeof(*order)), i;
	const struct whatif_row *base = &w->rows[audit_whatif__base(w)];
	/* The base row's machine: as run only when it was quiet (outside work stretches every job alike). */
	struct cpu_machine mc = { .slots = base->jobs, .cpus = base->cpus, .quiet = base->quiet,
				  .outside = base->quiet ? w->burst_threads : w->outside_threads };
	int err = 0;

	w->without_ns = calloc(a->nr_chain ? a->nr_chain : 1, sizeof(*w->without_ns));
	if (!order || !w->without_ns) {
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr_chain; i++)
		order[i] = i;
	qsort_r(order, a->nr_chain, sizeof(*order), by_held, (void *)a);
	for (i = 0; !err && i < a->nr_chain && i < WHATIF_MAX_STEPS; i++) {
		size_t k = order[i];
		long job = jg->proc_job[a->chain[k]];
		__u64 held = audit_whatif__step_held(a, k);

		/* Longest first: the rest would move the wall by less than 1 % each. */
		if (!whatif_over_step_min(held, a->wall_ns))
			break;
		if (job >= 0)
			err = slack__wall_without(jg, &w->contention, &mc, (size_t)job, held, &w->without_ns[k]);
	}
	free(order);
	return err;
}

int audit_whatif__compute(struct audit_whatif *w, const struct audit *a)
{
	const struct job_graph *jg;
	size_t own, cpus = a->nr_cpus ? a->nr_cpus : 1;
	int err;

	memset(w, 0, sizeof(*w));
	if (!a->graph || !a->graph->jobs.nr_jobs)
		return 0;
	jg = &a->graph->jobs;
	w->from = a->jobs.jobs ? WHATIF_JOBS_ASKED : WHATIF_JOBS_PEAK;
	w->was_quiet = true; /* unless the scheduler's figures say otherwise */
	own = a->jobs.jobs > 0 ? (size_t)a->jobs.jobs : a->jobs.jobs < 0 ? SIM_UNLIMITED : jg->peak_jobs;
	w->nr_jobs = jg->nr_jobs;
	w->nr_job_edges = jg->nr_data_edges;
	w->nr_shell_calls = jg->nr_shell_calls;
	err = learn_jobs(w, a) ?:
	      add_row(w, jg, WHATIF_AS_RUN, own, w->cpus_as_run) ?:
	      add_row(w, jg, WHATIF_OWN_QUIET, own, cpus) ?:
	      add_row(w, jg, WHATIF_ONE_JOB, 1, cpus) ?:
	      add_row(w, jg, WHATIF_JOBS_CPUS, cpus, cpus) ?:
	      add_row(w, jg, WHATIF_TWICE_JOBS, 2 * cpus, cpus) ?:
	      add_row(w, jg, WHATIF_TWICE_CPUS, 2 * cpus, 2 * cpus) ?:
	      add_row(w, jg, WHATIF_UNLIMITED, SIM_UNLIMITED, 0) ?:
	      compute_steps(w, a);
	if (err) {
		audit_whatif__free(w);
		return err;
	}
	w->known = true;
	return 0;
}

const char *audit_whatif__assumes(enum whatif_row_kind kind)
{
	switch (kind) {
	case WHATIF_AS_RUN:
		return "as run: the machine as it was, its outside work included";
	case WHATIF_OWN_QUIET:
		return "its own -j on a quiet machine";
	case WHATIF_ONE_JOB:
		return "one job at a time, quiet";
	case WHATIF_JOBS_CPUS:
		return "as many jobs as CPUs, quiet";
	case WHATIF_TWICE_JOBS:
		return "twice the CPUs as jobs on these CPUs, quiet";
	case WHATIF_TWICE_CPUS:
		return "twice the CPUs and as many jobs, quiet";
	case WHATIF_UNLIMITED:
		break;
	}
	return "unlimited jobs and CPUs: the longest path of data and the runners' order, each job as fast as alone";
}

const char *audit_whatif__kind_name(enum whatif_row_kind kind)
{
	static const char *const names[] = { "as_run", "own_quiet", "one_job", "jobs_as_cpus", "twice_cpus_as_jobs",
					     "twice_cpus", "unlimited" };

	return names[kind];
}

void audit_whatif__free(struct audit_whatif *w)
{
	if (!w)
		return;
	free(w->without_ns);
	w->without_ns = NULL;
	job_contention__free(&w->contention);
	w->known = false;
}
