// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/graph_run.h"

/* The steps every later one needs: all or nothing.  0, or -ENOMEM (*failed set). */
static int compute_core(struct graph_run *r, const struct model *m, const struct job_slots *slots,
			const struct file_log *fl, enum graph_step *failed)
{
	*failed = GRAPH_DATA;
	if (build_graph__compute(&r->data, m, slots, fl))
		return -ENOMEM;
	*failed = GRAPH_JOBS;
	if (job_graph__build(&r->jobs, m, slots, r->data.edges, r->data.nr_edges))
		return -ENOMEM;
	*failed = GRAPH_ORDER;
	if (run_order__build(&r->jobs, m, slots))
		return -ENOMEM;
	*failed = GRAPH_SLACK;
	if (slack__per_proc(&r->jobs, m->nr_procs, &r->proc_slack_ns))
		return -ENOMEM;
	*failed = GRAPH_RACES;
	if (races__find(&r->races, m, slots, fl, &r->data, &r->jobs))
		return -ENOMEM;
	return 0;
}

int graph_run__compute(struct graph_run *r, const struct model *m, const struct job_slots *slots,
		       const struct file_log *fl, const struct start_wakes *w, enum graph_step *failed)
{
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (compute_core(r, m, slots, fl, failed)) {
		graph_run__free(r);
		return -ENOMEM;
	}
	/* A recording made before the start-wake records has none: no causes, not all unexplained. */
	if (w && w->nr && start_causes__compute(&r->starts, m, &r->data, slots, w)) {
		*failed = GRAPH_STARTS;
		err = -ENOMEM;
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
