/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of the modes that run a command or read a recording (cli_run.c). */
#ifndef BUILDBPF_CLI_RUN_H
#define BUILDBPF_CLI_RUN_H

#include <stdio.h>
#include "cli/cli.h"

/*
 * trace, record, convert, report, as cli__parse(): argv[0] is the mode's
 * name, or the program's for trace (mode_name NULL).
 */
int cli__parse_run(struct cli_opts *opts, enum cli_mode mode, const char *mode_name, int argc, char **argv,
		   FILE *out, FILE *err);

#endif /* BUILDBPF_CLI_RUN_H */
