// SPDX-License-Identifier: GPL-2.0
/*
 * The options of every mode, one row each (include/cli/cli_options.h):
 * trace, record, convert and report's, then diff's; their --help text, and
 * the --list-options dump the man page and completion are checked against.
 */
#include <getopt.h>
#include <stdint.h>
#include <string.h>
#include "cli/cli_options.h"
#include "diff/fail_if.h"
#include "merge/trace_merge.h"
#include "events.h"

#define SECOND 1000000000ull
#define MILLISECOND 1000000ull

/* A file name's check: the same words for every output. */
#define OUTPUT_FILE .value = CLI_TEXT, .needs = "a file name", .arg = "FILE"
/* diff's reports: any one of them may go to stdout. */
#define DIFF_FILE .modes = CLI_IN_DIFF, .value = CLI_TEXT, .needs = "a file name (- for stdout)", .arg = "FILE"

static int parse_fail_if(void *field, const char *text, char *why, size_t why_size)
{
	return fail_if__parse(field, text, why, why_size);
}

static const struct cli_option options[] = {
	{ .name = "output", .short_name = 'o', .modes = CLI_IN_RUNS | CLI_IN_CONVERT, OUTPUT_FILE, CLI_FIELD(output),
	  CLI_GIVEN(output_given),
	  .help = "trace file to write (default: " CLI_DEFAULT_OUTPUT ");\n"
		  "with record: the event log (default: " CLI_DEFAULT_LOG ")\n" },
	{ .name = "force", .short_name = 'f', .modes = CLI_IN_ALL, .value = CLI_FLAG, CLI_FIELD(force),
	  .help = "replace FILE (and the --log file) if it exists\n" },
	{ .name = "log", .modes = CLI_IN_TRACE, .value = CLI_TEXT, .needs = "a file name", CLI_FIELD(keep_log),
	  .not_here = "is for tracing (record writes its log with -o)", .arg = "LOG",
	  .help = "also keep the event log in LOG, for convert and\n"
		  "report later (default: a temporary log, removed once\n"
		  "the trace is written)\n" },
	{ .name = "user", .modes = CLI_IN_RUNS, .value = CLI_TEXT, CLI_FIELD(user), .arg = "USER",
	  .help = "run COMMAND as USER, root only (default under sudo:\n"
		  "the invoking user, from SUDO_UID/SUDO_GID)\n" },
	/* Every mode: under sudo, one that loads no BPF leaves root too. */
	{ .name = "keep-root", .modes = CLI_IN_ALL, .value = CLI_FLAG, CLI_FIELD(keep_root),
	  .help = "under sudo, stay root: run COMMAND as root; convert\n"
		  "and report read and write as root\n" },
	{ .name = "keep-env", .modes = CLI_IN_RUNS, .value = CLI_FLAG, CLI_FIELD(keep_env),
	  .help = "with --user, keep buildbpf's environment (default: a\n"
		  "clean login-like one: HOME, USER, SHELL, PATH)\n" },
	{ .name = "args-max", .modes = CLI_IN_RUNS, .value = CLI_SIZE, CLI_FIELD(args_max),
	  .min = 1, .max = BB_ARGS_MAX_LIMIT, .unit = CLI_LIMIT_NUMBER,
	  .expect = "expected {min} to {max} bytes (e.g. 4096, 64K)", .arg = "BYTES",
	  .help = "argv bytes kept per exec, up to 128K (default: 16K);\n"
		  "longer argv is cut and flagged in the trace\n" },
	{ .name = "buffer-size", .modes = CLI_IN_RUNS, .value = CLI_SIZE, CLI_FIELD(ringbuf_bytes),
	  .min = 4096, .max = 1ull << 30, .power_of_two = true, .unit = CLI_LIMIT_SIZE,
	  .expect = "expected a power of two from {min} to {max}", .arg = "SIZE",
	  .help = "kernel ring buffer size, a power of two (default: 16M)\n" },
	{ .name = "sched", .modes = CLI_IN_ALL, .value = CLI_CHOICE, CLI_FIELD(sched), CLI_GIVEN(sched_given),
	  .choices = (const struct cli_choice[]){ { "off", SCHED_OFF }, { "summary", SCHED_SUMMARY },
						  { "full", SCHED_FULL }, {} },
	  .arg = "LEVEL",
	  .help = "scheduler detail: off (process tree only), summary\n"
		  "(default: per-process CPU/run-queue/blocked/sleep\n"
		  "time, CPU lanes and parallelism counters at a bounded\n"
		  "resolution), full (every context switch); convert\n"
		  "and report default to the recording's level and can\n"
		  "only lower it\n" },
	{ .name = "sched-resolution", .modes = CLI_IN_ALL, .value = CLI_DURATION, CLI_FIELD(sched_resolution_ns),
	  CLI_GIVEN(resolution_given), .min = 1, .max = 10 * SECOND, .unit = CLI_LIMIT_DURATION,
	  .expect = "expected a duration from {min} to {max} (e.g. 1ms, 500us)", .arg = "TIME",
	  .help = "with --sched=summary: the time grain of the\n"
		  "CPU lanes; each lane shows, per TIME, what held the\n"
		  "CPU most (default: 10ms; units ns, us, ms, s)\n" },
	{ .name = "deps", .modes = CLI_IN_ALL, .value = CLI_CHOICE, CLI_FIELD(deps), CLI_GIVEN(deps_given),
	  .choices = (const struct cli_choice[]){ { "on", true }, { "off", false }, {} }, .arg = "LEVEL",
	  .help = "file dependencies: on (which process wrote each file\n"
		  "the build later read, for the build graph and its\n"
		  "critical path, and who woke each process before it\n"
		  "forked a job) or off; default on where the kernel\n"
		  "allows fentry (--version says), else off: the\n"
		  "fallback hooks every syscall of the machine;\n"
		  "convert and report default to the recording's and\n"
		  "can only lower it\n" },
	{ .name = "mem-period", .modes = CLI_IN_RUNS, .value = CLI_DURATION, CLI_FIELD(mem_period_ns),
	  .choices = (const struct cli_choice[]){ { "off", 0 }, {} },
	  .min = MILLISECOND, .max = 10 * SECOND, .unit = CLI_LIMIT_DURATION,
	  .expect = "expected off or a duration from {min} to {max} (e.g. 50ms)", .arg = "TIME",
	  .help = "how often the build's memory (the resident sets of its\n"
		  "processes, summed) is sampled for the \"build memory\"\n"
		  "counter and the audit's peak (default: 100ms, 1ms to\n"
		  "10s; off: not sampled)\n" },
	{ .name = "wait-all", .modes = CLI_IN_RUNS, .value = CLI_FLAG, CLI_FIELD(wait_all),
	  .help = "after COMMAND exits, keep tracing until every process\n"
		  "it started has exited too (default: stop, and mark the\n"
		  "ones still running as unfinished)\n" },
	{ .name = "attach", .modes = CLI_IN_RUNS, .value = CLI_NUMBER, CLI_FIELD(attach_pid),
	  .min = 1, .max = INT32_MAX, .expect = "expected a process id", .arg = "PID",
	  .help = "trace the running process PID and its descendants,\n"
		  "those running now and those it starts, instead of a\n"
		  "COMMAND: until Ctrl-C, --duration or PID's exit;\n"
		  "exits 0 unless buildbpf failed.  Under sudo only the\n"
		  "invoking user's own processes (root: any)\n" },
	{ .name = "cgroup", .modes = CLI_IN_RUNS, .value = CLI_TEXT, .needs = "a cgroup path", CLI_FIELD(cgroup),
	  .arg = "PATH",
	  .help = "trace every process of the cgroup v2 PATH (a directory\n"
		  "under the cgroup2 mount, or as /proc/PID/cgroup shows\n"
		  "it) and of the cgroups below, those moved in too,\n"
		  "instead of a COMMAND: until Ctrl-C or --duration\n" },
	{ .name = "follow", .modes = CLI_IN_RUNS, .value = CLI_NUMBER, CLI_LIST(follow, nr_follow),
	  .min = 1, .max = INT32_MAX, .expect = "expected a process id", .too_many = "at most {max} daemons",
	  .arg = "PID",
	  .help = "while COMMAND runs, also trace the daemon PID and what\n"
		  "it starts (a compile server: sccache, distccd), its\n"
		  "processes marked as the daemon's (repeatable)\n" },
	{ .name = "duration", .modes = CLI_IN_RUNS, .value = CLI_DURATION, CLI_FIELD(duration_ns),
	  .min = 1, .max = UINT64_MAX, .expect = "expected a duration (e.g. 30s, 500ms)", .arg = "TIME",
	  .help = "with --attach or --cgroup: stop tracing after TIME\n"
		  "(units ns, us, ms, s)\n" },
	{ .name = "add", .modes = CLI_IN_CONVERT, .value = CLI_TEXT, CLI_LIST(add, nr_add), .needs = "a recording",
	  .too_many = "too many recordings (at most {max})", .arg = "LOG2",
	  .help = "convert: put the recording LOG2 of another host (a\n"
		  "distccd worker's --attach recording) in the same\n"
		  "trace, aligned on the hosts' wall clocks, one trace\n"
		  "process group per host, remote jobs linked to the\n"
		  "clients that waited (repeatable)\n" },
	{ .name = "merge", .modes = CLI_IN_ALL, .value = CLI_TEXT, CLI_LIST(merge, nr_merge),
	  .needs = "a path or a glob", .too_many = "too many (at most {max}; use a glob)", .arg = "PATH",
	  .help = "also merge the Chrome trace file(s) PATH, a path or a\n"
		  "glob where '**' matches any number of directories,\n"
		  "read after the build (repeatable; quote globs), e.g.\n"
		  "--merge 'build/**/*.json' for clang -ftime-trace\n" },
	{ .name = "keep-trace-dir", .modes = CLI_IN_RUNS, .value = CLI_FLAG, CLI_FIELD(keep_trace_dir),
	  .help = "keep $BUILDBPF_TRACE_DIR after the build (its path\n"
		  "is printed); by default it is removed once merged\n" },
	{ .name = "no-trace-dir", .modes = CLI_IN_RUNS, .value = CLI_FLAG, CLI_FIELD(no_trace_dir),
	  .help = "do not create and export $BUILDBPF_TRACE_DIR\n" },
	{ .name = "merge-max-file", .modes = CLI_IN_ALL, .value = CLI_SIZE, CLI_FIELD(merge_max_file),
	  .min = 1, .max = 1ull << 30, .unit = CLI_LIMIT_SIZE, .expect = "expected {min} to {max} (e.g. 64M)",
	  .arg = "SIZE", .help = "skip a merged file larger than SIZE (default: 16M)\n" },
	{ .name = "merge-max-events", .modes = CLI_IN_ALL, .value = CLI_SIZE, CLI_FIELD(merge_max_events),
	  .min = 0, .max = 100000000, .unit = CLI_LIMIT_NUMBER, .expect = "expected {min} to {max}", .arg = "N",
	  .help = "merge at most N events in all; a file that would\n"
		  "pass it is skipped (default: 500000)\n",
	  .help_at = 29 /* in line with --merge-max-file's */ },
	{ .name = "summary-json", .modes = CLI_IN_TRACE | CLI_IN_READING, OUTPUT_FILE, CLI_FIELD(summary_json),
	  .help = "also write the parallelism audit as JSON to FILE\n"
		  "(fields: docs/audit.md; same rules as -o)\n" },
	{ .name = "svg", .modes = CLI_IN_TRACE | CLI_IN_READING, OUTPUT_FILE, CLI_FIELD(svg),
	  .help = "also draw the build as a self-contained SVG: process\n"
		  "lanes, a CPU/parallelism strip, serial phases marked\n" },
	{ .name = "html", .modes = CLI_IN_TRACE | CLI_IN_READING, OUTPUT_FILE, CLI_FIELD(html),
	  .help = "also write the build on one self-contained page: the\n"
		  "answers, a zoomable timeline, critical path, what-if,\n"
		  "top steps, memory, races, a link to the trace\n" },
	{ .name = "markdown", .modes = CLI_IN_TRACE | CLI_IN_READING, OUTPUT_FILE, CLI_FIELD(markdown),
	  .help = "also write the answers and tables as GitHub Markdown,\n"
		  "under 65,536 characters (a CI job summary)\n" },
	{ .name = "quiet", .short_name = 'q', .modes = CLI_IN_ALL, .value = CLI_FLAG, CLI_FIELD(quiet),
	  .help = "no summary or audit report at the end\n" },
	{ .name = "verbose", .short_name = 'v', .modes = CLI_IN_ALL, .value = CLI_FLAG, CLI_FIELD(verbose),
	  .help = "show libbpf's messages, and the whole audit: every\n"
		  "figure in its own terms (docs/audit.md)\n" },
	{ .name = "help", .short_name = 'h', .modes = CLI_IN_ALL, .value = CLI_HELP,
	  .help = "show this help and exit\n" },
	{ .name = "version", .short_name = 'V', .modes = CLI_IN_ALL, .value = CLI_VERSION, CLI_FIELD(version),
	  .help = "show the version, the git commit and libbpf version\n"
		  "it was built from, and the kernel features probed\n" },

	/* diff's: its own --force and --quiet, a line for both in --help. */
	{ .name = "json", DIFF_FILE, CLI_FIELD(diff_json),
	  .help = "also write the comparison as JSON (- for stdout)\n" },
	{ .name = "markdown", DIFF_FILE, CLI_FIELD(diff_markdown),
	  .help = "also write it as Markdown, for a pull request (-: stdout)\n" },
	{ .name = "svg", DIFF_FILE, CLI_FIELD(svg),
	  .help = "draw both builds' CPU/parallelism strips on one time\n"
		  "scale and the programs that changed most (-: stdout)\n" },
	{ .name = "html", DIFF_FILE, CLI_FIELD(html),
	  .help = "the comparison and both builds side by side on one\n"
		  "self-contained page (-: stdout)\n" },
	{ .name = "fail-if", .modes = CLI_IN_DIFF, .value = CLI_PARSED, CLI_LIST(fail_if, nr_fail_if),
	  .parse = parse_fail_if, .expect = "{why} (see buildbpf(1), FAIL-IF)", .too_many = "at most {max} conditions",
	  .arg = "COND",
	  .help = "exit 1 when COND holds, e.g. 'wall>+10%',\n"
		  "'cpu>+2s', 'program:cc1.cpu>+20%', 'race>0' (a race\n"
		  "the old build did not have; needs --deps=on)\n"
		  "(repeatable; the grammar is in buildbpf(1)); exit 2\n"
		  "on a usage error\n" },
	{ .name = "force", .short_name = 'f', .modes = CLI_IN_DIFF, .value = CLI_FLAG, CLI_FIELD(force),
	  .help_names = "-f, -q", .help = "replace existing files; no text report\n" },
	{ .name = "quiet", .short_name = 'q', .modes = CLI_IN_DIFF, .value = CLI_FLAG, CLI_FIELD(quiet),
	  .help = NULL /* on -f's line */ },
	{ .name = "help", .short_name = 'h', .modes = CLI_IN_DIFF, .value = CLI_HELP,
	  .help = NULL /* the usage's -h says it */ },

	/* Read by the modes that read a recording, diff's too: one row in both lists. */
	{ .name = "no-progress", .modes = CLI_IN_READING | CLI_IN_DIFF, .value = CLI_FLAG, CLI_FIELD(no_progress),
	  .not_here = "is for convert, report and diff, which read recordings",
	  .help = "no progress line on a terminal while recordings are\n"
		  "read (shown after a second of work, never in a pipe)\n" },
};

