/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `buildbpf convert A.bbl --add B.bbl ...`: every host's log read once,
 * aligned and linked (hosts/), one trace with a process group per host.
 */
#ifndef BUILDBPF_MAIN_CMD_HOSTS_H
#define BUILDBPF_MAIN_CMD_HOSTS_H

#include <signal.h>
#include "cli/cli.h"
#include "record/privilege.h"

/*
 * Runs as ra (root already left when asked); *stop is set by a stop
 * signal's handler.  0, EXIT_FAILURE_SETUP on any error (said), 128 + the
 * signal when stopped.
 */
int cmd_convert_hosts(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_CMD_HOSTS_H */
