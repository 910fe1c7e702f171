// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "json_fields.h"

struct json_object *field(struct json_object *obj, const char *key)
{
	struct json_object *val = NULL;

	if (!json_object_object_get_ex(obj, key, &val))
		return NULL;
	return val;
}

struct json_object *need_field(struct json_object *obj, const char *key)
{
	struct json_object *val = NULL;

	cr_assert(json_object_object_get_ex(obj, key, &val), "no key %s", key);
	return val;
}

long long int_field(struct json_object *obj, const char *key)
{
	struct json_object *val = need_field(obj, key);

	cr_assert(json_object_is_type(val, json_type_int), "%s is not an integer", key);
	return json_object_get_int64(val);
}

const char *str_field(struct json_object *obj, const char *key)
{
	struct json_object *val = need_field(obj, key);

	cr_assert(json_object_is_type(val, json_type_string), "%s is not a string", key);
	return json_object_get_string(val);
}

double double_field(struct json_object *obj, const char *key)
{
	struct json_object *val = need_field(obj, key);

	cr_assert(json_object_is_type(val, json_type_double), "%s is not a double", key);
	return json_object_get_double(val);
}

bool has_int_field(struct json_object *obj, const char *key)
{
	struct json_object *val = field(obj, key);

	return val && json_object_is_type(val, json_type_int);
}

bool str_field_is(struct json_object *obj, const char *key, const char *want)
{
	struct json_object *val = field(obj, key);

	return val && json_object_is_type(val, json_type_string) && !strcmp(json_object_get_string(val), want);
}

struct json_object *trace_events(struct json_object *trace)
{
	struct json_object *events = field(trace, "traceEvents");

	cr_assert(not(eq(ptr, events, NULL)), "the trace has no traceEvents");
	cr_assert(json_object_is_type(events, json_type_array), "traceEvents is not an array");
	return events;
}
