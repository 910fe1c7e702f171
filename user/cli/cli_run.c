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
#include "cli/cli_options.h"
#include "cli/cli_run.h"
#include "cli/cli_usage.h"
#include "cli/cli_values.h"
#include "merge/trace_merge.h"
#include "events.h"
#include "util/term_escape.h"

/* What the parse has seen besides opts. */
struct run_parse {
	const char *mode_name; /* "record", "convert", "report"; NULL: trace */
	/* The last option given that only a running command takes: convert
	 * and report refuse it, by name. */
	const char *run_only;
};

/* The first side output given, by option name; NULL: none. */
static const char *first_side_output(const struct cli_opts *opts)
{
	return opts->svg ? "--svg" : opts->summary_json ? "--summary-json" : opts->html ? "--html"
	       : opts->markdown ? "--markdown" : NULL;
}

/* A limit as a message spells it: 131072, 4K, 1 byte, 10s. */
static void spell_limit(char *buf, size_t len, unsigned long long v, enum cli_limit_unit unit)
{
	static const struct {
		const char *suffix;
		unsigned long long scale;
	} sizes[] = { { "G", 1ull << 30 }, { "M", 1ull << 20 }, { "K", 1ull << 10 } },
	  durations[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 } };
	size_t i;

	if (unit == CLI_LIMIT_SIZE) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			if (v && v % sizes[i].scale == 0) {
				snprintf(buf, len, "%llu%s", v / sizes[i].scale, sizes[i].suffix);
				return;
			}
		snprintf(buf, len, "%llu byte%s", v, v == 1 ? "" : "s");
	} else if (unit == CLI_LIMIT_DURATION) {
		for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++)
			if (v % durations[i].scale == 0 || durations[i].scale == 1) {
				snprintf(buf, len, "%llu%s", v / durations[i].scale, durations[i].suffix);
				return;
			}
	} else {
		snprintf(buf, len, "%llu", v);
	}
}

/* A message of the table: {min} and {max} replaced by the limits as given. */
static void say_limits(FILE *err, const char *message, const char *min, const char *max)
{
	while (*message) {
		if (!strncmp(message, "{min}", 5)) {
			fputs(min, err);
			message += 5;
		} else if (!strncmp(message, "{max}", 5)) {
			fputs(max, err);
			message += 5;
		} else {
			fputc(*message++, err);
		}
	}
}

/* What a value should have been: the choices' words, or the row's message with its limits. */
static void say_expected(FILE *err, const struct cli_option *opt)
{
	char min[32], max[32];

	if (opt->value == CLI_CHOICE) {
		fputs("expected ", err);
		for (const struct cli_choice *choice = opt->choices; choice->word; choice++)
			fprintf(err, "%s%s", choice == opt->choices ? "" : choice[1].word ? ", " : " or ",
				choice->word);
		return;
	}
	spell_limit(min, sizeof(min), opt->min, opt->unit);
	spell_limit(max, sizeof(max), opt->max, opt->unit);
	say_limits(err, opt->expect, min, max);
}

/* A value that is a number: one of the row's words, or read as its kind says and within its limits. */
static int read_number(const struct cli_option *opt, const char *arg, unsigned long long *value)
{
	__u64 ns;
	char *end;

	for (const struct cli_choice *choice = opt->choices; choice && choice->word; choice++)
		if (!strcmp(arg, choice->word)) {
			*value = choice->value;
			return 0;
		}
	switch (opt->value) {
	case CLI_NUMBER:
		if (cli__parse_u64(arg, value, &end) || *end)
			return -EINVAL;
		break;
	case CLI_SIZE:
		if (cli__parse_size(arg, value))
			return -EINVAL;
		break;
	case CLI_DURATION:
		if (cli__parse_duration(arg, &ns))
			return -EINVAL;
		*value = ns;
		break;
	default: /* CLI_CHOICE: none of its words */
		return -EINVAL;
	}
	if (*value < opt->min || *value > opt->max || (opt->power_of_two && (*value & (*value - 1))))
		return -EINVAL;
	return 0;
}

/* An integer into the field of the row's size (bool, __u32, pid_t, size_t, ...). */
static void store_number(void *field, size_t size, unsigned long long value)
{
	union {
		__u8 u8;
		__u16 u16;
		__u32 u32;
		__u64 u64;
	} v;

	switch (size) {
	case 1: v.u8 = value; break;
	case 2: v.u16 = value; break;
	case 4: v.u32 = value; break;
	default: v.u64 = value; break; /* 8: a unit test holds every row to these sizes */
	}
	memcpy(field, &v, size);
}

/* The value into the row's field, or at the end of its list.  0, or -EINVAL (said). */
static int store(struct cli_opts *opts, const struct cli_option *opt, const char *text, unsigned long long number)
{
	char *field = (char *)opts + opt->at;
	size_t *count = (size_t *)((char *)opts + opt->count_at);

	if (opt->max_items) {
		if (*count >= opt->max_items)
			return -EINVAL;
		field += *count * opt->size;
		++*count;
	}
	if (opt->value == CLI_TEXT)
		memcpy(field, &text, sizeof(text));
	else
		store_number(field, opt->size, number);
	return 0;
}

