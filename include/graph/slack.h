/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slack and potential improvement over the build's jobs (graph/schedule_sim.h).
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
#include "graph/schedule_sim.h"

/* No slack figure: a runner, or a process outside any job. */
#define SLACK_NONE UINT64_MAX

/* job_slack_ns: one per job.  Cannot fail. */
void slack__jobs(const struct job_graph *jg, __u64 *job_slack_ns);

/*
 * The predicted wall time at `slots` if job took cut_ns less (not below
 * zero): the next-longest path takes over.  0, or -ENOMEM.
 */
int slack__wall_without(const struct job_graph *jg, size_t slots, size_t job, __u64 cut_ns, __u64 *wall_ns);

#endif /* BUILDBPF_SLACK_H */
