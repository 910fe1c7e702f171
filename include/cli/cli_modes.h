/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each mode's command-line parser, which cli__parse() picks by the first
 * argument; each has its own option table.  The cli__parse() shape: < 0 a
 * usage error (said on err), 0 exit now (--help, --version printed on
 * out), > 0 go on.
 */
#ifndef BUILDBPF_CLI_MODES_H
#define BUILDBPF_CLI_MODES_H

#include <stdio.h>
#include "cli/cli.h"

/*
 * trace, record, convert, report (cli_run.c): argv[0] is the mode's name,
 * or the program's for trace (mode_name NULL).
 */
int cli__parse_run(struct cli_opts *opts, enum cli_mode mode, const char *mode_name, int argc, char **argv,
		   FILE *out, FILE *err);
/* diff (cli_diff.c): argv[0] is "diff". */
int cli__parse_diff(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err);
/* --version: the version, the commit built from, the libbpf run with (cli_usage.c). */
void cli__print_build_version(FILE *out);

#endif /* BUILDBPF_CLI_MODES_H */
