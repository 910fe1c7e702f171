/* SPDX-License-Identifier: GPL-2.0 */
/*
 * argv read by the rows of the option table (cli_options.h) that one
 * family of modes takes: trace, record, convert and report share theirs
 * (cli_run.c), diff has its own (cli_diff.c).  Each value is checked as it
 * comes, its message built from its row; the modes' own checks come after.
 */
#ifndef BUILDBPF_CLI_PARSE_H
#define BUILDBPF_CLI_PARSE_H

#include <stdbool.h>
#include <stdio.h>
#include "cli/cli.h"

struct cli_parse {
	unsigned family;	   /* CLI_IN_*: the rows argv is read by */
	/* getopt's: "+:" stops at a command (its options are not ours), ":"
	 * reads options after the operands too (convert LOG -o T). */
	const char *getopt_prefix;
	const char *mode_name;	   /* "record", "diff", ...; NULL: trace */
	const char *say;	   /* how every message starts: "buildbpf: ", "buildbpf: diff: " */
	/* An unknown option's message names the family's options (diff's few). */
	bool names_options;
	/* Set by the parse: the last option given that only a running command
	 * takes (convert and report refuse it, by name); NULL: none. */
	const char *run_only;
};

/*
 * Reads argv's options into opts (set beforehand to the mode's defaults):
 * > 0 with optind at the first operand, 0 to exit now (--help, --version
 * printed to out), < 0 on a usage error (one line printed to err).
 */
int cli__parse_rows(struct cli_opts *opts, struct cli_parse *p, int argc, char **argv, FILE *out, FILE *err);

#endif /* BUILDBPF_CLI_PARSE_H */
