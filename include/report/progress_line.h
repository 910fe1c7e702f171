/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The line a long offline command (convert, report, diff) keeps rewriting on
 * a terminal while it works: "buildbpf: reading b.bbl: 41 % (2.1 M records)",
 * then "buildbpf: analysing b.bbl".  Pure: the figures in, the text out;
 * when and where it is shown is the caller's (main/progress.c).
 */
#ifndef BUILDBPF_REPORT_PROGRESS_LINE_H
#define BUILDBPF_REPORT_PROGRESS_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct progress_figures {
	const char *step;     /* "reading", "analysing", "writing the trace" */
	const char *names;    /* the recordings, as the user named them ("a.bbl, b.bbl") */
	bool counting;	      /* the step reads the logs: their figures follow */
	__u64 done_bytes, total_bytes; /* of the logs; total 0: no percentage */
	__u64 records;	      /* read so far */
};

/* The line into buf (no \r, no newline; cut to size, control bytes escaped).  Its length. */
size_t progress_line__format(char *buf, size_t size, const struct progress_figures *f);

#endif /* BUILDBPF_REPORT_PROGRESS_LINE_H */
