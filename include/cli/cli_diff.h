/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of `buildbpf diff` (cli_diff.c): its options are rows of the table (cli_options.h) of its own. */
#ifndef BUILDBPF_CLI_DIFF_H
#define BUILDBPF_CLI_DIFF_H

#include <stdio.h>
#include "cli/cli.h"

/* As cli__parse(): argv[0] is "diff". */
int cli__parse_diff(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err);

#endif /* BUILDBPF_CLI_DIFF_H */
