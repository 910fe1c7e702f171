// SPDX-License-Identifier: GPL-2.0
/* buildbpf record -o LOG -- CMD: only the event log, for convert and report later. */
#include <stdio.h>
#include <unistd.h>
#include "exit_status.h"
#include "main/cmd_record.h"
#include "main/tracing.h"
#include "output/output.h"
#include "record/trace_dir.h"
#include "util/term_escape.h"

/* buildbpf record -o LOG -- CMD */
int cmd_record(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of)
{
	struct recorder *rec = NULL;
	struct trace_dir tdir = { .fd = -1 };
	struct record_result res;
	char esc[TERM_ESCAPE_BUF];
	int fd;

	if (tracing__start(opts, ra, out, &rec))
		return EXIT_FAILURE_SETUP;
	fd = output__create_direct(opts->output, "event log", "-o", opts->force, run_as__user(ra));
	if (fd < 0) {
		record__free(rec);
		return EXIT_FAILURE_SETUP;
	}
	/* --attach and --cgroup start nothing the directory could be handed to. */
	trace_dir__open_for_run(&tdir, !opts->no_trace_dir && !opts->attach_pid && !opts->cgroup,
				run_as__user(ra));
	record__run(rec, ra, fd, opts->output, tdir.fd >= 0 ? tdir.path : NULL, &res);
	record__free(rec);
	*died_of = res.died_of;
	close(fd);
	trace_dir__finish(&tdir, opts->keep_trace_dir, res.ran);
	if (!res.ran) {
		unlink(opts->output);
		return res.exit_code;
	}
	tracing__say_unwritten(&res);
	if (!opts->quiet) {
		term_escape(opts->output, esc, sizeof(esc));
		fprintf(stderr, "buildbpf: recorded %llu events in %.3f s, %llu lost event%s; exit status %d\n",
			(unsigned long long)res.events, res.wall_s, (unsigned long long)res.lost_events,
			res.lost_events == 1 ? "" : "s", res.exit_code);
		fprintf(stderr, "buildbpf: recording written to %s; convert it with: buildbpf convert '%s' -o "
				"trace.json\n", esc, esc);
	}
	return res.exit_code;
}
