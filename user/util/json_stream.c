// SPDX-License-Identifier: GPL-2.0
/* JSON streamed to a file descriptor: see include/util/json_stream.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "util/json_lazy.h"
#include "util/json_stream.h"
#include "util/json_write.h"
#include "util/utf8.h"
#include "util/write_all.h"

/* Output gathered per write(2): not a system call per event. */
#define STREAM_BUF_BYTES (64 * 1024)
/*
 * A string is escaped straight into the buffer, this many input bytes per
 * look at the room left: each becomes at most ESCAPED_MAX output bytes
 * ("\u001f"; U+FFFD is 3, a character's bytes are copied as they are).
 */
#define STR_CHUNK_BYTES 1024
#define ESCAPED_MAX 6
/* The longest number: a sign and 20 digits, or json_ms_text()'s text. */
#define NUMBER_MAX_BYTES JSON_MS_TEXT_BYTES

struct json_stream {
	int fd;
	int err;     /* the first error; nothing is written after it */
	size_t used; /* bytes of buf not yet written */
	char buf[STREAM_BUF_BYTES];
};

struct json_stream *json_stream__new(int fd)
{
	struct json_stream *js = malloc(sizeof(*js));

	if (js) {
		js->fd = fd;
		js->err = 0;
		js->used = 0;
	}
	return js;
}

void json_stream__free(struct json_stream *js)
{
	free(js);
}

int json_stream__flush(struct json_stream *js)
{
	if (!js->err && js->used)
		js->err = write_all(js->fd, js->buf, js->used);
	js->used = 0;
	return js->err;
}

int json_stream__err(const struct json_stream *js)
{
	return js->err;
}

int json_stream__fail(struct json_stream *js, int err)
{
	if (!js->err)
		js->err = err;
	return js->err;
}

/* Where the next n (<= STREAM_BUF_BYTES) bytes go, flushing to make room; NULL after an error. */
static char *room(struct json_stream *js, size_t n)
{
	if (js->err)
		return NULL;
	if (n > STREAM_BUF_BYTES - js->used && json_stream__flush(js))
		return NULL;
	return js->buf + js->used;
}

void json_stream__raw(struct json_stream *js, const char *text, size_t len)
{
	char *out;

	if (len > STREAM_BUF_BYTES) {
		/* Larger than the buffer: straight out, after what is buffered. */
		if (!json_stream__flush(js))
			js->err = write_all(js->fd, text, len);
		return;
	}
	out = room(js, len);
	if (out) {
		memcpy(out, text, len);
		js->used += len;
	}
}

void json_stream__lit(struct json_stream *js, const char *text)
{
	json_stream__raw(js, text, strlen(text));
}

void json_stream__key(struct json_stream *js, const char *key, bool first)
{
	size_t len = strlen(key);
	char *out = len < STREAM_BUF_BYTES - 4 ? room(js, len + 4) : NULL;

	if (!out) {
		json_stream__fail(js, -EINVAL);
		return;
	}
	if (!first)
		*out++ = ',';
	*out++ = '"';
	memcpy(out, key, len);
	out[len] = '"';
	out[len + 1] = ':';
	js->used = (size_t)(out + len + 2 - js->buf);
}

/*
 * The bytes [pos, end) of raw (len bytes in all) escaped into out, which
 * has room for ESCAPED_MAX per byte; returns the end of what was written
 * and leaves *at after the last byte read (a character that starts before
 * end is taken whole).
 */
static char *escape_chunk(char *out, const char *raw, size_t len, size_t *at, size_t end)
{
	static const char hex[] = "0123456789abcdef";
	size_t pos = *at, n;

	while (pos < end) {
		unsigned char c = raw[pos];

		/* Nearly every byte is printed as is: tell those apart first. */
		if (c >= ' ' && c < 0x80 && c != '"' && c != '\\') {
			*out++ = (char)c;
			pos++;
			continue;
		}
		if (c >= 0x80 || !c) {
			/* A character, or a byte that starts none (and NUL): U+FFFD. */
			n = c ? utf8_char_len(raw + pos, len - pos) : 0;
			if (n)
				memcpy(out, raw + pos, n);
			else
				memcpy(out, UTF8_REPLACEMENT, sizeof(UTF8_REPLACEMENT) - 1);
			out += n ? n : sizeof(UTF8_REPLACEMENT) - 1;
			pos += n ? n : 1;
			continue;
		}
		*out++ = '\\';
		switch (c) {
		case '"':
		case '\\':
			*out++ = (char)c;
			break;
		case '\b':
			*out++ = 'b';
			break;
		case '\n':
			*out++ = 'n';
			break;
		case '\r':
			*out++ = 'r';
			break;
		case '\t':
			*out++ = 't';
			break;
		case '\f':
			*out++ = 'f';
			break;
		default:
			memcpy(out, "u00", 3);
			out[3] = hex[c >> 4];
			out[4] = hex[c & 0xf];
			out += 5;
		}
		pos++;
	}
	*at = pos;
	return out;
}

void json_stream__str(struct json_stream *js, const char *raw, size_t len)
{
	size_t pos = 0, end;
	char *out;

	json_stream__raw(js, "\"", 1);
	while (pos < len) {
		end = len - pos < STR_CHUNK_BYTES ? len : pos + STR_CHUNK_BYTES;
		out = room(js, (end - pos) * ESCAPED_MAX);
		if (!out)
			return;
		js->used = (size_t)(escape_chunk(out, raw, len, &pos, end) - js->buf);
	}
	json_stream__raw(js, "\"", 1);
}

void json_stream__cstr(struct json_stream *js, const char *s)
{
	json_stream__str(js, s, strlen(s));
}

