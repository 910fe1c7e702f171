/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build as a picture, for people who do not want to open a viewer
 * (bootchart's idea): one self-contained SVG with the process lanes, a
 * CPU/parallelism strip and the serial phases marked.  No scripts, no
 * external fonts or URLs; every name from the build is XML-escaped.
 */
#ifndef BUILDBPF_SVG_H
#define BUILDBPF_SVG_H

#include <stdio.h>
#include "audit/audit.h"
#include "model/cpu_sched.h"
#include "model/model.h"
#include "model/trace_layout.h"

/* The picture's width, and where its time axis starts and ends (px): a chart drawn under it lines up. */
#define SVG_WIDTH 1600
#define SVG_MARGIN_L 64 /* a gutter for the lanes' names and the strip's scale */
#define SVG_MARGIN_R 20

/*
 * Writes the SVG of tl's model, drawn where the trace draws each process
 * (tl, borrowed), to out: 0, or -errno (-EIO for a stream error).  s may
 * be NULL.  span_ns: the time the plot's width stands for, from the
 * build's start; 0 (or less than the build's own span): the build's span.
 * Pictures of two builds drawn on the longer's span compare by length.
 */
int svg__write_layout(FILE *out, const struct audit *a, const struct trace_layout *tl,
		      const struct sched_model *s, __u64 span_ns);
/* The same with a layout made from m. */
int svg__write(FILE *out, const struct audit *a, const struct model *m, const struct sched_model *s);
/* svg__write_layout() to fd (not closed): 0 or -errno. */
int svg__write_fd(int fd, const struct audit *a, const struct trace_layout *tl, const struct sched_model *s);

#endif /* BUILDBPF_SVG_H */
