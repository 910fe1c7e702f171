/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graph stage, run once and in one order: each step a result of its
 * own that reads only what the steps before it computed, and the model's
 * job slots and recipe lines (graph/job_slots.h), which the caller
 * computes once for the graph and the audit's phases alike.
 *
 *   data    the data edges (graph/build_graph.h)
 *   starts  why each process started when it did (graph/start_cause.h), with wake records
 *   jobs    the jobs and their data edges (graph/job_graph.h)
 *   order   the runners' order between them, into the jobs (graph/run_order.h)
 *   slack   per process, its job's slack (graph/slack.h)
 *   races   undeclared dependencies between jobs (graph/races.h)
 *   path    the critical path, through the start causes when there are some (graph/critical_path.h)
 *
 * The what-ifs over the jobs (graph/cpu_sim.h, graph/schedule_sim.h) are
 * the audit's to run.  Pure: the model, the file log and the wake records
 * in; the wake records are emptied once read (see graph_run__compute()).
 *
 *   struct graph_run run;
 *   job_slots__init(&slots, model, &jobs_env, nr_cpus);
 *   graph_run__compute(&run, model, &slots, file_log, wakes_or_NULL, &failed);
 *   ... run.data.edges, run.jobs, run.path.steps ...
 *   graph_run__free(&run);
 *   job_slots__free(&slots);
 */
#ifndef BUILDBPF_GRAPH_RUN_H
#define BUILDBPF_GRAPH_RUN_H

#include <linux/types.h>
#include "graph/build_graph.h"
#include "graph/critical_path.h"
#include "graph/job_graph.h"
#include "graph/job_slots.h"
#include "graph/races.h"
#include "graph/run_order.h"
#include "graph/slack.h"
#include "graph/start_cause.h"
#include "model/file_log.h"
#include "model/model.h"
#include "model/start_wakes.h"

/* The steps, in the order graph_run__compute() runs them. */
enum graph_step {
	GRAPH_DATA = 0,
	GRAPH_STARTS,
	GRAPH_JOBS,
	GRAPH_ORDER,
	GRAPH_SLACK,
	GRAPH_RACES,
	GRAPH_PATH,
	GRAPH_DONE,
};

struct graph_run {
	struct build_graph data;
	struct job_graph jobs;
	__u64 *proc_slack_ns;	    /* per model->procs; SLACK_NONE outside any job */
	struct races races;
	struct start_causes starts; /* empty (procs NULL) without wake records */
	struct critical_path path;
};

/*
 * Runs every step on m, its job slots (read during the call only), fl
 * (NULL: no data edges) and w (NULL or no records: no start causes, the
 * path walked without them).  w's records are the start causes' alone:
 * they are given back (start_wakes__release()) once read, before the
 * steps that hold the most, so that they are not part of the stage's peak
 * (a tenth of it at a million processes).  0, or -ENOMEM with *failed the
 * step that ran out: for the data edges, the jobs, their order, slack or
 * races the run is freed and empty; without memory for the start causes
 * the path is walked without them, and for the path it is left empty, the
 * rest kept.
 */
int graph_run__compute(struct graph_run *r, const struct model *m, const struct job_slots *slots,
		       const struct file_log *fl, struct start_wakes *w, enum graph_step *failed);
void graph_run__free(struct graph_run *r);

#endif /* BUILDBPF_GRAPH_RUN_H */
