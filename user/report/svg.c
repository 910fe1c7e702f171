// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG picture.  Top to bottom: a title with the headline figures, the
 * serial phases' labels, the CPU/parallelism strip (build threads running,
 * outside work and build threads waiting, from the sched model's counter
 * samples, against the CPU count), then one row per process lane, a child
 * inset in its parent so that the nesting shows.  Serial phases are shaded
 * across the whole height.  Hovering a process shows its <title>: plain
 * SVG, no script.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "model/trace_layout.h"
#include "report/report_tables.h"
#include "report/report_text.h"
#include "report/svg.h"
#include "report/svg_draw.h"
#include "report/svg_hover.h"
#include "util/fd_stream.h"

#define WIDTH SVG_WIDTH
#define MARGIN_L SVG_MARGIN_L
#define MARGIN_R SVG_MARGIN_R
#define PLOT_W (WIDTH - MARGIN_L - MARGIN_R)
#define HEADER_H 64
#define PHASE_LABEL_H 16 /* the serial phases' labels, above the strip */
#define STRIP_H 120
#define AXIS_H 24
#define LANES_MAX_H 1400
#define LANE_H_MAX 18
#define LANE_H_MIN 3
#define LEGEND_H 40
/* Roughly the width of one character of the 11 px labels. */
#define CHAR_W 6.2
/* Processes narrower than this (px) are not drawn: they would not show. */
#define MIN_DRAW_W 0.25
/*
 * At most this many processes are drawn: past it (a kernel-sized build)
 * the narrowest are folded, a few pixels or less each, and the header says
 * how many; the trace has every one.  Bounds the picture's size.
 */
#define SVG_PROCS_MAX 6000
/* A process's command line in its tooltip is cut to this many bytes. */
#define TIP_ARGV_MAX 200

/* One colour per program among those with most CPU time; the rest grey.
 * None is the strip's blue, orange or dark grey: a program is not a state. */
static const char *const palette[] = {
	"#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
	"#ff9da7", "#9c755f", "#8cd17d", "#d37295",
};
#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))
#define OTHER_COLOUR "#bab0ac"
#define CRIT_COLOUR "#111111" /* the critical path's outline and line */
/* A child is inset this much (px) per level below the process it nests in on its lane. */
#define NEST_INSET 3

struct canvas {
	FILE *out;
	struct svg_frame f; /* the whole plot's width */
	int lanes_y, lane_h, strip_y, total_h;
	bool *folded;	  /* per process: left out by the fold; NULL: none is */
	size_t nr_folded;
	double folded_w;  /* px: the widest process folded */
	size_t nr_thin;	  /* processes narrower than MIN_DRAW_W: never drawn */
};

static double x_of(const struct canvas *cv, __u64 ts)
{
	return svg_frame__x(&cv->f, ts);
}

struct proc_width {
	double w;
	size_t proc;
};

/* Widest first; among equals the earlier process (model order: deterministic). */
static int by_width_desc(const void *x, const void *y)
{
	const struct proc_width *a = x, *b = y;

	if (a->w != b->w)
		return (a->w < b->w) - (a->w > b->w);
	return (a->proc > b->proc) - (a->proc < b->proc);
}

/* A critical step this wide (px) or more is outlined; a narrower one only shows on the path's line. */
#define CRIT_OUTLINE_MIN_W 2

static bool crit_outlined(const struct canvas *cv, const struct critical_step *st)
{
	return x_of(cv, st->to_ns) - x_of(cv, st->from_ns) >= CRIT_OUTLINE_MIN_W;
}

/*
 * Sets cv->folded so that at most SVG_PROCS_MAX processes of MIN_DRAW_W or
 * more are drawn: the widest, and every step outlined as the critical path
 * (at most one per CRIT_OUTLINE_MIN_W px), so an outline is never on a fold.
 */
