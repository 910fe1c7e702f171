// SPDX-License-Identifier: GPL-2.0
/* A long command's progress line, as a person reads it (include/report/progress_line.h). */
#include <stdio.h>
#include <string.h>
#include "report/progress_line.h"
#include "util/term_escape.h"

/* A count as the line spells it: 812, 41.2 k, 2.1 M. */
static void spell_count(char *buf, size_t size, __u64 n)
{
	if (n < 1000)
		snprintf(buf, size, "%llu", (unsigned long long)n);
	else if (n < 1000000)
		snprintf(buf, size, "%.1f k", n / 1e3);
	else
		snprintf(buf, size, "%.1f M", n / 1e6);
}

size_t progress_line__format(char *buf, size_t size, const struct progress_figures *f)
{
	char esc[TERM_ESCAPE_BUF], count[32], percent[16] = "";
	int n;

	if (!size)
		return 0;
	term_escape(f->names, esc, sizeof(esc));
	if (!f->counting) {
		n = snprintf(buf, size, "buildbpf: %s %s", f->step, esc);
	} else {
		/* A log read to its end says 100 %, never more (it may have grown since its size was taken). */
		if (f->total_bytes)
			snprintf(percent, sizeof(percent), "%llu %% ",
				 (unsigned long long)(f->done_bytes >= f->total_bytes ? 100 :
						      f->done_bytes * 100 / f->total_bytes));
		spell_count(count, sizeof(count), f->records);
		n = snprintf(buf, size, "buildbpf: %s %s: %s(%s record%s)", f->step, esc, percent, count,
			     f->records == 1 ? "" : "s");
	}
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
