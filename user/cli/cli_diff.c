// SPDX-License-Identifier: GPL-2.0
/* The command line of `buildbpf diff`: its rows of the option table (cli_options.c), then its own checks. */
#include <errno.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "cli/cli_options.h"
#include "cli/cli_parse.h"

/* Two reports named alike would overwrite each other; two on stdout would mix. */
static bool same_outputs(const struct cli_opts *opts, FILE *err)
{
	const char *names[] = { opts->diff_json, opts->diff_markdown, opts->svg, opts->html };
	size_t i, k, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (names[i] && names[k] && !strcmp(names[i], names[k])) {
				fprintf(err, "buildbpf: diff: --json, --markdown, --svg and --html must name different files "
					     "(at most one may be -, stdout)\n");
				return true;
			}
	return false;
}

int cli__parse_diff(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err)
{
	/* ':': report a missing argument ourselves; options may follow the recordings. */
	struct cli_parse st = { .family = CLI_IN_DIFF, .getopt_prefix = ":", .mode_name = "diff",
				.say = "buildbpf: diff: ", .names_options = true };
	int ret;

	memset(opts, 0, sizeof(*opts));
	opts->mode = CLI_DIFF;
	ret = cli__parse_rows(opts, &st, argc, argv, out, err);
	if (ret <= 0)
		return ret;
	if (same_outputs(opts, err))
		return -EINVAL;
	if (argc - optind != 2) {
		fprintf(err, "buildbpf: diff: expected two recordings (usage: buildbpf diff [OPTIONS] OLD.bbl "
			     "NEW.bbl)\n");
		return -EINVAL;
	}
	opts->diff_old = argv[optind];
	opts->diff_new = argv[optind + 1];
	return 1;
}
