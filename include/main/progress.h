/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line of the long offline commands (convert, report, diff)
 * on a terminal: rewritten in place with \r while the recordings are read
 * (report/progress_line.h says what it says), shown only once the work has
 * run past PROGRESS_AFTER_NS, erased when done.  The caller decides whether
 * it is on (stderr a terminal, no -q, no --no-progress): off, every call
 * does nothing.  The two recordings of a diff are read on two threads:
 * each reports through its own progress_log, one line says both.
 */
#ifndef BUILDBPF_MAIN_PROGRESS_H
#define BUILDBPF_MAIN_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <linux/types.h>
#include "cli/cli.h"

/* Work shorter than this shows no line at all. */
#define PROGRESS_AFTER_NS 1000000000ull
/* The line is rewritten at most this often. */
#define PROGRESS_EVERY_NS 200000000ull
#define PROGRESS_LOGS_MAX 2

struct progress;

/* One recording being read: its figures, written by the thread that reads it. */
struct progress_log {
	struct progress *p;
	const char *name;
	__u64 size, offset, records;
	bool read; /* to its end */
};

struct progress {
	bool on;
	FILE *out;
	pthread_mutex_t lock;	/* the figures and the line, between a diff's two readers */
	struct timespec start;
	__u64 shown_ns;		/* since start, when the line was last written; 0: not shown */
	const char *step;	/* once every log is read: "analysing", then what the caller says */
	size_t nr_logs;
	struct progress_log logs[PROGRESS_LOGS_MAX];
};

/* Whether the command's progress may be shown: stderr a terminal (never a pipe or a file), no -q, no --no-progress. */
bool progress__wanted(const struct cli_opts *opts);
/* Starts the clock; on: whether a line may be shown at all. */
void progress__init(struct progress *p, bool on, FILE *out);
/* A recording to read, of fd's size.  Its figures' home (NULL when off or full). */
struct progress_log *progress__add_log(struct progress *p, const char *name, int fd);
/* replay_opts.on_records: ctx is the progress_log. */
void progress__records(void *ctx, __u64 records, __u64 offset);
/* The log is read to its end; the line erased until the next step is said, so what is said next starts a line. */
void progress__log_read(struct progress_log *log);
/* The step after the reading (e.g. "writing the trace"), shown when the work has run long enough. */
void progress__step(struct progress *p, const char *step);
/* Erases the line, if shown, so that what is said next starts a line; a later step shows it again. */
void progress__erase(struct progress *p);
/* Erases the line, if shown; the end of the work (again: nothing). */
void progress__end(struct progress *p);

#endif /* BUILDBPF_MAIN_PROGRESS_H */
