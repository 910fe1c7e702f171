/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `buildbpf convert A.bbl --add B.bbl ...`, wired: the trace file checked
 * first, every host's log replayed, the hosts aligned on their wall clocks
 * and distcc's remote jobs linked (hosts/), one trace written with a
 * process group per host.  The alignment itself is in user/hosts/.
 */
#ifndef BUILDBPF_MAIN_CMD_HOSTS_H
#define BUILDBPF_MAIN_CMD_HOSTS_H

#include <signal.h>
#include "cli/cli.h"
#include "record/privilege.h"

/*
 * Runs convert --add as ra (root already left when asked); *stop is set by
 * a stop signal's handler.  0, EXIT_FAILURE_SETUP on any error (said), 128
 * + the signal when stopped.
 */
int cmd_convert_hosts(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop);

#endif /* BUILDBPF_MAIN_CMD_HOSTS_H */
