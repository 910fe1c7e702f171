// SPDX-License-Identifier: GPL-2.0
/*
 * The streamed JSON writer: its one escaper writes what the sanitiser and
 * json-c together write of the same bytes (so the trace stays as it was
 * when its events were json-c objects), over its chunk and buffer
 * boundaries too; numbers and trees as json-c prints them; the first
 * error sticks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "util/json_stream.h"
#include "util/json_write.h"

#define PLAIN (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static int fd;
static struct json_stream *js;

static void open_stream(void)
{
	fd = memfd_create("json", MFD_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	js = json_stream__new(fd);
	cr_assert_not_null(js);
}

static void close_stream(void)
{
	json_stream__free(js);
	close(fd);
}

/* Everything written so far (flushed), malloc'd and NUL-terminated; *len its length. */
static char *written(size_t *len)
{
	off_t end;
	char *text;

	cr_assert(eq(int, json_stream__flush(js), 0));
	end = lseek(fd, 0, SEEK_END);
	text = calloc(1, (size_t)end + 1);
	cr_assert_not_null(text);
	cr_assert(eq(sz, (size_t)pread(fd, text, (size_t)end, 0), (size_t)end));
	cr_assert(eq(int, ftruncate(fd, 0), 0));
	cr_assert(eq(long, (long)lseek(fd, 0, SEEK_SET), 0L));
	*len = (size_t)end;
	return text;
}

/* raw as the stream writes it, against json-c's print of the sanitiser's string. */
static void assert_like_json_c(const char *raw, size_t len)
{
	struct json_object *str = json_new_clean_string(raw, len);
	const char *want;
	size_t got_len;
	char *got;

	cr_assert_not_null(str);
	want = json_object_to_json_string_ext(str, PLAIN);
	json_stream__str(js, raw, len);
	got = written(&got_len);
	cr_assert(eq(sz, got_len, strlen(want)), "%zu bytes in: %zu written, json-c %zu", len, got_len, strlen(want));
	cr_assert(eq(int, memcmp(got, want, got_len), 0), "%zu bytes in: the stream and json-c differ", len);
	free(got);
	json_object_put(str);
}

