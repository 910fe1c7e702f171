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
void audit_answers__put_jobs(FILE *out, const struct tool_jobs *j);
/* The CPUs' worth the build ran on average, as "parallel?" says it (without --sched: CPU time / wall). */
double audit_answers__average_running(const struct audit *a);
/* Every answer, in full (the -v report, the HTML page, the Markdown summary). */
void audit_answers__print(FILE *out, const struct audit *a, const struct model *m);
/*
 * The answers a person reads after every build, at most max_lines lines:
 * each in its brief form, whole, the most useful first when they do not
 * all fit (the rest in -v).  With the what-if, "more CPUs or jobs?", the
 * quiet machine and "speed up?" quote its rows (audit/whatif_answer.h).
 */
void audit_answers__print_brief(FILE *out, const struct audit *a, const struct model *m, size_t max_lines);

/* Brief answers there are at most. */
#define AUDIT_ANSWERS_MAX 12

/* One answer in its brief form, as data: the --summary-json's answers.brief, the page's rows. */
struct audit_answer {
	const char *id; /* stable: "parallel", "more_cpus_or_jobs", ... (docs/audit.md) */
	char *printed;	/* its lines as the report prints them, "buildbpf: " included: malloc'd */
	bool shown;	/* within the brief report's max_lines (the rest are -v's) */
};

/*
 * Every answer that has a brief form, in the report's order, each marked
 * shown as audit_answers__print_brief() picks them for max_lines: *nr set,
 * 0 or -ENOMEM (nothing to free).
 */
int audit_answers__brief(struct audit_answer out[AUDIT_ANSWERS_MAX], size_t *nr, const struct audit *a,
			 const struct model *m, size_t max_lines);
void audit_answers__free(struct audit_answer *ans, size_t nr);

#endif /* BUILDBPF_AUDIT_ANSWERS_H */
