/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files one run writes (the trace, --summary-json, --svg) and the
 * policy when one cannot be written: all are checked before the work
 * starts, written after it; a file that appeared meanwhile is never
 * overwritten (the finished temporary file is kept and named), and the
 * one-step path saves a trace it could not write where asked in $TMPDIR.
 */
#ifndef BUILDBPF_RUN_OUTPUTS_H
#define BUILDBPF_RUN_OUTPUTS_H

#include <stdbool.h>
#include "model/replay.h"
#include "output/output.h"
#include "report/audit.h"
#include "report/chrome_trace.h"

struct run_outputs {
	struct output trace;	    /* -o; fd -1 when no trace is written */
	struct output summary_json; /* --summary-json; fd -1 when not asked */
	struct output svg;	    /* --svg; fd -1 when not asked */
	char *trace_elsewhere;	    /* where the trace is when not at -o */
};

/* Paths the user asked for (NULL: not asked). */
struct run_outputs_spec {
	const char *trace, *summary_json, *svg;
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
/* Writes --summary-json and --svg; a missing audit (a) writes none.  Never fails the run. */
void run_outputs__write_side(struct run_outputs *o, const struct audit *a, const struct replay *rp);
/* Removes what was not committed (unfinished) and frees. */
void run_outputs__free(struct run_outputs *o);

#endif /* BUILDBPF_RUN_OUTPUTS_H */
