// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include "graph/cpu_sim.h"
#include "graph/slack.h"

/* Lowers *late (a latest end) to at most v. */
static void lower(__u64 *late, __u64 v)
{
	if (v < *late)
		*late = v;
}

/*
 * A backward pass: a job's latest end is the build's last job end, or the
 * latest start of a job that waited for it (plus how long before its end
 * it published what that job read), whichever is earlier.  Predecessors
 * have smaller indexes (job_graph.h), so one pass from the last job down
 * sees each job's latest end final before its own use; a latest end never
 * falls before the measured end, because what a job waited for was ready
 * before it started.
 */
void slack__jobs(const struct job_graph *jg, __u64 *late)
{
	__u64 last_end = 0;
	size_t i, k;

	for (i = 0; i < jg->nr_jobs; i++)
		if (jg->jobs[i].end_ns > last_end)
			last_end = jg->jobs[i].end_ns;
	for (i = 0; i < jg->nr_jobs; i++)
		late[i] = last_end;
	for (i = jg->nr_jobs; i-- > 0;) {
		const struct sim_job *j = &jg->jobs[i];
		__u64 latest_start = late[i] - (j->end_ns - j->start_ns);

		for (k = jg->pred_off[i]; k < jg->pred_off[i + 1]; k++)
			lower(&late[jg->preds[k]], latest_start + jg->pred_early_ns[k]);
		if (j->prev_in_turn >= 0)
			lower(&late[j->prev_in_turn], latest_start);
		late[i] -= j->end_ns; /* final: nothing later lowers job i */
	}
}

int slack__per_proc(const struct job_graph *jg, size_t nr_procs, __u64 **proc_slack_ns)
{
	__u64 *job_slack = malloc((jg->nr_jobs ? jg->nr_jobs : 1) * sizeof(*job_slack));
	__u64 *per_proc = malloc((nr_procs ? nr_procs : 1) * sizeof(*per_proc));
	size_t i;

	*proc_slack_ns = NULL;
	if (!job_slack || !per_proc) {
		free(job_slack);
		free(per_proc);
		return -ENOMEM;
	}
	slack__jobs(jg, job_slack);
	for (i = 0; i < nr_procs; i++)
		per_proc[i] = jg->proc_job[i] >= 0 ? job_slack[jg->proc_job[i]] : SLACK_NONE;
	free(job_slack);
	*proc_slack_ns = per_proc;
	return 0;
}

int slack__wall_without(const struct job_graph *jg, const struct job_contention *c, const struct cpu_machine *mc,
			size_t job, __u64 cut_ns, __u64 *wall_ns)
{
	double *keep = malloc((jg->nr_jobs ? jg->nr_jobs : 1) * sizeof(*keep));
	struct cpu_machine without = *mc;
	size_t i;
	int err;

	if (!keep)
		return -ENOMEM;
	for (i = 0; i < jg->nr_jobs; i++)
		keep[i] = 1;
	/* The job loses cut_ns of its measured wall: that share of its CPU work and of its blocked time. */
	if (job < jg->nr_jobs) {
		__u64 wall = jg->jobs[job].end_ns - jg->jobs[job].start_ns;

		keep[job] = wall > cut_ns ? (double)(wall - cut_ns) / (double)wall : 0;
	}
	without.keep = keep;
	err = cpu_sim__run(jg, c, &without, wall_ns);
	free(keep);
	return err;
}
