// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/markdown_report.h"
#include "report/report_tables.h"
#include "util/md_escape.h"

/* Kept free for the closing line and the note of what was left out. */
#define TAIL_RESERVE 512
/* A cell escaped: every byte may gain a backslash. */
#define CELL_BUF (2 * REPORT_CELL_MAX + 4)

/* The answers in a fenced block: they are sentences laid out for a fixed-width font. */
static void put_answers(FILE *f, const char *text)
{
	size_t run = 0, longest = 0, fence, i;
	const char *c;

	/* A fence longer than any run of backticks inside: nothing in it can close it. */
	for (c = text; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	fence = longest < 3 ? 3 : longest + 1;
	fputs("\n", f);
	for (i = 0; i < fence; i++)
		fputc('`', f);
	fputs("text\n", f);
	for (c = text; *c; c++)
		fputc((unsigned char)*c < 0x20 && *c != '\n' ? '?' : *c, f);
	for (i = 0; i < fence; i++)
		fputc('`', f);
	fputs("\n", f);
}

static void put_table(FILE *f, const struct report_table *t)
{
	char buf[CELL_BUF];
	size_t r, k;

	fprintf(f, "\n### %s\n\n", t->title);
	if (t->nr_rows) {
		fputs("|", f);
		for (k = 0; k < t->nr_cols; k++)
			fprintf(f, " %s |", t->header[k]);
		fputs("\n|", f);
		for (k = 0; k < t->nr_cols; k++)
			fputs(t->align[k] == 'r' ? " ---: |" : " --- |", f);
		fputs("\n", f);
	}
	for (r = 0; r < t->nr_rows; r++) {
		fputs("|", f);
		for (k = 0; k < t->nr_cols; k++)
			fprintf(f, " %s |", md_escape_cell(t->cells[r * t->nr_cols + k], buf, sizeof(buf)));
		fputs("\n", f);
	}
	if (t->note)
		fprintf(f, "\n_%s_\n", md_escape_cell(t->note, buf, sizeof(buf)));
	else if (!t->nr_rows)
		fputs("_none_\n", f);
}

/* Appends a section (text, len) to doc when it fits under max; else counts it left out. */
static void append(FILE *doc, size_t max, size_t *used, char *text, size_t len, size_t *left_out)
{
	if (text && *used + len + TAIL_RESERVE < max) {
		fwrite(text, 1, len, doc);
		*used += len;
	} else {
		(*left_out)++;
	}
	free(text);
}

/* The order a reader wants them: what held the build, what would help, then the heavy steps. */
static const enum report_table_id md_tables[] = {
	REPORT_TABLE_FIGURES, REPORT_TABLE_PATH,    REPORT_TABLE_WHATIF,    REPORT_TABLE_TOP_WALL,
	REPORT_TABLE_TOP_CPU, REPORT_TABLE_TOP_RSS, REPORT_TABLE_TOP_WRITE, REPORT_TABLE_RACES,
};

int markdown_report__write(FILE *out, const struct audit *a, const struct model *m)
{
	return markdown_report__write_max(out, a, m, MARKDOWN_REPORT_MAX);
}

int markdown_report__write_max(FILE *out, const struct audit *a, const struct model *m, size_t max)
{
	struct report_tables t;
	char *answers = report_answers__text(a, m), *cmd = report_command__text(m, 120), *text = NULL;
	char buf[CELL_BUF];
	size_t used = 0, len = 0, left_out = 0, i;
	FILE *f;
	int err;

	if (!answers || !cmd || report_tables__compute(&t, a, m)) {
		free(answers);
		free(cmd);
		return -ENOMEM;
	}
	f = open_memstream(&text, &len);
	if (f) {
		fprintf(f, "## buildbpf: %s\n", md_escape_cell(cmd, buf, sizeof(buf)));
		put_answers(f, answers);
	}
	if (!f || fclose(f)) {
		err = -ENOMEM;
		goto cleanup;
	}
	append(out, max, &used, text, len, &left_out);
	for (i = 0; i < sizeof(md_tables) / sizeof(md_tables[0]); i++) {
		if (!t.tables[md_tables[i]].shown)
			continue;
		text = NULL;
		f = open_memstream(&text, &len);
		if (!f) {
			left_out++;
			continue;
		}
		put_table(f, &t.tables[md_tables[i]]);
		if (fclose(f))
			text = (free(text), NULL);
		append(out, max, &used, text, len, &left_out);
	}
	if (left_out)
		fprintf(out, "\n_%zu section%s left out to stay under %zu characters (--html and --summary-json "
			     "hold everything)_\n", left_out, left_out == 1 ? "" : "s", max);
	err = ferror(out) ? -EIO : 0;
cleanup:
	report_tables__free(&t);
	free(answers);
	free(cmd);
	return err;
}
