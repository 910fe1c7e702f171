/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording read back, as every mode that reads one does it (trace
 * after its build, convert, report, diff): opened as the user buildbpf
 * acts as, replayed, audited with its build graph.  Each step says its own
 * failure in one line.
 */
#ifndef BUILDBPF_MAIN_RECORDING_H
#define BUILDBPF_MAIN_RECORDING_H

#include <signal.h>
#include <stdbool.h>
#include "cli/cli.h"
#include "graph/build_graph.h"
#include "graph/start_cause.h"
#include "log/event_log.h"
#include "merge/trace_merge.h"
#include "model/replay.h"
#include "record/privilege.h"
#include "record/trace_dir.h"
#include "report/audit.h"
#include "report/chrome_trace.h"

/*
 * Opens a recording to read.  Its fd, or -1 with the reason printed (and,
 * when permission failed after leaving root, as whom buildbpf reads).
 */
int open_log(const char *path, const struct run_as *ra);
/*
 * Opens and replays the log on fd (from its start; fd stays open).  0, or
 * -1 with "buildbpf: NAME: reason" printed (nothing for a stop: -EINTR is
 * said by the caller, with where the log is).  warn_cut: warn when the log
 * is cut short.
 */
int replay_log(int fd, const char *name, const struct replay_opts *ropts, struct replay *rp,
	       struct event_log_reader **reader, bool warn_cut);
/*
 * The parallelism audit of a replayed recording in a, with the build graph
 * in g and why each process started in sc (unless NULL) when it has file
 * records (both freed by the caller, after the audit); NULL (and a
 * warning) without memory.
 */
struct audit *compute_audit(struct audit *a, struct build_graph *g, struct start_causes *sc,
			    const struct replay *rp);

/* What the trace carries besides the model: otherData and the audit, merge and graph beside it. */
void fill_meta(struct trace_meta *meta, const struct replay *rp, const struct trace_merge *merged,
	       const struct audit *audit, const struct build_graph *graph);
/*
 * After a stop by signal sig: what was asked is not written; says where the
 * recording is (log_path, or NULL).  128 + sig.
 */
int say_stopped(int sig, const char *log_path);
/*
 * The toolchain's own traces: the trace directory, then each --merge.  NULL
 * when there are none, when *stop was set meanwhile, or (said) without memory.
 */
struct trace_merge *merge_traces(const struct cli_opts *opts, const struct replay *rp, const struct trace_dir *tdir,
				 volatile sig_atomic_t *stop);
/* How convert and report replay a recording: the levels asked for, else the recording's; *stop ends it. */
struct replay_opts read_opts_of(const struct cli_opts *opts, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_RECORDING_H */