/* |v| in decimal, with a '-' when negative. */
static void put_integer(struct json_stream *js, __u64 magnitude, bool negative)
{
	char digits[24], *p = digits + sizeof(digits), *out;

	do
		*--p = (char)('0' + magnitude % 10);
	while (magnitude /= 10);
	if (negative)
		*--p = '-';
	out = room(js, NUMBER_MAX_BYTES);
	if (out) {
		memcpy(out, p, (size_t)(digits + sizeof(digits) - p));
		js->used += (size_t)(digits + sizeof(digits) - p);
	}
}

void json_stream__int(struct json_stream *js, __s64 v)
{
	put_integer(js, v >= 0 ? (__u64)v : -(__u64)v, v < 0);
}

void json_stream__uint(struct json_stream *js, __u64 v)
{
	put_integer(js, v, false);
}

void json_stream__bool(struct json_stream *js, bool v)
{
	json_stream__lit(js, v ? "true" : "false");
}

void json_stream__ms(struct json_stream *js, __u64 ns)
{
	char *out = room(js, NUMBER_MAX_BYTES);

	if (out) {
		json_ms_text(out, ns);
		js->used += strlen(out);
	}
}

/* As json-c prints with JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE. */
#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static void put_double(struct json_stream *js, struct json_object *val)
{
	/* json_new_ms() and json-c's parser keep the text as user data, which json-c prints */
	const char *text = json_object_get_userdata(val) ?: json_object_to_json_string_ext(val, JSON_FLAGS);

	if (text)
		json_stream__lit(js, text);
	else
		json_stream__fail(js, -ENOMEM);
}

/*
 * How a tree is laid out: as json-c prints it with JSON_C_TO_STRING_PLAIN,
 * or, pretty, with JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED: a
 * container's opening bracket ends its line, each member is on a line of
 * its own, indented two spaces a level ("key": value), and the closing
 * bracket is on a line of its own at the container's level (an empty
 * container's too).  '/' is never escaped.
 */
static void put_value(struct json_stream *js, struct json_object *val, bool pretty, int level);

/* A container's opening bracket, then, pretty, the end of its line. */
static void put_open(struct json_stream *js, const char *bracket, bool pretty)
{
	json_stream__raw(js, bracket, 1);
	if (pretty)
		json_stream__raw(js, "\n", 1);
}

/* A member's start: its separator after the first, then level's indent. */
static void put_member(struct json_stream *js, bool first, bool pretty, int level)
{
	static const char spaces[] = "                                ";
	size_t left = pretty ? (size_t)level * 2 : 0;

	if (!first)
		json_stream__raw(js, pretty ? ",\n" : ",", pretty ? 2 : 1);
	while (left) {
		size_t n = left < sizeof(spaces) - 1 ? left : sizeof(spaces) - 1;

		json_stream__raw(js, spaces, n);
		left -= n;
	}
}

/* A container's closing bracket: on a line of its own at level, pretty. */
static void put_close(struct json_stream *js, const char *bracket, bool empty, bool pretty, int level)
{
	if (pretty && !empty)
		json_stream__raw(js, "\n", 1);
	put_member(js, true, pretty, level);
	json_stream__raw(js, bracket, 1);
}

/* An array; a lazy one's items (util/json_lazy.h) each made, written and freed in turn. */
static void put_array(struct json_stream *js, struct json_object *val, bool pretty, int level)
{
	const struct json_lazy *lazy = json_lazy__of(val);
	size_t i, n = lazy ? lazy->n : json_object_array_length(val);

	put_open(js, "[", pretty);
	for (i = 0; i < n && !js->err; i++) {
		/* An ordinary array's item is borrowed (NULL: a JSON null); a lazy one's is ours (NULL: no memory). */
		struct json_object *item = lazy ? lazy->item(i, lazy->ctx) : json_object_array_get_idx(val, i);

		if (lazy && !item) {
			json_stream__fail(js, -ENOMEM);
			break;
		}
		put_member(js, !i, pretty, level + 1);
		put_value(js, item, pretty, level + 1);
		if (lazy)
			json_object_put(item);
	}
	put_close(js, "]", !n, pretty, level);
}

static void put_object(struct json_stream *js, struct json_object *val, bool pretty, int level)
{
	bool first = true;

	put_open(js, "{", pretty);
	json_object_object_foreach(val, key, v)
	{
		if (js->err)
			break;
		put_member(js, first, pretty, level + 1);
		json_stream__cstr(js, key);
		json_stream__raw(js, pretty ? ": " : ":", pretty ? 2 : 1);
		put_value(js, v, pretty, level + 1);
		first = false;
	}
	put_close(js, "}", first, pretty, level);
}

static void put_value(struct json_stream *js, struct json_object *val, bool pretty, int level)
{
	switch (json_object_get_type(val)) {
	case json_type_null:
		json_stream__lit(js, "null");
		return;
	case json_type_boolean:
		json_stream__bool(js, json_object_get_boolean(val));
		return;
	case json_type_int:
		/* json-c keeps a number above INT64_MAX as uint64, and clamps it as int64 */
		if (json_object_get_int64(val) == INT64_MAX)
			json_stream__uint(js, json_object_get_uint64(val));
		else
			json_stream__int(js, json_object_get_int64(val));
		return;
	case json_type_double:
		put_double(js, val);
		return;
	case json_type_string:
		json_stream__str(js, json_object_get_string(val), (size_t)json_object_get_string_len(val));
		return;
	case json_type_array:
		put_array(js, val, pretty, level);
		return;
	case json_type_object:
		put_object(js, val, pretty, level);
		return;
	}
}

void json_stream__value(struct json_stream *js, struct json_object *val)
{
	put_value(js, val, false, 0);
}

void json_stream__pretty(struct json_stream *js, struct json_object *val)
{
	put_value(js, val, true, 0);
}