Test(json_stream, hostile_bytes_as_the_sanitiser_and_json_c_write_them, .init = open_stream, .fini = close_stream)
{
	static const struct {
		const char *raw;
		size_t len;
	} cases[] = {
		{ "", 0 },
		{ "plain/path.c", 12 },
		{ "q\"b\\s/", 6 },
		{ "\b\f\n\r\t\x01\x1f\x7f", 8 },
		{ "nul\0inside", 10 },
		{ "bad\xff.o", 6 },
		{ "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14 },
		{ "overlong \xc0\xaf and \xe0\x80\xaf", 17 },
		{ "surrogate \xed\xa0\x80", 13 },
		{ "above \xf4\x90\x80\x80", 10 },
		{ "cut \xe2\x82", 6 },
		{ "cut \xf0\x9f\x98", 7 },
		{ "\xe2\x80\xae rlo kept", 12 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_like_json_c(cases[i].raw, cases[i].len);
}

/* A string escaped in chunks: characters and escapes that straddle each chunk's end, and one past the buffer. */
Test(json_stream, long_strings_across_chunks_and_the_buffer, .init = open_stream, .fini = close_stream)
{
	static const char *pieces[] = { "a", "\xe2\x82\xac", "\n", "\xf0\x9f\x98\x80", "\xff", "\"", "\x01", "\xc3" };
	size_t sizes[] = { 1023, 1024, 1025, 4099, 70000, 300001 }, k, i, n;
	char *raw;

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		raw = malloc(sizes[k]);
		cr_assert_not_null(raw);
		for (i = 0, n = 0; n < sizes[k]; i++) {
			const char *p = pieces[(i * 7 + i / 3) % 8];
			size_t len = strlen(p) < sizes[k] - n ? strlen(p) : sizes[k] - n;

			memcpy(raw + n, p, len);
			n += len;
		}
		assert_like_json_c(raw, sizes[k]);
		free(raw);
	}
}

Test(json_stream, numbers_and_frame, .init = open_stream, .fini = close_stream)
{
	size_t len;
	char *got;

	json_stream__lit(js, "[");
	json_stream__int(js, INT64_MIN);
	json_stream__raw(js, ",", 1);
	json_stream__int(js, 0);
	json_stream__raw(js, ",", 1);
	json_stream__uint(js, UINT64_MAX);
	json_stream__raw(js, ",", 1);
	json_stream__ms(js, 3000999999ull);
	json_stream__raw(js, ",", 1);
	json_stream__bool(js, false);
	json_stream__lit(js, ",{");
	json_stream__key(js, "k", true);
	json_stream__int(js, -7);
	json_stream__key(js, "l", false);
	json_stream__cstr(js, "v");
	json_stream__lit(js, "}]");
	got = written(&len);
	cr_assert(eq(str, got, "[-9223372036854775808,0,18446744073709551615,3000.999,false,{\"k\":-7,\"l\":\"v\"}]"));
	free(got);
}

/* A tree (otherData, a merged trace's args) as json-c prints it, parsed numbers' text kept. */
Test(json_stream, trees_as_json_c_prints_them, .init = open_stream, .fini = close_stream)
{
	static const char text[] = "{\"a\":[1,-2,18446744073709551615,0.10,1e3,true,null,\"x/\\u0001\"],"
				   "\"o\":{\"\\\"k\":{}},\"e\":[],\"s\":\"\\u00e9\"}";
	struct json_object *tree = json_tokener_parse(text), *extra = json_object_new_object();
	size_t len;
	char *got;

	cr_assert_not_null(tree);
	cr_assert(eq(int, json_put_ms(extra, "ms", 1500) ?: json_put_double(extra, "d", 0.25) ?:
				  json_put(tree, "extra", extra),
		     0));
	json_stream__value(js, tree);
	got = written(&len);
	cr_assert(eq(str, got, (char *)json_object_to_json_string_ext(tree, PLAIN)));
	free(got);
	json_object_put(tree);
}

/* The summary JSON's layout: as json-c prints pretty and spaced, empty containers and deep nesting included. */
Test(json_stream, trees_pretty_as_json_c_prints_them, .init = open_stream, .fini = close_stream)
{
	static const char text[] = "{\"a\":[1,[],{},[[2,{\"k\":\"v/w\"}]],0.5],\"o\":{\"e\":{},\"x\":[null]},\"s\":\"\\n\"}";
	struct json_object *tree = json_tokener_parse(text), *deep = json_object_new_array(), *at = deep;
	size_t len, i;
	char *got;

	cr_assert_not_null(tree);
	/* Twenty levels, objects in arrays in objects: indents past the writer's run of spaces. */
	for (i = 0; i < 20; i++) {
		struct json_object *next = i % 2 ? json_object_new_array() : json_object_new_object();

		if (json_object_is_type(at, json_type_array))
			cr_assert(eq(int, json_object_array_add(at, next), 0));
		else
			cr_assert(eq(int, json_object_object_add(at, "k", next), 0));
		at = next;
	}
	cr_assert(eq(int, json_object_array_add(at, json_object_new_int(1)), 0), "the innermost is an array");
	cr_assert(eq(int, json_put(tree, "deep", deep), 0));
	json_stream__pretty(js, tree);
	got = written(&len);
	cr_assert(eq(str, got,
		     (char *)json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
									  JSON_C_TO_STRING_NOSLASHESCAPE)));
	free(got);
	json_object_put(tree);
}

Test(json_stream, the_first_error_sticks)
{
	struct json_stream *bad = json_stream__new(-1);
	char big[80 * 1024];

	cr_assert_not_null(bad);
	json_stream__lit(bad, "{}");
	cr_assert(eq(int, json_stream__err(bad), 0), "buffered, not written yet");
	cr_assert(eq(int, json_stream__flush(bad), -EBADF));
	memset(big, 'x', sizeof(big));
	json_stream__str(bad, big, sizeof(big));
	json_stream__raw(bad, big, sizeof(big));
	cr_assert(eq(int, json_stream__fail(bad, -ENOMEM), -EBADF), "the first error is kept");
	cr_assert(eq(int, json_stream__flush(bad), -EBADF));
	json_stream__free(bad);
}
