// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf: runs a command unchanged and traces its whole process tree.
 * main() parses the command line and dispatches to the mode, one file each:
 *
 *   trace    main/cmd_trace.c   record to a temporary event log, convert it
 *   record   main/cmd_record.c  only the event log
 *   convert  main/cmd_read.c    a recording as a trace, and the report
 *   report   main/cmd_read.c    a recording's report
 *   diff     main/cmd_diff.c    two recordings compared, the --fail-if gate
 *   convert --add  main/cmd_hosts.c  several hosts' recordings, one trace
 *
 * Every mode that reads a recording builds it once (main/recording.h).
 * trace and record load BPF as root, then leave root (main/tracing.h);
 * every other mode leaves root first thing (run_without_bpf()).
 */
#include "cli/cli.h"
#include "exit_status.h"
#include "main/cmd_diff.h"
#include "main/cmd_hosts.h"
#include "main/cmd_read.h"
#include "main/cmd_record.h"
#include "main/cmd_trace.h"
#include "main/stop.h"
#include "main/tracing.h"
#include "record/die_of_signal.h"
#include "record/preflight.h"
#include "record/privilege.h"

/*
 * Whether a mode loads BPF programs: the one thing buildbpf is root for.
 * Every other mode, a mode added later included, is run_without_bpf().
 */
static bool mode_loads_bpf(enum cli_mode mode)
{
	return mode == CLI_TRACE || mode == CLI_RECORD;
}

/*
 * A mode that loads no BPF needs no privilege: under sudo it becomes the
 * invoking user (SUDO_UID/SUDO_GID, with their groups, resolved as for
 * record) before it opens any file, so that a path the user controls (a
 * planted link, the log it reads, an output it writes) leads only where
 * the user could go.  --keep-root, and plain root, stay root.
 */
static int run_without_bpf(const struct cli_opts *opts)
{
	struct run_as ra;

	if (run_as__resolve(&ra, opts->user, opts->keep_root, opts->keep_env) || privilege__drop_holding_nothing(&ra))
		return EXIT_FAILURE_SETUP;
	stop__arm();
	if (opts->mode == CLI_DIFF)
		return cmd_diff(opts, &ra, stop__flag());
	return opts->nr_add ? cmd_convert_hosts(opts, &ra, stop__flag()) : cmd_read(opts, &ra, stop__flag());
}

int main(int argc, char **argv)
{
	struct cli_opts opts;
	struct run_as ra;
	struct outside out = { .pidfd = -1 };
	int err, exit_code, died_of = 0;

	err = cli__parse(&opts, argc, argv, stdout, stderr);
	if (err <= 0) {
		if (opts.version)
			preflight__print_features(stdout);
		return err < 0 ? EXIT_USAGE : 0;
	}
	if (!mode_loads_bpf(opts.mode))
		return run_without_bpf(&opts);
	if (preflight__check())
		return EXIT_FAILURE_SETUP;
	if (run_as__resolve(&ra, opts.user, opts.keep_root, opts.keep_env))
		return EXIT_FAILURE_SETUP;
	if (outside__open(&opts, &ra, &out))
		return EXIT_FAILURE_SETUP;
	exit_code = opts.mode == CLI_RECORD ? cmd_record(&opts, &ra, &out, &died_of)
					    : cmd_trace(&opts, &ra, &out, &died_of);
	outside__close(&opts, &out);
	/* Everything is written and cleaned up: end as the command ended. */
	die_of_signal(died_of);
	return exit_code;
}
