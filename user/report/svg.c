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
#include <unistd.h>
#include "model/proc_name.h"
#include "model/trace_layout.h"
#include "report/svg.h"
#include "util/utf8.h"

#define WIDTH 1600
#define MARGIN_L 64 /* a gutter for the lanes' names and the strip's scale */
#define MARGIN_R 20
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

/* The strip's colours: build threads running, waiting, outside work. */
#define RUN_COLOUR "#4e79a7"
#define WAIT_COLOUR "#f28e2b"
#define OUTSIDE_COLOUR "#4d4d4d"
/* One colour per program among those with most CPU time; the rest grey.
 * None is the strip's blue, orange or dark grey: a program is not a state. */
static const char *const palette[] = {
	"#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
	"#ff9da7", "#9c755f", "#8cd17d", "#d37295",
};
#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))
#define OTHER_COLOUR "#bab0ac"
/* A child is inset this much (px) per level below the process it nests in on its lane. */
#define NEST_INSET 3

struct canvas {
	FILE *out;
	__u64 start_ns, span_ns;
	int lanes_y, lane_h, strip_y, total_h;
};

/* Text as XML character data or attribute value: escaped, valid UTF-8, no
 * control characters (XML 1.0 forbids most of them even escaped). */
static void xml_put(FILE *out, const char *raw)
{
	char *clean = utf8_sanitize(raw, strlen(raw));
	const unsigned char *c;

	if (!clean) {
		fputs("?", out);
		return;
	}
	for (c = (const unsigned char *)clean; *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			fputc(*c < 0x20 || *c == 0x7f ? '?' : *c, out);
			break;
		}
	}
	free(clean);
}

static double x_of(const struct canvas *cv, __u64 ts)
{
	if (ts < cv->start_ns)
		ts = cv->start_ns;
	return MARGIN_L + (double)(ts - cv->start_ns) * PLOT_W / cv->span_ns;
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
		xml_put(cv->out, a->programs[i].name);
		fprintf(cv->out, " %.0f%%</text>\n", a->cpu_ns ? 100.0 * a->programs[i].cpu_ns / a->cpu_ns : 0);
		x += 16 + CHAR_W * (strlen(a->programs[i].name) + 6) + 12;
	}
	if (a->nr_programs > NR_COLOURS && x < WIDTH - 200) {
		fprintf(cv->out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
			OTHER_COLOUR);
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">others</text>\n", x + 16, y + 10);
	}
}

static void put_header(struct canvas *cv, const struct audit *a, const struct model *m)
{
	const struct proc_instance *root = m->root >= 0 ? &m->procs[m->root] : NULL;
	char *cmd = NULL;

	/* The command as typed, not the short span name ("make", not "make -j8"). */
	if (root && root->nr_execs)
		cmd = argv_display_name(root->execs[0].argv, root->execs[0].argc, 120);

	fputs("<text x=\"20\" y=\"24\" class=\"h\">buildbpf: ", cv->out);
	xml_put(cv->out, cmd ? cmd : "?");
	fputs("</text>\n", cv->out);
	free(cmd);
	fprintf(cv->out, "<text x=\"20\" y=\"44\" class=\"l\">%.2f s wall on %zu CPUs, %.2f s CPU, %.0f%% utilisation",
		a->wall_ns / 1e9, a->nr_cpus, a->cpu_ns / 1e9, 100 * a->utilisation);
	if (a->par)
		fprintf(cv->out, "; average %.2f running, peak %u; %zu serial phase%s", a->avg_running,
			a->par->peak_running, a->nr_phases, a->nr_phases == 1 ? "" : "s");
	if (a->lost_events)
		fprintf(cv->out, "; %llu EVENTS LOST", (unsigned long long)a->lost_events);
	fputs("</text>\n", cv->out);
}

