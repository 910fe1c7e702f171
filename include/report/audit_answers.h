/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit's answers, one line each, in the order people ask them: was it
 * parallel, would more CPUs or jobs help, was the machine shared, where did
 * the time go, what to speed up.  The figures and the rules that decide
 * them are in audit.c; this only says them.
 */
#ifndef BUILDBPF_AUDIT_ANSWERS_H
#define BUILDBPF_AUDIT_ANSWERS_H

#include <stdio.h>
#include "audit/audit.h"

/* "make -j2 (from the command)", or "job count unknown". */
void audit_answers__put_jobs(FILE *out, const struct audit_jobs *j);
/* Every answer, in full (the -v report, the HTML page, the Markdown summary). */
void audit_answers__print(FILE *out, const struct audit *a, const struct model *m);
/*
 * The answers a person reads after every build, at most max_lines lines:
 * each in its brief form, whole, the most useful first when they do not
 * all fit (the rest in -v).  With the what-if, "more CPUs or jobs?", the
 * quiet machine and "speed up?" quote its rows (audit/whatif_answer.h).
 */
void audit_answers__print_brief(FILE *out, const struct audit *a, const struct model *m, size_t max_lines);

#endif /* BUILDBPF_AUDIT_ANSWERS_H */
