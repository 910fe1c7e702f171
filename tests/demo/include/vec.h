/* vec.h — a growable array of (word, count) pairs. */
#ifndef DEMO_VEC_H
#define DEMO_VEC_H

#include <stddef.h>

struct wordcount {
	const char *word;
	size_t len;
	size_t count;
};

struct vec {
	struct wordcount *items;
	size_t len, cap;
};

#define VEC_INIT { NULL, 0, 0 }

/* Appends WC; returns 0, or -1 when out of memory. */
int vec_push(struct vec *v, struct wordcount wc);
/* Most frequent first; ties in byte order of the words. */
void vec_sort_by_count(struct vec *v);
void vec_free(struct vec *v);

#endif
