// SPDX-License-Identifier: GPL-2.0
/* Arrays made item by item as they are printed (include/util/json_lazy.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/printbuf.h>
#include "util/json_lazy.h"

/*
 * A lazy array's user data: the only arrays with user data are these
 * (json-c's parser gives user data to doubles alone), and the tag says so
 * for certain.
 */
struct lazy_data {
	const char *tag;
	struct json_lazy lazy;
	max_align_t ctx[]; /* the caller's context, copied: lazy.ctx points here */
};

static const char lazy_tag[] = "json_lazy";

/* json-c's indentation for level (its own indent() is not exported). */
static int put_indent(struct printbuf *pb, int level, int flags)
{
	int i;

	if (!(flags & JSON_C_TO_STRING_PRETTY))
		return 0;
	for (i = 0; i < level; i++)
		if ((flags & JSON_C_TO_STRING_PRETTY_TAB ? printbuf_strappend(pb, "\t") : printbuf_strappend(pb, "  ")) < 0)
			return -1;
	return 0;
}

/*
 * text, an item json-c printed at level 0, as it prints it at level: a
 * pretty value's lines after its first are indented by its level, and a
 * newline appears nowhere else (one in a string is escaped).
 */
static int put_at_level(struct printbuf *pb, const char *text, size_t len, int level, int flags)
{
	const char *nl;

	while ((nl = memchr(text, '\n', len))) {
		size_t line = (size_t)(nl - text) + 1;

		if (printbuf_memappend(pb, text, (int)line) < 0 || put_indent(pb, level, flags))
			return -1;
		text += line;
		len -= line;
	}
	return len ? printbuf_memappend(pb, text, (int)len) < 0 ? -1 : 0 : 0;
}

/* What json-c's array printer writes (json_object_array_to_json_string), the items made here. */
static int print_lazy(struct json_object *jso, struct printbuf *pb, int level, int flags)
{
	const struct lazy_data *d = json_object_get_userdata(jso);
	bool pretty = flags & JSON_C_TO_STRING_PRETTY, spaced = (flags & JSON_C_TO_STRING_SPACED) && !pretty;
	size_t i, len;

	if (printbuf_strappend(pb, "[") < 0 || (pretty && printbuf_strappend(pb, "\n") < 0))
		return -1;
	for (i = 0; i < d->lazy.n; i++) {
		struct json_object *item = d->lazy.item(i, d->lazy.ctx);
		const char *text = item ? json_object_to_json_string_length(item, flags, &len) : NULL;
		int err = !text || (i && printbuf_strappend(pb, ",") < 0) ||
			  (i && pretty && printbuf_strappend(pb, "\n") < 0) ||
			  (spaced && printbuf_strappend(pb, " ") < 0) || put_indent(pb, level + 1, flags) ||
			  put_at_level(pb, text, len, level + 1, flags);

		json_object_put(item);
		if (err)
			return -1;
	}
	if (pretty && (printbuf_strappend(pb, "\n") < 0 || put_indent(pb, level, flags)))
		return -1;
	return spaced ? printbuf_strappend(pb, " ]") : printbuf_strappend(pb, "]");
}

static void free_lazy(struct json_object *jso, void *userdata)
{
	(void)jso;
	free(userdata);
}

struct json_object *json_lazy_array(size_t n, json_lazy_item_fn *item, const void *ctx, size_t ctx_size)
{
	struct json_object *arr = json_object_new_array();
	struct lazy_data *d;

	if (!arr || !n)
		return arr;
	d = malloc(sizeof(*d) + ctx_size);
	if (!d) {
		json_object_put(arr);
		return NULL;
	}
	if (ctx_size) /* (ctx may be NULL then, which memcpy() may not be given) */
		memcpy(d->ctx, ctx, ctx_size);
	d->tag = lazy_tag;
	d->lazy = (struct json_lazy){ n, item, d->ctx };
	json_object_set_serializer(arr, print_lazy, d, free_lazy);
	return arr;
}

const struct json_lazy *json_lazy__of(struct json_object *val)
{
	const struct lazy_data *d;

	if (json_object_get_type(val) != json_type_array)
		return NULL;
	d = json_object_get_userdata(val);
	return d && d->tag == lazy_tag ? &d->lazy : NULL;
}
