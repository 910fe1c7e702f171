/* SPDX-License-Identifier: GPL-2.0 */
/* buildbpf convert LOG -o TRACE, buildbpf report LOG: a recording read and rendered. */
#ifndef BUILDBPF_MAIN_CMD_READ_H
#define BUILDBPF_MAIN_CMD_READ_H

#include <signal.h>
#include "cli/cli.h"
#include "record/privilege.h"

/*
 * Runs as ra (root already left when asked); *stop is set by a stop
 * signal's handler.  0, EXIT_FAILURE_SETUP on any error (said), 128 + the
 * signal when stopped.
 */
int cmd_read(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_CMD_READ_H */
