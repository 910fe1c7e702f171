// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "cli/cli.h"
#include "merge/trace_merge.h"
#include "events.h"
#include "version.h"
/* BUILDBPF_COMMIT, written by the Makefile at build time. */
#include "build_info.h"
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
	OPT_DEPS,
	OPT_ATTACH,
	OPT_DURATION,
	OPT_CGROUP,
	OPT_FOLLOW,
	OPT_ADD,
};

static const char usage_text[] =
	"Usage: buildbpf [OPTIONS] [--] COMMAND [ARG...]\n"
	"       buildbpf [OPTIONS] --attach PID | --cgroup PATH\n"
	"       buildbpf record [OPTIONS] [-o LOG] [--] COMMAND [ARG...]\n"
	"       buildbpf record [OPTIONS] [-o LOG] --attach PID | --cgroup PATH\n"
	"       buildbpf convert [OPTIONS] LOG [--add LOG2 ...] [-o TRACE]\n"
	"       buildbpf report [OPTIONS] LOG\n"
	"       buildbpf diff [DIFF OPTIONS] OLD.bbl NEW.bbl\n"
	"\n"
	"Runs COMMAND unchanged and records, with eBPF, every fork, exec and exit of\n"
	"its whole process tree.  Writes a Chrome Trace Event JSON file that opens in\n"
	"Perfetto (ui.perfetto.dev) or chrome://tracing.  Exits with COMMAND's status\n"
	"(128+N when it was killed by signal N).  Needs root, or CAP_BPF and CAP_PERFMON.\n"
	"\n"
	"  record   only records: streams the events to LOG (default: " CLI_DEFAULT_LOG ")\n"
	"  convert  renders a recording as a trace, with the trace options below\n"
	"  report   prints a recording's summary\n"
	"  diff     compares two recordings (event logs): what got slower, which\n"
	"           processes only one build ran; a gate for CI with --fail-if\n"
	"To trace a command named record, convert, report or diff, put -- before it.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      trace file to write (default: " CLI_DEFAULT_OUTPUT ");\n"
	"                         with record: the event log (default: " CLI_DEFAULT_LOG ")\n"
	"  -f, --force            replace FILE (and the --log file) if it exists\n"
	"      --log LOG          also keep the event log in LOG, for convert and\n"
	"                         report later (default: a temporary log, removed once\n"
	"                         the trace is written)\n"
	"      --user USER        run COMMAND as USER, root only (default under sudo:\n"
	"                         the invoking user, from SUDO_UID/SUDO_GID)\n"
	"      --keep-root        under sudo, stay root: run COMMAND as root; convert\n"
	"                         and report read and write as root\n"
	"      --keep-env         with --user, keep buildbpf's environment (default: a\n"
	"                         clean login-like one: HOME, USER, SHELL, PATH)\n"
	"      --args-max BYTES   argv bytes kept per exec, up to 128K (default: 16K);\n"
	"                         longer argv is cut and flagged in the trace\n"
	"      --buffer-size SIZE kernel ring buffer size, a power of two (default: 16M)\n"
	"      --sched LEVEL      scheduler detail: off (process tree only), summary\n"
	"                         (default: per-process CPU/run-queue/blocked/sleep\n"
	"                         time, CPU lanes and parallelism counters at a bounded\n"
	"                         resolution), full (every context switch); convert\n"
	"                         and report default to the recording's level and can\n"
	"                         only lower it\n"
	"      --sched-resolution TIME  with --sched=summary: the time grain of the\n"
	"                         CPU lanes; each lane shows, per TIME, what held the\n"
	"                         CPU most (default: 10ms; units ns, us, ms, s)\n"
	"      --deps LEVEL       file dependencies: on (which process wrote each file\n"
	"                         the build later read, for the build graph and its\n"
	"                         critical path, and who woke each process before it\n"
	"                         forked a job; costs ~5 % on a real build) or off\n"
	"                         (default); convert and report default to the\n"
	"                         recording's and can only lower it\n"
	"      --mem-period TIME  how often the build's memory (the resident sets of its\n"
	"                         processes, summed) is sampled for the \"build memory\"\n"
	"                         counter and the audit's peak (default: 100ms, 1ms to\n"
	"                         10s; off: not sampled)\n"
	"      --wait-all         after COMMAND exits, keep tracing until every process\n"
	"                         it started has exited too (default: stop, and mark the\n"
	"                         ones still running as unfinished)\n"
	"      --attach PID       trace the running process PID and its descendants,\n"
	"                         those running now and those it starts, instead of a\n"
	"                         COMMAND: until Ctrl-C, --duration or PID's exit;\n"
	"                         exits 0 unless buildbpf failed.  Under sudo only the\n"
	"                         invoking user's own processes (root: any)\n"
	"      --cgroup PATH      trace every process of the cgroup v2 PATH (a directory\n"
	"                         under the cgroup2 mount, or as /proc/PID/cgroup shows\n"
	"                         it) and of the cgroups below, those moved in too,\n"
	"                         instead of a COMMAND: until Ctrl-C or --duration\n"
	"      --follow PID       while COMMAND runs, also trace the daemon PID and what\n"
	"                         it starts (a compile server: sccache, distccd), its\n"
	"                         processes marked as the daemon's (repeatable)\n"
	"      --duration TIME    with --attach or --cgroup: stop tracing after TIME\n"
	"                         (units ns, us, ms, s)\n"
	"      --add LOG2         convert: put the recording LOG2 of another host (a\n"
	"                         distccd worker's --attach recording) in the same\n"
	"                         trace, aligned on the hosts' wall clocks, one trace\n"
	"                         process group per host, remote jobs linked to the\n"
	"                         clients that waited (repeatable)\n"
	"      --merge PATH       also merge the Chrome trace file(s) PATH, a path or a\n"
	"                         glob where '**' matches any number of directories,\n"
	"                         read after the build (repeatable; quote globs), e.g.\n"
	"                         --merge 'build/**/*.json' for clang -ftime-trace\n"
	"      --keep-trace-dir   keep $BUILDBPF_TRACE_DIR after the build (its path\n"
	"                         is printed); by default it is removed once merged\n"
	"      --no-trace-dir     do not create and export $BUILDBPF_TRACE_DIR\n"
	"      --merge-max-file SIZE  skip a merged file larger than SIZE (default: 16M)\n"
	"      --merge-max-events N   merge at most N events in all; a file that would\n"
	"                         pass it is skipped (default: 500000)\n"
	"      --summary-json FILE  also write the parallelism audit as JSON to FILE\n"
	"                         (fields: docs/audit.md; same rules as -o)\n"
	"      --svg FILE         also draw the build as a self-contained SVG: process\n"
	"                         lanes, a CPU/parallelism strip, serial phases marked\n"
	"  -q, --quiet            no summary or audit report at the end\n"
	"  -v, --verbose          show libbpf's messages, and the whole audit: every\n"
	"                         figure in its own terms (docs/audit.md)\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show the version, the git commit and libbpf version\n"
	"                         it was built from, and the kernel features probed\n"
	"\n"
	"Diff options (buildbpf diff OLD NEW; the report goes to stderr):\n"
	"      --json FILE        also write the comparison as JSON (- for stdout)\n"
	"      --markdown FILE    also write it as Markdown, for a pull request (-: stdout)\n"
	"      --svg FILE         draw both builds' CPU/parallelism strips on one time\n"
	"                         scale and the programs that changed most (-: stdout)\n"
	"      --fail-if COND     exit 1 when COND holds, e.g. 'wall>+10%',\n"
	"                         'cpu>+2s', 'program:cc1.cpu>+20%' (repeatable; the\n"
	"                         grammar is in buildbpf(1)); exit 2 on a usage error\n"
	"  -f, -q                 replace existing files; no text report\n"
	"\n"
	"The command gets BUILDBPF_TRACE_DIR, a private directory of its own: any\n"
	"tool may write Chrome trace files there (one file per writer, named\n"
	"<tool>-<pid>.json); they are merged under the process that wrote them.\n"
	"\n"
	"Examples:\n"
	"  sudo buildbpf -o trace.json -- make -j8\n"
	"  sudo buildbpf -o t.json --merge 'build/**/*.json' -- make CFLAGS=-ftime-trace\n"
	"  sudo buildbpf record -o build.bbl -- make -j8\n"
	"  sudo buildbpf -o server.json --attach \"$(pidof sccache)\" --duration 60s\n"
	"  buildbpf convert build.bbl -o trace.json --sched=off\n"
	"  buildbpf convert client.bbl --add worker1.bbl --add worker2.bbl -o all.json\n"
	"  buildbpf diff before.bbl after.bbl --fail-if 'wall>+10%'\n"
	"\n"
	"Every option: man buildbpf.  The rest (the trace's args, the audit's and diff's\n"
	"JSON fields, the event log): docs/index.md, installed with README.md in\n"
	"/usr/share/doc/buildbpf (from source: /usr/local/share/doc/buildbpf).\n";

