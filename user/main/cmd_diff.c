// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf diff OLD NEW: the reports' files are checked first, as for a
 * build (a typo must not cost the replay of two large logs), then both
 * logs are opened; then they are replayed and audited at once, compared,
 * reported, and gated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diff/diff.h"
#include "diff/diff_format.h"
#include "diff/diff_report.h"
#include "diff/fail_if.h"
#include "exit_status.h"
#include "main/cmd_diff.h"
#include "main/progress.h"
#include "main/recording.h"
#include "output/run_outputs.h"
#include "util/run_beside.h"
#include "util/term_escape.h"

/*
 * One build of a diff, read and audited, with its start causes where it
 * recorded them: the critical path goes through them (job slots, the
 * runner's order), and the diff compares the path `report` gives.  The two
 * builds share nothing until they are compared: each is read on a thread
 * of its own, and what it says is kept, to be said in the builds' order.
 */
struct build_load {
	const char *path;
	int fd;			  /* open_log()'s, closed by cmd_diff() */
	volatile sig_atomic_t *stop;
	FILE *say;		  /* where it says what failed; stderr, or a buffer (said) */
	struct progress_log *progress; /* its figures for the progress line; NULL: none */
	char *said;
	size_t said_len;
	struct recording rec;
	struct diff_side side;
	int err;		  /* 0, or -1: said */
};

static void load_build(void *arg)
{
	struct build_load *b = arg;
	const struct recording_opts ropts = {
		.replay = { .stop = b->stop }, .warn_cut = true, .audit = true, .starts = true, .say = b->say,
		.progress = b->progress,
	};

	b->err = recording__read(&b->rec, b->fd, b->path, &ropts) || !b->rec.audit ? -1 : 0;
	if (!b->err)
		b->side = (struct diff_side){ .name = b->path, .m = b->rec.rp.model, .s = b->rec.rp.sched, .a = b->rec.audit };
}

static void free_build(void *arg)
{
	struct build_load *b = arg;

	recording__free(&b->rec);
}

/*
 * Both builds, each on its own CPU where there are two: what each said is
 * then said in order, the new build's only when the old loaded (as when
 * read one after the other).  Without memory to keep what they say, one
 * after the other.  0, or -1 (said).
 */
static int load_builds(struct build_load *b)
{
	size_t i;
	int err;

	for (i = 0; i < 2; i++)
		b[i].say = open_memstream(&b[i].said, &b[i].said_len);
	if (!b[0].say || !b[1].say) {
		for (i = 0; i < 2; i++) {
			if (b[i].say)
				fclose(b[i].say);
			free(b[i].said);
			b[i].said = NULL;
			b[i].say = stderr;
		}
		load_build(&b[0]);
		if (!b[0].err)
			load_build(&b[1]);
		return b[0].err || b[1].err ? -1 : 0;
	}
	run_beside(load_build, &b[1], load_build, &b[0]);
	for (i = 0; i < 2; i++) {
		fclose(b[i].say);
		b[i].say = NULL;
	}
	if (b[0].progress)
		progress__erase(b[0].progress->p);
	fwrite(b[0].said, 1, b[0].said_len, stderr);
	if (!b[0].err)
		fwrite(b[1].said, 1, b[1].said_len, stderr);
	err = b[0].err || b[1].err ? -1 : 0;
	for (i = 0; i < 2; i++) {
		free(b[i].said);
		b[i].said = NULL;
	}
	return err;
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
	struct build_load builds[2] = { { .fd = -1 }, { .fd = -1 } };
	struct diff d = {};
	struct progress progress;
	bool prepared = false, computed = false;
	int exit_code = EXIT_USAGE;
	size_t i;

	progress__init(&progress, progress__wanted(opts), stderr);
	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	prepared = true;
	/* Both opened first: a typo in the second costs no read of the first. */
	for (i = 0; i < 2; i++) {
		builds[i] = (struct build_load){ .path = paths[i], .stop = stop, .fd = open_log(paths[i], ra) };
		if (builds[i].fd < 0)
			goto cleanup;
	}
	for (i = 0; i < 2; i++)
		builds[i].progress = progress__add_log(&progress, paths[i], builds[i].fd);
	if (load_builds(builds))
		goto cleanup;
	progress__step(&progress, "comparing");
	if (diff__compute(&d, &builds[0].side, &builds[1].side)) {
		progress__end(&progress);
		fprintf(stderr, "buildbpf: out of memory comparing the builds\n");
		goto cleanup;
	}
	computed = true;
	progress__end(&progress);
	if (!opts->quiet)
		diff_report__text(stderr, &d);
	if (run_outputs__write_diff(&outs, &d))
		goto cleanup;
	exit_code = run_gate(opts, &d);
cleanup:
	progress__end(&progress);
	if (*stop)
		exit_code = 128 + *stop;
	if (computed)
		diff__free(&d);
	if (prepared)
		run_outputs__free(&outs);
	for (i = 0; i < 2; i++)
		if (builds[i].fd >= 0)
			close(builds[i].fd);
	/* A build of a million processes takes seconds to free: each on a CPU of its own. */
	run_beside(free_build, &builds[1], free_build, &builds[0]);
	return exit_code;
}
