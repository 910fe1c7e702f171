// SPDX-License-Identifier: GPL-2.0
/*
 * Lazy arrays: json-c prints one as it prints an ordinary array of the
 * same items, at every depth and with every flag the outputs use; the
 * streamed writer writes it so too; an item that cannot be made fails
 * the printing rather than shortening the list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "util/json_lazy.h"
#include "util/json_stream.h"
#include "util/json_write.h"

/* Item i: nested objects and arrays, a string with a newline and a slash, a ms figure. */
static struct json_object *make_item(size_t i, const void *ctx)
{
	struct json_object *o = json_object_new_object(), *inner = json_object_new_object(),
			   *arr = json_object_new_array();
	int err;

	(void)ctx;
	err = json_append(arr, json_object_new_int64((__s64)i)) ?: json_append(arr, json_new_str("a/b\nc")) ?:
	      json_put_ms(inner, "at_ms", 1234567 * (i + 1)) ?: json_put(inner, "list", arr) ?:
	      json_put(inner, "empty", json_object_new_array()) ?: json_put_str(o, "name", "cc1 \"x\"") ?:
	      json_put(o, "inner", inner) ?: json_put_bool(o, "ok", i % 2) ?: json_put_null(o, "none");
	return json_done(o, err);
}

/* Items that run out after the first. */
static struct json_object *make_one_then_fail(size_t i, const void *ctx)
{
	(void)ctx;
	return i ? NULL : json_object_new_int(7);
}

/* {"a": 1, "list": ARR, "deeper": {"list": ARR2}}: the arrays lazy or ordinary, of n items. */
static struct json_object *document(size_t n, bool lazy)
{
	struct json_object *o = json_object_new_object(), *deeper = json_object_new_object(), *a, *b;
	size_t i;
	int err = 0;

	if (lazy) {
		a = json_lazy_array(n, make_item, &n, sizeof(n));
		b = json_lazy_array(n, make_item, &n, sizeof(n));
	} else {
		a = json_object_new_array();
		b = json_object_new_array();
		for (i = 0; !err && i < n; i++)
			err = json_append(a, make_item(i, NULL)) ?: json_append(b, make_item(i, NULL));
	}
	err = err ?: json_put_int(o, "a", 1) ?: json_put(o, "list", a) ?: json_put(deeper, "list", b) ?:
		      json_put(o, "deeper", deeper);
	o = json_done(o, err);
	cr_assert_not_null(o);
	return o;
}

static const int flags[] = {
	JSON_C_TO_STRING_PLAIN,
	JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
	JSON_C_TO_STRING_SPACED,
	JSON_C_TO_STRING_PRETTY,
	JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE,
	JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_PRETTY_TAB,
};

Test(json_lazy, json_c_prints_it_as_the_same_array_made_whole)
{
	static const size_t sizes[] = { 0, 1, 2, 5 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			struct json_object *whole = document(sizes[s], false), *lazy = document(sizes[s], true);
			const char *want = json_object_to_json_string_ext(whole, flags[f]);
			const char *got = json_object_to_json_string_ext(lazy, flags[f]);

			cr_assert_not_null(want);
			cr_assert_not_null(got);
			cr_assert(eq(str, (char *)got, (char *)want), "%zu items, flags %#x", sizes[s], flags[f]);
			json_object_put(whole);
			json_object_put(lazy);
		}
}

/* What the stream wrote of doc: plain, or pretty (json_stream__pretty()). */
static char *streamed(struct json_object *doc, bool pretty, int *err)
{
	int fd = memfd_create("json", MFD_CLOEXEC);
	struct json_stream *js;
	char *text;
	off_t end;

	cr_assert(ge(int, fd, 0));
	js = json_stream__new(fd);
	cr_assert_not_null(js);
	if (pretty)
		json_stream__pretty(js, doc);
	else
		json_stream__value(js, doc);
	*err = json_stream__flush(js);
	json_stream__free(js);
	end = lseek(fd, 0, SEEK_END);
	text = calloc(1, (size_t)end + 1);
	cr_assert_not_null(text);
	cr_assert(eq(sz, (size_t)pread(fd, text, (size_t)end, 0), (size_t)end));
	close(fd);
	return text;
}

Test(json_lazy, the_stream_writes_it_as_json_c_prints_it_plain_and_pretty)
{
	static const int as[] = { JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
				  JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE };

	for (size_t n = 0; n < 4; n++)
		for (size_t f = 0; f < 2; f++) {
			struct json_object *whole = document(n, false), *lazy = document(n, true);
			char *text;
			int err;

			text = streamed(lazy, f == 1, &err);
			cr_assert(eq(int, err, 0));
			cr_assert(eq(str, text, (char *)json_object_to_json_string_ext(whole, as[f])), "%zu items, %s", n,
				  f ? "pretty" : "plain");
			free(text);
			json_object_put(whole);
			json_object_put(lazy);
		}
}

Test(json_lazy, an_item_not_made_fails_the_print)
{
	struct json_object *o = json_object_new_object();
	char *text;
	int err;

	cr_assert(eq(int, json_put(o, "list", json_lazy_array(3, make_one_then_fail, NULL, 0)), 0));
	cr_assert_null(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
	text = streamed(o, false, &err);
	cr_assert(eq(int, err, -ENOMEM));
	free(text);
	json_object_put(o);
}

Test(json_lazy, only_lazy_arrays_are_known_as_such)
{
	struct json_object *lazy = json_lazy_array(2, make_item, NULL, 0), *plain = json_object_new_array(),
			   *empty = json_lazy_array(0, make_item, NULL, 0), *num = json_object_new_double_s(1.5, "1.5");

	cr_assert_not_null(json_lazy__of(lazy));
	cr_assert(eq(sz, json_lazy__of(lazy)->n, 2));
	cr_assert_null(json_lazy__of(plain));
	cr_assert_null(json_lazy__of(empty)); /* an ordinary empty array */
	cr_assert_null(json_lazy__of(num));
	json_object_put(lazy);
	json_object_put(plain);
	json_object_put(empty);
	json_object_put(num);
}

/* The int the context holds, plus i. */
static struct json_object *make_offset(size_t i, const void *ctx)
{
	return json_object_new_int64(*(const __s64 *)ctx + (__s64)i);
}

Test(json_lazy, the_context_is_the_arrays_own_copy)
{
	__s64 base = 40;
	struct json_object *arr = json_lazy_array(2, make_offset, &base, sizeof(base));

	base = 0; /* a caller's local, gone or changed by the time the array is printed */
	cr_assert(eq(str, (char *)json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PLAIN), "[40,41]"));
	json_object_put(arr);
}
