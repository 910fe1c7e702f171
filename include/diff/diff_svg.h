/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two builds compared, as a picture (`buildbpf diff --svg FILE`): their
 * CPU/parallelism strips one above the other on the same time scale, then
 * the programs whose CPU time changed most as paired bars, old and new.
 * Self-contained like the build's SVG (report/svg.h), whose strip it draws.
 */
#ifndef BUILDBPF_DIFF_SVG_H
#define BUILDBPF_DIFF_SVG_H

#include <stdio.h>
#include "diff/diff.h"

/* Programs drawn as paired bars. */
#define DIFF_SVG_PROGRAMS 8

/* Writes the SVG to out: 0, or -EIO for a stream error. */
int diff_svg__write(FILE *out, const struct diff *d);

#endif /* BUILDBPF_DIFF_SVG_H */
