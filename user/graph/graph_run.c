// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/graph_run.h"

/*
 * The steps after the data edges and the start causes, each reading the
 * one before: all or nothing.  0, or -ENOMEM with *failed the step that
 * ran out (left alone otherwise).
 */
static int compute_jobs(struct graph_run *r, const struct model *m, const struct job_slots *slots,
			const struct file_log *fl, enum graph_step *failed)
{
	if (job_graph__build(&r->jobs, m, slots, r->data.edges, r->data.nr_edges))
		*failed = GRAPH_JOBS;
	else if (run_order__build(&r->jobs, m, slots))
		*failed = GRAPH_ORDER;
	else if (slack__per_proc(&r->jobs, m->nr_procs, &r->proc_slack_ns))
		*failed = GRAPH_SLACK;
	else if (races__find(&r->races, m, slots, fl, &r->data, &r->jobs))
		*failed = GRAPH_RACES;
	else
		return 0;
	return -ENOMEM;
}

int graph_run__compute(struct graph_run *r, const struct model *m, const struct job_slots *slots,
		       const struct file_log *fl, struct start_wakes *w, enum graph_step *failed)
{
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (build_graph__compute(&r->data, m, slots, fl)) {
		*failed = GRAPH_DATA;
		graph_run__free(r);
		return -ENOMEM;
	}
	/* A recording made before the start-wake records has none: no causes, not all unexplained. */
	if (w && w->nr && start_causes__compute(&r->starts, m, &r->data, slots, w)) {
		*failed = GRAPH_STARTS;
		err = -ENOMEM;
	}
	/* Read: given back before the steps that need the most memory. */
	start_wakes__release(w);
	if (compute_jobs(r, m, slots, fl, failed)) {
		graph_run__free(r);
		return -ENOMEM;
	}
	if (critical_path__compute(&r->path, m, &r->data, r->starts.procs ? &r->starts : NULL)) {
		*failed = GRAPH_PATH;
		err = -ENOMEM;
	}
	if (!err)
		*failed = GRAPH_DONE;
	return err;
}

void graph_run__free(struct graph_run *r)
{
	if (!r)
		return;
	critical_path__free(&r->path);
	start_causes__free(&r->starts);
	races__free(&r->races);
	free(r->proc_slack_ns);
	job_graph__free(&r->jobs);
	build_graph__free(&r->data);
	memset(r, 0, sizeof(*r));
}
