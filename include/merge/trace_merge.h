/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merging the toolchain's own Chrome traces (clang -ftime-trace, scripts
 * writing into $BUILDBPF_TRACE_DIR) into the build trace.  Pure: file bytes,
 * the finished model and the clock offset in; a list of events in trace
 * microseconds out, each attributed to the process instance that wrote it
 * and clamped so that it nests in that process's slice on its lane.
 *
 *   struct trace_merge *tm = trace_merge__new(m, layout, realtime_minus_mono_ns, &limits);
 *   trace_merge__add(tm, path, bytes, len, why, sizeof(why));  ... per file
 *   trace_merge__finish(tm);          makes the slices of each lane nest
 *   ... read tm->events[0 .. tm->nr_events), tm->tracks, tm->summary ...
 *   trace_merge__free(tm);
 *
 * Times and process slices come from the trace layout the writer also
 * draws from (model/trace_layout.h), so "inside the span" holds in the file.
 */
#ifndef BUILDBPF_TRACE_MERGE_H
#define BUILDBPF_TRACE_MERGE_H

#include <stddef.h>
#include <linux/types.h>
#include <json-c/json.h>
#include "model/model.h"
#include "model/trace_layout.h"

#define MERGE_DEFAULT_FILE_MAX_BYTES (16u << 20)
#define MERGE_DEFAULT_MAX_EVENTS 500000u
/* json_tokener depth: a trace is object > array > event > args > a little. */
#define MERGE_JSON_DEPTH 32

struct merge_limits {
	size_t file_max_bytes; /* larger files are skipped (--merge-max-file) */
	size_t max_events;     /* over all files; a file that would pass it is skipped */
};

enum merged_kind {
	MERGED_SLICE,	/* X, or a B/E pair */
	MERGED_INSTANT, /* i/I, drawn on the writer's lane */
	MERGED_COUNTER, /* C: args holds numbers only */
	MERGED_ASYNC,	/* a b/e pair: written as b and e with id */
};

struct merged_event {
	enum merged_kind kind;
	long proc;	 /* the writer: index in model->procs; -1: the file's own track */
	size_t track;	 /* with proc -1: index in tracks */
	size_t file;	 /* index of the file in summary.files */
	__s64 ts, dur;	 /* trace microseconds (ts >= 1); dur 0 but for slices */
	__s64 box_ts, box_end; /* the writer's slice (or exec sub-slice) it stays in */
	char *name;	 /* valid UTF-8 */
	char *cat;	 /* the writer's category, or NULL */
	__s64 id;	 /* async: unique in the whole merge */
	struct json_object *args; /* owned; NULL: none */
};

struct merge_stats {
	size_t files;	     /* merged */
	size_t skipped;	     /* files skipped (each with one warning; those past the file cap share one) */
	size_t events;	     /* events merged */
	size_t clamped;	     /* events moved or cut to nest in their writer's slice */
	size_t bad_events;   /* events of a merged file without the fields their ph needs */
	size_t unpaired;     /* B without E, E without B, same for b/e */
	size_t unsupported;  /* flows, samples, objects: phases we do not merge */
	size_t totals;	     /* clang "Total ..." aggregates kept as file summaries */
};

/* One key of trace_merge.pids. */
struct merge_pid {
	__u32 pid;
	size_t proc; /* index in model->procs */
};

/* One merged file, as otherData.merge.merged_files[] says it. */
struct merged_file {
	char *path;
	const char *attributed_by; /* a literal */
	const char *clock;	   /* its name, a literal */
	size_t events, clamped;
	long writer_pid;	   /* -1: its own track */
	struct json_object *totals; /* a reference; NULL: none */
};

struct trace_merge {
	const struct model *m;
	const struct trace_layout *layout; /* where the writer draws each process */
	struct trace_layout *own_layout;   /* the layout made here when none was given */
	__s64 real_minus_mono_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	struct merge_limits limits;
	struct merged_event *events;
	size_t nr_events, cap_events;
	char **tracks; /* names of the own tracks of files with no writer */
	size_t nr_tracks, cap_tracks;
	struct merged_file *files; /* made into JSON as it is printed: up to 100,000 of them */
	size_t nr_files, cap_files;
	struct merge_stats stats;
	__s64 last_async_id;
	/* The processes by pid and by namespace pid: a file names its writer
	 * by either, and thousands of files must not each scan the model. */
	struct merge_pid *pids;
	size_t nr_pids;
};

/*
 * tl: the layout the trace will be written with (borrowed, outliving tm);
 * NULL: made here from m.
 */
struct trace_merge *trace_merge__new(const struct model *m, const struct trace_layout *tl, __s64 real_minus_mono_ns,
				     const struct merge_limits *limits);
/*
 * Merges one file (path: for attribution by name and for the summary).
 * 0: merged; 1: skipped, with why a short reason ("not a Chrome trace");
 * -ENOMEM.  A skipped file leaves no event behind.
 */
int trace_merge__add(struct trace_merge *tm, const char *path, const char *bytes, size_t len, char *why,
		     size_t why_size);
/* Makes merged slices nest with one another and with process slices. */
int trace_merge__finish(struct trace_merge *tm);
/* otherData.merge: the stats and the per-file list (a new reference). */
struct json_object *trace_merge__summary(const struct trace_merge *tm);
void trace_merge__free(struct trace_merge *tm);

#endif /* BUILDBPF_TRACE_MERGE_H */
