/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of an SVG picture of a build that more than one picture draws
 * (the build's own, svg.h; two builds compared, diff/diff_svg.h): the
 * document and its style, escaped text, a time axis and the
 * CPU/parallelism strip, each in a frame that maps time to x.
 */
#ifndef BUILDBPF_SVG_DRAW_H
#define BUILDBPF_SVG_DRAW_H

#include <stdio.h>
#include <linux/types.h>
#include "model/cpu_sched.h"
#include "audit/audit.h"

/* The strip's colours: build threads running, waiting, outside work. */
#define SVG_RUN_COLOUR "#4e79a7"
#define SVG_WAIT_COLOUR "#f28e2b"
#define SVG_OUTSIDE_COLOUR "#4d4d4d"

/* Where time is drawn: [start_ns, start_ns + span_ns) over [x, x + width). */
struct svg_frame {
	FILE *out;
	double x, width;
	__u64 start_ns, span_ns; /* span_ns > 0 */
};

double svg_frame__x(const struct svg_frame *f, __u64 ts_ns);
/* The XML header, the <svg> element of width x height, the style, a white page. */
void svg_draw__begin(FILE *out, int width, int height);
/* Text as XML character data or attribute value: escaped, valid UTF-8. */
void svg_draw__text(FILE *out, const char *raw);
/* Seconds along y, with grid lines down to bottom, about ten ticks. */
void svg_draw__axis(const struct svg_frame *f, int y, int bottom);
/*
 * The CPU/parallelism strip of a build in the box [y, y + height) of the
 * frame, its samples drawn up to end_ns, and its caption below it (14 px).
 * s NULL or without samples: says so instead.
 */
void svg_draw__strip(const struct svg_frame *f, int y, int height, const struct audit *a,
		     const struct sched_model *s, __u64 end_ns);

#endif /* BUILDBPF_SVG_DRAW_H */