static void fold_narrow(struct canvas *cv, const struct audit *a, const struct trace_layout *tl)
{
	const struct model *m = tl->m;
	struct proc_width *w = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*w));
	size_t i, n = 0;

	if (!w)
		return; /* drawn unfolded: bigger, still right */
	for (i = 0; i < m->nr_procs; i++) {
		w[n].proc = i;
		w[n].w = svg_frame__x(&cv->f, tl->procs[i].end_ns) - svg_frame__x(&cv->f, tl->procs[i].start_ns);
		n += w[n].w >= MIN_DRAW_W;
	}
	cv->nr_thin = m->nr_procs - n;
	if (n > SVG_PROCS_MAX && (cv->folded = calloc(m->nr_procs, sizeof(*cv->folded)))) {
		qsort(w, n, sizeof(*w), by_width_desc);
		for (i = SVG_PROCS_MAX; i < n; i++)
			cv->folded[w[i].proc] = true;
		cv->nr_folded = n - SVG_PROCS_MAX;
		cv->folded_w = w[SVG_PROCS_MAX].w;
		for (i = 0; a->graph && i < a->graph->path.nr; i++) {
			size_t proc = a->graph->path.steps[i].proc;

			if (cv->folded[proc] && crit_outlined(cv, &a->graph->path.steps[i])) {
				cv->folded[proc] = false;
				cv->nr_folded--;
			}
		}
	}
	free(w);
}

/* Whether process i is drawn: wide enough, and not folded. */
static bool is_drawn(const struct canvas *cv, const struct trace_layout *tl, size_t i)
{
	return x_of(cv, tl->procs[i].end_ns) - x_of(cv, tl->procs[i].start_ns) >= MIN_DRAW_W &&
	       !(cv->folded && cv->folded[i]);
}

struct fold_band {
	size_t row;
	double x0, x1;
	__u64 t0, t1;
	size_t nr;
};

static int by_row_then_x(const void *x, const void *y)
{
	const struct fold_band *a = x, *b = y;

	if (a->row != b->row)
		return (a->row > b->row) - (a->row < b->row);
	return (a->x0 > b->x0) - (a->x0 < b->x0);
}

/*
 * Where processes too narrow to draw or folded ran with nothing drawn
 * around them, a grey band on their lane (those less than a pixel apart
 * merged), so that such a stretch does not read as an idle lane; hover
 * says how many.  Drawn under the processes.
 */
static void put_folded(struct canvas *cv, const struct trace_layout *tl)
{
	const struct model *m = tl->m;
	struct fold_band *b = cv->nr_folded || cv->nr_thin ? malloc(m->nr_procs * sizeof(*b)) : NULL, *cur;
	size_t i, n = 0, k;

	if (!b)
		return;
	for (i = 0; i < m->nr_procs; i++) {
		long up = tl->procs[i].above;

		if (is_drawn(cv, tl, i) || (up >= 0 && is_drawn(cv, tl, (size_t)up)))
			continue; /* drawn, or inside a process that is */
		b[n++] = (struct fold_band){ .row = tl->procs[i].row, .x0 = x_of(cv, tl->procs[i].start_ns),
					     .x1 = x_of(cv, tl->procs[i].end_ns), .t0 = tl->procs[i].start_ns,
					     .t1 = tl->procs[i].end_ns, .nr = 1 };
	}
	qsort(b, n, sizeof(*b), by_row_then_x);
	for (i = 0; i < n; i = k) {
		cur = &b[i];
		for (k = i + 1; k < n && b[k].row == cur->row && b[k].x0 <= cur->x1 + 1.0; k++) {
			if (b[k].x1 > cur->x1) {
				cur->x1 = b[k].x1;
				cur->t1 = b[k].t1;
			}
			cur->nr++;
		}
		fprintf(cv->out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" class=\"fold\"><title>%zu "
				 "process%s not drawn: %.3f-%.3f s</title></rect>\n", cur->x0,
			cv->lanes_y + (int)cur->row * cv->lane_h, cur->x1 - cur->x0 < 1 ? 1 : cur->x1 - cur->x0,
			cv->lane_h - 1, cur->nr, cur->nr == 1 ? "" : "es", (cur->t0 - cv->f.start_ns) / 1e9,
			(cur->t1 - cv->f.start_ns) / 1e9);
	}
	free(b);
}

