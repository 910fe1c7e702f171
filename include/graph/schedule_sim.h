/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if by simulation: the build's jobs (what make or ninja ran in a job
 * slot), their measured durations and the data edges between them, replayed
 * by list scheduling on a number of slots.  Pure: the jobs
 * (graph/job_graph.h) in, predicted wall times out; tested from synthetic
 * graphs with known answers.
 *
 *   schedule_sim__run(&jg, 4, NULL, &wall_ns);       -j4 on 4 CPUs
 *   schedule_sim__run(&jg, SIM_UNLIMITED, NULL, &w);  the longest path of data and runners' order
 *
 * The model: a job takes its measured wall time wherever it runs; it starts
 * when a slot is free, every job whose output it read had ended (or, for a
 * file published while its writer ran on, had run that share of its run), and its
 * runner's own order let it (graph/run_order.h: the job or phase before it
 * of a shell that ran them one after another, its runner's parse time) in
 * the simulation, not on the measured clock; ready jobs start in the order
 * the build started them, a cargo's by its own rank (graph/ready_rank.h:
 * the unit the most others need first).  It ignores disk, memory, and CPU contention
 * beyond the slots (a job is as fast beside 63 others as it was beside
 * N-1).  The what-if with CPUs (graph/cpu_sim.h) is the same list
 * scheduler; this replay is its case of fixed job times.
 */
#ifndef BUILDBPF_SCHEDULE_SIM_H
#define BUILDBPF_SCHEDULE_SIM_H

#include <stddef.h>
#include <linux/types.h>
#include "graph/cpu_sim.h"
#include "graph/job_graph.h"

/*
 * The predicted wall time with `slots` jobs at a time (SIM_UNLIMITED: the
 * longest path of data and the runners' order), from the build's start to
 * its end (its measured tail after the last job or mark added).  dur: per job, durations to use instead of the
 * measured ones; NULL: measured.  0, or -ENOMEM.
 */
int schedule_sim__run(const struct job_graph *jg, size_t slots, const __u64 *dur, __u64 *wall_ns);

#endif /* BUILDBPF_SCHEDULE_SIM_H */
