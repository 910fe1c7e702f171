/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files one run writes (the trace, --summary-json, --svg, --html,
 * --markdown; for diff its --json, --markdown, --svg and --html) and the policy when one cannot be written:
 * all are checked before the work starts (the build, the conversion, the
 * comparison), written after it; a file that appeared meanwhile is never
 * overwritten (the finished temporary file is kept and named), and the
 * one-step path saves a trace it could not write where asked in $TMPDIR.
 */
#ifndef BUILDBPF_RUN_OUTPUTS_H
#define BUILDBPF_RUN_OUTPUTS_H

#include <stdbool.h>
#include "diff/diff.h"
#include "model/replay.h"
#include "output/output.h"
#include "audit/audit.h"
#include "report/chrome_trace.h"

/* diff's reports, in the order they are written. */
enum run_diff_report { RUN_DIFF_JSON, RUN_DIFF_MARKDOWN, RUN_DIFF_SVG, RUN_DIFF_HTML, RUN_DIFF_NR };
/* A build's side outputs, besides its trace. */
enum run_side_output { RUN_SIDE_SUMMARY, RUN_SIDE_SVG, RUN_SIDE_HTML, RUN_SIDE_MARKDOWN, RUN_SIDE_NR };

/* Before run_outputs__prepare(): nothing open, safe to free. */
#define RUN_OUTPUTS_INIT                                                                          \
	{                                                                                         \
		.trace = { .fd = -1 }, .side = { [0 ... RUN_SIDE_NR - 1] = { .fd = -1 } },        \
		.diff = { [0 ... RUN_DIFF_NR - 1] = { .fd = -1 } }                                \
	}

struct run_outputs {
	struct output trace;		   /* -o; fd -1 when no trace is written */
	struct output side[RUN_SIDE_NR];   /* --summary-json, --svg, --html, --markdown; fd -1 when not asked */
	char *trace_elsewhere;		   /* where the trace is when not at -o */
	struct output diff[RUN_DIFF_NR]; /* diff's reports; fd -1 when not asked or on stdout */
	bool diff_stdout[RUN_DIFF_NR];	 /* "-": written to stdout */
	const char *writer; /* spec's, for the errors after the work (the final rename) */
};

/* Paths the user asked for (NULL: not asked). */
struct run_outputs_spec {
	const char *trace;
	const char *side[RUN_SIDE_NR];
	const char *diff[RUN_DIFF_NR]; /* diff's reports; "-": stdout */
	bool force; /* replace existing files */
	const char *writer; /* the user buildbpf left root for, or NULL (output__prepare()) */
};

/* Checks and creates every output.  0, or -1 with a one-line message printed. */
int run_outputs__prepare(struct run_outputs *o, const struct run_outputs_spec *spec);
/*
 * Writes the trace.  With save_elsewhere (the one-step path: a build's
 * trace must not be lost), a file that cannot be written where asked is
 * saved in $TMPDIR and a warning says so; without, the failure is an
 * error.  Returns the path the trace is in, or NULL (message printed).
 */
const char *run_outputs__write_trace(struct run_outputs *o, const struct model *m, const struct trace_meta *meta,
				     bool save_elsewhere);
/* convert --add: the trace of several hosts (chrome_trace__write_parts()); never saved elsewhere. */
const char *run_outputs__write_parts(struct run_outputs *o, const struct trace_part *parts, size_t n,
				     const struct trace_link *links, size_t nr_links, struct json_object *extra);
/*
 * Writes the side outputs; a missing audit (a) writes none.  trace_path:
 * where the JSON trace is (the HTML links to it), NULL: none.  Never fails
 * the run.
 */
void run_outputs__write_side(struct run_outputs *o, const struct audit *a, const struct replay *rp,
			     const char *trace_path);
/*
 * Writes diff's reports.  Unlike a build's side outputs, a report that
 * cannot be written is an error: the comparison is all diff makes.  0, or
 * -1 (said; the reports not yet committed are removed).
 */
int run_outputs__write_diff(struct run_outputs *o, const struct diff *d);
/* Removes what was not committed (unfinished) and frees. */
void run_outputs__free(struct run_outputs *o);

#endif /* BUILDBPF_RUN_OUTPUTS_H */
