/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON written straight to a file descriptor, through one buffer: for an
 * output too large to build as a json-c tree first (the Chrome trace, with
 * millions of events).  The caller writes the frame (braces, commas,
 * keys) as literal text and each value through the functions below.
 *
 * The first write error sticks: every later call writes nothing, and
 * json_stream__err() (or the next json_stream__flush()) returns it, so a
 * writer checks once per event rather than once per field.
 */
#ifndef BUILDBPF_JSON_STREAM_H
#define BUILDBPF_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct json_object;
struct json_stream;

/* A stream to fd (not closed by it); NULL when out of memory. */
struct json_stream *json_stream__new(int fd);
/* Writes nothing more: flush first.  Accepts NULL. */
void json_stream__free(struct json_stream *js);

/* Everything buffered written to fd: 0, or the stream's first error (-errno). */
int json_stream__flush(struct json_stream *js);
/* 0, or the stream's first error. */
int json_stream__err(const struct json_stream *js);
/* Sets the stream's error (-ENOMEM of its caller) unless one is set already; returns the stream's. */
int json_stream__fail(struct json_stream *js, int err);

/* Frame text written as it is: only literals of our own, nothing to escape. */
void json_stream__raw(struct json_stream *js, const char *text, size_t len);
void json_stream__lit(struct json_stream *js, const char *text);

/* "key": after a ',' unless first: key is a literal of ours, nothing to escape. */
void json_stream__key(struct json_stream *js, const char *key, bool first);

/*
 * The one way a string gets into a streamed output: len raw bytes, made
 * valid UTF-8 as utf8_sanitize() makes them (each byte that starts no
 * well-formed character, and NUL, becomes U+FFFD), quoted, with '"', '\\'
 * and the controls escaped as json-c escapes them ("\n", "\u001b").
 */
void json_stream__str(struct json_stream *js, const char *raw, size_t len);
/* The same of a C string. */
void json_stream__cstr(struct json_stream *js, const char *s);

void json_stream__int(struct json_stream *js, __s64 v);
void json_stream__uint(struct json_stream *js, __u64 v);
void json_stream__bool(struct json_stream *js, bool v);
/* Nanoseconds as milliseconds, the text of json_new_ms() (util/json_write.h). */
void json_stream__ms(struct json_stream *js, __u64 ns);

/*
 * A json-c tree (borrowed), written as json-c writes it plain and without
 * escaping '/', every string (keys too) through json_stream__str(): for
 * the parts kept as trees (otherData, a merged trace's args).  A lazy
 * array (util/json_lazy.h) is written an item at a time, each freed before
 * the next is made.
 */
void json_stream__value(struct json_stream *js, struct json_object *val);
/*
 * The same, as json-c writes it with JSON_C_TO_STRING_PRETTY |
 * JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE: the summary
 * JSON, a person may read it.
 */
void json_stream__pretty(struct json_stream *js, struct json_object *val);

#endif /* BUILDBPF_JSON_STREAM_H */
