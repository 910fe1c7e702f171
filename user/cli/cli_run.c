// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of the modes that run a command (trace, record) or read
 * a recording (convert, report): their rows of the option table read
 * (cli_parse.c), then each mode's own checks.  An option a mode does not
 * take is parsed all the same (a bad value is said first) and refused
 * after, in the mode's own words.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_parse.h"
#include "cli/cli_run.h"
#include "merge/trace_merge.h"
#include "events.h"
#include "util/term_escape.h"

/* The first side output given, by option name; NULL: none. */
static const char *first_side_output(const struct cli_opts *opts)
{
	return opts->svg ? "--svg" : opts->summary_json ? "--summary-json" : opts->html ? "--html"
	       : opts->markdown ? "--markdown" : NULL;
}

/* Two outputs named alike would overwrite each other at the end. */
static bool same_file_names(const struct cli_opts *opts, FILE *err)
{
	const char *names[] = { opts->output, opts->summary_json, opts->svg, opts->html, opts->markdown, opts->keep_log };
	size_t i, k, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (names[i] && names[k] && !strcmp(names[i], names[k])) {
				fprintf(err, "buildbpf: -o, --summary-json, --svg, --html, --markdown and --log must name "
					     "different files\n");
				return false;
			}
	return true;
}

/* What every mode checks once every option is read.  0, or -EINVAL (said). */
static int check_common(const struct cli_opts *opts, FILE *err)
{
	if (!same_file_names(opts, err))
		return -EINVAL;
	if (opts->mode == CLI_RECORD && first_side_output(opts)) {
		fprintf(err, "buildbpf: record writes only the event log (hint: buildbpf convert LOG %s FILE)\n",
			first_side_output(opts));
		return -EINVAL;
	}
	if (opts->user && opts->keep_root) {
		fprintf(err, "buildbpf: --user and --keep-root exclude each other\n");
		return -EINVAL;
	}
	if (opts->nr_add && opts->mode != CLI_CONVERT) {
		fprintf(err, "buildbpf: --add puts recordings of other hosts in one trace: it is for convert "
			     "(buildbpf convert A.bbl --add B.bbl -o t.json)\n");
		return -EINVAL;
	}
	if (opts->nr_add && first_side_output(opts)) {
		fprintf(err, "buildbpf: convert --add writes one trace of every host; --svg, --summary-json, --html "
			     "and --markdown show one host's build (convert each recording alone for them)\n");
		return -EINVAL;
	}
	return 0;
}

/* convert, report: the recording to read.  > 0, or -EINVAL (said). */
static int check_reading(struct cli_opts *opts, const struct cli_parse *st, int argc, char **argv, FILE *err)
{
	if (st->run_only) {
		fprintf(err, "buildbpf: %s: --%s applies when a command runs, not to a recording\n", st->mode_name,
			st->run_only);
		return -EINVAL;
	}
	if (opts->mode == CLI_REPORT && opts->output_given) {
		fprintf(err, "buildbpf: report prints to stdout; -o is for convert\n");
		return -EINVAL;
	}
	if (argc - optind != 1) {
		fprintf(err, "buildbpf: %s: expected one recording (usage: buildbpf %s [OPTIONS] LOG)\n",
			st->mode_name, st->mode_name);
		return -EINVAL;
	}
	opts->log_path = argv[optind];
	return 1;
}

/* trace, record: the command, or what is traced instead.  > 0, or -EINVAL (said). */
static int check_running(struct cli_opts *opts, int argc, char **argv, FILE *err)
{
	char esc[TERM_ESCAPE_BUF];

	if (opts->keep_trace_dir && opts->no_trace_dir) {
		fprintf(err, "buildbpf: --keep-trace-dir and --no-trace-dir exclude each other\n");
		return -EINVAL;
	}
	if (opts->duration_ns && !opts->attach_pid && !opts->cgroup) {
		fprintf(err, "buildbpf: --duration is for --attach and --cgroup (a command's trace ends with the "
			     "command)\n");
		return -EINVAL;
	}
	if (opts->attach_pid && opts->cgroup) {
		fprintf(err, "buildbpf: --attach and --cgroup exclude each other\n");
		return -EINVAL;
	}
	if (opts->nr_follow && (opts->attach_pid || opts->cgroup)) {
		fprintf(err, "buildbpf: --follow is for a COMMAND's trace (--attach and --cgroup trace what they "
			     "find)\n");
		return -EINVAL;
	}
	if (opts->nr_follow && opts->wait_all) {
		fprintf(err, "buildbpf: --follow and --wait-all exclude each other: a daemon outlives the build\n");
		return -EINVAL;
	}
	if (opts->attach_pid || opts->cgroup) {
		const char *what = opts->attach_pid ? "--attach" : "--cgroup";

		if (optind < argc) {
			fprintf(err, "buildbpf: %s traces running processes: no COMMAND with it (got '%s')\n", what,
				term_escape(argv[optind], esc, sizeof(esc)));
			return -EINVAL;
		}
		if (opts->wait_all || opts->keep_trace_dir || opts->no_trace_dir || opts->keep_env) {
			fprintf(err, "buildbpf: %s starts no command: --wait-all, --keep-env and the trace "
				     "directory options do not apply\n", what);
			return -EINVAL;
		}
		return 1;
	}
	if (optind >= argc) {
		fprintf(err, "buildbpf: no command to %s (usage: buildbpf %s[OPTIONS] -- COMMAND [ARG...])\n",
			opts->mode == CLI_RECORD ? "record" : "trace", opts->mode == CLI_RECORD ? "record " : "");
		return -EINVAL;
	}
	opts->cmd_argv = argv + optind;
	opts->cmd_argc = argc - optind;
	return 1;
}

/* The defaults every run mode starts from. */
static void set_defaults(struct cli_opts *opts, enum cli_mode mode)
{
	memset(opts, 0, sizeof(*opts));
	opts->mode = mode;
	opts->output = mode == CLI_RECORD ? CLI_DEFAULT_LOG : CLI_DEFAULT_OUTPUT;
	opts->args_max = BB_ARGS_MAX_DEFAULT;
	opts->ringbuf_bytes = CLI_DEFAULT_RINGBUF;
	opts->sched = SCHED_SUMMARY;
	opts->sched_resolution_ns = SCHED_DEFAULT_RESOLUTION_NS;
	opts->deps = false;
	opts->mem_period_ns = CLI_MEM_PERIOD_DEFAULT_NS;
	opts->merge_max_file = MERGE_DEFAULT_FILE_MAX_BYTES;
	opts->merge_max_events = MERGE_DEFAULT_MAX_EVENTS;
}

int cli__parse_run(struct cli_opts *opts, enum cli_mode mode, const char *mode_name, int argc, char **argv,
		   FILE *out, FILE *err)
{
	bool reading = mode == CLI_CONVERT || mode == CLI_REPORT;
	/* '+': stop at the command, whose own options are not ours; a
	 * recording is one operand: options may follow it (convert LOG -o T).
	 * ':': report a missing argument ourselves. */
	struct cli_parse st = {
		.family = CLI_IN_ALL, .getopt_prefix = reading ? ":" : "+:", .mode_name = mode_name, .say = "buildbpf: "
	};
	int ret;

	set_defaults(opts, mode);
	ret = cli__parse_rows(opts, &st, argc, argv, out, err);
	if (ret <= 0)
		return ret;
	if (check_common(opts, err))
		return -EINVAL;
	return reading ? check_reading(opts, &st, argc, argv, err) : check_running(opts, argc, argv, err);
}
