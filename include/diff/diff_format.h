/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the text and Markdown reports write a figure and its change, so the
 * two say the same thing: "4.12 s", "+0.49 s (+11.9 %)", "=".
 */
#ifndef BUILDBPF_DIFF_FORMAT_H
#define BUILDBPF_DIFF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "diff/diff.h"

#define DIFF_FMT_BUF 48

/* A value in unit ("s", "%", ""): "4.12 s", "87 %", "1.52". */
const char *diff_fmt_value(char *buf, double v, const char *unit);
/* A build figure's value: as diff_fmt_value(), or "none" for no lost parallelism or dropped events. */
const char *diff_fmt_metric(char *buf, enum diff_metric k, double v);
/*
 * The change: "+0.49 s (+11.9 %)"; "=" when the values show the same;
 * no percentage when the old value shows as 0 ("+0.49 s").
 */
const char *diff_fmt_change(char *buf, const struct diff_value *v, const char *unit);
/* A duration in seconds with ms precision: "0.545 s". */
const char *diff_fmt_ns(char *buf, __u64 ns);
/* The change of a step or program's time, the same way at ms precision: "+0.514 s (+1658 %)". */
const char *diff_fmt_ns_change(char *buf, __u64 old_ns, __u64 new_ns);
/* The -j a build asked for: "4", "1 (default)", "unlimited", "unknown". */
const char *diff_fmt_jobs(char *buf, const struct tool_jobs *j);
/* The noise floor of CPU (or wall) time in words: "changes of at least 0.1 s and 20 %". */
const char *diff_fmt_noise_floor(char *buf, bool wall);

#endif /* BUILDBPF_DIFF_FORMAT_H */
