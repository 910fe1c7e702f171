/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buildbpf's modes, one file each (user/main/cmd_*.c); main() parses the
 * command line and dispatches.  Each returns buildbpf's exit status and
 * says its own errors.  A reading mode runs as ra, root already left when
 * asked; *stop is set by a stop signal's handler (main/stop.h).
 */
#ifndef BUILDBPF_MAIN_MODES_H
#define BUILDBPF_MAIN_MODES_H

#include <signal.h>
#include "cli/cli.h"
#include "main/tracing.h"
#include "record/privilege.h"

/*
 * buildbpf [OPTIONS] -- CMD (cmd_trace.c): recorded to a temporary log,
 * converted; buildbpf record (cmd_record.c): only the log.  Both start as
 * root with what out pinned and leave it; *died_of: the signal that killed
 * the command (0: it exited), for main() to end the same way.
 */
int cmd_trace(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of);
int cmd_record(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of);
/* buildbpf convert LOG -o TRACE, buildbpf report LOG (cmd_read.c): 0, EXIT_FAILURE_SETUP, 128 + a signal. */
int cmd_read(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);
/*
 * buildbpf diff OLD NEW (cmd_diff.c): the reports' files checked first,
 * both logs read and audited, compared (diff/), reported, then the
 * --fail-if gate: 0, EXIT_GATE_FAILED when a condition holds, EXIT_USAGE
 * on any error, 128 + the signal when stopped.
 */
int cmd_diff(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);
/*
 * buildbpf convert A.bbl --add B.bbl ... (cmd_hosts.c): every host's log
 * read once, aligned and linked (hosts/), one trace with a process group
 * per host: 0, EXIT_FAILURE_SETUP, 128 + the signal when stopped.
 */
int cmd_convert_hosts(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_MODES_H */
