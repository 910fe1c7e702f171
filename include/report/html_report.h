/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build on one page (--html): one self-contained HTML file that opens
 * from a CI artifact or file:// with no network: the answers first, the
 * timeline (the SVG's lanes and CPU strip, zoomable, a tooltip per
 * process), the critical path and the what-if, the top steps, build
 * memory over time, races when recorded, and a link to the JSON trace.
 * Everything from the build (argv, paths) is escaped; the only script is
 * our own, inline, and reads the build's text only as text.  Its size is
 * bounded: the tables by their row limits (report_tables.h), the timeline
 * by the SVG's fold (svg.h), the memory chart by its width.
 */
#ifndef BUILDBPF_HTML_REPORT_H
#define BUILDBPF_HTML_REPORT_H

#include <stdio.h>
#include "audit/audit.h"
#include "model/cpu_sched.h"
#include "model/trace_layout.h"

/* One build's figures on a page. */
struct html_build {
	const struct audit *a;
	const struct trace_layout *tl; /* its model is the build's */
	const struct sched_model *s;   /* NULL: --sched=off */
	const char *trace_href;	       /* the JSON trace, relative (util/href.h); NULL: none written */
	__u64 span_ns;		       /* the timeline's time scale (svg__write_layout()); 0: the build's own */
	const char *timeline_caption;  /* our text under the timeline's heading (its scale); NULL: none */
};

/* The page of one build: 0, or -errno (-EIO for a stream error). */
int html_report__write(FILE *out, const struct html_build *b);

/* For a page of more than one build (diff's): the head (title escaped) and the body's start ... */
void html_report__begin(FILE *out, const char *title);
/* ... a build's answers, figures and timeline, ids prefixed with id_prefix ("old-"): 0 or -ENOMEM ... */
int html_report__overview(FILE *out, const struct html_build *b, const char *id_prefix);
/* ... a section of preformatted text (the answers, diff's comparison), escaped line by line ... */
void html_report__put_pre(FILE *out, const char *id, const char *title, const char *text);
/* ... and the end, the script with it. */
void html_report__end(FILE *out);

#endif /* BUILDBPF_HTML_REPORT_H */
