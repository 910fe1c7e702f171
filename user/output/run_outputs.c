// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "diff/diff_json.h"
#include "diff/diff_report.h"
#include "diff/diff_svg.h"
#include "output/run_outputs.h"
#include "diff/diff_html.h"
#include "report/audit_json.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/svg.h"
#include "util/fd_stream.h"
#include "util/href.h"
#include "util/term_escape.h"

/* What diff's reports are called in messages, and the options that choose them. */
static const char *const diff_what[RUN_DIFF_NR] = { "JSON diff", "Markdown diff", "SVG diff", "HTML diff" };
static const char *const diff_opt[RUN_DIFF_NR] = { "--json", "--markdown", "--svg", "--html" };
/* The same for a build's side outputs. */
static const char *const side_what[RUN_SIDE_NR] = { "summary", "SVG", "HTML report", "Markdown summary" };
static const char *const side_opt[RUN_SIDE_NR] = { "--summary-json", "--svg", "--html", "--markdown" };

int run_outputs__prepare(struct run_outputs *o, const struct run_outputs_spec *spec)
{
	size_t k;

	*o = (struct run_outputs)RUN_OUTPUTS_INIT;
	o->writer = spec->writer;
	if (spec->trace && output__prepare(&o->trace, spec->trace, "trace", "-o", spec->force, spec->writer))
		goto fail;
	for (k = 0; k < RUN_SIDE_NR; k++)
		if (spec->side[k] &&
		    output__prepare(&o->side[k], spec->side[k], side_what[k], side_opt[k], spec->force, spec->writer))
			goto fail;
	for (k = 0; k < RUN_DIFF_NR; k++) {
		if (!spec->diff[k])
			continue;
		o->diff_stdout[k] = !strcmp(spec->diff[k], "-");
		if (!o->diff_stdout[k] &&
		    output__prepare(&o->diff[k], spec->diff[k], diff_what[k], diff_opt[k], spec->force, spec->writer))
			goto fail;
	}
	return 0;
fail:
	run_outputs__free(o);
	return -1;
}

/*
 * Commits o after a write that returned err.  0 committed; 1 when the
 * name appeared meanwhile and keep_on_exist: the finished file stays where
 * it is, said, and *kept (malloc'd) names it; else -errno, nothing said.
 */
static int commit(struct output *o, const char *what, int err, bool keep_on_exist, char **kept)
{
	char esc[TERM_ESCAPE_BUF];

	if (!err)
		err = output__commit(o);
	if (err != -EEXIST || !keep_on_exist)
		return err;
	fprintf(stderr, "buildbpf: warning: '%s' appeared during the build and was not overwritten; ",
		term_escape(o->path, esc, sizeof(esc)));
	fprintf(stderr, "the %s is in '%s'\n", what, term_escape(o->tmp_path, esc, sizeof(esc)));
	*kept = o->tmp_path; /* no longer discarded at cleanup */
	o->tmp_path = NULL;
	return 1;
}

/* The trace in a fresh file of $TMPDIR; its path, or NULL (said). */
static const char *save_trace_elsewhere(struct run_outputs *o, const struct model *m,
					const struct trace_meta *meta)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int err, fd;

	fd = output__create_fallback("buildbpf-trace", ".json", &o->trace_elsewhere);
	if (fd < 0) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace elsewhere either: %s%s\n", strerror(-fd),
			output__fallback_hint(-fd, o->writer, hint, sizeof(hint)));
		return NULL;
	}
	err = chrome_trace__write(m, meta, fd);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace to '%s' either: %s\n",
			term_escape(o->trace_elsewhere, esc, sizeof(esc)), strerror(-err));
		unlink(o->trace_elsewhere);
		return NULL;
	}
	fprintf(stderr, "buildbpf: warning: the trace was saved to '%s' instead\n",
		term_escape(o->trace_elsewhere, esc, sizeof(esc)));
	return o->trace_elsewhere;
}

const char *run_outputs__write_trace(struct run_outputs *o, const struct model *m, const struct trace_meta *meta,
				     bool save_elsewhere)
{
	struct output *out = &o->trace;
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int err;

	err = chrome_trace__write(m, meta, out->fd);
	/* Not the file's fault: another file would not help. */
	if (err == -ENOMEM && save_elsewhere) {
		fprintf(stderr, "buildbpf: warning: out of memory building the trace; no trace written\n");
		output__discard(out);
		return NULL;
	}
	err = commit(out, "trace", err, save_elsewhere, &o->trace_elsewhere);
	if (!err)
		return out->path;
	if (err == 1)
		return o->trace_elsewhere;
	fprintf(stderr, "buildbpf: %scannot write the trace to '%s': %s%s\n", save_elsewhere ? "warning: " : "",
		term_escape(out->path, esc, sizeof(esc)), strerror(-err),
		output__permission_hint(-err, o->writer, hint, sizeof(hint)));
	err = output__discard(out);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot remove the temporary file '%s': %s\n",
			term_escape(out->tmp_path, esc, sizeof(esc)), strerror(-err));
	return save_elsewhere ? save_trace_elsewhere(o, m, meta) : NULL;
}

const char *run_outputs__write_parts(struct run_outputs *o, const struct trace_part *parts, size_t n,
				     const struct trace_link *links, size_t nr_links, struct json_object *extra)
{
	struct output *out = &o->trace;
	char esc[TERM_ESCAPE_BUF];
	int err;

	err = commit(out, "trace", chrome_trace__write_parts(parts, n, links, nr_links, extra, out->fd), false,
		     &o->trace_elsewhere);
	if (!err)
		return out->path;
	fprintf(stderr, "buildbpf: cannot write the trace to '%s': %s\n", term_escape(out->path, esc, sizeof(esc)),
		strerror(-err));
	output__discard(out);
	return NULL;
}

