/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing JSON with json-c: the one family of helpers every writer uses
 * (the trace, the audit, the merge summary, the event log's header).
 *
 * Every put takes ownership of the value, also when it fails, and returns
 * 0 or -ENOMEM.  A NULL object or value (an allocation that failed before)
 * is -ENOMEM too, so a chain of puts joined with ?: needs one check, at
 * its end (json_done()).  json_put*() keys are string literals put once
 * per object: json-c keeps them without a copy and skips the duplicate
 * lookup (which also avoids json-c 0.16 leaking its copy when the insert
 * fails).  A key made at run time, or one an object may already hold,
 * goes through json_replace().
 */
#ifndef BUILDBPF_JSON_WRITE_H
#define BUILDBPF_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <json-c/json.h>

int json_put(struct json_object *obj, const char *key, struct json_object *val);
int json_put_int(struct json_object *obj, const char *key, __s64 v);
int json_put_uint(struct json_object *obj, const char *key, __u64 v);
int json_put_double(struct json_object *obj, const char *key, double v);
int json_put_bool(struct json_object *obj, const char *key, bool v);
/*
 * Strings: every one goes through json_new_clean_string(), the one
 * sanitiser, whatever its caller believes of it, so no output can hold a
 * path's or an argument's invalid bytes (a file named "bad\xff.o").
 */
int json_put_str(struct json_object *obj, const char *key, const char *s);
/*
 * s kept byte for byte: the event log's header only, which our own reader
 * reads back and where a path (the working directory) must keep the bytes
 * the kernel gave.  Never an output.
 */
int json_put_bytes(struct json_object *obj, const char *key, const char *s);
/* Nanoseconds as milliseconds, see json_new_ms(). */
int json_put_ms(struct json_object *obj, const char *key, __u64 ns);
/* A JSON null: a figure that was not recorded, never a 0. */
int json_put_null(struct json_object *obj, const char *key);

/* obj[key] = val for any key: copied, and replacing a value key held. */
int json_replace(struct json_object *obj, const char *key, struct json_object *val);
/* val appended to the array arr. */
int json_append(struct json_object *arr, struct json_object *val);

/* The end of a chain of puts: obj when err is 0, else NULL (obj freed). */
struct json_object *json_done(struct json_object *obj, int err);

/* Nanoseconds as milliseconds with microsecond precision, printed as such
 * rather than with %.17g digits of binary noise. */
struct json_object *json_new_ms(__u64 ns);
/* Room for the longest json_ms_text(): 20 digits, the point, 3 decimals, NUL. */
#define JSON_MS_TEXT_BYTES 32
/* json_new_ms()'s text for ns, written to text; its value returned. */
double json_ms_text(char text[JSON_MS_TEXT_BYTES], __u64 ns);
/* A string from raw bytes, made valid UTF-8; NULL: out of memory. */
struct json_object *json_new_clean_string(const char *raw, size_t len);
/* The same of a C string. */
struct json_object *json_new_str(const char *s);

#endif /* BUILDBPF_JSON_WRITE_H */