/* Seconds along the top of the strip, at a step giving about ten ticks. */
static void put_axis(struct canvas *cv, int y, int bottom)
{
	static const double steps[] = { 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30,
					 60, 120, 300, 600, 1200, 1800, 3600 };
	double span = cv->span_ns / 1e9, step = steps[sizeof(steps) / sizeof(steps[0]) - 1], t, x;
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (span / steps[i] <= 12) {
			step = steps[i];
			break;
		}
	}
	for (t = 0; t <= span + 1e-9; t += step) {
		x = MARGIN_L + t * PLOT_W / span;
		fprintf(cv->out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"g\"/>", x, y + 14, x, bottom);
		fprintf(cv->out, "<text x=\"%.1f\" y=\"%d\" class=\"t\">%g s</text>\n", x + 2, y + 11, t);
	}
}

/* CPUs running outside work in a sample: neither the build's nor idle. */
static double outside_cpus(const struct audit *a, const struct counter_sample *c)
{
	double v = (double)a->nr_cpus - c->running - c->idle_cpus;

	return v > 0 ? v : 0;
}

/* The strip's stack in a sample: running, + outside work, + waiting. */
static double stack_height(const struct audit *a, const struct counter_sample *c)
{
	return c->running + outside_cpus(a, c) + c->runnable;
}

/*
 * The strip's full height, in threads: the CPU count, or the highest stack
 * of the trace when more threads waited than there are CPUs, rounded up,
 * so that the waiting is drawn whole, never cut at the top.
 */
static unsigned int strip_scale(const struct audit *a, const struct sched_model *s)
{
	double peak = (double)(a->nr_cpus ? a->nr_cpus : 1), v;
	size_t i;

	for (i = 0; s && i < s->nr_samples; i++) {
		v = stack_height(a, &s->samples[i]);
		if (v > peak && v < 1e6) /* a nonsense sample cannot flatten the strip */
			peak = v;
	}
	return (unsigned int)(peak + 0.999);
}

/* The strip's scale in the gutter: 0, the CPU count (a dashed line), the top. */
static void put_strip_scale(struct canvas *cv, const struct audit *a, unsigned int top, double scale)
{
	int base = cv->strip_y + STRIP_H, y_cpus = base - (int)(a->nr_cpus * scale + 0.5);

	fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"ax\">%u</text>\n", MARGIN_L - 4, cv->strip_y + 9, top);
	fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"ax\">0</text>\n", MARGIN_L - 4, base);
	if (top > a->nr_cpus) {
		fprintf(cv->out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"cpus\"/>", MARGIN_L, y_cpus,
			MARGIN_L + PLOT_W, y_cpus);
		fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"ax\">%zu CPUs</text>\n", MARGIN_L - 4, y_cpus + 4,
			a->nr_cpus);
	}
}

/*
 * Stacked from the bottom: build threads running, CPUs running outside
 * work, then build threads waiting for a CPU; scaled so that the highest
 * stack fits (at least the CPU count), with the CPU count dashed.
 */
