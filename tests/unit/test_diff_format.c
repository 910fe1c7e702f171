// SPDX-License-Identifier: GPL-2.0
/* buildbpf diff: the rows a person reads, as the text and Markdown reports write them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "diff/diff_format.h"
#include "diff/diff_report.h"
#include "diff/fail_if.h"
#include "model/parallelism.h"
#include "lib/synth_build.h"

static void expect_change(double old_v, double new_v, const char *unit, const char *want)
{
	const struct diff_value v = { .old_v = old_v, .new_v = new_v, .known = true };
	char buf[DIFF_FMT_BUF];

	cr_assert(eq(str, (char *)diff_fmt_change(buf, &v, unit), (char *)want), "%g -> %g %s", old_v, new_v, unit);
}

static void expect_ns_change(__u64 old_ns, __u64 new_ns, const char *want)
{
	char buf[DIFF_FMT_BUF];

	cr_assert(eq(str, (char *)diff_fmt_ns_change(buf, old_ns, new_ns), (char *)want), "%llu -> %llu ns",
		  (unsigned long long)old_ns, (unsigned long long)new_ns);
}

/* A change is what the shown values differ by: never "+0.00", no percentage of 0. */
Test(diff_format, a_change_is_of_the_values_as_shown)
{
	expect_change(0, 0.004, "s", "=");	       /* both show 0.00 s: was "+0.00 s (from 0)" */
	expect_change(0.001, 0.004, "s", "=");
	expect_change(0, 0.49, "s", "+0.49 s");	       /* from 0: no percentage */
	expect_change(0.004, 0.49, "s", "+0.49 s");    /* from what shows as 0: none either */
	expect_change(0.49, 0, "s", "-0.49 s (-100 %)");
	expect_change(0.016, 0.014, "s", "-0.01 s (-12 %)"); /* 0.02 -> 0.01, never "-0.00 s" */
	expect_change(1.32, 1.65, "", "+0.33 (+25 %)"); /* the shown difference, not 0.32 */
	expect_change(6059, 6060, "", "+1");	       /* +0.02 %: no "(+0.0 %)" */
	expect_change(0, 3, "", "+3");
	expect_change(2, 2, "", "=");
	expect_change(22.04, 24.57, "%", "+2.53 pt");
	expect_change(22.041, 22.044, "%", "=");
	expect_change(64.86, 44.41, "s", "-20.45 s (-32 %)");
	expect_ns_change(100000, 400000, "=");	       /* 0.1 ms -> 0.4 ms: both 0.000 s */
	expect_ns_change(0, 514000000, "+0.514 s");
	expect_ns_change(31000000, 514000000, "+0.483 s (+1558 %)");
	expect_ns_change(514000000, 0, "-0.514 s (-100 %)");
}

/* A change as a person reads it: "=", or a non-zero number, no percentage of 0 or of nothing. */
static void expect_readable_change(const char *s, double old_v, double new_v, const char *unit)
{
	static const char *const bad[] = { "inf", "nan", "from", "(+0.0 %", "(-0.0 %", "(+0 %", "(-0 %" };
	size_t b;

	if (strcmp(s, "="))
		cr_assert(not(eq(dbl, strtod(s, NULL), 0)), "%g -> %g %s: '%s'", old_v, new_v, unit, s);
	for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
		cr_assert(eq(ptr, strstr(s, bad[b]), NULL), "%g -> %g %s: '%s'", old_v, new_v, unit, s);
}

