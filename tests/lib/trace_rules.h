/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checker of docs/trace-rules.md: what a Chrome trace must keep to
 * render right in real viewers.  The exporter's unit tests run it on every
 * synthetic trace and bb_load_trace() on every trace the integration suites
 * make buildbpf write.  A broken rule fails the test with the rule's number.
 */
#ifndef BUILDBPF_TESTS_TRACE_RULES_H
#define BUILDBPF_TESTS_TRACE_RULES_H

#include <stddef.h>
#include <json-c/json.h>

/* Rule 1 on the file as written: one JSON text and a newline, valid UTF-8, no control bytes, no NUL. */
void check_trace_text(const char *text, size_t len);
/* Parses the text of a trace strictly (UTF-8 validated); the test fails on any error or trailing byte. */
struct json_object *parse_trace_text(const char *text, size_t len);
/* Every rule on the parsed trace: event fields, named tracks, nesting, flows. */
void check_trace_rules(struct json_object *trace);

#endif /* BUILDBPF_TESTS_TRACE_RULES_H */
