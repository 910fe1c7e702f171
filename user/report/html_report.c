// SPDX-License-Identifier: GPL-2.0
/*
 * The page of report/html_report.h.  Every string from the build goes
 * through svg_draw__text() (XML escaping is HTML escaping, and it makes
 * the text valid UTF-8); numbers are ours.  The sections are the tables of
 * report/report_tables.h, the answers' text and the SVG picture inline.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/answer_rows.h"
#include "report/audit_report.h"
#include "report/html_assets.h"
#include "report/html_report.h"
#include "report/report_tables.h"
#include "report/report_text.h"
#include "report/svg.h"
#include "report/svg_draw.h"
#include "report/svg_hover.h"

/* The memory chart: as wide as the picture, its time axis under the picture's. */
#define MEM_H 170
#define MEM_TOP 24 /* the axis' labels */
#define MEM_PLOT_H 120

/* Escaped text (svg_draw__text: XML and HTML escape alike). */
static void put_text(FILE *out, const char *raw)
{
	svg_draw__text(out, raw ? raw : "");
}

void html_report__begin(FILE *out, const char *title)
{
	char csp[HTML_ASSETS_CSP_LEN];

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", out);
	/* Nothing is fetched, whatever the page holds: no network from a CI artifact. */
	html_assets_csp(csp);
	fprintf(out, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", csp);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
	put_text(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<div id=\"bb-tip\" hidden></div>\n<h1>",
		html_assets_style);
	put_text(out, title);
	fputs("</h1>\n", out);
}

void html_report__end(FILE *out)
{
	fputs("<p class=\"bb-note\">Written by buildbpf; this page fetches nothing and runs only its own "
	      "script.</p>\n", out);
	fprintf(out, "<script>%s</script>\n</body></html>\n", html_assets_script);
}

void html_report__put_pre(FILE *out, const char *id, const char *title, const char *text)
{
	const char *line = text, *nl;
	char *copy;

	fprintf(out, "<section id=\"%s\"><h2>%s</h2>\n<pre class=\"bb-answers\">", id, title);
	/* Line by line: the escape turns a control byte, a newline too, into '?'. */
	for (; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		copy = nl ? strndup(line, nl - line) : strdup(line);
		put_text(out, copy ? copy : "?");
		fputc('\n', out);
		free(copy);
	}
	fputs("</pre></section>\n", out);
}

static void put_table(FILE *out, const struct report_table *t, const char *id_prefix)
{
	size_t r, k;

	fprintf(out, "<section id=\"%s%s\"><h2>%s</h2>\n", id_prefix, t->key, t->title);
	if (t->nr_rows) {
		fputs("<table class=\"bb-t\"><thead><tr>", out);
		for (k = 0; k < t->nr_cols; k++)
			fprintf(out, "<th%s>%s</th>", t->align[k] == 'r' ? " class=\"bb-r\"" : "", t->header[k]);
		fputs("</tr></thead><tbody>\n", out);
		for (r = 0; r < t->nr_rows; r++) {
			fputs("<tr>", out);
			for (k = 0; k < t->nr_cols; k++) {
				fputs(t->align[k] == 'r' ? "<td class=\"bb-r\">" : "<td>", out);
				put_text(out, t->cells[r * t->nr_cols + k]);
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
		fputs("</tbody></table>\n", out);
	}
	if (t->note || !t->nr_rows) {
		fputs("<p class=\"bb-note\">", out);
		put_text(out, t->note ? t->note : "none");
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
}

/* The picture inline: its XML declaration left out (an HTML parser reads it as a bogus comment). */
static int put_timeline(FILE *out, const struct html_build *b, const char *id_prefix)
{
	char *svg = NULL, *body;
	size_t len = 0;
	FILE *mem = open_memstream(&svg, &len);
	int err;

	if (!mem)
		return -ENOMEM;
	err = svg__write_layout(mem, b->a, b->tl, b->s, b->span_ns);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (err) {
		free(svg);
		return err;
	}
	body = !strncmp(svg, "<?xml", 5) && strchr(svg, '\n') ? strchr(svg, '\n') + 1 : svg;
	fprintf(out, "<section id=\"%stimeline\" class=\"bb-timeline\"><h2>Timeline</h2>\n"
		     "<div class=\"bb-zoom\"><button type=\"button\" class=\"bb-in\">zoom in</button>"
		     "<button type=\"button\" class=\"bb-out\">zoom out</button>"
		     "<button type=\"button\" class=\"bb-reset\">fit</button><span class=\"bb-level\">1x</span>"
		     "<span>ctrl+wheel zooms; hover a process for its command, times, CPU, memory and why it "
		     "started</span></div>\n", id_prefix);
	if (b->a->graph && b->a->graph->path.nr)
		fputs("<p class=\"bb-legend\"><b></b>the critical path: the part of each step that held it outlined, "
		      "one line through them in order (hover an outline for how long it held the path)</p>\n", out);
	if (b->timeline_caption) {
		fputs("<p class=\"bb-note bb-caption\">", out);
		put_text(out, b->timeline_caption);
		fputs("</p>\n", out);
	}
	fputs("<div class=\"bb-scroll\">\n", out);
	fputs(body, out);
	fputs("</div></section>\n", out);
	free(svg);
	return 0;
}

/* Where the figures behind an answer are on the page: a table's key, or NULL. */
static const char *answer_section(const char *answer_id, const struct report_tables *t)
{
	static const struct {
		const char *answer;
		enum report_table_id table;
	} behind[] = {
		{ "parallel", REPORT_TABLE_FIGURES },	{ "more_cpus_or_jobs", REPORT_TABLE_WHATIF },
		{ "machine_shared", REPORT_TABLE_FIGURES }, { "speed_up", REPORT_TABLE_PATH },
		{ "what_if", REPORT_TABLE_WHATIF },	{ "races", REPORT_TABLE_RACES },
	};
	size_t k;

	for (k = 0; k < sizeof(behind) / sizeof(behind[0]); k++)
		if (!strcmp(behind[k].answer, answer_id))
			return t->tables[behind[k].table].shown ? t->tables[behind[k].table].key : NULL;
	return NULL;
}

/* A figure as the page words it: "as run 4.510 s", its key and exact value in the tooltip. */
static void put_answer_figure(FILE *out, const struct answer_figure *f)
{
	char size[REPORT_SIZE_LEN];

	fprintf(out, "<span class=\"bb-fig\" data-key=\"%s\" title=\"--summary-json answers.brief[].figures.%s = ",
		f->key, f->key);
	switch (f->unit) {
	case ANSWER_NS:
		fprintf(out, "%.3f\">%s %.3f s", f->value / 1e6, f->label, f->value / 1e9);
		break;
	case ANSWER_SHARE:
		fprintf(out, "%.4f\">%s %.1f %%", f->value, f->label, 100 * f->value);
		break;
	case ANSWER_CPUS:
		fprintf(out, "%.4f\">%s %.2f CPUs", f->value, f->label, f->value);
		break;
	case ANSWER_COUNT:
		fprintf(out, "%.0f\">%s %.0f", f->value, f->label, f->value);
		break;
	case ANSWER_KIB:
		fprintf(out, "%.0f\">%s %s", f->value, f->label, report_size(size, (__u64)f->value * 1024));
		break;
	}
	fputs("</span>", out);
}

/*
 * The answers as rows: question, answer (the brief report's words), the
 * figures behind it and a link to the section that holds them.  Only the
 * one-build page links past its overview (diff's pages hold no detail).
 */
static int put_answers(FILE *out, const struct html_build *b, const struct report_tables *t, const char *id_prefix)
{
	struct answer_row rows[AUDIT_ANSWERS_MAX];
	const char *section;
	size_t nr, i, k;

	if (answer_rows__compute(rows, &nr, b->a, b->tl->m))
		return -ENOMEM;
	fprintf(out, "<section id=\"%sanswers\"><h2>Answers</h2>\n<table class=\"bb-t bb-answers\"><thead><tr>"
		     "<th>question</th><th>answer</th><th>figures behind it</th><th>more</th></tr></thead><tbody>\n",
		id_prefix);
	for (i = 0; i < nr; i++) {
		fprintf(out, "<tr data-answer=\"%s\"%s><td class=\"bb-q\">", rows[i].id,
			rows[i].shown ? "" : " class=\"bb-verbose\" title=\"not in the default report (-v has it)\"");
		put_text(out, rows[i].question);
		fputs("</td><td", out);
		if (rows[i].step) { /* the words cut a long name: whole on hover */
			fputs(" class=\"bb-named\" title=\"the critical step that gains most taken away: ", out);
			put_text(out, rows[i].step);
			fputc('"', out);
		}
		fputc('>', out);
		put_text(out, rows[i].text);
		fputs("</td><td class=\"bb-figs\">", out);
		for (k = 0; k < rows[i].nr_figures; k++)
			put_answer_figure(out, &rows[i].figures[k]);
		section = answer_section(rows[i].id, t);
		fputs("</td><td>", out);
		if (section && (!*id_prefix || section == t->tables[REPORT_TABLE_FIGURES].key))
			fprintf(out, "<a href=\"#%s%s\">%s</a>", id_prefix, section, section);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table></section>\n", out);
	answer_rows__free(rows, nr);
	return 0;
}

/* A build that compiled nothing: the sentence the report gives, in place of the answers about nothing. */
static int put_nothing_compiled(FILE *out, const struct html_build *b, const char *id_prefix)
{
	char *text = audit_report__nothing_compiled_text(b->a);

	if (!text)
		return -ENOMEM;
	fprintf(out, "<section id=\"%sanswers\"><h2>Answers</h2>\n<p class=\"bb-note\" id=\"%snothing-compiled\">",
		id_prefix, id_prefix);
	put_text(out, text);
	fputs("</p></section>\n", out);
	free(text);
	return 0;
}

static int overview(FILE *out, const struct html_build *b, const struct report_tables *t, const char *id_prefix)
{
	int err = fresh_build__nothing_compiled(&b->a->fresh) ? put_nothing_compiled(out, b, id_prefix)
							      : put_answers(out, b, t, id_prefix);

	if (err)
		return err;
	put_table(out, &t->tables[REPORT_TABLE_FIGURES], id_prefix);
	return put_timeline(out, b, id_prefix);
}

int html_report__overview(FILE *out, const struct html_build *b, const char *id_prefix)
{
	struct report_tables t;
	int err;

	if (report_tables__compute(&t, b->a, b->tl->m))
		return -ENOMEM;
	err = overview(out, b, &t, id_prefix);
	report_tables__free(&t);
	return err;
}

/*
 * The build's memory over time (--mem-period samples), under the
 * picture's time axis: one point per pixel column, its highest sample, so
 * that a long build's thousands of samples stay a few kilobytes.
 */
static void put_memory(FILE *out, const struct model *m)
{
	struct svg_frame f = { .out = out, .x = SVG_MARGIN_L, .width = SVG_WIDTH - SVG_MARGIN_L - SVG_MARGIN_R,
			       .start_ns = m->start_ns,
			       .span_ns = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 1 };
	int base = MEM_TOP + 14 + MEM_PLOT_H, col, last_col = -1;
	char size[REPORT_SIZE_LEN];
	__u64 peak = 1, col_max = 0;
	size_t i;

	fputs("<section id=\"memory\"><h2>Build memory over time</h2>\n", out);
	if (!m->nr_mem_samples) {
		fputs("<p class=\"bb-note\">not sampled (recorded with --mem-period=off, or by a buildbpf before "
		      "it sampled)</p></section>\n", out);
		return;
	}
	for (i = 0; i < m->nr_mem_samples; i++)
		if (m->mem_samples[i].total_kb > peak)
			peak = m->mem_samples[i].total_kb;
	fprintf(out, "<div class=\"bb-scroll\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		     "width=\"%d\" height=\"%d\" style=\"width:100%%;height:auto\">\n", SVG_WIDTH, MEM_H, SVG_WIDTH,
		MEM_H);
	svg_draw__axis(&f, MEM_TOP - 14, base);
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"ax\">%s</text><text x=\"%d\" y=\"%d\" class=\"ax\">0"
		     "</text>\n", SVG_MARGIN_L - 4, MEM_TOP + 14 + 9, report_size(size, peak * 1024), SVG_MARGIN_L - 4,
		base);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", SVG_RUN_COLOUR);
	for (i = 0; i < m->nr_mem_samples; i++) {
		const struct mem_sample *s = &m->mem_samples[i];

		col = (int)svg_frame__x(&f, s->ts_ns);
		if (col != last_col && last_col >= 0)
			fprintf(out, "%d,%.1f ", last_col, base - (double)col_max * MEM_PLOT_H / peak);
		if (col != last_col)
			col_max = 0;
		if (s->total_kb > col_max)
			col_max = s->total_kb;
		last_col = col;
	}
	fprintf(out, "%d,%.1f\"/>\n", last_col, base - (double)col_max * MEM_PLOT_H / peak);
	svg_hover__memory(&f, MEM_TOP + 14, MEM_PLOT_H, m); /* without memory, no tooltips */
	fputs("</svg></div>\n", out);
	fprintf(out, "<p class=\"bb-note\">peak %s at %.3f s, ", report_size(size, m->mem_peak.total_kb * 1024),
		(m->mem_peak.hdr.ts_ns - m->start_ns) / 1e9);
	fprintf(out, "of %s of RAM; %zu samples</p></section>\n", report_size(size, m->mem_peak.ram_kb * 1024),
		m->nr_mem_samples);
}

/* The detail after the overview, in the order a reader goes on. */
static const enum report_table_id html_tables[] = {
	REPORT_TABLE_PATH,     REPORT_TABLE_WHATIF,    REPORT_TABLE_TOP_WALL, REPORT_TABLE_TOP_CPU,
	REPORT_TABLE_TOP_RSS,  REPORT_TABLE_TOP_WRITE, REPORT_TABLE_PROGRAMS, REPORT_TABLE_RACES,
};

int html_report__write(FILE *out, const struct html_build *b)
{
	const struct model *m = b->tl->m;
	struct report_tables t;
	char *cmd = report_command__text(m, 120), *title = NULL;
	size_t i;
	int err = -ENOMEM;

	if (!cmd || asprintf(&title, "buildbpf: %s", cmd) < 0 || report_tables__compute(&t, b->a, m)) {
		free(cmd);
		return -ENOMEM;
	}
	html_report__begin(out, title);
	fputs("<p id=\"trace\">", out);
	if (b->trace_href) {
		fputs("The full trace: <a href=\"", out);
		put_text(out, b->trace_href);
		fputs("\">", out);
		put_text(out, b->trace_href);
		fputs("</a> (open it in Perfetto or the DevTools Performance panel).", out);
	} else {
		fputs("No JSON trace was written with this page (buildbpf convert LOG -o trace.json makes one).", out);
	}
	fputs("</p>\n", out);
	err = overview(out, b, &t, "");
	if (!err) {
		put_memory(out, m);
		for (i = 0; i < sizeof(html_tables) / sizeof(html_tables[0]); i++)
			if (t.tables[html_tables[i]].shown)
				put_table(out, &t.tables[html_tables[i]], "");
		html_report__end(out);
		err = ferror(out) ? -EIO : 0;
	}
	report_tables__free(&t);
	free(title);
	free(cmd);
	return err;
}
