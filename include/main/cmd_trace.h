/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buildbpf [OPTIONS] -- CMD: recorded to a temporary event log (kept with
 * --log), then read back as a recording and written as a trace.
 */
#ifndef BUILDBPF_MAIN_CMD_TRACE_H
#define BUILDBPF_MAIN_CMD_TRACE_H

#include <signal.h>
#include "cli/cli.h"
#include "main/tracing.h"
#include "record/privilege.h"

/*
 * Starts as root with what out pinned and leaves it; *died_of: the signal
 * that killed the command (0: it exited), for main() to end the same way.
 * The exit status: the command's, or buildbpf's failure.
 */
int cmd_trace(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of);

#endif /* BUILDBPF_MAIN_CMD_TRACE_H */
