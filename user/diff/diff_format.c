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

static bool is_whole(double v, const char *unit)
{
	return !*unit && fabs(v) < 1e15 && v == (double)(long long)v;
}

/* v with that many decimals; what rounds to zero is "0.00", never "-0.00". */
static const char *number(char *buf, double v, int decimals, const char *unit, bool sign)
{
	const char *space = *unit ? " " : "";

	if (fabs(v) < 0.5 * pow(10, -decimals))
		v = 0;
	snprintf(buf, DIFF_FMT_BUF, sign ? "%+.*f%s%s" : "%.*f%s%s", decimals, v, space, unit);
	return buf;
}

/* Counts, whole; times and ratios with two decimals. */
const char *diff_fmt_value(char *buf, double v, const char *unit)
{
	return number(buf, v, is_whole(v, unit) ? 0 : 2, unit, false);
}

const char *diff_fmt_metric(char *buf, enum diff_metric k, double v)
{
	/* Their 0 is "nothing went wrong": a word, not a noisy "0.00 s". */
	if (v == 0 && (k == DIFF_LOST || k == DIFF_LOST_EVENTS)) {
		snprintf(buf, DIFF_FMT_BUF, "none");
		return buf;
	}
	return diff_fmt_value(buf, v, diff_metric__unit(k));
}

/* " (+12 %)"; nothing when it would show as 0.0 % (1 process more of 6059). */
static void percent(char *buf, size_t size, double pct)
{
	if (fabs(pct) >= 10)
		snprintf(buf, size, " (%+.0f %%)", pct);
	else if (fabs(pct) >= 0.05)
		snprintf(buf, size, " (%+.1f %%)", pct);
}

/*
 * old -> new compared as the report shows them, at decimals: what differs
 * below that is "=" (never "+0.00 s"), and the change is the difference
 * of the shown values (1.32 -> 1.65 is +0.33).  No percentage of what
 * shows as 0: the old column already says the figure started from none.
 */
static const char *change(char *buf, const struct diff_value *v, int decimals, const char *change_unit,
			  bool with_percent)
{
	double step = pow(10, -decimals), old_steps = round(v->old_v / step), new_steps = round(v->new_v / step);
	char tail[24] = "";

	if (old_steps == new_steps) {
		snprintf(buf, DIFF_FMT_BUF, "=");
		return buf;
	}
	if (with_percent && old_steps != 0)
		percent(tail, sizeof(tail), diff_value__percent(v));
	number(buf, (new_steps - old_steps) * step, decimals, change_unit, true);
	strncat(buf, tail, DIFF_FMT_BUF - strlen(buf) - 1);
	return buf;
}

const char *diff_fmt_change(char *buf, const struct diff_value *v, const char *unit)
{
	/* A change in a percentage is in points, not a percent of it. */
	bool is_percent = !strcmp(unit, "%");

	return change(buf, v, is_whole(v->old_v, unit) && is_whole(v->new_v, unit) ? 0 : 2, is_percent ? "pt" : unit,
		      !is_percent);
}

const char *diff_fmt_jobs(char *buf, const struct tool_jobs *j)
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
	return number(buf, ns / 1e9, 3, "s", false);
}

const char *diff_fmt_ns_change(char *buf, __u64 old_ns, __u64 new_ns)
{
	const struct diff_value v = { .old_v = old_ns / 1e9, .new_v = new_ns / 1e9, .known = true };

	return change(buf, &v, 3, "s", true);
}
