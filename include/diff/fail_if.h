/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CI gate: `--fail-if 'wall>+10%'`.  A condition compares the change
 * of one figure, old -> new, with a limit:
 *
 *   COND   := FIGURE OP LIMIT
 *   FIGURE := wall | cpu | utilisation | parallelism | peak | lost | processes
 *           | lost_events | race | program:NAME.cpu | program:NAME.procs
 *   OP     := > | <
 *   LIMIT  := [+|-]NUMBER[%|s|ms]
 *
 * "%" is the change relative to the old value; a bare NUMBER (or one with
 * s or ms, for the figures in seconds) the change in the figure's unit.
 * "wall>+10%" holds when the new build's wall time is more than 10 % above
 * the old one's; "cpu<-2s" when the CPU time fell by more than 2 s.  A
 * program one build did not run has 0 there (from 0, any growth is +inf %).
 * "race" counts the new build's races that the old one did not have
 * (diff/diff_races.h), from 0: "race>0" holds when the new build has one.
 * Pure.
 */
#ifndef BUILDBPF_FAIL_IF_H
#define BUILDBPF_FAIL_IF_H

#include <stdbool.h>
#include <stddef.h>
#include "diff/diff.h"

#define FAIL_IF_PROGRAM_MAX 64 /* bytes of a program name */

enum fail_if_figure {
	FAIL_IF_METRIC,	       /* a build-wide figure: metric */
	FAIL_IF_PROGRAM_CPU,   /* program's CPU time, s */
	FAIL_IF_PROGRAM_PROCS, /* program's process count */
	FAIL_IF_NEW_RACES,     /* races new in the second build, a count from 0 */
};

struct fail_if {
	const char *text; /* as given */
	enum fail_if_figure figure;
	enum diff_metric metric;
	char program[FAIL_IF_PROGRAM_MAX];
	char op;	/* '>' or '<' */
	double limit;	/* percent when relative, else in the figure's unit */
	bool relative;
};

/*
 * Parses text into c (which keeps a pointer to text).  0, or -EINVAL with
 * a one-line reason (no "buildbpf:" prefix, no newline) in err.
 */
int fail_if__parse(struct fail_if *c, const char *text, char *err, size_t err_size);
/* The unit of the condition's figure, as diff_metric__unit() gives it. */
const char *fail_if__unit(const struct fail_if *c);
/* Why the condition's figure can be missing from a recording: the hint after -ENODATA. */
const char *fail_if__unrecorded_why(const struct fail_if *c);
/*
 * 1 when the condition holds (the gate fails), 0 when not, -ENODATA when
 * the figure was not recorded in a build (parallelism at --sched=off).
 * *v gets the figure's old and new values.
 */
int fail_if__eval(const struct fail_if *c, const struct diff *d, struct diff_value *v);

#endif /* BUILDBPF_FAIL_IF_H */
