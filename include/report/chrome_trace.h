/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chrome Trace Event JSON exporter: model in, JSON streamed to a file
 * descriptor one event at a time.  Knows nothing of BPF.  The trace
 * keeps every rule of docs/trace-rules.md: trace pids/tids are our own
 * ids (the build with lanes as tids; with scheduler data also CPUs with a
 * tid per CPU, and counters), real pids live in args, ts >= 1 relative to
 * the trace start, X slices on one tid nest, flows bind to slices, every
 * pid/tid is named.
 */
#ifndef BUILDBPF_CHROME_TRACE_H
#define BUILDBPF_CHROME_TRACE_H

#include <linux/types.h>
#include "audit/audit.h"
#include "model/cpu_sched.h"
#include "graph/graph_run.h"
#include "log/event_log.h"
#include "model/model.h"

struct trace_merge;
struct trace_layout;

/* What the trace says about the recording as a whole. */
struct trace_meta {
	/* The recording's INFO, read as it is: the version, kernel, CPUs, the
	 * command, its user and PATH, the wall clock at the start, --args-max,
	 * --attach, --cgroup and --follow.  NULL: none of them known. */
	const struct event_log_info *info;
	__u64 lost_events;	 /* records the kernel could not deliver */
	/* Why the recording does not show the whole build (buildbpf was
	 * interrupted, events were lost); NULL when it does. */
	const char *partial_reason;
	/* CPU lanes and counters; NULL with --sched=off */
	const struct sched_model *sched;
	/* Events merged from the build's own traces; NULL: none */
	const struct trace_merge *merge;
	/* The parallelism audit, as otherData.audit; NULL: none */
	const struct audit *audit;
	/* Where each process goes (the one the merge placed its events by);
	 * NULL: made by the writer from the model. */
	const struct trace_layout *layout;
	/* The build graph (--deps): data-edge flows, critical and file args; NULL: none */
	const struct graph_run *graph;
	/* Why each process started when it did (--deps): waited_for args; NULL: none */
	const struct start_causes *starts;
};

/*
 * Writes the whole trace to fd as it is generated: 0, or -errno (e.g.
 * -ENOSPC); -ENOMEM.  Memory follows the model, not the number of events.
 * On failure fd holds a partial trace.  Does not close fd.
 */
int chrome_trace__write(const struct model *m, const struct trace_meta *meta, int fd);

/*
 * convert --add: several hosts in one trace.  Each part is one host's
 * model, written as chrome_trace__write() would, its trace pids and tids
 * moved up by pid0 (a multiple of TRACE_HOST_PID_STRIDE; 0 for the first)
 * and its trace processes named "HOST: ...".  meta->layout is required.
 */
/* Above every trace pid one host's trace uses (1-5; --follow's daemons take 16-31). */
#define TRACE_HOST_PID_STRIDE 64

struct trace_part {
	const struct model *m;
	const struct trace_meta *meta;
	int pid0;
	const char *host;
};

/* A flow arrow from one part's process slice to another's (cat "process"). */
struct trace_link {
	size_t from_part, from_proc;
	size_t to_part, to_proc;
	const char *name;
};

struct json_object;

/*
 * Writes the parts, then the links, then otherData: parts[0]'s, with the
 * keys of extra (borrowed; NULL: none) added.  0, or -errno.
 */
int chrome_trace__write_parts(const struct trace_part *parts, size_t n, const struct trace_link *links,
			      size_t nr_links, struct json_object *extra, int fd);

#endif /* BUILDBPF_CHROME_TRACE_H */