/* a->programs is sorted by CPU time: the first NR_COLOURS get their own. */
static const char *colour_of(const struct audit *a, const char *program)
{
	size_t i;

	for (i = 0; i < a->nr_programs && i < NR_COLOURS; i++)
		if (!strcmp(a->programs[i].name, program))
			return palette[i];
	return OTHER_COLOUR;
}

static void put_legend(struct canvas *cv, const struct audit *a, int y)
{
	double x = MARGIN_L;
	size_t i;

	for (i = 0; i < a->nr_programs && i < NR_COLOURS && x < WIDTH - 200; i++) {
		fprintf(cv->out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
			palette[i]);
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">", x + 16, y + 10);
		svg_draw__text(cv->out, a->programs[i].name);
		fprintf(cv->out, " %.0f%%</text>\n", a->cpu_ns ? 100.0 * a->programs[i].cpu_ns / a->cpu_ns : 0);
		x += 16 + CHAR_W * (strlen(a->programs[i].name) + 6) + 12;
	}
	if (a->nr_programs > NR_COLOURS && x < WIDTH - 200) {
		fprintf(cv->out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
			OTHER_COLOUR);
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">others</text>\n", x + 16, y + 10);
		x += 16 + CHAR_W * 6 + 12;
	}
	if (a->graph && a->graph->path.nr && x < WIDTH - 200) {
		fprintf(cv->out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"/>", x, y, CRIT_COLOUR);
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">critical path</text>\n", x + 16, y + 10);
	}
}

static void put_header(struct canvas *cv, const struct audit *a, const struct model *m)
{
	/* The command as typed, not the short span name ("make", not "make -j8"). */
	char *cmd = report_command__text(m, 120);

	fputs("<text x=\"20\" y=\"24\" class=\"h\">buildbpf: ", cv->out);
	svg_draw__text(cv->out, cmd ? cmd : "?");
	fputs("</text>\n", cv->out);
	free(cmd);
	fprintf(cv->out, "<text x=\"20\" y=\"44\" class=\"l\">%.2f s wall on %zu CPUs, %.2f s CPU, %.0f%% utilisation",
		a->wall_ns / 1e9, a->nr_cpus, a->cpu_ns / 1e9, 100 * a->utilisation);
	if (a->par)
		fprintf(cv->out, "; average %.2f running, peak %u; %zu serial phase%s", a->avg_running,
			a->par->peak_running, a->nr_phases, a->nr_phases == 1 ? "" : "s");
	if (a->lost_events)
		fprintf(cv->out, "; %llu EVENTS LOST", (unsigned long long)a->lost_events);
	if (cv->nr_thin)
		fprintf(cv->out, "; %zu processes under %.2f px not drawn", cv->nr_thin, MIN_DRAW_W);
	if (cv->nr_folded)
		fprintf(cv->out, "; %zu of %.1f px or less folded", cv->nr_folded, cv->folded_w);
	if (cv->nr_thin || cv->nr_folded)
		fputs(" (grey where nothing else is drawn; the trace has them)", cv->out);
	fputs("</text>\n", cv->out);
}