/* Commits a side output that writer filled, or says why not.  Like the
 * trace, a failure here never fails the build. */
static void finish_side_output(struct run_outputs *ro, struct output *o, const char *what, int err)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF], *kept = NULL;

	err = commit(o, what, err, true, &kept);
	free(kept);
	if (err < 0) {
		fprintf(stderr, "buildbpf: warning: cannot write the %s to '%s': %s%s\n", what,
			term_escape(o->path, esc, sizeof(esc)), strerror(-err),
			output__permission_hint(-err, ro->writer, hint, sizeof(hint)));
		output__discard(o);
	}
}

/* What the build's page and summary are written from. */
struct side_ctx {
	const struct audit *a;
	const struct replay *rp;
	const char *trace_href;
};

static int write_html(FILE *f, const void *ctx)
{
	const struct side_ctx *c = ctx;
	const struct html_build b = { .a = c->a, .tl = c->rp->layout, .s = c->rp->sched, .trace_href = c->trace_href };

	return html_report__write(f, &b);
}

static int write_markdown(FILE *f, const void *ctx)
{
	const struct side_ctx *c = ctx;

	return markdown_report__write(f, c->a, c->rp->model);
}

void run_outputs__write_side(struct run_outputs *o, const struct audit *a, const struct replay *rp,
			     const char *trace_path)
{
	struct output *side = o->side;
	/* Resolved now, while both directories exist; a link that cannot be made is left out. */
	char *href = trace_path && side[RUN_SIDE_HTML].tmp_path ? href_relative(side[RUN_SIDE_HTML].path, trace_path)
								: NULL;
	const struct side_ctx ctx = { .a = a, .rp = rp, .trace_href = href };

	if (side[RUN_SIDE_SUMMARY].tmp_path)
		finish_side_output(o, &side[RUN_SIDE_SUMMARY], side_what[RUN_SIDE_SUMMARY],
				   a ? audit_json__write(a, rp->model, side[RUN_SIDE_SUMMARY].fd) : -ENOMEM);
	if (side[RUN_SIDE_SVG].tmp_path)
		finish_side_output(o, &side[RUN_SIDE_SVG], side_what[RUN_SIDE_SVG],
				   a ? svg__write_fd(side[RUN_SIDE_SVG].fd, a, rp->layout, rp->sched) : -ENOMEM);
	if (side[RUN_SIDE_HTML].tmp_path)
		finish_side_output(o, &side[RUN_SIDE_HTML], side_what[RUN_SIDE_HTML],
				   a ? fd_stream__write(side[RUN_SIDE_HTML].fd, write_html, &ctx) : -ENOMEM);
	if (side[RUN_SIDE_MARKDOWN].tmp_path)
		finish_side_output(o, &side[RUN_SIDE_MARKDOWN], side_what[RUN_SIDE_MARKDOWN],
				   a ? fd_stream__write(side[RUN_SIDE_MARKDOWN].fd, write_markdown, &ctx) : -ENOMEM);
	free(href);
}

/* One of diff's reports to f.  0, or -errno. */
static int write_diff_report(FILE *f, enum run_diff_report k, const struct diff *d)
{
	int err = 0;

	if (k == RUN_DIFF_JSON)
		err = diff_json__write(d, f);
	else if (k == RUN_DIFF_MARKDOWN)
		diff_report__markdown(f, d);
	else if (k == RUN_DIFF_SVG)
		err = diff_svg__write(f, d);
	else
		err = diff_html__write(f, d);
	if (fflush(f) && !err)
		err = -EIO;
	return err;
}

struct diff_ctx {
	enum run_diff_report k;
	const struct diff *d;
};

static int write_diff_file(FILE *f, const void *ctx)
{
	const struct diff_ctx *c = ctx;

	return write_diff_report(f, c->k, c->d);
}

int run_outputs__write_diff(struct run_outputs *o, const struct diff *d)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF], *kept = NULL;
	size_t k;

	for (k = 0; k < RUN_DIFF_NR; k++) {
		struct output *out = &o->diff[k];
		const struct diff_ctx ctx = { .k = k, .d = d };
		int err;

		if (o->diff_stdout[k]) {
			err = write_diff_report(stdout, k, d);
			if (err) {
				fprintf(stderr, "buildbpf: cannot write the %s to standard output: %s\n", diff_what[k],
					strerror(-err));
				return -1;
			}
			continue;
		}
		if (!out->tmp_path)
			continue;
		err = commit(out, diff_what[k], fd_stream__write(out->fd, write_diff_file, &ctx), true, &kept);
		free(kept);
		kept = NULL;
		if (err < 0) {
			fprintf(stderr, "buildbpf: cannot write the %s to '%s': %s%s\n", diff_what[k],
				term_escape(out->path, esc, sizeof(esc)), strerror(-err),
				output__permission_hint(-err, o->writer, hint, sizeof(hint)));
			return -1;
		}
	}
	return 0;
}

void run_outputs__free(struct run_outputs *o)
{
	size_t k;

	/* What was not committed nor kept is unfinished. */
	output__discard(&o->trace);
	output__free(&o->trace);
	for (k = 0; k < RUN_SIDE_NR; k++) {
		output__discard(&o->side[k]);
		output__free(&o->side[k]);
	}
	for (k = 0; k < RUN_DIFF_NR; k++) {
		output__discard(&o->diff[k]);
		output__free(&o->diff[k]);
	}
	free(o->trace_elsewhere);
	o->trace_elsewhere = NULL;
}
