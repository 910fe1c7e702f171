/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording read back, as every mode that reads one does it (trace
 * after its build, convert, report, diff): opened as the user buildbpf
 * acts as, replayed, audited with its build graph.  Each step says its own
 * failure in one line.
 */
#ifndef BUILDBPF_MAIN_RECORDING_H
#define BUILDBPF_MAIN_RECORDING_H

#include <stdbool.h>
#include "graph/build_graph.h"
#include "graph/start_cause.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "record/privilege.h"
#include "report/audit.h"

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

#endif /* BUILDBPF_MAIN_RECORDING_H */