static void put_phases(struct canvas *cv, const struct audit *a, const struct model *m)
{
	char *name = NULL;
	size_t i, k;

	for (i = 0; i < a->nr_phases; i++) {
		const struct audit_phase *ph = &a->phases[i];
		double x = x_of(cv, ph->start_ns), w = x_of(cv, ph->end_ns) - x;

		fprintf(cv->out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"serial\"><title>",
			x, cv->strip_y - PHASE_LABEL_H, w < 1 ? 1 : w, cv->total_h - cv->strip_y + PHASE_LABEL_H - LEGEND_H);
		fprintf(cv->out, "serial phase %zu: %.2f s", i + 1, (ph->end_ns - ph->start_ns) / 1e9);
		for (k = 0; k < ph->nr_procs; k++) {
			if (ph->procs[k].proc < 0)
				continue;
			name = proc_display_name(m, &m->procs[ph->procs[k].proc]);
			fputs(k ? ", " : ": ", cv->out);
			svg_draw__text(cv->out, name ? name : "?");
			free(name);
		}
		fputs("</title></rect>\n", cv->out);
		name = ph->nr_procs && ph->procs[0].proc >= 0 ? proc_display_name(m, &m->procs[ph->procs[0].proc]) : NULL;
		/* The longest phase is always labelled; the others where the label fits. */
		if (i && w < CHAR_W * (16 + (name ? strlen(name) : 0))) {
			free(name);
			continue;
		}
		/* Above the strip, not on it: the strip's colours stay readable. */
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"sl\">serial %.2f s", x + 3, cv->strip_y - 4,
			(ph->end_ns - ph->start_ns) / 1e9);
		if (name) {
			fputs(": ", cv->out);
			svg_draw__text(cv->out, name);
		}
		free(name);
		fputs("</text>\n", cv->out);
	}
}

/*
 * Each lane's name in the gutter, as the trace names its track ("lane 3"),
 * a --follow daemon's "daemon 1" (its lane 1); where rows are thinner than
 * a line of text, every k-th one.
 */
static void put_lane_labels(struct canvas *cv, const struct trace_layout *tl)
{
	int every = cv->lane_h >= 11 ? 1 : (11 + cv->lane_h - 1) / cv->lane_h;
	size_t row;

	for (row = 0; row < tl->nr_lanes; row += every)
		fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"ax\">%s %u</text>\n", MARGIN_L - 4,
			cv->lanes_y + (int)row * cv->lane_h + (cv->lane_h < 11 ? 9 : cv->lane_h - 4),
			tl->lane_owner[row] ? "daemon" : "lane", tl->lane_number[row]);
}

/*
 * A process's tooltip: its name and pid, times, CPU and peak memory, its
 * command line, and why it started when it did (--deps=on).
 */
static void put_tip(struct canvas *cv, const struct audit *a, const struct trace_layout *tl, size_t i,
		    const char *name)
{
	const struct model *m = tl->m;
	const struct proc_instance *p = &m->procs[i];
	const struct proc_layout *pl = &tl->procs[i];
	const struct exec_image *img = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	const struct start_cause *sc = a->starts && a->starts->procs && i < a->starts->nr_procs ?
					       &a->starts->procs[i] : NULL;
	char why[256], *argv = img ? argv_display_name(img->argv, img->argc, TIP_ARGV_MAX) : NULL;

	svg_draw__text(cv->out, name ? name : p->comm);
	fprintf(cv->out, " (pid %u): %.3f-%.3f s, %.3f s CPU", p->pid, (pl->start_ns - cv->f.start_ns) / 1e9,
		(pl->end_ns - cv->f.start_ns) / 1e9, (p->utime_ns + p->stime_ns) / 1e9);
	if (p->peak_rss_kb) {
		fputs(", peak ", cv->out);
		report_put_size(cv->out, p->peak_rss_kb * 1024);
	}
	if (argv) {
		fputs("\n$ ", cv->out);
		svg_draw__text(cv->out, argv);
	}
	if (sc && sc->wait != START_UNKNOWN) {
		fputs("\nwaited for: ", cv->out);
		svg_draw__text(cv->out, start_cause__text(sc, m, why, sizeof(why)));
	}
	free(argv);
}

/*
 * Each process where the trace has it: its lane's row, its span (in ns:
 * sub-pixel), inset within the slice around it so that every level shows as
 * a frame (drawn after it: the model lists a parent before its children).
 * A label is written where it fits before the first slice inside it.
 */
