/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON array whose items are made only when it is printed, one at a
 * time, each printed and freed before the next is made: a long list (a
 * million-process build's races) costs one item's tree, not the whole
 * list's.  json-c prints it as it would print an array of the same items,
 * byte for byte, whatever its flags (json_object_to_json_string_ext()),
 * and json_stream__value() writes it item by item.
 *
 *   arr = json_lazy_array(n, make_item, &ctx, sizeof(ctx));
 *   json_put(o, "items", arr);
 *   ... print o ...
 *
 * The context (ctx_size bytes at ctx) is copied into the array; what it
 * points to must outlive the array.  make_item(i, the copy) returns item
 * i, which the printer frees; NULL: out of memory, which fails the
 * printing.  With no item the array is an ordinary empty one.
 */
#ifndef BUILDBPF_JSON_LAZY_H
#define BUILDBPF_JSON_LAZY_H

#include <stddef.h>
#include <json-c/json.h>

typedef struct json_object *json_lazy_item_fn(size_t i, const void *ctx);

struct json_lazy {
	size_t n;
	json_lazy_item_fn *item;
	const void *ctx;
};

/* NULL: out of memory. */
struct json_object *json_lazy_array(size_t n, json_lazy_item_fn *item, const void *ctx, size_t ctx_size);
/* What a lazy array makes its items with; NULL for any other value. */
const struct json_lazy *json_lazy__of(struct json_object *val);

#endif /* BUILDBPF_JSON_LAZY_H */
