/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build graph's data edges: which process's output another process
 * read, from the kernel's file records (model/file_log.h), and what each
 * process's start could have waited for among them.  The first result of
 * the graph stage (graph/graph_run.h); everything after it (the jobs, the
 * races, the start causes, the critical path) reads it, and it reads none
 * of them.  Pure: the process model, its job slots (graph/job_slots.h: who
 * runs whom) and the file log in; tested from synthetic records.
 *
 *   struct build_graph g;
 *   build_graph__compute(&g, model, &slots, file_log);
 *   ... g.edges[0 .. g.nr_edges), g.proc_input ...
 *   build_graph__free(&g);
 */
#ifndef BUILDBPF_BUILD_GRAPH_H
#define BUILDBPF_BUILD_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/job_slots.h"
#include "model/file_log.h"
#include "model/model.h"

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
	/* When the reader could use it: the writer's end, or the rename that
	 * put it in place while the writer ran on (the reader started before
	 * the writer's end, or cargo ran the writer and it wrote other files
	 * after it: rustc publishes its .rmeta so, and cargo may start the
	 * dependent then; make and ninja wait for a recipe's end).
	 * A write-open alone is no such time: without a close event the writer
	 * may write on until its end. */
	__u64 ready_ns;
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

struct build_graph {
	struct graph_file *files;
	size_t nr_files;
	struct graph_edge *edges; /* by reader, then read time */
	size_t nr_edges;
	struct graph_proc_files *proc_files; /* one per model->procs */
	/* Per model->procs: the edge into its subtree from outside it that
	 * was ready (graph_edge.ready_ns) last by its start (the first such);
	 * -1: none.  What
	 * its start could have waited for: the critical path and the start
	 * causes (graph/start_cause.h) both read it. */
	long *proc_input;
	struct graph_rename *renames; /* the renames that made their process a writer, by time */
	size_t nr_renames_matched;
	size_t unmatched;    /* file records of no known process */
	size_t file_records; /* file records replay accepted, malformed ones included */
};

/* 0, or -ENOMEM (g freed and empty).  fl may be NULL: no data edges. */
int build_graph__compute(struct build_graph *g, const struct model *m, const struct job_slots *slots,
			 const struct file_log *fl);
void build_graph__free(struct build_graph *g);

#endif /* BUILDBPF_BUILD_GRAPH_H */
