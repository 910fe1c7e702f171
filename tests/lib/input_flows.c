// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/input_flows.h"
#include "lib/json_fields.h"

/* The process slice that starts the flow end ev is bound to (same tid and ts). */
static struct json_object *slice_at(struct json_object *slices, struct json_object *ev)
{
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);

		if (json_object_get_int64(need_field(s, "tid")) == json_object_get_int64(need_field(ev, "tid")) &&
		    json_object_get_int64(need_field(s, "ts")) == json_object_get_int64(need_field(ev, "ts")))
			return s;
	}
	return NULL;
}

static bool is_input_event(struct json_object *ev, const char *ph)
{
	struct json_object *v;

	return json_object_object_get_ex(ev, "name", &v) && !strcmp(json_object_get_string(v), "input") &&
	       !strcmp(json_object_get_string(need_field(ev, "ph")), ph);
}

size_t bb_input_flows(struct json_object *trace, struct json_object *slices, struct bb_flow *out, size_t max)
{
	struct json_object *events = need_field(trace, "traceEvents");
	size_t i, j, n = 0;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *s = json_object_array_get_idx(events, i);

		if (!is_input_event(s, "s"))
			continue;
		for (j = 0; j < json_object_array_length(events); j++) {
			struct json_object *f = json_object_array_get_idx(events, j);

			if (!is_input_event(f, "f") ||
			    json_object_get_int64(need_field(f, "id")) != json_object_get_int64(need_field(s, "id")))
				continue;
			cr_assert(lt(sz, n, max));
			out[n].file = json_object_get_string(need_field(need_field(s, "args"), "file"));
			out[n].writer = slice_at(slices, s);
			out[n].reader = slice_at(slices, f);
			cr_assert(out[n].writer && out[n].reader, "flow %s binds to no slice", out[n].file);
			n++;
		}
	}
	return n;
}

bool bb_flow_file_is(const char *file, const char *path)
{
	static const char cut[] = "\xe2\x80\xa6"; /* "…" */
	size_t n, m = strlen(path);

	if (!strncmp(file, cut, sizeof(cut) - 1))
		file += sizeof(cut) - 1;
	n = strlen(file);
	return file[0] == '/' && n <= m && !strcmp(path + m - n, file);
}