/* Every pair of a grid of small, zero and ordinary values: none of the shapes a person misreads. */
Test(diff_format, no_row_says_plus_zero_minus_zero_or_infinity)
{
	static const double values[] = { 0, 0.0004, 0.004, 0.005, 0.006, 0.0149, 0.0151, 0.5, 1, 1.001, 2, 100 };
	static const char *const units[] = { "s", "%", "" };
	char buf[DIFF_FMT_BUF];
	size_t i, j, u, rows = 0;

	for (u = 0; u < 3; u++)
		for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			/* A value that shows as 0 shows without a sign. */
			diff_fmt_value(buf, -values[i], units[u]);
			if (strtod(buf, NULL) == 0)
				cr_assert(not(eq(chr, buf[0], '-')), "-%g %s: '%s'", values[i], units[u], buf);
			for (j = 0; j < sizeof(values) / sizeof(values[0]); j++) {
				const struct diff_value v = { .old_v = values[i], .new_v = values[j], .known = true };

				expect_readable_change(diff_fmt_change(buf, &v, units[u]), values[i], values[j], units[u]);
				diff_fmt_ns_change(buf, (__u64)(values[i] * 1e9), (__u64)(values[j] * 1e9));
				expect_readable_change(buf, values[i], values[j], "s (ns)");
				rows++;
			}
		}
	cr_assert(eq(sz, rows, 3 * 12 * 12));
}

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void small_build(struct synth_build *b, __u32 base)
{
	synth_build__start(b, base, "/w");
	synth_build__proc(b, base + 1, base, "/usr/bin/cc", ARGV("cc", "-c", "a.c"), 10, 300, 250);
	synth_build__finish(b, 320);
}

static char *text_of(const struct diff *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	cr_assert_not_null(mem);
	diff_report__text(mem, d);
	cr_assert(eq(int, fclose(mem), 0));
	return text;
}

/* The report's line that starts with label (after the indent), up to its end. */
static char *line_of(char *text, const char *label)
{
	char *at = strstr(text, label), *end;

	cr_assert(not(eq(ptr, at, NULL)), "no '%s' in:\n%s", label, text);
	cr_assert(eq(chr, at[-1], ' '), "%s", text);
	end = strchr(at, '\n');
	if (end)
		*end = '\0';
	return at;
}

/* "lost" alone reads as lost events: the row says lost parallelism, the kernel's drops have their own, 0 is "none". */
Test(diff_report, lost_rows_say_what_was_lost_and_none_for_zero)
{
	static struct parallelism par = { .peak_running = 1 };
	struct synth_build o, n;
	struct diff_value v;
	struct fail_if c;
	struct diff d;
	char *text, *line, err[128];

	small_build(&o, 100);
	small_build(&n, 200);
	o.a.sched = n.a.sched = SCHED_SUMMARY; /* lost parallelism is a scheduler figure */
	o.a.par = n.a.par = &par;
	o.a.lost_ns = n.a.lost_ns = 0;
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	text = text_of(&d);
	cr_assert(eq(ptr, strstr(text, "  lost  "), NULL), "%s", text);
	line = line_of(text, "lost parallelism");
	cr_assert(not(eq(ptr, strstr(line, " none "), NULL)), "%s", line);
	cr_assert(not(eq(ptr, strstr(strstr(line, " none ") + 1, " none "), NULL)), "%s", line);
	cr_assert(eq(str, line + strlen(line) - 2, " ="), "%s", line);
	cr_assert(eq(ptr, strstr(line, "0.00"), NULL), "%s", line);
	free(text);
	diff__free(&d);

	/* Some lost: its seconds, and the kernel's drops as a count, "none" where 0. */
	n.a.lost_ns = 490 * SB_MS;
	n.a.lost_events = 3;
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	text = text_of(&d);
	line = line_of(text, "lost parallelism");
	cr_assert(not(eq(ptr, strstr(line, " none "), NULL)), "%s", line);
	cr_assert(not(eq(ptr, strstr(line, " 0.49 s +0.49 s"), NULL)), "%s", line);
	cr_assert(eq(ptr, strstr(line, "%"), NULL), "%s", line);
	free(text);
	text = text_of(&d); /* line_of() cut the text at the line's end */
	line = line_of(text, "events the kernel dropped");
	cr_assert(not(eq(ptr, strstr(line, " none "), NULL)), "%s", line);
	cr_assert(not(eq(ptr, strstr(line, " 3 +3"), NULL)), "%s", line);
	free(text);
	/* The gate knows the drops by their own name. */
	cr_assert(eq(int, fail_if__parse(&c, "lost_events>0", err, sizeof(err)), 0), "%s", err);
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 1));
	cr_assert(eq(dbl, v.new_v, 3));
	cr_assert(eq(int, fail_if__parse(&c, "lost>+0.5s", err, sizeof(err)), 0), "%s", err);
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0)); /* +0.49 s */
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}
