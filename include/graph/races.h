/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Races: undeclared dependencies between the build's jobs that make a
 * parallel build work, or fail, by luck.  Pure: the model, its job slots
 * (graph/job_slots.h: who runs whom), the file log, the data edges'
 * matched renames (graph/build_graph.h) and the jobs
 * (graph/job_graph.h) in, findings out: the fourth result of the graph
 * stage (graph/graph_run.h); tested from synthetic records.
 *
 *   struct races r;
 *   races__find(&r, model, &slots, file_log, graph, &jobs);
 *   ... r.items[0 .. r.nr) ...
 *   races__free(&r);
 *
 * A job is what a runner started in a slot, with all its processes
 * (graph/job_graph.h); a file is a path (a rename onto a path writes
 * it).  For two jobs A != B:
 *  - read while being written: B read a file A wrote, and A's job had not
 *    ended when B's job started (a declared dependency would have kept them
 *    apart);
 *  - read before written: B read a file that A, running at the same time,
 *    then wrote or replaced by a rename: B used the old contents;
 *  - written twice: A and B, running at the same time, both wrote it.
 * Not races: files only read; a job's own temporary files (no other job
 * touches them); what runners do (their .ninja_log, the .d files they read
 * after a job): only jobs' accesses count.
 *
 * What the recording cannot show: the kernel records a read only of a file
 * the build had written before in this recording (bpf/file_events.bpf.c).
 * So a read before written is seen only where the file was written earlier
 * in the same build; the read of a file left by an earlier build, or of a
 * source file, that a concurrent job then rewrites is invisible, and so is a
 * read that failed (B ran first and found no file: only B's failure shows).
 * Programs a job built and another ran (exec, no open) are not counted.
 */
#ifndef BUILDBPF_RACES_H
#define BUILDBPF_RACES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/build_graph.h"
#include "graph/job_graph.h"
#include "graph/job_slots.h"
#include "model/file_log.h"
#include "model/model.h"

enum race_kind {
	RACE_READ_WHILE_WRITTEN = 0,
	RACE_READ_BEFORE_WRITTEN,
	RACE_WRITTEN_TWICE,
};

/*
 * One race on one file between two jobs.  The writer is A; the other job is
 * B, the reader (read while or before written) or the second writer (written
 * twice, in time order).
 */
struct race {
	enum race_kind kind;
	char *file;			/* relative to the build directory when under it, else as recorded */
	size_t writer_job, other_job;	/* indexes in jobs->jobs */
	size_t writer_step, other_step; /* the jobs' processes (model->procs), what the names name */
	size_t writer_proc, other_proc; /* the processes that opened the file (model->procs) */
	__u64 write_ns, other_ns;	/* A's write and B's read or write that met it (absolute) */
	bool by_rename;			/* A's write replaced the file by a rename */
	char *writer_name, *other_name; /* the steps' display names (model/proc_name.h) */
	char *advice;			/* what to declare, one sentence */
};

struct races {
	struct race *items; /* by B's access time */
	size_t nr;
	size_t renames_unresolved; /* renames whose target path could not be worked out: not counted */
};

/* 0, or -ENOMEM (r freed and empty).  fl may be NULL: no findings. */
int races__find(struct races *r, const struct model *m, const struct job_slots *slots, const struct file_log *fl,
		const struct build_graph *g, const struct job_graph *jobs);
void races__free(struct races *r);

/* "read while being written", "read before written", "written twice". */
const char *race_kind__name(enum race_kind kind);
/* The JSON and gate spelling: "read_while_written", "read_before_written", "written_twice". */
const char *race_kind__key(enum race_kind kind);

#endif /* BUILDBPF_RACES_H */
