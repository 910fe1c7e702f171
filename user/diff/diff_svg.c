// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "diff/diff_format.h"
#include "diff/diff_svg.h"
#include "report/svg_draw.h"

#define WIDTH 1600
#define MARGIN 20
#define PLOT_X 64 /* a gutter for the strips' scales, as in the build's SVG */
#define PLOT_W (WIDTH - PLOT_X - MARGIN)
#define HEADER_H 64
#define AXIS_H 24
#define LABEL_H 18  /* a strip's name, above it */
#define STRIP_H 100
#define CAPTION_H 24 /* the strip's caption, below it */
#define BARS_TITLE_H 30
#define BAR_ROW_H 34 /* one program: its old bar above its new one */
#define BAR_H 13
#define NAME_W 220 /* the programs' names, left of the bars */
#define VALUE_W 240 /* the figures, right of the bars */
#define OLD_BAR_COLOUR "#bab0ac"
#define NEW_BAR_COLOUR SVG_RUN_COLOUR

static void put_header(FILE *out, const struct diff *d)
{
	const struct diff_value *wall = &d->values[DIFF_WALL], *cpu = &d->values[DIFF_CPU];
	char change[DIFF_FMT_BUF];

	fputs("<text x=\"20\" y=\"24\" class=\"h\">buildbpf diff: ", out);
	svg_draw__text(out, d->old_b->name);
	fputs(" \u2192 ", out);
	svg_draw__text(out, d->new_b->name);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"20\" y=\"44\" class=\"l\">wall %.2f s \u2192 %.2f s, %s", wall->old_v, wall->new_v,
		diff_fmt_change(change, wall, "s"));
	fprintf(out, "; CPU %.2f s \u2192 %.2f s, %s; %zu processes matched, %zu only in old, %zu only in new</text>\n",
		cpu->old_v, cpu->new_v, diff_fmt_change(change, cpu, "s"), d->match.matched, d->nr_only_old_procs,
		d->nr_only_new_procs);
}

/* One build's strip at y, on the frame both share but from its own start. */
static int put_build(FILE *out, const struct diff_side *b, const char *which, __u64 span_ns, int y)
{
	struct svg_frame f = { .out = out, .x = PLOT_X, .width = PLOT_W, .start_ns = b->m->start_ns,
			       .span_ns = span_ns };

	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"l\">%s: ", PLOT_X, y + 13, which);
	svg_draw__text(out, b->name);
	fprintf(out, " (%.2f s wall)</text>\n", b->a->wall_ns / 1e9);
	y += LABEL_H;
	svg_draw__strip(&f, y, STRIP_H, b->a, b->s, b->m->end_ns);
	return y + STRIP_H + CAPTION_H;
}

static void put_bar(FILE *out, int y, double w, const char *colour, const char *title, __u64 ns)
{
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %.3f s CPU</title>"
		     "</rect>\n", MARGIN + NAME_W, y, w, BAR_H, colour, title, ns / 1e9);
}

static void put_programs(FILE *out, const struct diff *d, int y)
{
	size_t n = d->nr_programs < DIFF_SVG_PROGRAMS ? d->nr_programs : DIFF_SVG_PROGRAMS, k;
	double bar_w = WIDTH - 2 * MARGIN - NAME_W - VALUE_W;
	__u64 most = 1;
	char change[DIFF_FMT_BUF];

	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"l\">CPU time of the programs that changed most: old (grey), "
		     "new (blue)</text>\n", MARGIN, y + 18);
	y += BARS_TITLE_H;
	for (k = 0; k < n; k++) {
		if (d->programs[k].old_cpu_ns > most)
			most = d->programs[k].old_cpu_ns;
		if (d->programs[k].new_cpu_ns > most)
			most = d->programs[k].new_cpu_ns;
	}
	for (k = 0; k < n; k++, y += BAR_ROW_H) {
		const struct diff_program *p = &d->programs[k];

		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"l\">", MARGIN, y + BAR_H + 4);
		svg_draw__text(out, p->name);
		fputs("</text>\n", out);
		put_bar(out, y, bar_w * p->old_cpu_ns / most, OLD_BAR_COLOUR, "old", p->old_cpu_ns);
		put_bar(out, y + BAR_H + 1, bar_w * p->new_cpu_ns / most, NEW_BAR_COLOUR, "new", p->new_cpu_ns);
		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"l\">%.3f s \u2192 %.3f s, %s</text>\n",
			WIDTH - MARGIN - VALUE_W + 8, y + BAR_H + 4, p->old_cpu_ns / 1e9, p->new_cpu_ns / 1e9,
			diff_fmt_ns_change(change, p->old_cpu_ns, p->new_cpu_ns));
	}
}

int diff_svg__write(FILE *out, const struct diff *d)
{
	__u64 span_ns = diff__longer_wall_ns(d);
	size_t bars = d->nr_programs < DIFF_SVG_PROGRAMS ? d->nr_programs : DIFF_SVG_PROGRAMS;
	int strips_y = HEADER_H + AXIS_H, y;
	int height = strips_y + 2 * (LABEL_H + STRIP_H + CAPTION_H) + BARS_TITLE_H + (int)bars * BAR_ROW_H + MARGIN;
	struct svg_frame axis = { .out = out, .x = PLOT_X, .width = PLOT_W, .span_ns = span_ns ? span_ns : 1 };

	svg_draw__begin(out, WIDTH, height);
	put_header(out, d);
	svg_draw__axis(&axis, HEADER_H, strips_y + 2 * (LABEL_H + STRIP_H + CAPTION_H) - CAPTION_H);
	y = put_build(out, d->old_b, "old", axis.span_ns, strips_y);
	y = put_build(out, d->new_b, "new", axis.span_ns, y);
	put_programs(out, d, y);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
