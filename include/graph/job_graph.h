/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build's jobs (what make or ninja ran in a job slot), the data edges
 * between them and the runners' own order: the second result of the graph
 * stage (graph/graph_run.h), after the data edges (graph/build_graph.h).
 * The jobs and edges are built here, the runners' order (marks and links)
 * after them by graph/run_order.h.  What the slack, the races and every
 * what-if (graph/cpu_sim.h, graph/schedule_sim.h) read.  Pure: the model,
 * its job slots and the data edges in.
 *
 *   struct job_graph jg;
 *   job_graph__build(&jg, model, &slots, edges, nr_edges);
 *   run_order__build(&jg, model, &slots);
 *   ... jg.jobs[0 .. jg.nr_jobs), jg.links ...
 *   job_graph__free(&jg);
 */
#ifndef BUILDBPF_GRAPH_JOB_GRAPH_H
#define BUILDBPF_GRAPH_JOB_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/job_slots.h"
#include "model/model.h"

struct graph_edge;

/*
 * A job: a process a runner (make, gmake, ninja, samu) started, whose own
 * subtree runs no runner (a recursive make's shell is not a job: the
 * sub-make's jobs are).  A make recipe's lines, each a shell make ran
 * after the one before in the same slot (graph/job_slots.h), are one job:
 * from its first line's start to its last line's end.  A make's $(shell)
 * call is no job: make's own work.  Jobs are numbered
 * in the order they started.
 */
struct sim_job {
	size_t proc;		/* its process, index in model->procs */
	__u64 start_ns, end_ns; /* measured, absolute */
	__u64 release_ns;	/* from the build's start, the earliest it may start: 0 (its runner's order says) */
	/* The job before it of a runner that ran its jobs one at a time
	 * (-j1, a sequential shell): what its start waited for; -1: none. */
	long prev_in_turn;
	/* Its processes' scheduler time, summed (--sched; 0 without): */
	__u64 cpu_ns;	/* on a CPU */
	__u64 runq_ns;	/* runnable, waiting for a CPU */
	/* The first job whose costliest program (by CPU) was the same as this
	 * one's: jobs of one program are compared with each other. */
	size_t program;
	/* Its runner's rank among its ready jobs (graph/ready_rank.h): the
	 * higher first; 0 for all of a runner that starts them as they came. */
	size_t rank;
};

/*
 * A simulation node is a job (0 .. nr_jobs - 1) or a mark (nr_jobs + k): a
 * process outside any job started or ended.  A mark takes no slot and no
 * time; the links between nodes carry the time (graph/run_order.h).
 */
struct sim_mark {
	size_t proc;	    /* index in model->procs */
	bool end;	    /* its end; else its start */
	__u64 release_ns;   /* no link into it (the command): its measured time from the build's start */
};

/* to is released lag_ns after from ended (quiet_lag_ns on a quiet machine: its run-queue share left out). */
struct sim_link {
	__u32 from, to; /* nodes: 32-bit, a process being one job's or two marks at most (model/model_types.h) */
	__u64 lag_ns, quiet_lag_ns;
};

struct job_graph {
	struct sim_job *jobs;
	size_t nr_jobs;
	__s32 *proc_job;     /* per model->procs: the job it runs in; -1: a runner, or outside any job (32-bit: jobs are processes) */
	size_t *pred_off;    /* CSR: job j's data predecessors are preds[pred_off[j] .. pred_off[j + 1]) */
	size_t *preds;	     /* each an earlier job (a smaller index): the graph is acyclic */
	/* Per preds entry: how long before its job's end the predecessor had published all this job read
	 * from it (a rename it wrote on after: rustc's .rmeta, graph/build_graph.h); 0: at that end. */
	__u64 *pred_early_ns;
	size_t nr_data_edges; /* job -> job, distinct */
	__u64 origin_ns;     /* the build's start (model->start_ns) */
	__u64 wall_ns;	     /* measured: model end - start */
	__u64 tail_ns;	     /* measured: the build's end after its last job or mark */
	struct sim_mark *marks; /* node nr_jobs + k is marks[k] */
	size_t nr_marks;
	struct sim_link *links; /* the runners' order (graph/run_order.h) */
	size_t nr_links;
	size_t peak_jobs;    /* most jobs alive at once, measured */
	size_t nr_runners;
	size_t nr_shell_calls; /* make's $(shell) calls: not jobs, outside any (model/shell_call.h) */
	bool cpu_known;	     /* the jobs' cpu_ns and runq_ns were recorded (--sched) */
};

/*
 * The jobs and their data edges; the marks and links are left empty for
 * run_order__build() (graph/run_order.h).  s: the model's job slots (which
 * recipe lines are one job).  Edges are the build graph's process edges
 * (writer -> reader), each ready at its writer's job's end, or, published
 * while its writer ran on (its ready_ns after the writer's start and
 * before its end: a rename), then; an edge counts between two jobs when it
 * was ready by the reader's job's start (else the reader did not wait for
 * it).  0, or -ENOMEM (jg freed and empty).  No runner in the tree: no
 * jobs (nr_jobs 0).
 */
int job_graph__build(struct job_graph *jg, const struct model *m, const struct job_slots *s,
		     const struct graph_edge *edges, size_t nr_edges);
void job_graph__free(struct job_graph *jg);

#endif /* BUILDBPF_GRAPH_JOB_GRAPH_H */
