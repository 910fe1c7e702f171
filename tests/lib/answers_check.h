/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the audit's text as a person does, to check that its short
 * answers agree with the figures printed below them (issue 39): every
 * what-if row an answer quotes is the row the what-if prints, every gain
 * is those two figures' gain, and every verdict ("more jobs", "neither",
 * "no single step stands out") is what the rows and the critical steps'
 * "without it" figures give by the 10 % rule.  Pure text in, a reason out:
 * the unit tests run it on synthetic builds, the real-build suites on
 * their reports.
 */
#ifndef BUILDBPF_TESTS_ANSWERS_CHECK_H
#define BUILDBPF_TESTS_ANSWERS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The logical line that starts with "buildbpf: " + lead, its wrapped
 * continuations ("buildbpf:   ...") joined with one space; NULL when the
 * report has none.  The caller frees it.
 */
char *bb_answer_line(const char *report, const char *lead);
/*
 * Whether the answers of a -v report (answers, then the what-if's rows
 * and critical steps) agree with its what-if; false with why[] filled.
 * A report without a what-if agrees when no answer quotes a model, and
 * the order's share "more CPUs or jobs?" gives is -v's idle CPUs' share.
 */
bool bb_answers_agree(const char *report_v, char *why, size_t len);
/* Fills why[] (len bytes) from fmt; returns false, for "return bb_fail_why(...)". */
bool bb_fail_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * Whether a default report is brief: from its "traced" line (or, in an
 * audit alone, its "audit:" line) to its last answer, at most max_lines
 * lines of at most width columns, with the command's exit status and the
 * events lost among them, followed (rest_line) by the one line saying
 * where the rest is; false with why[] filled.
 */
bool bb_report_is_brief(const char *report, size_t max_lines, size_t width, bool rest_line, char *why, size_t len);

#endif /* BUILDBPF_TESTS_ANSWERS_CHECK_H */
