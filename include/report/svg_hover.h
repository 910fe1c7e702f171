/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tooltips over the charts that draw no process of their own: the
 * CPU/parallelism strip and the build's memory over time.  Each is cut
 * into SVG_HOVER_COLUMNS columns of time, each an invisible rectangle with
 * a plain SVG <title> (no script): its stretch of time, its figures, and
 * the processes behind them, every name whole.
 */
#ifndef BUILDBPF_SVG_HOVER_H
#define BUILDBPF_SVG_HOVER_H

#include "model/cpu_sched.h"
#include "model/model.h"
#include "report/svg_draw.h"

#define SVG_HOVER_COLUMNS 100
/* Processes named per column, most first. */
#define SVG_HOVER_NAMES 5

/*
 * Over the strip in [y, y + height): per column the build threads running,
 * waiting and the CPUs on outside work (averages), and the processes at
 * work in it longest (those that started none of their own).  0, or -ENOMEM.
 */
int svg_hover__strip(const struct svg_frame *f, int y, int height, const struct model *m, const struct sched_model *s,
		     size_t nr_cpus);
/* Over the memory chart in [y, y + height): per column its highest sample and the largest processes alive. */
int svg_hover__memory(const struct svg_frame *f, int y, int height, const struct model *m);

#endif /* BUILDBPF_SVG_HOVER_H */
