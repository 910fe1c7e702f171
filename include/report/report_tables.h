/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit as tables of text, for the pages people open (report/html_report.h)
 * and the summaries they paste (report/markdown_report.h): what each table
 * holds, which rows and in what words is decided here once; a renderer
 * only escapes and lays the cells out.  Cells are raw text from the build
 * (names, paths): the renderer escapes them for its format.
 *
 *   struct report_tables t;
 *   report_tables__compute(&t, audit, model);
 *   ... t.tables[i] ...
 *   report_tables__free(&t);
 */
#ifndef BUILDBPF_REPORT_TABLES_H
#define BUILDBPF_REPORT_TABLES_H

#include <stddef.h>
#include "audit/audit.h"

/* Critical-path steps listed: the longest, in path order; the rest are counted in the note. */
#define REPORT_PATH_ROWS 25
/* Programs listed by CPU time. */
#define REPORT_PROGRAM_ROWS 10
/* Races listed. */
#define REPORT_RACE_ROWS 20
/* A cell is cut to this many bytes (a race's advice, a long name). */
#define REPORT_CELL_MAX 240

enum report_table_id {
	REPORT_TABLE_FIGURES,	/* the build-wide figures */
	REPORT_TABLE_PATH,	/* the critical path (or the timing estimate) */
	REPORT_TABLE_WHATIF,	/* the what-if's predicted walls */
	REPORT_TABLE_TOP_WALL,
	REPORT_TABLE_TOP_CPU,
	REPORT_TABLE_TOP_RSS,
	REPORT_TABLE_TOP_WRITE,
	REPORT_TABLE_PROGRAMS,
	REPORT_TABLE_RACES,
	REPORT_TABLE_NR,
};

struct report_table {
	const char *key;    /* stable: the page's element id ("critical-path") */
	const char *title;  /* "Critical path" */
	const char *const *header;
	size_t nr_cols;
	const char *align;  /* per column: 'l' text, 'r' a figure */
	char **cells;	    /* nr_rows * nr_cols malloc'd strings */
	size_t nr_rows, cap_cells;
	char *note;	    /* what was left out or why the table is empty; NULL: nothing */
	bool shown;	    /* false: not recorded (no graph, no what-if, no races looked for) */
};

struct report_tables {
	struct report_table tables[REPORT_TABLE_NR];
};

/* 0, or -ENOMEM (t freed). */
int report_tables__compute(struct report_tables *t, const struct audit *a, const struct model *m);
void report_tables__free(struct report_tables *t);

/*
 * The audit's answers as the stderr report words them (audit_answers.h),
 * each line without its "buildbpf: " prefix: malloc'd, or NULL.
 */
char *report_answers__text(const struct audit *a, const struct model *m);
/* The command as typed, cut to max bytes (0: never): malloc'd, or NULL. */
char *report_command__text(const struct model *m, size_t max);

#endif /* BUILDBPF_REPORT_TABLES_H */
