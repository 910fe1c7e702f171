/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j that fits the machine's memory (issue 16 item 4).  Pure: the
 * process model in, one figure and the assumptions behind it out; the
 * audit prints it as one answer and --summary-json as memory.jobs_fit.
 *
 * The model, stated so a reader can check it:
 *  - the build's long-lived processes (alive for at least half the wall
 *    time: make, ninja, the command's shell) hold their peaks throughout:
 *    base_kb, their sum;
 *  - every other process that is not a wrapper is a job step; the program
 *    whose steps' peaks add up to the most (cc1 in a C build) decides how
 *    much one job holds: job_kb, the 95th percentile of its exact peaks
 *    (nearest rank), so a rare outlier does not set it but a common large
 *    file does;
 *  - N jobs at once hold base_kb + N * job_kb; the answer is the largest N
 *    for which that stays within JOBS_FIT_RAM_PERMILLE of the RAM.
 * It is given only when the figures support it: the RAM is known (the
 * build memory was sampled, --mem-period), the peaks are exact (image
 * records), and the deciding program ran at least JOBS_FIT_MIN_RUNS times;
 * otherwise the reason is kept instead.  Concurrent steps of other
 * programs (the assembler beside a compiler) and single large steps (one
 * link) are not in the figure: docs/memory-io.md says so.
 */
#ifndef BUILDBPF_AUDIT_JOBS_FIT_H
#define BUILDBPF_AUDIT_JOBS_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/model.h"

/* The share of the RAM the build may fill: the rest is the system's and the page cache's. */
#define JOBS_FIT_RAM_PERMILLE 800
/* Runs of the deciding program needed before its 95th percentile means anything. */
#define JOBS_FIT_MIN_RUNS 10
#define JOBS_FIT_PERCENTILE 95
/* A process alive for at least this share of the wall is part of the base, not a job. */
#define JOBS_FIT_LONG_LIVED_PERMILLE 500

enum jobs_fit_verdict {
	JOBS_FIT_OK,	    /* jobs is the answer (0: not even one job fits) */
	JOBS_FIT_NO_RAM,    /* the RAM was not recorded (--mem-period off) */
	JOBS_FIT_NO_PEAKS,  /* no job step has an exact peak */
	JOBS_FIT_TOO_FEW,   /* program ran fewer than JOBS_FIT_MIN_RUNS times */
};

struct jobs_fit {
	enum jobs_fit_verdict verdict;
	const char *program; /* the deciding program (points into the model); NULL: none */
	size_t runs;	     /* its steps with an exact peak */
	__u64 job_kb;	     /* the JOBS_FIT_PERCENTILE of their peaks */
	size_t at_once;	     /* most of them alive at once in this build */
	__u64 base_kb;	     /* summed peaks of the long-lived processes */
	size_t nr_base;
	long base_proc;	     /* the largest of them (index in model->procs); -1: none */
	__u64 ram_kb;	     /* the machine's RAM as recorded; 0: unknown */
	__u64 limit_kb;	     /* JOBS_FIT_RAM_PERMILLE of it */
	long jobs;	     /* JOBS_FIT_OK: the largest N that fits */
	__u64 expected_kb;   /* JOBS_FIT_OK: base_kb + jobs * job_kb */
	/* The program whose largest step is above job_kb, the largest such:
	 * rarer steps the figure leaves out (a link, a few big compiles).
	 * NULL: none. */
	const char *larger_program;
	__u64 larger_kb;     /* its largest step's peak */
	size_t larger_runs;
};

/*
 * Fills f from m; wrapper (per process of m, may be NULL: none) marks the
 * processes that only hand work to their children, which are not job
 * steps.  0, or -ENOMEM.
 */
int jobs_fit__compute(struct jobs_fit *f, const struct model *m, const bool *wrapper);

#endif /* BUILDBPF_AUDIT_JOBS_FIT_H */
