/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two builds compared on one page (diff --html): the comparison as the
 * text report says it, then both builds side by side, each with its
 * answers, figures and timeline (report/html_report.h), both timelines
 * on the longer build's time scale, as the caption above them says.  Self-contained,
 * everything from the builds escaped.
 */
#ifndef BUILDBPF_DIFF_HTML_H
#define BUILDBPF_DIFF_HTML_H

#include <stdio.h>
#include "diff/diff.h"

/* 0, or -errno (-EIO for a stream error). */
int diff_html__write(FILE *out, const struct diff *d);

#endif /* BUILDBPF_DIFF_HTML_H */
