/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two builds compared, for people: plain text (stderr) and Markdown (a
 * pull-request comment).  Both list the same sections in the same order:
 * the build-wide figures, CPU by program, the steps that changed most,
 * the critical paths and what moved onto or off them (build graph), the
 * processes only one build ran.  Names from the builds are escaped
 * (term_escape, Markdown's table characters).
 */
#ifndef BUILDBPF_DIFF_REPORT_H
#define BUILDBPF_DIFF_REPORT_H

#include <stdio.h>
#include "diff/diff.h"

/* Programs listed in "CPU by program". */
#define DIFF_REPORT_PROGRAMS 10
/* Programs listed per "only in" group. */
#define DIFF_REPORT_ONLY 10
/* Last steps of each critical path listed; steps listed per "moved onto" and "moved off" it. */
#define DIFF_REPORT_PATH_STEPS 8
#define DIFF_REPORT_MOVED 10

void diff_report__text(FILE *out, const struct diff *d);
void diff_report__markdown(FILE *out, const struct diff *d);

#endif /* BUILDBPF_DIFF_REPORT_H */
