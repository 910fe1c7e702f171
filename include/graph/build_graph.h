/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build graph: which process's output another process read (data
 * edges, from the kernel's file records, model/file_log.h) and which
 * process started which (the process tree), and over them the critical
 * path: the chain of steps that determined when the build ended.  Pure:
 * the process model and the file log in, figures out; tested from
 * synthetic records.
 *
 *   struct build_graph g;
 *   build_graph__compute(&g, model, file_log);
 *   ... g.edges, g.path ...
 *   build_graph__free(&g);
 */
#ifndef BUILDBPF_BUILD_GRAPH_H
#define BUILDBPF_BUILD_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/file_log.h"
#include "model/model.h"
#include "graph/races.h"
#include "graph/schedule_sim.h"

/* A file the build wrote: an inode, shown by the last path seen for it. */
struct graph_file {
	__u64 ino;
	__u32 dev;
	const char *path; /* owned by the file log */
};

/* writer -> reader: reader opened the file after writer had written it. */
struct graph_edge {
	size_t writer, reader; /* indexes in model->procs */
	size_t file;	       /* index in graph->files */
	__u64 written_ns;      /* the writer's open for writing (or rename) it follows */
	__u64 read_ns;	       /* the reader's first open of it */
	/* The path the reader opened (an inode freed and reused, as temporary
	 * files' are, shows the file's last path; the edge its own). */
	const char *path;
};

/*
 * A rename that moved a file the build wrote: its process became a writer
 * of the file now at new_path.  Strings are owned by the file log.
 */
struct graph_rename {
	size_t proc; /* index in model->procs */
	__u64 ts_ns;
	const char *moved_path; /* the moved file's path, as its last write before opened it */
	const char *old_path, *new_path; /* as the process passed them */
};

/* Files a process opened, from the kernel's counters (sent at its end). */
struct graph_proc_files {
	__u32 opened, written;
	bool known; /* a counts record arrived (none: it opened nothing, or still ran) */
};

/* How the critical path reached a step: what the step waited for. */
enum graph_link {
	LINK_END = 0,	/* the build's end: the command itself */
	LINK_WAIT,	/* its parent ended after waiting for it */
	LINK_INPUT,	/* it wrote a file the next step read */
	LINK_SPAWN,	/* it forked the next step */
	LINK_SLOT,	/* its end freed the job slot the next step waited for */
	LINK_ORDER,	/* its runner (or shell) started the next step after it ended: their order */
};

/*
 * One step of the critical path: process proc holds the path during
 * [from_ns, to_ns]; via says how the step after it (later in time) was
 * reached from it.
 */
struct critical_step {
	size_t proc;
	__u64 from_ns, to_ns;
	enum graph_link via;
	long edge; /* LINK_INPUT: index in graph->edges; else -1 */
};

struct build_graph {
	struct graph_file *files;
	size_t nr_files;
	struct graph_edge *edges; /* by reader, then read time */
	size_t nr_edges;
	struct graph_proc_files *proc_files; /* one per model->procs */
	/* Per model->procs: the edge into its subtree from outside it whose
	 * writer ended last by its start (the first such); -1: none.  What
	 * its start could have waited for: the critical path and the start
	 * causes (graph/start_cause.h) both read it. */
	long *proc_input;
	/* The critical path (graph/critical_path.h), oldest first:
	 * build_graph__compute() walks it without start causes,
	 * build_graph__compute_pathless() leaves it to the caller. */
	struct critical_step *path;
	size_t nr_path;
	__u64 path_ns;	     /* the time its entries held it, summed */
	__u64 path_wait_ns;  /* the time between one entry's end and the next one's start: waits */
	struct graph_rename *renames; /* the renames that made their process a writer, by time */
	size_t nr_renames_matched;
	size_t unmatched;    /* file records of no known process */
	size_t file_records; /* file records replay accepted, malformed ones included */
	/* What-if: the build's jobs and their data edges (graph/schedule_sim.h),
	 * and per model->procs the slack of the job it runs in (graph/slack.h;
	 * SLACK_NONE for runners and processes outside any job). */
	struct job_graph jobs;
	__u64 *proc_slack_ns;
	/* Undeclared dependencies between the jobs (graph/races.h). */
	struct races races;
};

/* 0, or -ENOMEM (g freed and empty).  fl may be NULL: no data edges. */
int build_graph__compute(struct build_graph *g, const struct model *m, const struct file_log *fl);
/*
 * The same without the critical path (g->path empty): for a caller that
 * walks it once itself, through the start causes when there are some
 * (graph/critical_path.h), rather than once without them and again with.
 */
int build_graph__compute_pathless(struct build_graph *g, const struct model *m, const struct file_log *fl);
void build_graph__free(struct build_graph *g);

/* "wait", "input", "spawn", "slot", "order", "end". */
const char *graph_link__name(enum graph_link link);

#endif /* BUILDBPF_BUILD_GRAPH_H */
