/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The brief answers as rows of data, for readers that are not a terminal:
 * the --summary-json's answers.brief (a CI script) and the page's answers
 * table.  Each row is the question, the answer in the words the brief
 * report prints (audit_answers.h), and the figures behind it, read off the
 * same audit fields the words quote.
 */
#ifndef BUILDBPF_ANSWER_ROWS_H
#define BUILDBPF_ANSWER_ROWS_H

#include "audit/audit.h"
#include "report/audit_answers.h"

/* Figures behind one answer at most. */
#define ANSWER_FIGURES_MAX 6

enum answer_unit {
	ANSWER_NS,    /* a time, value in ns (the JSON writes ms) */
	ANSWER_SHARE, /* a fraction of the wall (or of the CPU time), 0 to 1 */
	ANSWER_COUNT,
	ANSWER_CPUS,  /* CPUs' worth, fractional */
	ANSWER_KIB,   /* a size in KiB */
};

struct answer_figure {
	const char *key;   /* the JSON's name: "as_run_wall_ms" (its unit in the suffix) */
	const char *label; /* the page's words: "as run" */
	enum answer_unit unit;
	double value;
};

struct answer_row {
	const char *id;	 /* audit_answer.id */
	char *question;	 /* "more CPUs or jobs?" (for an answer that asks none, its lead: "compiler cache") */
	char *text;	 /* the answer after the question, its printed lines joined by spaces */
	bool shown;	 /* the default report prints it */
	/* speed_up with the what-if: the critical step that gains most, whole (the
	 * words cut a long name, and name it only when it helps or nothing else does); NULL: none */
	char *step;
	struct answer_figure figures[ANSWER_FIGURES_MAX];
	size_t nr_figures;
};

/* Every brief answer (audit_answers__brief()): *nr set, 0 or -ENOMEM (nothing to free). */
int answer_rows__compute(struct answer_row rows[AUDIT_ANSWERS_MAX], size_t *nr, const struct audit *a,
			 const struct model *m);
void answer_rows__free(struct answer_row *rows, size_t nr);

#endif /* BUILDBPF_ANSWER_ROWS_H */
