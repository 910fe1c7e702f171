// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "report/svg_draw.h"
#include "util/utf8.h"

double svg_frame__x(const struct svg_frame *f, __u64 ts)
{
	if (ts < f->start_ns)
		ts = f->start_ns;
	return f->x + (double)(ts - f->start_ns) * f->width / f->span_ns;
}

void svg_draw__begin(FILE *out, int width, int height)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n", width, height, width, height);
	/* Generic font families only: nothing is fetched. */
	fputs("<style>text{font-family:sans-serif;font-size:11px;fill:#222}.h{font-size:16px;font-weight:bold}"
	      ".t{fill:#666;font-size:10px}.ax{fill:#666;font-size:10px;text-anchor:end}"
	      ".cpus{stroke:#000;stroke-width:1;stroke-dasharray:4 3}.p{fill:#fff;font-size:10px}.l{font-size:12px}"
	      ".sl{fill:#a00;font-size:11px;font-weight:bold}.g{stroke:#ddd;stroke-width:1}.bg{fill:#f4f4f4}"
	      ".run{fill:" SVG_RUN_COLOUR "}.wait{fill:" SVG_WAIT_COLOUR "}.out{fill:" SVG_OUTSIDE_COLOUR "}"
	      ".n{stroke:#fff;stroke-width:0.5}.serial{fill:#d62728;fill-opacity:0.12;stroke:#d62728;"
	      "stroke-opacity:0.6}.fold{fill:" "#bab0ac" ";fill-opacity:0.7}</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
}

/*
 * No control characters: XML 1.0 forbids most of them even escaped.  A
 * character that would change how the name reads without being seen (a
 * bidi override: utf8_invisible_len()) is shown as its bytes, \xNN.
 */
void svg_draw__text(FILE *out, const char *raw)
{
	char *clean = utf8_sanitize(raw, strlen(raw));
	const unsigned char *c;
	size_t n, i;

	if (!clean) {
		fputs("?", out);
		return;
	}
	for (c = (const unsigned char *)clean; *c; c += n) {
		n = utf8_invisible_len((const char *)c);
		for (i = 0; i < n; i++)
			fprintf(out, "\\x%02x", c[i]);
		if (n)
			continue;
		n = 1;
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

void svg_draw__axis(const struct svg_frame *f, int y, int bottom)
{
	static const double steps[] = { 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30,
					 60, 120, 300, 600, 1200, 1800, 3600 };
	double span = f->span_ns / 1e9, step = steps[sizeof(steps) / sizeof(steps[0]) - 1], t, x;
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (span / steps[i] <= 12) {
			step = steps[i];
			break;
		}
	}
	for (t = 0; t <= span + 1e-9; t += step) {
		x = f->x + t * f->width / span;
		fprintf(f->out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"g\"/>", x, y + 14, x, bottom);
		fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"t\">%g s</text>\n", x + 2, y + 11, t);
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

/* The strip's scale left of the frame: 0, the CPU count (a dashed line), the top. */
static void put_strip_scale(const struct svg_frame *f, int y0, int height, const struct audit *a,
			    unsigned int top, double scale)
{
	int base = y0 + height, y_cpus = base - (int)(a->nr_cpus * scale + 0.5);

	fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"ax\">%u</text>\n", f->x - 4, y0 + 9, top);
	fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"ax\">0</text>\n", f->x - 4, base);
	if (top > a->nr_cpus) {
		fprintf(f->out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"cpus\"/>", f->x, y_cpus,
			f->x + f->width, y_cpus);
		fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"ax\">%zu CPUs</text>\n", f->x - 4, y_cpus + 4,
			a->nr_cpus);
	}
}

/*
 * Stacked from the bottom: build threads running, CPUs running outside
 * work, then build threads waiting for a CPU; scaled so that the highest
 * stack fits (at least the CPU count), with the CPU count dashed.
 */
void svg_draw__strip(const struct svg_frame *f, int y0, int height, const struct audit *a,
		     const struct sched_model *s, __u64 end_ns)
{
	static const char *const layer_class[] = { "wait", "out", "run" };
	int base = y0 + height;
	unsigned int top_threads = strip_scale(a, s);
	double scale = (double)height / top_threads, x, x2, v, top, x_end = svg_frame__x(f, end_ns);
	size_t i, layer;

	fprintf(f->out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"bg\"/>\n", f->x, y0, f->width,
		height);
	if (!s || !s->nr_samples) {
		fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">no CPU data: traced with --sched=off</text>\n",
			f->x + 8, y0 + height / 2);
		return;
	}
	/* Back to front, each layer the sum of those below it in the stack. */
	for (layer = 0; layer < 3; layer++) {
		fprintf(f->out, "<path class=\"%s\" d=\"M%.1f %d", layer_class[layer], f->x, base);
		for (i = 0; i < s->nr_samples; i++) {
			const struct counter_sample *c = &s->samples[i];

			x = svg_frame__x(f, c->ts_ns);
			x2 = i + 1 < s->nr_samples ? svg_frame__x(f, s->samples[i + 1].ts_ns) : x_end;
			v = c->running + (layer < 2 ? outside_cpus(a, c) : 0) + (layer < 1 ? c->runnable : 0);
			top = base - v * scale;
			if (top < y0)
				top = y0; /* only a sample strip_scale() set aside as nonsense */
			fprintf(f->out, " L%.1f %.1f L%.1f %.1f", x, top, x2, top);
		}
		fprintf(f->out, " L%.1f %d Z\"/>\n", x_end, base);
	}
	put_strip_scale(f, y0, height, a, top_threads, scale);
	fprintf(f->out, "<text x=\"%.1f\" y=\"%d\" class=\"l\">top of the strip: %u threads; %zu CPUs%s; build threads "
			"running (blue), CPUs running work outside the build (dark grey), build threads waiting for a "
			"CPU (orange)</text>\n", f->x, base + 14, top_threads, a->nr_cpus,
		top_threads > a->nr_cpus ? " (dashed)" : "");
}
