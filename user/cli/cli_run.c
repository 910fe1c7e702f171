// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of the modes that run a command (trace, record) or read
 * a recording (convert, report): one option table that says which modes
 * take each option, its values checked as they come, then each mode's own
 * checks.  An option a mode does not take is parsed all the same (a bad
 * value is said first) and refused after, in the mode's own words.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_run.h"
#include "cli/cli_usage.h"
#include "cli/cli_values.h"
#include "merge/trace_merge.h"
#include "events.h"
#include "util/term_escape.h"

enum {
	OPT_USER = 0x100,
	OPT_KEEP_ROOT,
	OPT_KEEP_ENV,
	OPT_ARGS_MAX,
	OPT_BUFFER_SIZE,
	OPT_WAIT_ALL,
	OPT_MEM_PERIOD,
	OPT_SCHED,
	OPT_SCHED_RESOLUTION,
	OPT_LOG,
	OPT_MERGE,
	OPT_KEEP_TRACE_DIR,
	OPT_NO_TRACE_DIR,
	OPT_MERGE_MAX_FILE,
	OPT_MERGE_MAX_EVENTS,
	OPT_SUMMARY_JSON,
	OPT_SVG,
	OPT_HTML,
	OPT_MARKDOWN,
	OPT_DEPS,
	OPT_ATTACH,
	OPT_DURATION,
	OPT_CGROUP,
	OPT_FOLLOW,
	OPT_ADD,
};

#define TRACE (1u << CLI_TRACE)
#define RECORD (1u << CLI_RECORD)
#define CONVERT (1u << CLI_CONVERT)
#define REPORT (1u << CLI_REPORT)
#define RUNS (TRACE | RECORD)	      /* a command runs */
#define ALL (RUNS | CONVERT | REPORT)

/* An option and the modes that take it. */
struct run_option {
	struct option getopt;
	unsigned modes;
};

