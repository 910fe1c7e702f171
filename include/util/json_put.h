/* SPDX-License-Identifier: GPL-2.0 */
/* json-c helpers shared by the JSON writers. */
#ifndef BUILDBPF_JSON_PUT_H
#define BUILDBPF_JSON_PUT_H

#include <errno.h>
#include <stdio.h>
#include <linux/types.h>
#include <json-c/json.h>

/* obj[key] = val, taking ownership of val also when it fails (val NULL: out
 * of memory before).  0 or -ENOMEM. */
static inline int json_put(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add(obj, key, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

/* Nanoseconds as milliseconds with microsecond precision, printed as such
 * rather than with %.17g digits of binary noise. */
static inline struct json_object *json_new_ms(__u64 ns)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu.%03llu", (unsigned long long)(ns / 1000000),
		 (unsigned long long)(ns / 1000 % 1000));
	return json_object_new_double_s((double)(ns / 1000) / 1000.0, text);
}

#endif /* BUILDBPF_JSON_PUT_H */
