// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf convert LOG -o TRACE and buildbpf report LOG: the outputs
 * checked first, the recording read (main/recording.h), its side outputs
 * written, then the report (report) or the trace and the report (convert).
 */
#include <unistd.h>
#include "exit_status.h"
#include "main/cmd_read.h"
#include "main/progress.h"
#include "main/recording.h"
#include "output/run_outputs.h"
#include "report/run_report.h"

/* buildbpf convert LOG -o TRACE, buildbpf report LOG; ra: who buildbpf is now. */
int cmd_read(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop)
{
	struct recording_opts ropts = recording_opts__read(opts, stop);
	struct run_outputs_spec spec = {
		.trace = opts->mode == CLI_CONVERT ? opts->output : NULL,
		.side = { [RUN_SIDE_SUMMARY] = opts->summary_json, [RUN_SIDE_SVG] = opts->svg,
			  [RUN_SIDE_HTML] = opts->html, [RUN_SIDE_MARKDOWN] = opts->markdown },
		.force = opts->force,
		.writer = run_as__user(ra),
	};
	const struct trace_dir no_dir = { .fd = -1 };
	const struct merge_sources src = merge_sources__of(opts, &no_dir);
	struct run_outputs outs = RUN_OUTPUTS_INIT;
	struct recording rec = {};
	struct run_report report;
	struct trace_meta meta;
	struct progress progress;
	const char *written;
	int fd, exit_code = EXIT_FAILURE_SETUP;

	fd = open_log(opts->log_path, ra);
	if (fd < 0)
		return EXIT_FAILURE_SETUP;
	progress__init(&progress, progress__wanted(opts), stderr);
	/* Checked before a long conversion, like before a build. */
	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	ropts.progress = progress__add_log(&progress, opts->log_path, fd);
	if (recording__read(&rec, fd, opts->log_path, &ropts))
		goto check_stop;
	if (opts->summary_json || opts->svg || opts->html || opts->markdown)
		progress__step(&progress, "writing the outputs of");
	/* convert: the trace is written next, where -o says; the page links there. */
	run_outputs__write_side(&outs, rec.audit, &rec.rp, spec.trace);
	if (opts->mode == CLI_REPORT) {
		progress__end(&progress);
		report = recording__report(&rec, replay__exit_code(&rec.rp), NULL, opts->verbose);
		report.log_path = opts->log_path;
		run_report__print(stdout, &report);
		exit_code = 0;
		goto cleanup;
	}
	recording__merge(&rec, &src, stop);
	if (*stop)
		goto check_stop;
	recording__meta(&rec, &meta);
	progress__step(&progress, "writing the trace of");
	written = run_outputs__write_trace(&outs, rec.rp.model, &meta, false);
	progress__end(&progress);
	if (!written)
		goto cleanup;
	report = recording__report(&rec, replay__exit_code(&rec.rp), written, opts->verbose);
	report.log_path = opts->log_path;
	if (!opts->quiet)
		run_report__print(stderr, &report);
	exit_code = 0;
	goto cleanup;
check_stop:
	progress__end(&progress);
	if (*stop)
		exit_code = say_stopped(*stop, NULL);
cleanup:
	progress__end(&progress);
	run_outputs__free(&outs);
	recording__free(&rec);
	close(fd);
	return exit_code;
}
