// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writing helpers: what each put writes, that a failed put or a
 * NULL object still frees the value (the ASan run checks for leaks), and
 * how a chain ends.
 */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "util/json_write.h"
#include "lib/source_file.h"

#define PLAIN (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static void assert_text(struct json_object *obj, const char *expected)
{
	cr_assert_not_null(obj);
	cr_assert(eq(str, (char *)json_object_to_json_string_ext(obj, PLAIN), (char *)expected));
}

Test(json_write, typed_puts_in_order)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_int(o, "i", -3) ?:
	      json_put_uint(o, "u", 18446744073709551615ull) ?:
	      json_put_double(o, "d", 0.5) ?:
	      json_put_bool(o, "b", true) ?:
	      json_put_str(o, "s", "a/\"b\"") ?:
	      json_put_str(o, "c", "x\xff") ?:
	      json_put_ms(o, "ms", 1234567) ?:
	      json_put_null(o, "n") ?:
	      json_put(o, "arr", json_object_new_array());
	cr_assert(eq(int, err, 0));
	assert_text(o, "{\"i\":-3,\"u\":18446744073709551615,\"d\":0.5,\"b\":true,\"s\":\"a/\\\"b\\\"\","
		       "\"c\":\"x\xef\xbf\xbd\",\"ms\":1.234,\"n\":null,\"arr\":[]}");
	json_object_put(o);
}

Test(json_write, ms_keeps_microseconds_and_drops_binary_noise)
{
	struct json_object *v = json_new_ms(100000);

	assert_text(v, "0.100");
	json_object_put(v);
	v = json_new_ms(3000999999ull);
	assert_text(v, "3000.999");
	json_object_put(v);
	v = json_new_ms(0);
	assert_text(v, "0.000");
	json_object_put(v);
	v = json_new_ms(18446744073709551615ull);
	assert_text(v, "18446744073709.551");
	json_object_put(v);
}

Test(json_write, null_object_or_value_is_enomem_and_frees_the_value)
{
	struct json_object *o = json_object_new_object();

	cr_assert(eq(int, json_put(NULL, "k", json_object_new_string("leaks unless freed")), -ENOMEM));
	cr_assert(eq(int, json_put(o, "k", NULL), -ENOMEM));
	cr_assert(eq(int, json_replace(NULL, "k", json_object_new_int(1)), -ENOMEM));
	cr_assert(eq(int, json_append(NULL, json_object_new_int(1)), -ENOMEM));
	cr_assert(eq(int, json_put_int(NULL, "k", 1), -ENOMEM));
	cr_assert(eq(int, json_put_null(NULL, "k"), -ENOMEM));
	assert_text(o, "{}");
	json_object_put(o);
}

Test(json_write, replace_copies_the_key_and_replaces)
{
	struct json_object *o = json_object_new_object();
	char key[8] = "tid";

	cr_assert(eq(int, json_replace(o, key, json_object_new_int(1)), 0));
	strcpy(key, "zzz");
	cr_assert(eq(int, json_replace(o, "tid", json_object_new_int(2)), 0));
	assert_text(o, "{\"tid\":2}");
	json_object_put(o);
}

Test(json_write, done_returns_the_object_or_frees_it)
{
	struct json_object *arr = json_object_new_array();

	cr_assert(eq(int, json_append(arr, json_object_new_int(7)), 0));
	arr = json_done(arr, 0);
	assert_text(arr, "[7]");
	cr_assert(eq(ptr, json_done(arr, -ENOMEM), NULL));
}

/*
 * One sanitiser for every string of every JSON output: no writer makes a
 * json-c string but through json_write.h, and only the event log's
 * writer keeps raw bytes.
 */
Test(json_write, every_string_a_writer_makes_goes_through_the_sanitiser)
{
	glob_t g;
	size_t i, files = 0;

	cr_assert(eq(int, glob("user/*/*.c", 0, NULL, &g), 0));
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		char *src = bb_read_source(path);

		if (strcmp(path, "user/util/json_write.c"))
			cr_assert(eq(ptr, strstr(src, "json_object_new_string"), NULL),
				  "%s makes a json-c string itself: use json_new_str() or json_put_str()", path);
		if (strcmp(path, "user/util/json_write.c") && strcmp(path, "user/log/event_log_write.c"))
			cr_assert(eq(ptr, strstr(src, "json_put_bytes"), NULL), "%s puts raw bytes in an output", path);
		free(src);
		files++;
	}
	globfree(&g);
	cr_assert(ge(sz, files, 100), "only %zu sources under user/", files);
}
