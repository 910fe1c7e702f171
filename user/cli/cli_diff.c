// SPDX-License-Identifier: GPL-2.0
/* The command line of `buildbpf diff`: its options are its own. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "cli/cli_usage.h"
#include "util/term_escape.h"

enum {
	OPT_JSON = 0x100,
	OPT_MARKDOWN,
	OPT_SVG,
	OPT_HTML,
	OPT_FAIL_IF,
};

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

/* The short names are getopt_long's optstring in cli__parse_diff(). */
static const struct option diff_options[] = {
	{ "json", required_argument, NULL, OPT_JSON },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "fail-if", required_argument, NULL, OPT_FAIL_IF },
	{ "force", no_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

void cli__list_diff_options(FILE *out)
{
	for (const struct option *o = diff_options; o->name; o++) {
		if (o->val < 0x100)
			fprintf(out, "diff -%c --%s\n", o->val, o->name);
		else
			fprintf(out, "diff - --%s\n", o->name);
	}
}

int cli__parse_diff(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err)
{
	char esc[TERM_ESCAPE_BUF], why[256];
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->mode = CLI_DIFF;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":fqh", diff_options, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
		case OPT_MARKDOWN:
		case OPT_SVG:
		case OPT_HTML:
			if (!*optarg) {
				fprintf(err, "buildbpf: diff: %s needs a file name (- for stdout)\n", argv[optind - 1]);
				return -EINVAL;
			}
			*(c == OPT_JSON ? &opts->diff_json : c == OPT_MARKDOWN ? &opts->diff_markdown
				: c == OPT_SVG ? &opts->svg : &opts->html) = optarg;
			break;
		case OPT_FAIL_IF:
			if (opts->nr_fail_if >= CLI_FAIL_IF_MAX) {
				fprintf(err, "buildbpf: diff: --fail-if: at most %d conditions\n", CLI_FAIL_IF_MAX);
				return -EINVAL;
			}
			if (fail_if__parse(&opts->fail_if[opts->nr_fail_if], optarg, why, sizeof(why))) {
				fprintf(err, "buildbpf: diff: --fail-if '%s': %s (see buildbpf(1), FAIL-IF)\n",
					term_escape(optarg, esc, sizeof(esc)), why);
				return -EINVAL;
			}
			opts->nr_fail_if++;
			break;
		case 'f':
			opts->force = true;
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'h':
			cli__print_usage(out);
			return 0;
		case ':':
			fprintf(err, "buildbpf: diff: option '%s' needs an argument (see --help)\n",
				term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		default:
			fprintf(err, "buildbpf: diff: unknown option '%s' (diff takes --json, --markdown, --svg, --html, "
				     "--fail-if, -f, -q; see --help)\n",
				term_escape(optopt ? (char[]){ '-', (char)optopt, '\0' } : argv[optind - 1], esc,
					    sizeof(esc)));
			return -EINVAL;
		}
	}
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