static void put_lanes(struct canvas *cv, const struct audit *a, const struct trace_layout *tl)
{
	const struct model *m = tl->m;
	__u64 *first_inside = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*first_inside));
	/* How many slices each sits inside on its lane, as the trace nests them. */
	int *depth = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*depth));
	size_t i, fit;
	char *name;

	/* Where the first slice inside each process begins (0: none); the
	 * slice around one comes before it (trace_layout.h), its depth too. */
	for (i = 0; first_inside && depth && i < m->nr_procs; i++) {
		long up = tl->procs[i].above;

		if (up >= 0 && (!first_inside[up] || tl->procs[i].start_ns < first_inside[up]))
			first_inside[up] = tl->procs[i].start_ns;
		depth[i] = up >= 0 && (size_t)up < i ? depth[up] + 1 : 0;
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		const struct proc_layout *pl = &tl->procs[i];
		double x = x_of(cv, pl->start_ns), w = x_of(cv, pl->end_ns) - x, free_w;
		int inset = (depth ? depth[i] : 0) * NEST_INSET, h;
		int y = cv->lanes_y + (int)pl->row * cv->lane_h;

		if (!is_drawn(cv, tl, i))
			continue;
		/* The deepest levels share the thinnest band the lane allows. */
		if (inset > cv->lane_h - 1 - LANE_H_MIN)
			inset = cv->lane_h - 1 - LANE_H_MIN > 0 ? cv->lane_h - 1 - LANE_H_MIN : 0;
		h = cv->lane_h - 1 - inset;
		name = proc_display_name(m, p);
		fprintf(cv->out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" class=\"n\"><title>",
			x, y + inset, w, h, colour_of(a, proc_program(p)));
		put_tip(cv, a, tl, i, name);
		fputs("</title></rect>\n", cv->out);
		/* A label only where it fits and no slice inside covers it: a cut name would mislead. */
		free_w = first_inside && first_inside[i] ? x_of(cv, first_inside[i]) - x : w;
		fit = free_w > 4 ? (size_t)((free_w - 4) / CHAR_W) : 0;
		if (name && h >= 11 && fit >= 3 && strlen(name) <= fit) {
			fprintf(cv->out, "<text x=\"%.2f\" y=\"%d\" class=\"p\">", x + 2, y + cv->lane_h - 4);
			svg_draw__text(cv->out, name);
			fputs("</text>\n", cv->out);
		}
		free(name);
	}
	free(first_inside);
	free(depth);
}

/* The middle of a process's row: where the critical path's line runs. */
static int row_mid(const struct canvas *cv, const struct trace_layout *tl, size_t proc)
{
	return cv->lanes_y + (int)tl->procs[proc].row * cv->lane_h + (cv->lane_h - 1) / 2;
}

/*
 * The build graph's critical path over the lanes: an outline around the
 * part of each step that held the path, and one line through the steps in
 * time order, so the chain reads from lane to lane.  Drawn in CRIT_COLOUR,
 * a colour no program gets.
 */
