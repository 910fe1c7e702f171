// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "events.h"
#include "version.h"
#include "term_escape.h"

enum {
	OPT_USER = 0x100,
	OPT_KEEP_ROOT,
	OPT_ARGS_MAX,
	OPT_BUFFER_SIZE,
	OPT_WAIT_ALL,
	OPT_SCHED,
	OPT_SCHED_RESOLUTION,
};

static const char usage_text[] =
	"Usage: buildbpf [OPTIONS] [--] COMMAND [ARG...]\n"
	"\n"
	"Runs COMMAND unchanged and records, with eBPF, every fork, exec and exit of\n"
	"its whole process tree.  Writes a Chrome Trace Event JSON file that opens in\n"
	"Perfetto (ui.perfetto.dev) or chrome://tracing.  Exits with COMMAND's status\n"
	"(128+N when it was killed by signal N).  Needs root, or CAP_BPF and CAP_PERFMON.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      trace file to write (default: " CLI_DEFAULT_OUTPUT ")\n"
	"  -f, --force            replace FILE if it exists\n"
	"      --user USER        run COMMAND as USER (default under sudo: the invoking\n"
	"                         user, from SUDO_UID/SUDO_GID)\n"
	"      --keep-root        under sudo, run COMMAND as root\n"
	"      --args-max BYTES   argv bytes kept per exec, up to 128K (default: 16K);\n"
	"                         longer argv is cut and flagged in the trace\n"
	"      --buffer-size SIZE kernel ring buffer size, a power of two (default: 16M)\n"
	"      --sched LEVEL      scheduler detail: off (process tree only), summary\n"
	"                         (default: per-process CPU/run-queue/blocked/sleep\n"
	"                         time, CPU lanes and parallelism counters at a bounded\n"
	"                         resolution), full (every context switch)\n"
	"      --sched-resolution TIME  with --sched=summary: the time grain of the\n"
	"                         CPU lanes; each lane shows, per TIME, what held the\n"
	"                         CPU most (default: 10ms; units ns, us, ms, s)\n"
	"      --wait-all         after COMMAND exits, keep tracing until every process\n"
	"                         it started has exited too (default: stop, and mark the\n"
	"                         ones still running as unfinished)\n"
	"  -q, --quiet            no summary at the end\n"
	"  -v, --verbose          show libbpf's messages\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show the version and exit\n"
	"\n"
	"Example:\n"
	"  sudo buildbpf -o trace.json -- make -j8\n";

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

int cli__parse(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "user", required_argument, NULL, OPT_USER },
		{ "keep-root", no_argument, NULL, OPT_KEEP_ROOT },
		{ "args-max", required_argument, NULL, OPT_ARGS_MAX },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER_SIZE },
		{ "wait-all", no_argument, NULL, OPT_WAIT_ALL },
		{ "sched", required_argument, NULL, OPT_SCHED },
		{ "sched-resolution", required_argument, NULL, OPT_SCHED_RESOLUTION },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	char esc[TERM_ESCAPE_BUF];
	unsigned long long size;
	int c;

	memset(opts, 0, sizeof(*opts));
	opts->output = CLI_DEFAULT_OUTPUT;
	opts->args_max = BB_ARGS_MAX_DEFAULT;
	opts->ringbuf_bytes = CLI_DEFAULT_RINGBUF;
	opts->sched = SCHED_SUMMARY;
	opts->sched_resolution_ns = SCHED_DEFAULT_RESOLUTION_NS;

	/* '+': stop at the command, whose own options are not ours.
	 * ':': report a missing argument ourselves. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:fqvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg) {
				fprintf(err, "buildbpf: -o/--output needs a file name\n");
				return -EINVAL;
			}
			opts->output = optarg;
			break;
		case 'f':
			opts->force = true;
			break;
		case OPT_USER:
			opts->user = optarg;
			break;
		case OPT_KEEP_ROOT:
			opts->keep_root = true;
			break;
		case OPT_ARGS_MAX:
			if (parse_size(optarg, &size) || size < 1 || size > BB_ARGS_MAX_LIMIT) {
				fprintf(err, "buildbpf: --args-max '%s': expected 1 to %u bytes (e.g. 4096, 64K)\n",
					term_escape(optarg, esc, sizeof(esc)), BB_ARGS_MAX_LIMIT);
				return -EINVAL;
			}
			opts->args_max = size;
			break;
		case OPT_BUFFER_SIZE:
			if (parse_size(optarg, &size) || size < 4096 || size > (1ull << 30) || (size & (size - 1))) {
				fprintf(err, "buildbpf: --buffer-size '%s': expected a power of two from 4K to 1G\n",
					term_escape(optarg, esc, sizeof(esc)));
				return -EINVAL;
			}
			opts->ringbuf_bytes = size;
			break;
		case OPT_SCHED:
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
		case OPT_SCHED_RESOLUTION:
			if (parse_duration(optarg, &opts->sched_resolution_ns) || !opts->sched_resolution_ns ||
			    opts->sched_resolution_ns > 10000000000ull) {
				fprintf(err, "buildbpf: --sched-resolution '%s': expected a duration from 1ns to 10s "
					     "(e.g. 1ms, 500us)\n", term_escape(optarg, esc, sizeof(esc)));
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
			fputs(usage_text, out);
			return 0;
		case 'V':
			fprintf(out, "buildbpf %s\n", BUILDBPF_VERSION);
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
	if (opts->user && opts->keep_root) {
		fprintf(err, "buildbpf: --user and --keep-root exclude each other\n");
		return -EINVAL;
	}
	if (optind >= argc) {
		fprintf(err, "buildbpf: no command to trace (usage: buildbpf [OPTIONS] -- COMMAND [ARG...])\n");
		return -EINVAL;
	}
	opts->cmd_argv = argv + optind;
	opts->cmd_argc = argc - optind;
	return 1;
}