/* Applies one option and its value (NULL: none).  > 0 go on, 0 exit now (--help, --version), < 0 said. */
static int apply_option(struct cli_opts *opts, const struct run_parse *st, const struct cli_option *opt,
			const char *arg, FILE *out, FILE *err)
{
	char esc[TERM_ESCAPE_BUF], max[32];
	unsigned long long number = 1;

	if (opt->not_here && !(opt->modes & (1u << opts->mode))) {
		fprintf(err, "buildbpf: %s: --%s %s\n", st->mode_name, opt->name, opt->not_here);
		return -EINVAL;
	}
	if (opt->given_at)
		*(bool *)((char *)opts + opt->given_at) = true;
	switch (opt->value) {
	case CLI_HELP:
		cli__print_usage(out);
		return 0;
	case CLI_VERSION:
		cli__print_build_version(out);
		store(opts, opt, NULL, 1);
		return 0;
	case CLI_FLAG:
		break;
	case CLI_TEXT:
		if (opt->needs && !*arg) {
			if (opt->max_items)
				fprintf(err, "buildbpf: --%s: needs %s\n", opt->name, opt->needs);
			else if (opt->short_name)
				fprintf(err, "buildbpf: -%c/--%s needs %s\n", opt->short_name, opt->name, opt->needs);
			else
				fprintf(err, "buildbpf: --%s needs %s\n", opt->name, opt->needs);
			return -EINVAL;
		}
		break;
	default:
		if (read_number(opt, arg, &number)) {
			fprintf(err, "buildbpf: --%s '%s': ", opt->name, term_escape(arg, esc, sizeof(esc)));
			say_expected(err, opt);
			fputc('\n', err);
			return -EINVAL;
		}
	}
	if (store(opts, opt, arg, number)) {
		snprintf(max, sizeof(max), "%zu", opt->max_items);
		fprintf(err, "buildbpf: --%s: ", opt->name);
		say_limits(err, opt->too_many, "", max);
		fputc('\n', err);
		return -EINVAL;
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

/* getopt_long's val for a row: its short name, or past every character. */
#define LONG_ONLY_VAL 0x100

/* Whether the row's option is followed by a value. */
static bool takes_value(const struct cli_option *opt)
{
	switch (opt->value) {
	case CLI_TEXT:
	case CLI_CHOICE:
	case CLI_NUMBER:
	case CLI_SIZE:
	case CLI_DURATION:
		return true;
	case CLI_FLAG:
	case CLI_HELP:
	case CLI_VERSION:
		break;
	}
	return false;
}

/* getopt_long's tables from the rows: each row's long name, and the short names after prefix. */
static void getopt_tables(const struct cli_option *rows, size_t nr, const char *prefix, struct option *longopts,
			  char *shortopts)
{
	char *at = stpcpy(shortopts, prefix);

	for (size_t i = 0; i < nr; i++) {
		longopts[i] = (struct option){ rows[i].name, takes_value(&rows[i]) ? required_argument : no_argument,
					       NULL, rows[i].short_name ? rows[i].short_name : LONG_ONLY_VAL + (int)i };
		if (rows[i].short_name) {
			*at++ = rows[i].short_name;
			if (longopts[i].has_arg)
				*at++ = ':';
		}
	}
	*at = '\0';
	longopts[nr] = (struct option){};
}

/* The row getopt_long's c names; NULL: not an option of ours. */
static const struct cli_option *row_of(const struct cli_option *rows, size_t nr, int c)
{
	if (c >= LONG_ONLY_VAL)
		return c - LONG_ONLY_VAL < (int)nr ? &rows[c - LONG_ONLY_VAL] : NULL;
	for (size_t i = 0; i < nr; i++)
		if (rows[i].short_name && rows[i].short_name == c)
			return &rows[i];
	return NULL;
}

int cli__parse_run(struct cli_opts *opts, enum cli_mode mode, const char *mode_name, int argc, char **argv,
		   FILE *out, FILE *err)
{
	size_t nr;
	const struct cli_option *rows = cli__run_options(&nr), *opt;
	struct option longopts[nr + 1];
	char shortopts[3 + 2 * nr], esc[TERM_ESCAPE_BUF];
	struct run_parse st = { .mode_name = mode_name };
	bool reading = mode == CLI_CONVERT || mode == CLI_REPORT;
	int c, ret;

	set_defaults(opts, mode);
	/* '+': stop at the command, whose own options are not ours; a
	 * recording is one operand: options may follow it (convert LOG -o T).
	 * ':': report a missing argument ourselves. */
	getopt_tables(rows, nr, reading ? ":" : "+:", longopts, shortopts);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == ':') {
			fprintf(err, "buildbpf: option '%s' needs an argument (see --help)\n",
				term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
		opt = row_of(rows, nr, c);
		if (!opt) {
			if (optopt)
				fprintf(err, "buildbpf: unknown option '-%s' (see --help)\n",
					term_escape((char[]){ (char)optopt, '\0' }, esc, sizeof(esc)));
			else
				fprintf(err, "buildbpf: unknown option '%s' (see --help)\n",
					term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
		if (!(opt->modes & CLI_IN_READING))
			st.run_only = opt->name;
		ret = apply_option(opts, &st, opt, optarg, out, err);
		if (ret <= 0)
			return ret;
	}
	if (check_common(opts, err))
		return -EINVAL;
	return reading ? check_reading(opts, &st, argc, argv, err) : check_running(opts, argc, argv, err);
}
