/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the members of a parsed JSON object in a test: the unit and
 * integration suites and the trace-rules checker read traces the same way.
 * The int_/str_ readers fail the test when the member is missing or of
 * another type; the others answer NULL or false.
 */
#ifndef BUILDBPF_TESTS_JSON_FIELDS_H
#define BUILDBPF_TESTS_JSON_FIELDS_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

/* obj.key, or NULL when obj has no such member. */
struct json_object *field(struct json_object *obj, const char *key);
/* obj.key; the test fails if it is missing. */
struct json_object *need_field(struct json_object *obj, const char *key);
/* obj.key, which must be an integer. */
long long int_field(struct json_object *obj, const char *key);
/* obj.key, which must be a string. */
const char *str_field(struct json_object *obj, const char *key);
/* obj.key, which must be a double (the writer's fractional numbers). */
double double_field(struct json_object *obj, const char *key);
bool has_int_field(struct json_object *obj, const char *key);
/* Whether obj.key is the string want. */
bool str_field_is(struct json_object *obj, const char *key, const char *want);
/* A trace's traceEvents, which must be an array. */
struct json_object *trace_events(struct json_object *trace);

#endif /* BUILDBPF_TESTS_JSON_FIELDS_H */
