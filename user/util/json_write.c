// SPDX-License-Identifier: GPL-2.0
/* JSON writing helpers: see include/util/json_write.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/json_write.h"
#include "util/utf8.h"

/* Keys are literals, each added once: see the header. */
#define LITERAL_KEY (JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY)

static int put_flags(struct json_object *obj, const char *key, struct json_object *val, unsigned flags)
{
	if (!obj || json_object_object_add_ex(obj, key, val, flags)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

int json_put(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	return put_flags(obj, key, val, LITERAL_KEY);
}

int json_put_int(struct json_object *obj, const char *key, __s64 v)
{
	return json_put(obj, key, json_object_new_int64(v));
}

int json_put_uint(struct json_object *obj, const char *key, __u64 v)
{
	return json_put(obj, key, json_object_new_uint64(v));
}

int json_put_double(struct json_object *obj, const char *key, double v)
{
	return json_put(obj, key, json_object_new_double(v));
}

int json_put_bool(struct json_object *obj, const char *key, bool v)
{
	return json_put(obj, key, json_object_new_boolean(v));
}

int json_put_str(struct json_object *obj, const char *key, const char *s)
{
	return json_put(obj, key, json_new_str(s));
}

int json_put_bytes(struct json_object *obj, const char *key, const char *s)
{
	return json_put(obj, key, json_object_new_string(s));
}

int json_put_ms(struct json_object *obj, const char *key, __u64 ns)
{
	return json_put(obj, key, json_new_ms(ns));
}

int json_put_null(struct json_object *obj, const char *key)
{
	return put_flags(obj, key, NULL, LITERAL_KEY);
}

int json_replace(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	return put_flags(obj, key, val, 0);
}

int json_append(struct json_object *arr, struct json_object *val)
{
	if (!arr || !val || json_object_array_add(arr, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

struct json_object *json_done(struct json_object *obj, int err)
{
	if (!err)
		return obj;
	json_object_put(obj);
	return NULL;
}

double json_ms_text(char text[JSON_MS_TEXT_BYTES], __u64 ns)
{
	/* "%llu.%03llu" of ms and its microseconds, without snprintf: the
	 * trace prints several per process. */
	char digits[20], *p = text;
	__u64 ms = ns / 1000000, us = ns / 1000 % 1000;
	size_t n = 0;

	do
		digits[n++] = '0' + ms % 10;
	while (ms /= 10);
	while (n)
		*p++ = digits[--n];
	*p++ = '.';
	*p++ = '0' + us / 100;
	*p++ = '0' + us / 10 % 10;
	*p++ = '0' + us % 10;
	*p = '\0';
	return (double)(ns / 1000) / 1000.0;
}

struct json_object *json_new_ms(__u64 ns)
{
	char text[JSON_MS_TEXT_BYTES];
	double ms = json_ms_text(text, ns);

	return json_object_new_double_s(ms, text);
}

struct json_object *json_new_clean_string(const char *raw, size_t len)
{
	struct json_object *str;
	char *clean;

	/* Most strings are clean already: no copy to make and free. */
	if (len <= INT_MAX && utf8_is_clean(raw, len))
		return json_object_new_string_len(raw, (int)len);
	clean = utf8_sanitize(raw, len);
	if (!clean)
		return NULL;
	str = json_object_new_string(clean);
	free(clean);
	return str;
}

struct json_object *json_new_str(const char *s)
{
	return json_new_clean_string(s, strlen(s));
}
