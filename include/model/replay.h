/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay: an event log in, the reconstructed build out (process model, CPU
 * lanes, what the trace says about the recording).  Pure: no BPF, no
 * clock; the one-step path, `convert` and `report` all go through it, so
 * a recording converts the same way whenever it is converted.
 *
 * Memory: the process model (a few records per process), the CPU lanes'
 * drawn slices and at most 3 MiB of counters; scheduler records stream
 * through.  Work follows the records, whatever span, resolution or CPU
 * count the log claims.
 */
#ifndef BUILDBPF_REPLAY_H
#define BUILDBPF_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <linux/types.h>
#include "model/cpu_sched.h"
#include "log/event_log.h"
#include "model/file_log.h"
#include "model/model.h"
#include "model/start_wakes.h"
#include "model/trace_layout.h"

/* Records later than this after the start are refused: a real build is
 * shorter.  (Memory does not follow the span: the counters coarsen.) */
#define REPLAY_DEFAULT_MAX_SPAN_NS (7ull * 24 * 3600 * 1000000000ull)

struct replay_opts {
	enum sched_level sched;	   /* at most what was recorded */
	__u64 sched_resolution_ns; /* 0: the recording's */
	bool sched_given;	   /* false: the recording's level */
	__u64 max_span_ns;	   /* 0: REPLAY_DEFAULT_MAX_SPAN_NS */
	bool deps;		   /* --deps: keep the file records */
	bool deps_given;	   /* false: the recording's */
	/* When not NULL and set (a signal handler's flag), the replay stops
	 * at the next record with -EINTR. */
	const volatile sig_atomic_t *stop;
	/* When not NULL, called every REPLAY_PROGRESS_EVERY records with how
	 * many were read and the log's offset then (a progress line's figures). */
	void (*on_records)(void *ctx, __u64 records, __u64 offset);
	void *on_records_ctx;
};

/* Records between two calls of replay_opts.on_records: often enough for a line rewritten a few times a second. */
#define REPLAY_PROGRESS_EVERY 65536

struct replay {
	const struct event_log_info *info; /* the reader's */
	struct model *model;
	struct sched_model *sched; /* NULL at --sched=off */
	/* Where each process is drawn, for the trace, the merge of the tools'
	 * traces and the SVG, which all borrow it; NULL until replay__lay_out(). */
	struct trace_layout *layout;
	struct file_log *files;	   /* NULL at --deps=off */
	struct start_wakes *wakes; /* why each process started; NULL at --deps=off, and once the graph has read it */
	__u64 end_ns;		   /* where the trace ends */
	__u64 lost_events;
	bool complete;		   /* the trailer was read */
	bool exited;		   /* the command's wait status is known */
	int wait_status;
	__u64 out_of_range;	   /* records outside [start, start + max span] */
	/* Why the trace does not show the whole build; NULL when it does. */
	const char *partial_reason;
	char partial_buf[192];
};

/*
 * Reads every record of r into rp.  0 (a log cut short is not an error: the
 * partial_reason says so), or -errno with a one-line reason in err (a
 * corrupt log, options the recording cannot serve, out of memory; -EINTR
 * when opts->stop was set).
 */
int replay__run(struct replay *rp, struct event_log_reader *r, const struct replay_opts *opts, char *err,
		size_t err_size);
/* The command's exit status as buildbpf reports it (128+N for signal N); -1 unknown. */
int replay__exit_code(const struct replay *rp);
/*
 * (Re)makes rp->layout from the model as it is now: after the replay, and
 * again whenever the model's bounds move.  0, or -ENOMEM (layout NULL).
 */
int replay__lay_out(struct replay *rp);
void replay__free(struct replay *rp);

#endif /* BUILDBPF_REPLAY_H */
