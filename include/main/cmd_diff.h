/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `buildbpf diff OLD NEW`: the reports' files checked first, both logs read
 * and audited, compared (diff/), the reports written, then the --fail-if
 * gate.
 */
#ifndef BUILDBPF_MAIN_CMD_DIFF_H
#define BUILDBPF_MAIN_CMD_DIFF_H

#include <signal.h>
#include "cli/cli.h"
#include "record/privilege.h"

/*
 * Runs as ra (root already left when asked); *stop is set by a stop
 * signal's handler.  0, EXIT_GATE_FAILED when a --fail-if condition holds,
 * EXIT_USAGE on any error (said), 128 + the signal when stopped.
 */
int cmd_diff(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_CMD_DIFF_H */