/* The leading decimal number of s; *end points past it.  No sign allowed. */
static int parse_leading_u64(const char *s, unsigned long long *v, char **end)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno || *end == s ? -EINVAL : 0;
}

/* "1ms", "500us", "2s", "100000ns": a duration; a bare number is ns. */
static int parse_duration(const char *s, __u64 *out)
{
	static const struct {
		const char *unit;
		__u64 ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "", 1 } };
	unsigned long long v;
	char *end;
	size_t i;

	if (parse_leading_u64(s, &v, &end))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].ns)
			return -EINVAL;
		*out = v * units[i].ns;
		return 0;
	}
	return -EINVAL;
}

/* "16K", "4M", "4096": a byte count with an optional binary suffix. */
static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	bool suffix = true;
	char *end;

	if (parse_leading_u64(s, &v, &end) || v > (1ull << 40))
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	default: suffix = false; break;
	}
	if (suffix) {
		end++;
		if (*end == 'i') /* "KiB"-style spellings */
			end++;
		if (*end == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Two outputs named alike would overwrite each other at the end. */
static bool same_file_names(const struct cli_opts *opts, FILE *err)
{
	const char *names[] = { opts->output, opts->summary_json, opts->svg, opts->keep_log };
	size_t i, k, n = sizeof(names) / sizeof(names[0]);

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (names[i] && names[k] && !strcmp(names[i], names[k])) {
				fprintf(err, "buildbpf: -o, --summary-json, --svg and --log must name different files\n");
				return false;
			}
	return true;
}

int cli__parse(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "user", required_argument, NULL, OPT_USER },
		{ "keep-root", no_argument, NULL, OPT_KEEP_ROOT },
		{ "keep-env", no_argument, NULL, OPT_KEEP_ENV },
		{ "args-max", required_argument, NULL, OPT_ARGS_MAX },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ "wait-all", no_argument, NULL, OPT_WAIT_ALL },
		{ "mem-period", required_argument, NULL, OPT_MEM_PERIOD },
		{ "sched", required_argument, NULL, OPT_SCHED },
		{ "sched-resolution", required_argument, NULL, OPT_SCHED_RESOLUTION },
		{ "deps", required_argument, NULL, OPT_DEPS },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "merge", required_argument, NULL, OPT_MERGE },
		{ "keep-trace-dir", no_argument, NULL, OPT_KEEP_TRACE_DIR },
		{ "no-trace-dir", no_argument, NULL, OPT_NO_TRACE_DIR },
		{ "merge-max-file", required_argument, NULL, OPT_MERGE_MAX_FILE },
		{ "merge-max-events", required_argument, NULL, OPT_MERGE_MAX_EVENTS },
		{ "summary-json", required_argument, NULL, OPT_SUMMARY_JSON },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "attach", required_argument, NULL, OPT_ATTACH },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "follow", required_argument, NULL, OPT_FOLLOW },
		{ "add", required_argument, NULL, OPT_ADD },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	char esc[TERM_ESCAPE_BUF], *end;
	unsigned long long size;
	int c;

	static const struct {
		const char *name;
		enum cli_mode mode;
	} modes[] = { { "record", CLI_RECORD }, { "convert", CLI_CONVERT }, { "report", CLI_REPORT } };
	/* Options that only make sense where a command runs. */
	const char *run_only = NULL;
	const char *mode_name = NULL, *optstring;
	bool output_given = false;
	size_t i;

	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cli__parse_diff(opts, argc - 1, argv + 1, out, err);
	memset(opts, 0, sizeof(*opts));
	for (i = 0; argc > 1 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[1], modes[i].name))
			continue;
		opts->mode = modes[i].mode;
		mode_name = modes[i].name;
		/* getopt sees the subcommand as its program name. */
		argc--;
		argv++;
		break;
	}
	opts->output = opts->mode == CLI_RECORD ? CLI_DEFAULT_LOG : CLI_DEFAULT_OUTPUT;
	opts->args_max = BB_ARGS_MAX_DEFAULT;
	opts->ringbuf_bytes = CLI_DEFAULT_RINGBUF;
	opts->sched = SCHED_SUMMARY;
	opts->sched_resolution_ns = SCHED_DEFAULT_RESOLUTION_NS;
	opts->deps = false;
	opts->mem_period_ns = CLI_MEM_PERIOD_DEFAULT_NS;
	opts->merge_max_file = MERGE_DEFAULT_FILE_MAX_BYTES;
	opts->merge_max_events = MERGE_DEFAULT_MAX_EVENTS;

	/* '+': stop at the command, whose own options are not ours.
	 * ':': report a missing argument ourselves. */
	optind = 0;
	opterr = 0;
	/* A recording is one operand: options may follow it (convert LOG -o T). */
	optstring = opts->mode == CLI_CONVERT || opts->mode == CLI_REPORT ? ":o:fqvhV" : "+:o:fqvhV";
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg) {
				fprintf(err, "buildbpf: -o/--output needs a file name\n");
				return -EINVAL;
			}
			opts->output = optarg;
			output_given = true;
			break;
		case 'f':
			opts->force = true;
			break;
		case OPT_USER:
			run_only = "--user";
			opts->user = optarg;
			break;
		case OPT_KEEP_ROOT:
			/* Every mode: under sudo, one that loads no BPF leaves root too. */
			opts->keep_root = true;
			break;
		case OPT_KEEP_ENV:
			run_only = "--keep-env";
			opts->keep_env = true;
			break;
		case OPT_ARGS_MAX:
			run_only = "--args-max";
			if (parse_size(optarg, &size) || size < 1 || size > BB_ARGS_MAX_LIMIT) {
				fprintf(err, "buildbpf: --args-max '%s': expected 1 to %u bytes (e.g. 4096, 64K)\n",
					term_escape(optarg, esc, sizeof(esc)), BB_ARGS_MAX_LIMIT);
				return -EINVAL;
			}
			opts->args_max = size;
			break;
		case OPT_BUFFER_SIZE:
			run_only = "--buffer-size";
			if (parse_size(optarg, &size) || size < 4096 || size > (1ull << 30) || (size & (size - 1))) {
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
			if (parse_duration(optarg, &opts->sched_resolution_ns) || !opts->sched_resolution_ns ||
			    opts->sched_resolution_ns > 10000000000ull) {
				fprintf(err, "buildbpf: --sched-resolution '%s': expected a duration from 1ns to 10s "
					     "(e.g. 1ms, 500us)\n", term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			break;
		case OPT_LOG:
			if (opts->mode != CLI_TRACE) {
				fprintf(err, "buildbpf: %s: --log is for tracing (record writes its log with -o)\n",
					mode_name);
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
			run_only = "--keep-trace-dir";
			opts->keep_trace_dir = true;
			break;
		case OPT_NO_TRACE_DIR:
			run_only = "--no-trace-dir";
			opts->no_trace_dir = true;
			break;
		case OPT_MERGE_MAX_FILE:
			if (parse_size(optarg, &size) || size < 1 || size > (1ull << 30)) {
				fprintf(err, "buildbpf: --merge-max-file '%s': expected 1 byte to 1G (e.g. 64M)\n",
					term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			opts->merge_max_file = size;
			break;
		case OPT_MERGE_MAX_EVENTS:
			if (parse_size(optarg, &size) || size > 100000000) {
				fprintf(err, "buildbpf: --merge-max-events '%s': expected 0 to 100000000\n",
					term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			opts->merge_max_events = size;
			break;
		case OPT_SUMMARY_JSON:
		case OPT_SVG:
			if (!*optarg) {
				fprintf(err, "buildbpf: %s needs a file name\n",
					c == OPT_SVG ? "--svg" : "--summary-json");
				return -EINVAL;
			}
			*(c == OPT_SVG ? &opts->svg : &opts->summary_json) = optarg;
			break;
		case OPT_ATTACH:
		case OPT_FOLLOW:
			run_only = c == OPT_ATTACH ? "--attach" : "--follow";
			if (parse_leading_u64(optarg, &size, &end) || *end || !size || size > INT32_MAX) {
				fprintf(err, "buildbpf: %s '%s': expected a process id\n", run_only,
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
			run_only = "--cgroup";
			if (!*optarg) {
				fprintf(err, "buildbpf: --cgroup needs a cgroup path\n");
				return -EINVAL;
			}
			opts->cgroup = optarg;
			break;
		case OPT_DURATION:
			run_only = "--duration";
			if (parse_duration(optarg, &opts->duration_ns) || !opts->duration_ns) {
				fprintf(err, "buildbpf: --duration '%s': expected a duration (e.g. 30s, 500ms)\n",
					term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			break;
		case OPT_MEM_PERIOD:
			run_only = "--mem-period";
			if (!strcmp(optarg, "off")) {
				opts->mem_period_ns = 0;
			} else if (parse_duration(optarg, &opts->mem_period_ns) || opts->mem_period_ns < 1000000ull ||
				   opts->mem_period_ns > 10000000000ull) {
				fprintf(err, "buildbpf: --mem-period '%s': expected off or a duration from 1ms to 10s "
					     "(e.g. 50ms)\n", term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			break;
		case OPT_WAIT_ALL:
			run_only = "--wait-all";
			opts->wait_all = true;
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'v':
			opts->verbose = true;
			break;
		case 'h':
			fputs(usage_text, out);
			return 0;
		case 'V':
			cli__print_version(out, BUILDBPF_COMMIT, libbpf_version_string());
			opts->version = true;
			return 0;
		case ':':
			fprintf(err, "buildbpf: option '%s' needs an argument (see --help)\n",
				term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		default:
			if (optopt)
				fprintf(err, "buildbpf: unknown option '-%s' (see --help)\n",
					term_escape((char[]){ (char)optopt, '\0' }, esc, sizeof(esc)));
			else
				fprintf(err, "buildbpf: unknown option '%s' (see --help)\n",
					term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
	}
	if (!same_file_names(opts, err))
		return -EINVAL;
	if (opts->mode == CLI_RECORD && (opts->summary_json || opts->svg)) {
		fprintf(err, "buildbpf: record writes only the event log (hint: buildbpf convert LOG %s FILE)\n",
			opts->svg ? "--svg" : "--summary-json");
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
	if (opts->nr_add && (opts->svg || opts->summary_json)) {
		fprintf(err, "buildbpf: convert --add writes one trace of every host; --svg and --summary-json "
			     "draw one host's build (convert each recording alone for them)\n");
		return -EINVAL;
	}
	if (opts->mode == CLI_CONVERT || opts->mode == CLI_REPORT) {
		if (run_only) {
			fprintf(err, "buildbpf: %s: %s applies when a command runs, not to a recording\n", mode_name,
				run_only);
			return -EINVAL;
		}
		if (opts->mode == CLI_REPORT && output_given) {
			fprintf(err, "buildbpf: report prints to stdout; -o is for convert\n");
			return -EINVAL;
		}
		if (argc - optind != 1) {
			fprintf(err, "buildbpf: %s: expected one recording (usage: buildbpf %s [OPTIONS] LOG)\n",
				mode_name, mode_name);
			return -EINVAL;
		}
		opts->log_path = argv[optind];
		return 1;
	}
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

void cli__print_usage(FILE *out)
{
	fputs(usage_text, out);
}

void cli__print_version(FILE *out, const char *commit, const char *libbpf_version)
{
	fprintf(out, "buildbpf %s\n", BUILDBPF_VERSION);
	if (commit && *commit)
		fprintf(out, "commit: %s\n", commit);
	else
		fprintf(out, "commit: unknown (not built from a git checkout)\n");
	fprintf(out, "libbpf: %s\n", libbpf_version && *libbpf_version ? libbpf_version : "unknown");
}
