/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording read back and analysed, once, for every mode that reads one
 * (trace after its build, convert, report, diff, convert --add): its log
 * replayed into the models, the build graph and why each process started
 * (--deps), the parallelism audit, and, for a mode that writes a trace, the
 * toolchain's traces merged.  One function builds it, one frees it; the
 * modes borrow its parts.  Each step says its own failure in one line.
 *
 *   fd = open_log(path, ra);                 as the user buildbpf acts as
 *   recording__read(&rec, fd, path, &ropts); replayed, graphed, audited
 *   recording__merge(&rec, &sources, stop);  trace-writing modes only
 *   ... rec.rp.model, rec.audit, recording__meta(&rec, &meta) ...
 *   recording__free(&rec);
 */
#ifndef BUILDBPF_MAIN_RECORDING_H
#define BUILDBPF_MAIN_RECORDING_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "cli/cli.h"
#include "graph/graph_run.h"
#include "hosts/hosts.h"
#include "main/progress.h"
#include "log/event_log.h"
#include "merge/trace_merge.h"
#include "model/replay.h"
#include "record/privilege.h"
#include "record/trace_dir.h"
#include "audit/audit.h"
#include "report/chrome_trace.h"
#include "report/run_report.h"

/* How far a recording is analysed, and how its log is read. */
struct recording_opts {
	struct replay_opts replay;
	bool warn_cut;	/* warn when the log is cut short (a log the user gave) */
	bool audit;	/* the build graph and the audit */
	bool starts;	/* with audit: why each process started when it did */
	FILE *say;	/* where reading and analysing say what failed; NULL: stderr */
	struct progress_log *progress; /* the log's figures for a progress line; NULL: none */
};

struct recording {
	const char *name;		 /* the log, as the user named it: for messages */
	FILE *say;			 /* where its messages go (recording_opts) */
	struct event_log_reader *reader; /* owns rp.info */
	struct replay rp;
	/* Empty when the recording has no file records (compute_audit()'s rule);
	 * its start causes empty unless asked and recorded. */
	struct graph_run graph;
	struct audit *audit;		/* &audit_buf; NULL: not asked, or no memory (said) */
	struct audit audit_buf;
	struct trace_merge *merged;	/* the tools' traces (recording__merge()); NULL: none */
	/* The build's own span, as replayed: a hosts trace's alignment widens
	 * the model's to the common time line, never this. */
	__u64 start_ns, end_ns;
};

/* The toolchain's own traces a trace-writing mode merges: the trace directory, then each --merge. */
struct merge_sources {
	const struct trace_dir *tdir; /* fd -1: none */
	const char *const *globs;
	size_t nr_globs;
	struct merge_limits limits;
};

/* What a trace-writing mode merges: tdir's traces, then each --merge. */
struct merge_sources merge_sources__of(const struct cli_opts *opts, const struct trace_dir *tdir);

/*
 * Opens a recording to read.  Its fd, or -1 with the reason printed (and,
 * when permission failed after leaving root, as whom buildbpf reads).
 */
int open_log(const char *path, const struct run_as *ra);
/*
 * Replays the log on fd (from its start; fd stays open) into rec, named
 * name, and analyses it as o asks.  0, or -1 with "buildbpf: NAME: reason"
 * printed (nothing for a stop: -EINTR is said by the caller, with where
 * the log is); rec is then empty.  An audit without memory is a warning
 * and rec->audit NULL, not a failure.
 */
int recording__read(struct recording *rec, int fd, const char *name, const struct recording_opts *o);
/*
 * Merges the toolchain's own traces into rec->merged: NULL when there are
 * none, when *stop was set meanwhile, or (said) without memory.
 */
void recording__merge(struct recording *rec, const struct merge_sources *src, volatile sig_atomic_t *stop);
/* What the trace carries besides the model: otherData and the audit, merge and graph beside it. */
void recording__meta(const struct recording *rec, struct trace_meta *meta);
/* The report at the end of a run, of rec's own build. */
struct run_report recording__report(const struct recording *rec, int exit_code, const char *written, bool verbose);
/* Frees what rec holds; an empty (zeroed) recording too. */
void recording__free(struct recording *rec);

/*
 * Several hosts' recordings on one time line (convert A.bbl --add B.bbl):
 * each replayed, none given twice; the first analysed as a lone recording
 * is (its graph, why each process started, the audit); the
 * models aligned on the hosts' wall clocks, distcc's remote jobs linked and
 * the audit over every host computed (hosts/).
 */
struct host_recordings {
	size_t n;
	struct recording recs[HOSTS_MAX]; /* recs[0]: the build whose audit the trace keeps */
	struct host hosts[HOSTS_MAX];
	struct host_set set;
};

/* 0, or -1 (said); hr is then freed.  o: how each log is read (the first is audited). */
int host_recordings__open(struct host_recordings *hr, const char *const *paths, size_t n, const struct run_as *ra,
			  const struct recording_opts *o);
void host_recordings__free(struct host_recordings *hr);

/*
 * How convert and report read a recording: the levels asked for, else the
 * recording's; *stop ends the replay.  Warned when cut short, audited.
 */
struct recording_opts recording_opts__read(const struct cli_opts *opts, volatile sig_atomic_t *stop);

/*
 * After a stop by signal sig: what was asked is not written; says where the
 * recording is (log_path, or NULL).  128 + sig.
 */
int say_stopped(int sig, const char *log_path);

#endif /* BUILDBPF_MAIN_RECORDING_H */
