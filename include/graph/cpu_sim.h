/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if with CPUs: the build's jobs (graph/job_graph.h) replayed on J
 * job slots and N CPUs that the running jobs share.  Pure; tested from
 * synthetic graphs with known answers.
 *
 * A job needs its CPU time, then its blocked time (I/O, sleeps, waiting for
 * its children, no CPU); the run-queue wait it had is left out, the
 * simulation makes its own.  The jobs' threads needing a CPU and the
 * outside work's share the CPUs equally (processor sharing, as the kernel's
 * fair scheduler does), a job counting as many threads as wanted a CPU at
 * once when measured (cpu_sim__width()).  Each busy CPU besides a job's own slows its CPU work
 * by `slowdown` (graph/job_contention.h learns it from the recording: CPUs
 * that share caches, memory and a host slow each other).  Without --sched
 * figures a job takes its measured wall time, waits for a CPU included.  A
 * reader of a file its writer published while running on (a rename:
 * rustc's .rmeta) goes when the writer has run the share of its run (its
 * CPU work, then its blocked time) it published the file at.
 *
 *   struct cpu_machine mc = { .slots = 4, .cpus = 4 };
 *   cpu_sim__run(&jg, &contention, &mc, &wall_ns);
 */
#ifndef BUILDBPF_CPU_SIM_H
#define BUILDBPF_CPU_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <stdint.h>
#include "graph/job_graph.h"

/* As many job slots as there are jobs: no -j limit. */
#define SIM_UNLIMITED SIZE_MAX

struct job_contention;

/* The machine a what-if row stands for. */
struct cpu_machine {
	size_t slots;	/* -j; SIM_UNLIMITED */
	size_t cpus;	/* 0: unlimited (each job as fast as it ran alone) */
	/* Always-runnable threads sharing the CPUs with the jobs: the outside work as run; on a quiet machine
	 * only the build's own waits its jobs' averages smooth away (audit/audit_whatif.h burst_threads). */
	double outside;
	/* The runners' own gaps and the steps outside any job (graph/run_order.h)
	 * without their run-queue share: a quiet machine's; false: as measured. */
	bool quiet;
	/* The replay of wall times (graph/schedule_sim.h): each job takes its
	 * measured wall time, or dur[job] when dur is set, and needs no CPU. */
	bool replay;
	const __u64 *dur;
	/* Per job, the share of its CPU work and blocked time it keeps (a step
	 * that took no time, graph/slack.h); NULL: all of it. */
	const double *keep;
};

/*
 * The predicted wall time, from the build's start to its end (its measured
 * tail after the last job added).  c: the jobs' own pace (NULL: no slowing).
 * 0, or -ENOMEM.
 */
int cpu_sim__run(const struct job_graph *jg, const struct job_contention *c, const struct cpu_machine *mc,
		 __u64 *wall_ns);

/* Job j's threads wanting a CPU at once, on average over its wall (1 at least). */
double cpu_sim__width(const struct job_graph *jg, size_t j);

/* Job j's blocked time: its wall without its CPU and run-queue times (all of it without --sched). */
double cpu_sim__blocked_ns(const struct job_graph *jg, size_t j);

#endif /* BUILDBPF_CPU_SIM_H */