static const struct run_option run_options[] = {
	{ { "output", required_argument, NULL, 'o' }, RUNS | CONVERT },
	{ { "force", no_argument, NULL, 'f' }, ALL },
	{ { "user", required_argument, NULL, OPT_USER }, RUNS },
	{ { "keep-root", no_argument, NULL, OPT_KEEP_ROOT }, ALL },
	{ { "keep-env", no_argument, NULL, OPT_KEEP_ENV }, RUNS },
	{ { "args-max", required_argument, NULL, OPT_ARGS_MAX }, RUNS },
	{ { "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE }, RUNS },
	{ { "wait-all", no_argument, NULL, OPT_WAIT_ALL }, RUNS },
	{ { "mem-period", required_argument, NULL, OPT_MEM_PERIOD }, RUNS },
	{ { "sched", required_argument, NULL, OPT_SCHED }, ALL },
	{ { "sched-resolution", required_argument, NULL, OPT_SCHED_RESOLUTION }, ALL },
	{ { "deps", required_argument, NULL, OPT_DEPS }, ALL },
	{ { "log", required_argument, NULL, OPT_LOG }, TRACE },
	{ { "merge", required_argument, NULL, OPT_MERGE }, ALL },
	{ { "keep-trace-dir", no_argument, NULL, OPT_KEEP_TRACE_DIR }, RUNS },
	{ { "no-trace-dir", no_argument, NULL, OPT_NO_TRACE_DIR }, RUNS },
	{ { "merge-max-file", required_argument, NULL, OPT_MERGE_MAX_FILE }, ALL },
	{ { "merge-max-events", required_argument, NULL, OPT_MERGE_MAX_EVENTS }, ALL },
	{ { "summary-json", required_argument, NULL, OPT_SUMMARY_JSON }, TRACE | CONVERT | REPORT },
	{ { "svg", required_argument, NULL, OPT_SVG }, TRACE | CONVERT | REPORT },
	{ { "html", required_argument, NULL, OPT_HTML }, TRACE | CONVERT | REPORT },
	{ { "markdown", required_argument, NULL, OPT_MARKDOWN }, TRACE | CONVERT | REPORT },
	{ { "attach", required_argument, NULL, OPT_ATTACH }, RUNS },
	{ { "duration", required_argument, NULL, OPT_DURATION }, RUNS },
	{ { "cgroup", required_argument, NULL, OPT_CGROUP }, RUNS },
	{ { "follow", required_argument, NULL, OPT_FOLLOW }, RUNS },
	{ { "add", required_argument, NULL, OPT_ADD }, CONVERT },
	{ { "quiet", no_argument, NULL, 'q' }, ALL },
	{ { "verbose", no_argument, NULL, 'v' }, ALL },
	{ { "help", no_argument, NULL, 'h' }, ALL },
	{ { "version", no_argument, NULL, 'V' }, ALL },
};

#define NR_RUN_OPTIONS (sizeof(run_options) / sizeof(run_options[0]))

/* What the parse has seen besides opts. */
struct run_parse {
	const char *mode_name; /* "record", "convert", "report"; NULL: trace */
	bool output_given;
	/* The last option given that only a running command takes: convert
	 * and report refuse it, by name. */
	const char *run_only;
};

/* The modes that take the option getopt returned as val; 0: not an option of ours. */
static unsigned modes_of(int val, const char **name)
{
	for (size_t i = 0; i < NR_RUN_OPTIONS; i++)
		if (run_options[i].getopt.val == val) {
			*name = run_options[i].getopt.name;
			return run_options[i].modes;
		}
	return 0;
}

/* The files besides the trace a build's audit is written to: where each option's value goes. */
static const char **side_option(struct cli_opts *opts, int c)
{
	return c == OPT_SVG ? &opts->svg : c == OPT_HTML ? &opts->html : c == OPT_MARKDOWN ? &opts->markdown
											: &opts->summary_json;
}

static const char *side_option_name(int c)
{
	return c == OPT_SVG ? "--svg" : c == OPT_HTML ? "--html" : c == OPT_MARKDOWN ? "--markdown" : "--summary-json";
}

/* The first side output given, by option name; NULL: none. */
static const char *first_side_output(const struct cli_opts *opts)
{
	return opts->svg ? "--svg" : opts->summary_json ? "--summary-json" : opts->html ? "--html"
	       : opts->markdown ? "--markdown" : NULL;
}

/* Applies one option (getopt's c and optarg).  > 0 go on, 0 exit now (--help, --version), < 0 said. */
static int apply_option(struct cli_opts *opts, struct run_parse *st, int c, FILE *out, FILE *err)
{
	char esc[TERM_ESCAPE_BUF], *end;
	unsigned long long size;

	switch (c) {
	case 'o':
		if (!*optarg) {
			fprintf(err, "buildbpf: -o/--output needs a file name\n");
			return -EINVAL;
		}
		opts->output = optarg;
		st->output_given = true;
		break;
	case 'f':
		opts->force = true;
		break;
	case OPT_USER:
		opts->user = optarg;
		break;
	case OPT_KEEP_ROOT:
		/* Every mode: under sudo, one that loads no BPF leaves root too. */
		opts->keep_root = true;
		break;
	case OPT_KEEP_ENV:
		opts->keep_env = true;
		break;
	case OPT_ARGS_MAX:
		if (cli__parse_size(optarg, &size) || size < 1 || size > BB_ARGS_MAX_LIMIT) {
			fprintf(err, "buildbpf: --args-max '%s': expected 1 to %u bytes (e.g. 4096, 64K)\n",
				term_escape(optarg, esc, sizeof(esc)), BB_ARGS_MAX_LIMIT);
			return -EINVAL;
		}
		opts->args_max = size;
		break;
	case OPT_BUFFER_SIZE:
		if (cli__parse_size(optarg, &size) || size < 4096 || size > (1ull << 30) || (size & (size - 1))) {
			fprintf(err, "buildbpf: --buffer-size '%s': expected a power of two from 4K to 1G\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		opts->ringbuf_bytes = size;
		break;
	case OPT_SCHED:
		opts->sched_given = true;
		if (!strcmp(optarg, "off")) {
			opts->sched = SCHED_OFF;
		} else if (!strcmp(optarg, "summary")) {
			opts->sched = SCHED_SUMMARY;
		} else if (!strcmp(optarg, "full")) {
			opts->sched = SCHED_FULL;
		} else {
			fprintf(err, "buildbpf: --sched '%s': expected off, summary or full\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		break;
	case OPT_DEPS:
		opts->deps_given = true;
		if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
			fprintf(err, "buildbpf: --deps '%s': expected on or off\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		opts->deps = !strcmp(optarg, "on");
		break;
	case OPT_SCHED_RESOLUTION:
		opts->resolution_given = true;
		if (cli__parse_duration(optarg, &opts->sched_resolution_ns) || !opts->sched_resolution_ns ||
		    opts->sched_resolution_ns > 10000000000ull) {
			fprintf(err, "buildbpf: --sched-resolution '%s': expected a duration from 1ns to 10s "
				     "(e.g. 1ms, 500us)\n", term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		break;
	case OPT_LOG:
		if (opts->mode != CLI_TRACE) {
			fprintf(err, "buildbpf: %s: --log is for tracing (record writes its log with -o)\n",
				st->mode_name);
			return -EINVAL;
		}
		if (!*optarg) {
			fprintf(err, "buildbpf: --log needs a file name\n");
			return -EINVAL;
		}
		opts->keep_log = optarg;
		break;
	case OPT_MERGE:
		if (!*optarg || opts->nr_merge >= CLI_MERGE_MAX) {
			fprintf(err, "buildbpf: --merge: %s\n",
				*optarg ? "too many (at most 64; use a glob)" : "needs a path or a glob");
			return -EINVAL;
		}
		opts->merge[opts->nr_merge++] = optarg;
		break;
	case OPT_KEEP_TRACE_DIR:
		opts->keep_trace_dir = true;
		break;
	case OPT_NO_TRACE_DIR:
		opts->no_trace_dir = true;
		break;
	case OPT_MERGE_MAX_FILE:
		if (cli__parse_size(optarg, &size) || size < 1 || size > (1ull << 30)) {
			fprintf(err, "buildbpf: --merge-max-file '%s': expected 1 byte to 1G (e.g. 64M)\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		opts->merge_max_file = size;
		break;
	case OPT_MERGE_MAX_EVENTS:
		if (cli__parse_size(optarg, &size) || size > 100000000) {
			fprintf(err, "buildbpf: --merge-max-events '%s': expected 0 to 100000000\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		opts->merge_max_events = size;
		break;
	case OPT_SUMMARY_JSON:
	case OPT_SVG:
	case OPT_HTML:
	case OPT_MARKDOWN:
		if (!*optarg) {
			fprintf(err, "buildbpf: %s needs a file name\n", side_option_name(c));
			return -EINVAL;
		}
		*side_option(opts, c) = optarg;
		break;
	case OPT_ATTACH:
	case OPT_FOLLOW:
		if (cli__parse_u64(optarg, &size, &end) || *end || !size || size > INT32_MAX) {
			fprintf(err, "buildbpf: %s '%s': expected a process id\n",
				c == OPT_ATTACH ? "--attach" : "--follow",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		if (c == OPT_ATTACH) {
			opts->attach_pid = size;
		} else if (opts->nr_follow < CLI_FOLLOW_MAX) {
			opts->follow[opts->nr_follow++] = size;
		} else {
			fprintf(err, "buildbpf: --follow: at most %d daemons\n", CLI_FOLLOW_MAX);
			return -EINVAL;
		}
		break;
	case OPT_ADD:
		if (!*optarg || opts->nr_add >= CLI_ADD_MAX) {
			fprintf(err, "buildbpf: --add: %s\n",
				*optarg ? "too many recordings (at most 63)" : "needs a recording");
			return -EINVAL;
		}
		opts->add[opts->nr_add++] = optarg;
		break;
	case OPT_CGROUP:
		if (!*optarg) {
			fprintf(err, "buildbpf: --cgroup needs a cgroup path\n");
			return -EINVAL;
		}
		opts->cgroup = optarg;
		break;
	case OPT_DURATION:
		if (cli__parse_duration(optarg, &opts->duration_ns) || !opts->duration_ns) {
			fprintf(err, "buildbpf: --duration '%s': expected a duration (e.g. 30s, 500ms)\n",
				term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		break;
	case OPT_MEM_PERIOD:
		if (!strcmp(optarg, "off")) {
			opts->mem_period_ns = 0;
		} else if (cli__parse_duration(optarg, &opts->mem_period_ns) || opts->mem_period_ns < 1000000ull ||
			   opts->mem_period_ns > 10000000000ull) {
			fprintf(err, "buildbpf: --mem-period '%s': expected off or a duration from 1ms to 10s "
				     "(e.g. 50ms)\n", term_escape(optarg, esc, sizeof(esc)));
			return -EINVAL;
		}
		break;
	case OPT_WAIT_ALL:
		opts->wait_all = true;
		break;
	case 'q':
		opts->quiet = true;
		break;
	case 'v':
		opts->verbose = true;
		break;
	case 'h':
		cli__print_usage(out);
		return 0;
	case 'V':
		cli__print_build_version(out);
		opts->version = true;
		return 0;
	}
	return 1;
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
static int check_reading(struct cli_opts *opts, const struct run_parse *st, int argc, char **argv, FILE *err)
{
	if (st->run_only) {
		fprintf(err, "buildbpf: %s: --%s applies when a command runs, not to a recording\n", st->mode_name,
			st->run_only);
		return -EINVAL;
	}
	if (opts->mode == CLI_REPORT && st->output_given) {
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
	struct option longopts[NR_RUN_OPTIONS + 1] = {};
	struct run_parse st = { .mode_name = mode_name };
	bool reading = mode == CLI_CONVERT || mode == CLI_REPORT;
	char esc[TERM_ESCAPE_BUF];
	const char *name;
	unsigned modes;
	int c, ret;

	set_defaults(opts, mode);
	for (size_t i = 0; i < NR_RUN_OPTIONS; i++)
		longopts[i] = run_options[i].getopt;
	/* '+': stop at the command, whose own options are not ours.
	 * ':': report a missing argument ourselves. */
	optind = 0;
	opterr = 0;
	/* A recording is one operand: options may follow it (convert LOG -o T). */
	while ((c = getopt_long(argc, argv, reading ? ":o:fqvhV" : "+:o:fqvhV", longopts, NULL)) != -1) {
		if (c == ':') {
			fprintf(err, "buildbpf: option '%s' needs an argument (see --help)\n",
				term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
		modes = modes_of(c, &name);
		if (!modes) {
			if (optopt)
				fprintf(err, "buildbpf: unknown option '-%s' (see --help)\n",
					term_escape((char[]){ (char)optopt, '\0' }, esc, sizeof(esc)));
			else
				fprintf(err, "buildbpf: unknown option '%s' (see --help)\n",
					term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
		if (!(modes & (CONVERT | REPORT)))
			st.run_only = name;
		ret = apply_option(opts, &st, c, out, err);
		if (ret <= 0)
			return ret;
	}
	if (check_common(opts, err))
		return -EINVAL;
	return reading ? check_reading(opts, &st, argc, argv, err) : check_running(opts, argc, argv, err);
}