static void put_strip(struct canvas *cv, const struct audit *a, const struct sched_model *s)
{
	static const char *const layer_class[] = { "wait", "out", "run" };
	int y0 = cv->strip_y, base = y0 + STRIP_H;
	unsigned int top_threads = strip_scale(a, s);
	double scale = (double)STRIP_H / top_threads, x, x2, v, top;
	size_t i, layer;

	fprintf(cv->out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"bg\"/>\n", MARGIN_L, y0, PLOT_W,
		STRIP_H);
	if (!s || !s->nr_samples) {
		fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"l\">no CPU data: traced with --sched=off</text>\n",
			MARGIN_L + 8, y0 + STRIP_H / 2);
		return;
	}
	/* Back to front, each layer the sum of those below it in the stack. */
	for (layer = 0; layer < 3; layer++) {
		fprintf(cv->out, "<path class=\"%s\" d=\"M%d %d", layer_class[layer], MARGIN_L, base);
		for (i = 0; i < s->nr_samples; i++) {
			const struct counter_sample *c = &s->samples[i];

			x = x_of(cv, c->ts_ns);
			x2 = i + 1 < s->nr_samples ? x_of(cv, s->samples[i + 1].ts_ns) : MARGIN_L + PLOT_W;
			v = c->running + (layer < 2 ? outside_cpus(a, c) : 0) + (layer < 1 ? c->runnable : 0);
			top = base - v * scale;
			if (top < y0)
				top = y0; /* only a sample strip_scale() set aside as nonsense */
			fprintf(cv->out, " L%.1f %.1f L%.1f %.1f", x, top, x2, top);
		}
		fprintf(cv->out, " L%d %d Z\"/>\n", MARGIN_L + PLOT_W, base);
	}
	put_strip_scale(cv, a, top_threads, scale);
	fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"l\">top of the strip: %u threads; %zu CPUs%s; build threads "
			 "running (blue), CPUs running work outside the build (dark grey), build threads waiting for a "
			 "CPU (orange)</text>\n", MARGIN_L, base + 14, top_threads, a->nr_cpus,
		top_threads > a->nr_cpus ? " (dashed)" : "");
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
			xml_put(cv->out, name ? name : "?");
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
			xml_put(cv->out, name);
		}
		free(name);
		fputs("</text>\n", cv->out);
	}
}

/*
 * Each lane's name in the gutter, as the trace names its track ("lane 3");
 * where rows are thinner than a line of text, every k-th one.
 */
static void put_lane_labels(struct canvas *cv, const struct trace_layout *tl)
{
	int every = cv->lane_h >= 11 ? 1 : (11 + cv->lane_h - 1) / cv->lane_h;
	size_t row;

	for (row = 0; row < tl->nr_lanes; row += every)
		fprintf(cv->out, "<text x=\"%d\" y=\"%d\" class=\"ax\">lane %u</text>\n", MARGIN_L - 4,
			cv->lanes_y + (int)row * cv->lane_h + (cv->lane_h < 11 ? 9 : cv->lane_h - 4), tl->lanes[row] + 1);
}

/* How many slices p sits inside on its lane, as the trace nests them. */
static int nest_depth(const struct trace_layout *tl, size_t i)
{
	int depth = 0;
	long up;

	for (up = tl->procs[i].above; up >= 0; up = tl->procs[up].above)
		depth++;
	return depth;
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
	size_t i, fit;
	char *name;

	/* Where the first slice inside each process begins (0: none). */
	for (i = 0; first_inside && i < m->nr_procs; i++) {
		long up = tl->procs[i].above;

		if (up >= 0 && (!first_inside[up] || tl->procs[i].start_ns < first_inside[up]))
			first_inside[up] = tl->procs[i].start_ns;
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		const struct proc_layout *pl = &tl->procs[i];
		double x = x_of(cv, pl->start_ns), w = x_of(cv, pl->end_ns) - x, free_w;
		int inset = nest_depth(tl, i) * NEST_INSET, h;
		int y = cv->lanes_y + (int)pl->row * cv->lane_h;

		if (w < MIN_DRAW_W)
			continue;
		/* The deepest levels share the thinnest band the lane allows. */
		if (inset > cv->lane_h - 1 - LANE_H_MIN)
			inset = cv->lane_h - 1 - LANE_H_MIN > 0 ? cv->lane_h - 1 - LANE_H_MIN : 0;
		h = cv->lane_h - 1 - inset;
		name = proc_display_name(m, p);
		fprintf(cv->out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" class=\"n\"><title>",
			x, y + inset, w, h, colour_of(a, audit__program_of(p)));
		xml_put(cv->out, name ? name : p->comm);
		fprintf(cv->out, " (pid %u): %.3f-%.3f s, %.3f s CPU</title></rect>\n", p->pid,
			(pl->start_ns - cv->start_ns) / 1e9, (pl->end_ns - cv->start_ns) / 1e9,
			(p->utime_ns + p->stime_ns) / 1e9);
		/* A label only where it fits and no slice inside covers it: a cut name would mislead. */
		free_w = first_inside && first_inside[i] ? x_of(cv, first_inside[i]) - x : w;
		fit = free_w > 4 ? (size_t)((free_w - 4) / CHAR_W) : 0;
		if (name && h >= 11 && fit >= 3 && strlen(name) <= fit) {
			fprintf(cv->out, "<text x=\"%.2f\" y=\"%d\" class=\"p\">", x + 2, y + cv->lane_h - 4);
			xml_put(cv->out, name);
			fputs("</text>\n", cv->out);
		}
		free(name);
	}
	free(first_inside);
}

