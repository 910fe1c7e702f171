/* SPDX-License-Identifier: GPL-2.0 */
/* The binary search: where a sought key falls in a sorted range, whatever the range holds. */
#ifndef BUILDBPF_UTIL_SORTED_SEARCH_H
#define BUILDBPF_UTIL_SORTED_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the element at position i sorts before the key (key says what is sought, and in what). */
typedef bool sorted_before_fn(const void *key, size_t i);

/*
 * The first position of [lo, hi) whose element is not before the key; hi
 * when every one is.  The range must be sorted for it: before() true for a
 * prefix of [lo, hi) and false for all the rest.  "Before" as "< key" finds
 * the first element equal or after; as "<= key", the first after (one past
 * the last at most key).
 */
static inline size_t sorted_first_not_before(size_t lo, size_t hi, sorted_before_fn *before, const void *key)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(key, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif /* BUILDBPF_UTIL_SORTED_SEARCH_H */
