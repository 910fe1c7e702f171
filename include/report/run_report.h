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
#include "report/audit.h"

/*
 * exit_code: buildbpf's (-1 unknown); written: where the trace is (NULL:
 * nowhere); merged, a: NULL when none; verbose: every figure (--verbose).
 */
void run_report__print(FILE *out, const struct replay *rp, int exit_code, const char *written,
		       const struct trace_merge *merged, const struct audit *a, bool verbose);

#endif /* BUILDBPF_RUN_REPORT_H */
