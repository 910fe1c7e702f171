/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A binary min-heap of (key, index) in room the caller provides: ties go
 * to the smaller index (the first of equals).  For the pure stages that
 * take the least of a changing set.
 */
#ifndef BUILDBPF_MIN_HEAP_H
#define BUILDBPF_MIN_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct min_heap_item {
	__u64 key;
	size_t idx;
};

struct min_heap {
	struct min_heap_item *items; /* room for every push the caller makes while nothing is popped */
	size_t nr;
};

static inline bool min_heap_less(const struct min_heap_item *a, const struct min_heap_item *b)
{
	return a->key != b->key ? a->key < b->key : a->idx < b->idx;
}

static inline void min_heap_push(struct min_heap *h, __u64 key, size_t idx)
{
	size_t i = h->nr++;

	h->items[i] = (struct min_heap_item){ key, idx };
	while (i && min_heap_less(&h->items[i], &h->items[(i - 1) / 2])) {
		struct min_heap_item t = h->items[i];

		h->items[i] = h->items[(i - 1) / 2];
		h->items[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* The least item, removed; the heap must not be empty. */
static inline struct min_heap_item min_heap_pop(struct min_heap *h)
{
	struct min_heap_item top = h->items[0];
	size_t i = 0;

	h->items[0] = h->items[--h->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i;
		struct min_heap_item t;

		if (l < h->nr && min_heap_less(&h->items[l], &h->items[min]))
			min = l;
		if (r < h->nr && min_heap_less(&h->items[r], &h->items[min]))
			min = r;
		if (min == i)
			break;
		t = h->items[i];
		h->items[i] = h->items[min];
		h->items[min] = t;
		i = min;
	}
	return top;
}

#endif /* BUILDBPF_MIN_HEAP_H */
