// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/slack.h"
#include "audit/audit.h"
#include "audit/audit_whatif.h"

__u64 audit_whatif__step_held(const struct audit *a, size_t i)
{
	const struct critical_step *s = &a->graph->path[a->chain_step[i]];

	return s->to_ns - s->from_ns;
}

bool audit_whatif__is_step(const struct audit *a, size_t i)
{
	return !a->graph || !a->graph->jobs.nr_jobs || a->graph->jobs.proc_job[a->chain[i]] >= 0;
}

static int add_row(struct audit_whatif *w, const struct job_graph *jg, size_t jobs, size_t cpus, bool own)
{
	struct whatif_row *r;
	size_t i;

	for (i = 0; i < w->nr_rows; i++)
		if (w->rows[i].jobs == jobs && !w->rows[i].cpus == !cpus)
			return 0; /* -j8 on 2 CPUs asked: 2x the CPUs is not another row; make -j keeps its own */
	r = &w->rows[w->nr_rows++];
	*r = (struct whatif_row){ .jobs = jobs, .cpus = cpus, .own = own };
	return schedule_sim__run(jg, jobs, NULL, &r->wall_ns);
}

/* The chain's entries, longest held first. */
static int by_held(const void *x, const void *y, void *ctx)
{
	const struct audit *a = ctx;
	__u64 hx = audit_whatif__step_held(a, *(const size_t *)x), hy = audit_whatif__step_held(a, *(const size_t *)y);

	return hx != hy ? (hx > hy ? -1 : 1) : (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

/*
 * A step inside a job shortens that job and the jobs are re-simulated.  A
 * part held by no job (a runner reading its makefiles, starting jobs one
 * after another, waiting for a slot) is not a step: it is summed into
 * runner_held_ns and never simulated, so no runner is named to speed up.
 */
static int compute_steps(struct audit_whatif *w, const struct audit *a)
{
	const struct job_graph *jg = &a->graph->jobs;
	size_t *order = malloc((a->nr_chain ? a->nr_chain : 1) * sizeof(*order)), i;
	int err = 0;

	w->without_ns = calloc(a->nr_chain ? a->nr_chain : 1, sizeof(*w->without_ns));
	if (!order || !w->without_ns) {
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr_chain; i++) {
		order[i] = i;
		if (!audit_whatif__is_step(a, i))
			w->runner_held_ns += audit_whatif__step_held(a, i);
	}
	qsort_r(order, a->nr_chain, sizeof(*order), by_held, (void *)a);
	for (i = 0; !err && i < a->nr_chain && i < WHATIF_MAX_STEPS; i++) {
		size_t k = order[i];
		long job = jg->proc_job[a->chain[k]];
		__u64 held = audit_whatif__step_held(a, k);

		/* Longest first: the rest would move the wall by less than 1 % each. */
		if (held * 1000 < a->wall_ns * WHATIF_STEP_MIN_PERMILLE)
			break;
		if (job >= 0)
			err = slack__wall_without(jg, w->rows[0].jobs, (size_t)job, held, &w->without_ns[k]);
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
	own = a->jobs.jobs > 0 ? (size_t)a->jobs.jobs : a->jobs.jobs < 0 ? SIM_UNLIMITED : jg->peak_jobs;
	w->nr_jobs = jg->nr_jobs;
	w->nr_job_edges = jg->nr_data_edges;
	err = add_row(w, jg, own, cpus, true) ?:
	      (own < cpus ? add_row(w, jg, cpus, cpus, false) : 0) ?:
	      add_row(w, jg, 2 * cpus, 2 * cpus, false) ?:
	      add_row(w, jg, 4 * cpus, 4 * cpus, false) ?:
	      add_row(w, jg, SIM_UNLIMITED, 0, false) ?:
	      compute_steps(w, a);
	if (err) {
		audit_whatif__free(w);
		return err;
	}
	w->known = true;
	return 0;
}

void audit_whatif__free(struct audit_whatif *w)
{
	if (!w)
		return;
	free(w->without_ns);
	w->without_ns = NULL;
	w->known = false;
}
