/* SPDX-License-Identifier: GPL-2.0 */
/* buildbpf record -o LOG -- CMD: only the event log, for convert and report later. */
#ifndef BUILDBPF_MAIN_CMD_RECORD_H
#define BUILDBPF_MAIN_CMD_RECORD_H

#include <signal.h>
#include "cli/cli.h"
#include "main/tracing.h"
#include "record/privilege.h"

/* As cmd_trace() (main/cmd_trace.h). */
int cmd_record(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of);

#endif /* BUILDBPF_MAIN_CMD_RECORD_H */