#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

const struct cli_option *cli__options(size_t *nr)
{
	*nr = NR_OPTIONS;
	return options;
}

/* Where --help's text starts; a continuation line is indented to it. */
#define HELP_COLUMN 25

static void print_option_help(FILE *out, const struct cli_option *opt)
{
	const char *line = opt->help, *end;
	int width;

	if (opt->help_names)
		width = fprintf(out, "  %s", opt->help_names);
	else if (opt->short_name)
		width = fprintf(out, "  -%c, --%s", opt->short_name, opt->name);
	else
		width = fprintf(out, "      --%s", opt->name);
	if (opt->arg)
		width += fprintf(out, " %s", opt->arg);
	if (width < HELP_COLUMN)
		fprintf(out, "%*s", HELP_COLUMN - width, "");
	else
		fprintf(out, "%*s", opt->help_at > width ? opt->help_at - width : 2, "");
	for (; *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (line != opt->help)
			fprintf(out, "%*s", HELP_COLUMN, "");
		fwrite(line, 1, end - line, out);
	}
}

void cli__print_options_help(FILE *out, unsigned family)
{
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if ((options[i].modes & family) && options[i].help)
			print_option_help(out, &options[i]);
}

void cli__list_options(FILE *out)
{
	static const char *const mode_names[] = {
		[CLI_TRACE] = "trace", [CLI_RECORD] = "record", [CLI_CONVERT] = "convert", [CLI_REPORT] = "report",
		[CLI_DIFF] = "diff",
	};
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct cli_option *opt = &options[i];
		const char *sep = "";

		for (unsigned m = 0; m < sizeof(mode_names) / sizeof(mode_names[0]); m++)
			if (opt->modes & (1u << m)) {
				fprintf(out, "%s%s", sep, mode_names[m]);
				sep = ",";
			}
		if (opt->short_name)
			fprintf(out, " -%c --%s\n", opt->short_name, opt->name);
		else
			fprintf(out, " - --%s\n", opt->name);
	}
}
