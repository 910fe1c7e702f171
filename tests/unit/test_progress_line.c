// SPDX-License-Identifier: GPL-2.0
/* The progress line of the long offline commands, from its figures. */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "report/progress_line.h"

static const char *line(const struct progress_figures *f)
{
	static char buf[256];

	progress_line__format(buf, sizeof(buf), f);
	return buf;
}

Test(progress_line, reading_says_the_share_of_the_log_and_the_records)
{
	struct progress_figures f = { .step = "reading", .names = "b.bbl", .counting = true,
				      .done_bytes = 41, .total_bytes = 100, .records = 2100000 };

	cr_assert(eq(str, (char *)line(&f), "buildbpf: reading b.bbl: 41 % (2.1 M records)"));
	f.records = 41234;
	cr_assert(eq(str, (char *)line(&f), "buildbpf: reading b.bbl: 41 % (41.2 k records)"));
	f.records = 1;
	f.done_bytes = 0;
	cr_assert(eq(str, (char *)line(&f), "buildbpf: reading b.bbl: 0 % (1 record)"));
}

/* A log that grew after its size was taken is read to 100 %, no further; no size, no percentage. */
Test(progress_line, the_share_stops_at_100_and_needs_a_size)
{
	struct progress_figures f = { .step = "reading", .names = "a.bbl, b.bbl", .counting = true,
				      .done_bytes = 150, .total_bytes = 100, .records = 999 };

	cr_assert(eq(str, (char *)line(&f), "buildbpf: reading a.bbl, b.bbl: 100 % (999 records)"));
	f.total_bytes = 0;
	cr_assert(eq(str, (char *)line(&f), "buildbpf: reading a.bbl, b.bbl: (999 records)"));
}

Test(progress_line, a_later_step_is_named_without_figures)
{
	struct progress_figures f = { .step = "analysing", .names = "b.bbl", .records = 5 };

	cr_assert(eq(str, (char *)line(&f), "buildbpf: analysing b.bbl"));
}

/* The name is the user's: a control byte in it cannot move the terminal's cursor; a small buffer cuts the line. */
Test(progress_line, a_name_is_escaped_and_the_line_fits)
{
	struct progress_figures f = { .step = "analysing", .names = "a\rb.bbl" };
	char small[12];

	cr_assert(eq(ptr, strchr(line(&f), '\r'), NULL), "%s", line(&f));
	cr_assert(eq(sz, progress_line__format(small, sizeof(small), &f), sizeof(small) - 1));
	cr_assert(eq(str, small, "buildbpf: a"));
}
