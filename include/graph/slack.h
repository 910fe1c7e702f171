/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slack and potential improvement over the build's jobs (graph/job_graph.h).
 * Pure; tested from synthetic graphs with known answers.
 *
 * Slack of a job: how much later it could have ended, every other job
 * keeping its measured start and length, without delaying the build's last
 * job.  What holds it: the jobs that read its output (data edges) and, for a
 * runner that ran its jobs one at a time, the job it ran next.  Job slots of
 * a parallel runner do not (the what-if simulation covers them), so a job
 * that held a -jN slot another job waited for can show slack it did not have.
 */
#ifndef BUILDBPF_SLACK_H
#define BUILDBPF_SLACK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "graph/job_graph.h"

struct cpu_machine;
struct job_contention;

/* No slack figure: a runner, or a process outside any job. */
#define SLACK_NONE UINT64_MAX

/* job_slack_ns: one per job.  Cannot fail. */
void slack__jobs(const struct job_graph *jg, __u64 *job_slack_ns);
/*
 * The third result of the graph stage (graph/graph_run.h): per process
 * (nr_procs, the model's, as jg was built from), the slack of the job it
 * runs in; SLACK_NONE for runners and processes outside any job.  A new
 * array in *proc_slack_ns (the caller frees it).  0, or -ENOMEM (NULL).
 */
int slack__per_proc(const struct job_graph *jg, size_t nr_procs, __u64 **proc_slack_ns);

/*
 * The predicted wall time on machine mc (graph/cpu_sim.h; c: the jobs'
 * own pace) if job took cut_ns less of its measured wall (not below zero):
 * the job keeps that share of its CPU work and of its blocked time, and
 * the jobs are re-simulated, so the next-longest path takes over and the
 * CPUs it frees go to the others.  0, or -ENOMEM.
 */
int slack__wall_without(const struct job_graph *jg, const struct job_contention *c, const struct cpu_machine *mc,
			size_t job, __u64 cut_ns, __u64 *wall_ns);

#endif /* BUILDBPF_SLACK_H */