int svg__write_layout(FILE *out, const struct audit *a, const struct trace_layout *tl,
		      const struct sched_model *s)
{
	const struct model *m = tl->m;
	struct canvas cv = { .out = out, .start_ns = m->start_ns };
	size_t lanes;

	lanes = tl->nr_lanes ? tl->nr_lanes : 1;
	cv.span_ns = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 1;
	cv.lane_h = LANES_MAX_H / (int)(lanes < LANES_MAX_H ? lanes : LANES_MAX_H);
	if (cv.lane_h > LANE_H_MAX)
		cv.lane_h = LANE_H_MAX;
	if (cv.lane_h < LANE_H_MIN)
		cv.lane_h = LANE_H_MIN;
	cv.strip_y = HEADER_H + AXIS_H + PHASE_LABEL_H;
	cv.lanes_y = cv.strip_y + STRIP_H + 22; /* room for the strip's legend */
	cv.total_h = cv.lanes_y + (int)lanes * cv.lane_h + 10 + LEGEND_H;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n", WIDTH, cv.total_h, WIDTH, cv.total_h);
	/* Generic font families only: nothing is fetched. */
	fputs("<style>text{font-family:sans-serif;font-size:11px;fill:#222}.h{font-size:16px;font-weight:bold}"
	      ".t{fill:#666;font-size:10px}.ax{fill:#666;font-size:10px;text-anchor:end}"
	      ".cpus{stroke:#000;stroke-width:1;stroke-dasharray:4 3}.p{fill:#fff;font-size:10px}.l{font-size:12px}"
	      ".sl{fill:#a00;font-size:11px;font-weight:bold}.g{stroke:#ddd;stroke-width:1}.bg{fill:#f4f4f4}"
	      ".run{fill:" RUN_COLOUR "}.wait{fill:" WAIT_COLOUR "}.out{fill:" OUTSIDE_COLOUR "}"
	      ".n{stroke:#fff;stroke-width:0.5}.serial{fill:#d62728;fill-opacity:0.12;stroke:#d62728;"
	      "stroke-opacity:0.6}</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", WIDTH, cv.total_h);
	put_header(&cv, a, m);
	put_axis(&cv, HEADER_H, cv.total_h - LEGEND_H);
	put_strip(&cv, a, s);
	put_lane_labels(&cv, tl);
	fputs("<g>\n", out);
	put_lanes(&cv, a, tl);
	fputs("</g>\n", out);
	put_phases(&cv, a, m);
	put_legend(&cv, a, cv.total_h - LEGEND_H + 14);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int svg__write(FILE *out, const struct audit *a, const struct model *m, const struct sched_model *s)
{
	struct trace_layout *tl = trace_layout__new(m);
	int err;

	if (!tl)
		return -ENOMEM;
	err = svg__write_layout(out, a, tl, s);
	trace_layout__free(tl);
	return err;
}

int svg__write_fd(int fd, const struct audit *a, const struct trace_layout *tl, const struct sched_model *s)
{
	int dup_fd = dup(fd), err;
	FILE *out;

	if (dup_fd < 0)
		return -errno;
	out = fdopen(dup_fd, "w");
	if (!out) {
		err = -errno;
		close(dup_fd);
		return err;
	}
	err = svg__write_layout(out, a, tl, s);
	if (fflush(out) && !err)
		err = -errno;
	if (fclose(out) && !err)
		err = -errno;
	return err;
}
