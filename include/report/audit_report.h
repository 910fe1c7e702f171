/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit as text on stderr at the end of a run (unless -q), every line
 * within REPORT_WIDTH.  By default it is brief: the audit's one line (what
 * it counted, the CPU time), its answers in brief (audit_answers.h), and
 * lost events or OOM kills whatever the room, so that with the traced line
 * above it the whole report is at most AUDIT_REPORT_BRIEF_LINES lines before
 * the line to the rest.  Verbose: every answer in full, then every figure
 * in the audit's own terms and the what-if's model.
 */
#ifndef BUILDBPF_AUDIT_REPORT_H
#define BUILDBPF_AUDIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "audit/audit.h"

#define AUDIT_REPORT_BRIEF_LINES 12
/* Of them, the answers' on a build that ran whole: the traced line and the audit's own take two. */
#define AUDIT_REPORT_ANSWER_LINES (AUDIT_REPORT_BRIEF_LINES - 2)

/* Verbose, or brief after a traced line (audit_report__print_brief() with the room that leaves). */
void audit_report__print(FILE *out, const struct audit *a, const struct model *m, bool verbose);
/*
 * The brief audit in at most room lines (the answers give way, the
 * warnings do not): the caller's room is what its own lines left.
 */
void audit_report__print_brief(FILE *out, const struct audit *a, const struct model *m, size_t room);
/*
 * The sentence every output gives a build that compiled nothing
 * (fresh_build__nothing_compiled()): "nothing compiled: cargo found every
 * unit fresh; ...", without prefix or newline.
 */
void audit_report__put_nothing_compiled(FILE *f, const struct audit *a);
/* The same sentence, malloc'd; NULL when the build compiled something (or without memory). */
char *audit_report__nothing_compiled_text(const struct audit *a);

#endif /* BUILDBPF_AUDIT_REPORT_H */