static void put_critical_path(struct canvas *cv, const struct audit *a, const struct trace_layout *tl)
{
	const struct graph_run *g = a->graph;
	const struct model *m = tl->m;
	size_t i;
	char *name;

	if (!g || !g->path.nr)
		return;
	fprintf(cv->out, "<g class=\"crit\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">\n", CRIT_COLOUR);
	fputs("<polyline points=\"", cv->out);
	for (i = 0; i < g->path.nr; i++)
		fprintf(cv->out, "%s%.2f,%d %.2f,%d", i ? " " : "", x_of(cv, g->path.steps[i].from_ns),
			row_mid(cv, tl, g->path.steps[i].proc), x_of(cv, g->path.steps[i].to_ns),
			row_mid(cv, tl, g->path.steps[i].proc));
	fputs("\"/>\n", cv->out);
	for (i = 0; i < g->path.nr; i++) {
		const struct critical_step *st = &g->path.steps[i];
		double x = x_of(cv, st->from_ns), w = x_of(cv, st->to_ns) - x;

		if (!crit_outlined(cv, st))
			continue; /* the line shows it; an outline would be a dot */
		name = proc_display_name(m, &m->procs[st->proc]);
		fprintf(cv->out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"><title>critical path: ", x,
			cv->lanes_y + (int)tl->procs[st->proc].row * cv->lane_h, w, cv->lane_h - 1);
		svg_draw__text(cv->out, name ? name : m->procs[st->proc].comm);
		fprintf(cv->out, " held it %.3f s</title></rect>\n", (st->to_ns - st->from_ns) / 1e9);
		free(name);
	}
	fputs("</g>\n", cv->out);
}

int svg__write_layout(FILE *out, const struct audit *a, const struct trace_layout *tl,
		      const struct sched_model *s, __u64 span_ns)
{
	const struct model *m = tl->m;
	struct canvas cv = { .out = out };
	__u64 own_ns = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 1;
	size_t lanes;
	int err;

	lanes = tl->nr_lanes ? tl->nr_lanes : 1;
	cv.f = (struct svg_frame){ .out = out, .x = MARGIN_L, .width = PLOT_W, .start_ns = m->start_ns,
				   .span_ns = span_ns > own_ns ? span_ns : own_ns };
	cv.lane_h = LANES_MAX_H / (int)(lanes < LANES_MAX_H ? lanes : LANES_MAX_H);
	if (cv.lane_h > LANE_H_MAX)
		cv.lane_h = LANE_H_MAX;
	if (cv.lane_h < LANE_H_MIN)
		cv.lane_h = LANE_H_MIN;
	cv.strip_y = HEADER_H + AXIS_H + PHASE_LABEL_H;
	cv.lanes_y = cv.strip_y + STRIP_H + 22; /* room for the strip's legend */
	cv.total_h = cv.lanes_y + (int)lanes * cv.lane_h + 10 + LEGEND_H;
	fold_narrow(&cv, a, tl);

	svg_draw__begin(out, WIDTH, cv.total_h);
	put_header(&cv, a, m);
	svg_draw__axis(&cv.f, HEADER_H, cv.total_h - LEGEND_H);
	svg_draw__strip(&cv.f, cv.strip_y, STRIP_H, a, s, m->end_ns);
	err = svg_hover__strip(&cv.f, cv.strip_y, STRIP_H, m, s, a->nr_cpus);
	put_lane_labels(&cv, tl);
	fputs("<g>\n", out);
	put_folded(&cv, tl);
	put_lanes(&cv, a, tl);
	fputs("</g>\n", out);
	put_critical_path(&cv, a, tl);
	put_phases(&cv, a, m);
	put_legend(&cv, a, cv.total_h - LEGEND_H + 14);
	fputs("</svg>\n", out);
	free(cv.folded);
	return err ?: ferror(out) ? -EIO : 0;
}

int svg__write(FILE *out, const struct audit *a, const struct model *m, const struct sched_model *s)
{
	struct trace_layout *tl = trace_layout__new(m);
	int err;

	if (!tl)
		return -ENOMEM;
	err = svg__write_layout(out, a, tl, s, 0);
	trace_layout__free(tl);
	return err;
}

struct svg_args {
	const struct audit *a;
	const struct trace_layout *tl;
	const struct sched_model *s;
};

static int write_svg(FILE *out, const void *ctx)
{
	const struct svg_args *x = ctx;

	return svg__write_layout(out, x->a, x->tl, x->s, 0);
}

int svg__write_fd(int fd, const struct audit *a, const struct trace_layout *tl, const struct sched_model *s)
{
	const struct svg_args x = { .a = a, .tl = tl, .s = s };

	return fd_stream__write(fd, write_svg, &x);
}
