// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf diff OLD NEW: the reports' files are checked first, as for a
 * build (a typo must not cost the replay of two large logs); then both
 * logs are replayed and audited, compared, reported, and gated.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "diff/diff.h"
#include "diff/diff_format.h"
#include "diff/diff_report.h"
#include "diff/fail_if.h"
#include "exit_status.h"
#include "main/cmd_diff.h"
#include "main/recording.h"
#include "output/run_outputs.h"
#include "util/term_escape.h"

/*
 * One build of a diff, read and audited, with its start causes where it
 * recorded them: the critical path goes through them (job slots, the
 * runner's order), and the diff compares the path `report` gives.  0, or -1
 * (said).
 */
static int load_build(struct recording *rec, struct diff_side *side, const char *path, const struct run_as *ra,
		      volatile sig_atomic_t *stop)
{
	const struct recording_opts ropts = { .replay = { .stop = stop }, .warn_cut = true, .audit = true, .starts = true };
	int fd, err;

	fd = open_log(path, ra);
	if (fd < 0)
		return -1;
	err = recording__read(rec, fd, path, &ropts);
	close(fd);
	if (err || !rec->audit)
		return -1;
	*side = (struct diff_side){ .name = path, .m = rec->rp.model, .s = rec->rp.sched, .a = rec->audit };
	return 0;
}

/* The --fail-if conditions that hold, listed; the exit status. */
static int run_gate(const struct cli_opts *opts, const struct diff *d)
{
	int exit_code = 0;
	size_t i;

	for (i = 0; i < opts->nr_fail_if; i++) {
		const struct fail_if *c = &opts->fail_if[i];
		char esc[TERM_ESCAPE_BUF];
		struct diff_value v;
		int held = fail_if__eval(c, d, &v);

		term_escape(c->text, esc, sizeof(esc));
		if (held < 0) {
			fprintf(stderr, "buildbpf: --fail-if '%s': not recorded in both builds (%s)\n", esc,
				fail_if__unrecorded_why(c));
			return EXIT_USAGE;
		}
		if (held) {
			const char *unit = fail_if__unit(c);
			char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], cb[DIFF_FMT_BUF];

			fprintf(stderr, "buildbpf: failed: %s (%s -> %s, %s)\n", esc, diff_fmt_value(ob, v.old_v, unit),
				diff_fmt_value(nb, v.new_v, unit), diff_fmt_change(cb, &v, unit));
			exit_code = EXIT_GATE_FAILED;
		}
	}
	return exit_code;
}

int cmd_diff(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop)
{
	const char *paths[2] = { opts->diff_old, opts->diff_new };
	struct run_outputs_spec spec = {
		.diff = { [RUN_DIFF_JSON] = opts->diff_json,
			  [RUN_DIFF_MARKDOWN] = opts->diff_markdown,
			  [RUN_DIFF_SVG] = opts->svg,
			  [RUN_DIFF_HTML] = opts->html },
		.force = opts->force,
		.writer = run_as__user(ra),
	};
	struct run_outputs outs;
	struct recording builds[2] = {};
	struct diff_side sides[2];
	struct diff d = {};
	bool prepared = false, computed = false;
	int exit_code = EXIT_USAGE;
	size_t i;

	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	prepared = true;
	for (i = 0; i < 2; i++)
		if (load_build(&builds[i], &sides[i], paths[i], ra, stop))
			goto cleanup;
	if (diff__compute(&d, &sides[0], &sides[1])) {
		fprintf(stderr, "buildbpf: out of memory comparing the builds\n");
		goto cleanup;
	}
	computed = true;
	if (!opts->quiet)
		diff_report__text(stderr, &d);
	if (run_outputs__write_diff(&outs, &d))
		goto cleanup;
	exit_code = run_gate(opts, &d);
cleanup:
	if (*stop)
		exit_code = 128 + *stop;
	if (computed)
		diff__free(&d);
	if (prepared)
		run_outputs__free(&outs);
	for (i = 0; i < 2; i++)
		recording__free(&builds[i]);
	return exit_code;
}
