// SPDX-License-Identifier: GPL-2.0
/* The --help and --version texts, which every mode's parser prints. */
#include <bpf/libbpf.h>
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_usage.h"
#include "version.h"
/* BUILDBPF_COMMIT, written by the Makefile at build time. */
#include "build_info.h"

/* What comes before the run options' rows. */
static const char usage_head[] =
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
	"Options:\n";

/* Between the run options' rows and diff's (cli_options.c). */
static const char usage_diff_head[] =
	"\n"
	"Diff options (buildbpf diff OLD NEW; the report goes to stderr):\n";

/* After diff's rows: the environment, examples. */
static const char usage_tail[] =
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

void cli__print_usage(FILE *out)
{
	fputs(usage_head, out);
	cli__print_options_help(out, CLI_IN_ALL);
	fputs(usage_diff_head, out);
	cli__print_options_help(out, CLI_IN_DIFF);
	fputs(usage_tail, out);
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

void cli__print_build_version(FILE *out)
{
	cli__print_version(out, BUILDBPF_COMMIT, libbpf_version_string());
}
