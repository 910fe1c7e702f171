/* vec.c — a growable array of (word, count) pairs. */
#include <stdlib.h>
#include <string.h>

#include "vec.h"

int vec_push(struct vec *v, struct wordcount wc)
{
	if (v->len == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		struct wordcount *items = realloc(v->items, cap * sizeof *items);
		if (!items)
			return -1;
		v->items = items;
		v->cap = cap;
	}
	v->items[v->len++] = wc;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct wordcount *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->word, y->word, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

void vec_sort_by_count(struct vec *v)
{
	if (v->len > 1)
		qsort(v->items, v->len, sizeof *v->items, by_count);
}

void vec_free(struct vec *v)
{
	free(v->items);
	*v = (struct vec)VEC_INIT;
}
