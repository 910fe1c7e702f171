/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json-c values made once and reused, for a writer that builds one small
 * object per event by the million (the Chrome trace): allocating and
 * freeing each event's tables and numbers was most of its cost.
 *
 * Each value is handed out with a reference the caller owns, as from
 * json_object_new_*(), so it goes into json_put() and friends unchanged;
 * the pool keeps a reference of its own.  json_pool__recycle() takes every
 * value back at once: objects and arrays are emptied, numbers reset when
 * handed out again.  Its invariant: by then nothing but the pool holds
 * them, i.e. the event built from them was written and put.
 */
#ifndef BUILDBPF_JSON_POOL_H
#define BUILDBPF_JSON_POOL_H

#include <stdbool.h>
#include <linux/types.h>
#include <json-c/json.h>

struct json_pool;

struct json_pool *json_pool__new(void);
/* Accepts NULL. */
void json_pool__free(struct json_pool *pool);

/* Each returns NULL when out of memory, which json_put() reports as -ENOMEM. */
struct json_object *json_pool__object(struct json_pool *pool);
struct json_object *json_pool__array(struct json_pool *pool);
struct json_object *json_pool__int(struct json_pool *pool, __s64 v);
struct json_object *json_pool__bool(struct json_pool *pool, bool v);
/* As json_new_ms(ns). */
struct json_object *json_pool__ms(struct json_pool *pool, __u64 ns);
/*
 * A string literal's value, made once and shared by every event that puts
 * it: known by its address, so lit must be a literal (or other text that
 * never changes while the pool lives).  Never changed by the pool.
 */
struct json_object *json_pool__literal(struct json_pool *pool, const char *lit);

/* Every value handed out is the pool's again: see the invariant above. */
void json_pool__recycle(struct json_pool *pool);

#endif /* BUILDBPF_JSON_POOL_H */
