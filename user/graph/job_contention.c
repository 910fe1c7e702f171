// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "graph/job_contention.h"

struct density_step {
	__u64 at;
	double delta; /* CPUs' worth of work starting (+) or ending (-) at `at` */
};

static int by_at(const void *a, const void *b)
{
	const struct density_step *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/* The integral of the density from the first step to t: steps[] sorted, cum[k] the integral to steps[k].at. */
static double integral_to(const struct density_step *steps, const double *cum, const double *level, size_t n,
			  __u64 t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the last step at or before t */
		size_t mid = (lo + hi) / 2;

		if (steps[mid].at <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	return cum[lo - 1] + level[lo - 1] * (double)(t - steps[lo - 1].at);
}

/*
 * Other CPUs busy beside each job: each job's CPU spread evenly over its
 * life is a density; its integral over a job's life, less the job's own
 * CPU, over its wall.  Sorted steps and a prefix integral: n log n.
 */
static int busy_beside(struct job_contention *c, const struct job_graph *jg, size_t cpus, double outside)
{
	size_t n = 2 * jg->nr_jobs, i, k = 0;
	struct density_step *steps = malloc((n ? n : 1) * sizeof(*steps));
	double *cum = malloc((n ? n : 1) * sizeof(*cum)), *level = malloc((n ? n : 1) * sizeof(*level)), now = 0;

	if (!steps || !cum || !level) {
		free(steps);
		free(cum);
		free(level);
		return -ENOMEM;
	}
	for (i = 0; i < jg->nr_jobs; i++) {
		const struct sim_job *j = &jg->jobs[i];
		double d = j->end_ns > j->start_ns ? (double)j->cpu_ns / (double)(j->end_ns - j->start_ns) : 0;

		steps[k++] = (struct density_step){ j->start_ns, d };
		steps[k++] = (struct density_step){ j->end_ns, -d };
	}
	qsort(steps, n, sizeof(*steps), by_at);
	for (i = 0; i < n; i++) {
		cum[i] = i ? cum[i - 1] + level[i - 1] * (double)(steps[i].at - steps[i - 1].at) : 0;
		now += steps[i].delta;
		level[i] = now > 0 ? now : 0;
	}
	for (i = 0; i < jg->nr_jobs; i++) {
		const struct sim_job *j = &jg->jobs[i];
		double wall = (double)(j->end_ns - j->start_ns), others;

		others = integral_to(steps, cum, level, n, j->end_ns) - integral_to(steps, cum, level, n, j->start_ns) -
			 (double)j->cpu_ns;
		c->busy[i] = (wall > 0 && others > 0 ? others / wall : 0) + outside;
		if (c->busy[i] > (double)cpus - 1)
			c->busy[i] = cpus > 1 ? (double)cpus - 1 : 0;
	}
	free(steps);
	free(cum);
	free(level);
	return 0;
}

static bool fitted(const struct job_graph *jg, const size_t *per_program, size_t j)
{
	return jg->jobs[j].cpu_ns >= CONTENTION_MIN_CPU_NS && per_program[jg->jobs[j].program] >= 2;
}

/*
 * Each job's CPU time against its program's mean, y = cpu / mean - 1, and
 * its busy against its program's, dx: the pooled slope beta = sum(dx y) /
 * sum(dx^2) is slowdown / (1 + slowdown * mean busy), solved for slowdown.
 */
static void fit(struct job_contention *c, const struct job_graph *jg, size_t *per_program, double *cpu_mean,
		double *busy_mean)
{
	double sxx = 0, sxy = 0, syy = 0, busy_all = 0, beta, denom, fit_slope;
	size_t n = jg->nr_jobs, j, groups = 0;

	for (j = 0; j < n; j++)
		if (jg->jobs[j].cpu_ns >= CONTENTION_MIN_CPU_NS)
			per_program[jg->jobs[j].program]++;
	for (j = 0; j < n; j++) {
		if (!fitted(jg, per_program, j))
			continue;
		cpu_mean[jg->jobs[j].program] += (double)jg->jobs[j].cpu_ns / per_program[jg->jobs[j].program];
		busy_mean[jg->jobs[j].program] += c->busy[j] / per_program[jg->jobs[j].program];
		groups += jg->jobs[j].program == j;
	}
	for (j = 0; j < n; j++) {
		size_t g = jg->jobs[j].program;
		double dx, y;

		if (!fitted(jg, per_program, j))
			continue;
		dx = c->busy[j] - busy_mean[g];
		y = (double)jg->jobs[j].cpu_ns / cpu_mean[g] - 1;
		sxx += dx * dx;
		sxy += dx * y;
		syy += y * y;
		busy_all += c->busy[j];
		c->nr_fitted++;
	}
	if (!c->nr_fitted)
		return;
	c->spread = sqrt(sxx / c->nr_fitted);
	busy_all /= c->nr_fitted;
	if (c->nr_fitted < CONTENTION_MIN_JOBS || c->spread < CONTENTION_MIN_SPREAD || sxx <= 0)
		return;
	beta = sxy / sxx;
	denom = 1 - beta * busy_all;
	/* The fit as it came, within [0, 4] to be said; applied within [0, CONTENTION_MAX]. */
	fit_slope = denom > 0.2 ? beta / denom : 4.0;
	fit_slope = fit_slope < 0 ? 0 : fit_slope > 4.0 ? 4.0 : fit_slope;
	/* One slope and one mean per program are fitted. */
	if (c->nr_fitted > groups + 1 && denom > 0) {
		double resid = syy - beta * sxy;

		c->slowdown_se = sqrt((resid > 0 ? resid : 0) / (double)(c->nr_fitted - groups - 1) / sxx) / (denom * denom);
	}
	if (fit_slope < CONTENTION_MIN_T * c->slowdown_se) {
		c->noisy = true;
		c->noisy_slowdown = fit_slope;
		return;
	}
	c->learned = true;
	c->slowdown = fit_slope > CONTENTION_MAX ? CONTENTION_MAX : fit_slope;
}

int job_contention__learn(struct job_contention *c, const struct job_graph *jg, size_t cpus, double outside)
{
	size_t n = jg->nr_jobs ? jg->nr_jobs : 1, *per_program;
	double *cpu_mean, *busy_mean;
	int err;

	memset(c, 0, sizeof(*c));
	c->busy = calloc(n, sizeof(*c->busy));
	per_program = calloc(n, sizeof(*per_program));
	cpu_mean = calloc(n, sizeof(*cpu_mean));
	busy_mean = calloc(n, sizeof(*busy_mean));
	if (!c->busy || !per_program || !cpu_mean || !busy_mean) {
		free(per_program);
		free(cpu_mean);
		free(busy_mean);
		job_contention__free(c);
		return -ENOMEM;
	}
	err = jg->cpu_known ? busy_beside(c, jg, cpus, outside) : 0;
	if (!err && jg->cpu_known)
		fit(c, jg, per_program, cpu_mean, busy_mean);
	free(per_program);
	free(cpu_mean);
	free(busy_mean);
	if (err)
		job_contention__free(c);
	return err;
}

double job_contention__alone_ns(const struct job_contention *c, const struct job_graph *jg, size_t j)
{
	return (double)jg->jobs[j].cpu_ns / (1 + (c && c->busy ? c->slowdown * c->busy[j] : 0));
}

void job_contention__free(struct job_contention *c)
{
	if (!c)
		return;
	free(c->busy);
	memset(c, 0, sizeof(*c));
}
