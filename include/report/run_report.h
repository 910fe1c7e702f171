/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report at the end of a run (trace, convert, report): the summary,
 * what was merged, and the parallelism audit, in that order.
 */
#ifndef BUILDBPF_RUN_REPORT_H
#define BUILDBPF_RUN_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "merge/trace_merge.h"
#include "model/replay.h"
#include "audit/audit.h"

/* What the report is of: one recording's parts, borrowed. */
struct run_report {
	const struct replay *rp;
	/* The build's own wall time: a hosts trace's alignment widens the model's span, not this. */
	__u64 wall_ns;
	const struct audit *audit;	  /* NULL: none */
	const struct trace_merge *merged; /* NULL: none */
	int exit_code;			  /* buildbpf's (-1 unknown) */
	const char *written;		  /* where the trace is; NULL: nowhere */
	bool verbose;			  /* every figure (--verbose) */
	const char *log_path;		  /* the recording, to report again; NULL: not kept */
};

/* A failed build shorter than this gets no audit: only what failed (make without a Makefile). */
#define RUN_REPORT_SHORT_FAIL_NS 1000000000ull

void run_report__print(FILE *out, const struct run_report *r);

#endif /* BUILDBPF_RUN_REPORT_H */
