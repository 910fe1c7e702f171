// SPDX-License-Identifier: GPL-2.0
/* Reused json-c values: see include/util/json_pool.h. */
#include <errno.h>
#include <stdlib.h>
#include <json-c/linkhash.h>
#include "util/array_grow.h"
#include "util/json_pool.h"
#include "util/json_write.h"

/* A double printed as its text (json_new_ms()): the text lives with it. */
struct ms_value {
	struct json_object *val;
	char text[JSON_MS_TEXT_BYTES];
};

/* The values of one kind: [0, used) are handed out, [used, nr) free. */
struct shelf {
	struct json_object **vals;
	size_t nr, used, cap;
};

enum kind { KIND_OBJECT, KIND_ARRAY, KIND_INT, KIND_BOOL, NR_KINDS };

/* A literal's text and its string value. */
struct literal {
	const char *text;
	struct json_object *val;
};

struct json_pool {
	struct shelf shelves[NR_KINDS];
	struct ms_value **ms;
	size_t nr_ms, used_ms, cap_ms;
	struct literal *lits; /* a few: the trace's phases and categories */
	size_t nr_lits, cap_lits;
};

struct json_pool *json_pool__new(void)
{
	return calloc(1, sizeof(struct json_pool));
}

void json_pool__free(struct json_pool *pool)
{
	size_t i;
	int k;

	if (!pool)
		return;
	for (k = 0; k < NR_KINDS; k++) {
		for (i = 0; i < pool->shelves[k].nr; i++)
			json_object_put(pool->shelves[k].vals[i]);
		free(pool->shelves[k].vals);
	}
	for (i = 0; i < pool->nr_ms; i++) {
		json_object_put(pool->ms[i]->val);
		free(pool->ms[i]);
	}
	free(pool->ms);
	for (i = 0; i < pool->nr_lits; i++)
		json_object_put(pool->lits[i].val);
	free(pool->lits);
	free(pool);
}

/* The next free value of shelf s, made by make() when there is none: a reference for the caller. */
static struct json_object *take(struct shelf *s, struct json_object *(*make)(void))
{
	struct json_object *val;

	if (s->used == s->nr) {
		if (array_grow((void **)&s->vals, &s->cap, s->nr + 1, sizeof(*s->vals)))
			return NULL;
		if (!(val = make()))
			return NULL;
		s->vals[s->nr++] = val;
	}
	return json_object_get(s->vals[s->used++]);
}

static struct json_object *new_int(void)
{
	return json_object_new_int64(0);
}

static struct json_object *new_bool(void)
{
	return json_object_new_boolean(0);
}

struct json_object *json_pool__object(struct json_pool *pool)
{
	return take(&pool->shelves[KIND_OBJECT], json_object_new_object);
}

struct json_object *json_pool__array(struct json_pool *pool)
{
	return take(&pool->shelves[KIND_ARRAY], json_object_new_array);
}

struct json_object *json_pool__int(struct json_pool *pool, __s64 v)
{
	struct json_object *val = take(&pool->shelves[KIND_INT], new_int);

	if (val)
		json_object_set_int64(val, v);
	return val;
}

struct json_object *json_pool__bool(struct json_pool *pool, bool v)
{
	struct json_object *val = take(&pool->shelves[KIND_BOOL], new_bool);

	if (val)
		json_object_set_boolean(val, v);
	return val;
}

struct json_object *json_pool__ms(struct json_pool *pool, __u64 ns)
{
	struct ms_value *ms;

	if (pool->used_ms == pool->nr_ms) {
		if (array_grow((void **)&pool->ms, &pool->cap_ms, pool->nr_ms + 1, sizeof(*pool->ms)))
			return NULL;
		if (!(ms = calloc(1, sizeof(*ms))))
			return NULL;
		if (!(ms->val = json_object_new_double(0))) {
			free(ms);
			return NULL;
		}
		pool->ms[pool->nr_ms++] = ms;
	}
	ms = pool->ms[pool->used_ms++];
	/* Printed from the text, as json_new_ms()'s: the text is ours, nothing to free. */
	json_object_set_double(ms->val, json_ms_text(ms->text, ns));
	json_object_set_serializer(ms->val, json_object_userdata_to_json_string, ms->text, NULL);
	return json_object_get(ms->val);
}

struct json_object *json_pool__literal(struct json_pool *pool, const char *lit)
{
	struct json_object *val;
	size_t i;

	for (i = 0; i < pool->nr_lits; i++)
		if (pool->lits[i].text == lit)
			return json_object_get(pool->lits[i].val);
	if (array_grow((void **)&pool->lits, &pool->cap_lits, pool->nr_lits + 1, sizeof(*pool->lits)) ||
	    !(val = json_object_new_string(lit)))
		return NULL;
	pool->lits[pool->nr_lits++] = (struct literal){ lit, val };
	return json_object_get(val);
}

void json_pool__recycle(struct json_pool *pool)
{
	struct shelf *s;
	size_t i;

	s = &pool->shelves[KIND_OBJECT];
	for (i = 0; i < s->used; i++) {
		struct lh_table *t = json_object_get_object(s->vals[i]);

		/* Emptied without hashing a key: each entry is at hand. */
		while (lh_table_head(t))
			lh_table_delete_entry(t, lh_table_head(t));
	}
	s = &pool->shelves[KIND_ARRAY];
	for (i = 0; i < s->used; i++)
		json_object_array_del_idx(s->vals[i], 0, json_object_array_length(s->vals[i]));
	for (i = 0; i < NR_KINDS; i++)
		pool->shelves[i].used = 0;
	pool->used_ms = 0;
}
