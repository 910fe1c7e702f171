/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The short answers of a --summary-json (answers.brief) against the
 * what-if rows and the critical steps' "wall without it" of the same
 * summary (issue 39: no short answer contradicted by a figure printed with
 * it).  Figures, not text: each rule weighs the rows as the what-if gives
 * them, then reads only the verdict's words.  Pure: the unit tests run it
 * on crafted summaries, bb_check_summary() on every summary the
 * integration and real-build suites record.
 */
#ifndef BUILDBPF_TESTS_ANSWERS_JSON_CHECK_H
#define BUILDBPF_TESTS_ANSWERS_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

/* Whether summary's answers agree with its what-if; false with why[] filled. */
bool bb_summary_answers_agree(struct json_object *summary, char *why, size_t len);

#endif /* BUILDBPF_TESTS_ANSWERS_JSON_CHECK_H */
