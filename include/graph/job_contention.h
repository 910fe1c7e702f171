/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much the build's jobs slowed each other, learned from one recording.
 * Pure; tested from synthetic graphs with known answers.
 *
 * A job's CPU time grows with the CPUs busy beside it (shared caches,
 * memory bandwidth, a host's other vCPUs): cpu = alone * (1 + slowdown *
 * busy), busy the average CPUs' worth of other jobs' and outside work
 * while it ran (its other jobs' CPU spread evenly over their lives).  The
 * slowdown is the slope of CPU time against busy among jobs of the same
 * program, each against its program's mean, so a link is never compared
 * with a compile.  It is not learned when the jobs ran at one concurrency
 * (a -j1 build alone on the machine): then 0, and `learned` false.
 */
#ifndef BUILDBPF_JOB_CONTENTION_H
#define BUILDBPF_JOB_CONTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include "graph/job_graph.h"

/* Jobs with less CPU than this are start-up noise: not fitted. */
#define CONTENTION_MIN_CPU_NS 10000000ull
/* Fewest fitted jobs, and the least spread of busy (standard deviation, CPUs), to learn from. */
#define CONTENTION_MIN_JOBS 4
#define CONTENTION_MIN_SPREAD 0.15
/*
 * The slope is kept within [0, CONTENTION_MAX]: a busy CPU beside a job at
 * most doubles its CPU time (json-c's compiles on two SMT siblings: +82 %);
 * a steeper fit is noise, and extrapolated to 4 CPUs it made more CPUs slower.
 */
#define CONTENTION_MAX 1.0
/* A fitted slope is used only when it stands this many standard errors clear of 0. */
#define CONTENTION_MIN_T 2.0

struct job_contention {
	double *busy;	   /* per job: other CPUs busy while it ran, average, capped at cpus - 1 */
	double slowdown;   /* per busy CPU, relative; 0 when not learned */
	double slowdown_se; /* the slope's standard error (same unit); 0 when not learned */
	double spread;	   /* standard deviation of busy over the fitted jobs */
	size_t nr_fitted;  /* jobs that took part */
	bool learned;
	/* Fitted but not learned: within CONTENTION_MIN_T standard errors of 0
	 * (a machine whose speed drifted during the build); the fit is kept in
	 * noisy_slowdown and slowdown_se, to be said, and slowdown is 0. */
	bool noisy;
	double noisy_slowdown;
};

/*
 * cpus: the machine's; outside: CPUs' worth of outside work, on average.
 * Without the jobs' CPU times (jg->cpu_known false) nothing is learned.
 * 0, or -ENOMEM.
 */
int job_contention__learn(struct job_contention *c, const struct job_graph *jg, size_t cpus, double outside);
/* Job j's CPU time alone: what it needs at no slowing. */
double job_contention__alone_ns(const struct job_contention *c, const struct job_graph *jg, size_t j);
void job_contention__free(struct job_contention *c);

#endif /* BUILDBPF_JOB_CONTENTION_H */
