// SPDX-License-Identifier: GPL-2.0
/* The command line: the first argument names the mode, whose own parser reads the rest (cli_run.c, cli_diff.c). */
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "cli/cli_options.h"
#include "cli/cli_run.h"

int cli__parse(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err)
{
	static const struct {
		const char *name;
		enum cli_mode mode;
	} modes[] = { { "record", CLI_RECORD }, { "convert", CLI_CONVERT }, { "report", CLI_REPORT } };
	size_t i;

	/* Whole and alone: no abbreviation of it may shadow a user's option. */
	if (argc == 2 && !strcmp(argv[1], "--list-options")) {
		cli__list_options(out);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cli__parse_diff(opts, argc - 1, argv + 1, out, err);
	for (i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++)
		/* getopt sees the subcommand as its program name. */
		if (!strcmp(argv[1], modes[i].name))
			return cli__parse_run(opts, modes[i].mode, modes[i].name, argc - 1, argv + 1, out, err);
	return cli__parse_run(opts, CLI_TRACE, NULL, argc, argv, out, err);
}
