// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf [OPTIONS] -- CMD: the command recorded to a temporary event log
 * (kept with --log), which is then read back as a recording and written
 * as a trace, with its --summary-json and --svg, and the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exit_status.h"
#include "main/cmd_trace.h"
#include "main/recording.h"
#include "main/stop.h"
#include "main/tracing.h"
#include "output/output.h"
#include "output/run_outputs.h"
#include "record/trace_dir.h"
#include "report/run_report.h"
#include "util/as_user.h"
#include "util/term_escape.h"

/* buildbpf [OPTIONS] -- CMD: record to a temporary log, convert it. */
/*
 * The event log: --log's file, or a temporary one.  Its descriptor, or -1
 * once the reason is said; *log_path (the caller's to free) is its path.
 */
static int open_trace_log(const struct cli_opts *opts, const struct run_as *ra, char **log_path)
{
	char hint[AS_USER_HINT_BUF];
	int fd;

	if (opts->keep_log) {
		fd = output__create_direct(opts->keep_log, "event log", "--log", opts->force, run_as__user(ra));
		*log_path = strdup(opts->keep_log);
		if (fd >= 0 && !*log_path) {
			fprintf(stderr, "buildbpf: out of memory\n");
			close(fd);
			return -1;
		}
		return fd < 0 ? -1 : fd;
	}
	fd = output__create_fallback("buildbpf-recording", ".bbl", log_path);
	if (fd < 0) {
		fprintf(stderr, "buildbpf: cannot create the event log in $TMPDIR: %s%s\n", strerror(-fd),
			output__fallback_hint(-fd, run_as__user(ra), hint, sizeof(hint)));
		return -1;
	}
	return fd;
}

int cmd_trace(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of)
{
	volatile sig_atomic_t *stop = stop__flag();
	const struct recording_opts ropts = {
		.replay = { .sched = opts->sched, .sched_given = true, .deps = opts->deps, .deps_given = opts->deps_given,
			    .stop = stop },
		.audit = true,
		.starts = true,
	};
	struct run_outputs_spec spec = {
		.trace = opts->output,
		.side = { [RUN_SIDE_SUMMARY] = opts->summary_json, [RUN_SIDE_SVG] = opts->svg,
			  [RUN_SIDE_HTML] = opts->html, [RUN_SIDE_MARKDOWN] = opts->markdown },
		.force = opts->force,
		.writer = run_as__user(ra),
	};
	struct recorder *rec = NULL;
	struct trace_dir tdir = { .fd = -1 };
	struct run_outputs outs = RUN_OUTPUTS_INIT;
	struct recording recording = {};
	struct record_result res;
	struct trace_meta meta;
	char *log_path = NULL, esc[TERM_ESCAPE_BUF];
	const char *written = NULL;
	int log_fd = -1, exit_code = EXIT_FAILURE_SETUP;

	if (tracing__start(opts, ra, out, &rec))
		return EXIT_FAILURE_SETUP;
	/* Every output is checked before the build starts, as the user: a
	 * typo in a name must not cost a whole build. */
	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	log_fd = open_trace_log(opts, ra, &log_path);
	if (log_fd < 0)
		goto cleanup;
	/* --attach and --cgroup start nothing the directory could be handed to. */
	trace_dir__open_for_run(&tdir, !opts->no_trace_dir && !opts->attach_pid && !opts->cgroup,
				run_as__user(ra));
	record__run(rec, ra, log_fd, log_path, tdir.fd >= 0 ? tdir.path : NULL, &res);
	record__free(rec);
	rec = NULL;
	exit_code = res.exit_code;
	*died_of = res.died_of;
	if (!res.ran) {
		unlink(log_path); /* it holds no event: nothing ran */
		goto cleanup;
	}
	tracing__say_unwritten(&res);
	if (!recording__read(&recording, log_fd, log_path, &ropts)) {
		const struct merge_sources src = merge_sources__of(opts, &tdir);
		struct run_report report;

		recording__merge(&recording, &src, stop);
		if (*stop)
			goto stopped;
		recording__meta(&recording, &meta);
		written = run_outputs__write_trace(&outs, recording.rp.model, &meta, true);
		run_outputs__write_side(&outs, recording.audit, &recording.rp, written);
		report = recording__report(&recording, exit_code, written, opts->verbose);
		report.log_path = opts->keep_log; /* else the log is removed */
		if (!opts->quiet)
			run_report__print(stderr, &report);
	} else if (*stop) {
		goto stopped;
	}
	if (opts->keep_log) {
		if (!opts->quiet)
			fprintf(stderr, "buildbpf: recording kept in %s\n", term_escape(log_path, esc, sizeof(esc)));
	} else if (written) {
		unlink(log_path);
	} else {
		/* Nothing recorded is lost: the log converts later. */
		term_escape(log_path, esc, sizeof(esc));
		fprintf(stderr, "buildbpf: the recording is kept in '%s'; convert it with: buildbpf convert '%s' -o "
				"trace.json\n", esc, esc);
	}
	goto cleanup;

stopped:
	exit_code = say_stopped(*stop, log_path);
cleanup:
	record__free(rec);
	run_outputs__free(&outs);
	trace_dir__finish(&tdir, opts->keep_trace_dir, false);
	recording__free(&recording);
	if (log_fd >= 0)
		close(log_fd);
	free(log_path);
	return exit_code;
}
