// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "diff/diff_format.h"

const char *diff_fmt_noise_floor(char *buf, bool wall)
{
	snprintf(buf, DIFF_FMT_BUF, "changes of at least %g s and %d %%",
		 (wall ? DIFF_WALL_NOISE_MIN_NS : DIFF_CPU_NOISE_MIN_NS) / 1e9,
		 wall ? DIFF_WALL_NOISE_PERCENT : DIFF_CPU_NOISE_PERCENT);
	return buf;
}

/* Counts, whole; times and ratios with two decimals. */
static const char *number(char *buf, double v, const char *unit, bool sign)
{
	bool whole = !*unit && fabs(v) < 1e15 && v == (double)(long long)v;
	const char *space = *unit ? " " : "";

	if (whole)
		snprintf(buf, DIFF_FMT_BUF, sign ? "%+.0f%s%s" : "%.0f%s%s", v, space, unit);
	else
		snprintf(buf, DIFF_FMT_BUF, sign ? "%+.2f%s%s" : "%.2f%s%s", v, space, unit);
	return buf;
}

const char *diff_fmt_value(char *buf, double v, const char *unit)
{
	return number(buf, v, unit, false);
}

static void percent(char *buf, size_t size, double pct)
{
	if (isinf(pct))
		snprintf(buf, size, " (from 0)");
	else if (fabs(pct) >= 10)
		snprintf(buf, size, " (%+.0f %%)", pct);
	else
		snprintf(buf, size, " (%+.1f %%)", pct);
}

const char *diff_fmt_change(char *buf, const struct diff_value *v, const char *unit)
{
	/* A change in a percentage is in points, not a percent of it. */
	const char *change_unit = !strcmp(unit, "%") ? "pt" : unit;
	char tail[24] = "";

	if (diff_value__change(v) == 0) {
		snprintf(buf, DIFF_FMT_BUF, "=");
		return buf;
	}
	if (strcmp(unit, "%"))
		percent(tail, sizeof(tail), diff_value__percent(v));
	number(buf, diff_value__change(v), change_unit, true);
	strncat(buf, tail, DIFF_FMT_BUF - strlen(buf) - 1);
	return buf;
}

const char *diff_fmt_jobs(char *buf, const struct audit_jobs *j)
{
	if (j->jobs < 0)
		snprintf(buf, DIFF_FMT_BUF, "unlimited");
	else if (!j->jobs)
		snprintf(buf, DIFF_FMT_BUF, "unknown");
	else
		snprintf(buf, DIFF_FMT_BUF, j->source == JOBS_TOOL_DEFAULT ? "%ld (default)" : "%ld", j->jobs);
	return buf;
}

const char *diff_fmt_ns(char *buf, __u64 ns)
{
	snprintf(buf, DIFF_FMT_BUF, "%.3f s", ns / 1e9);
	return buf;
}

const char *diff_fmt_ns_change(char *buf, __u64 old_ns, __u64 new_ns)
{
	struct diff_value v = { .old_v = old_ns / 1e9, .new_v = new_ns / 1e9, .known = true };
	char tail[24] = "";

	if (old_ns == new_ns) {
		snprintf(buf, DIFF_FMT_BUF, "=");
		return buf;
	}
	percent(tail, sizeof(tail), diff_value__percent(&v));
	snprintf(buf, DIFF_FMT_BUF, "%+.3f s%s", diff_value__change(&v), tail);
	return buf;
}
