/* SPDX-License-Identifier: GPL-2.0 */
/* Counting in a sorted array of times by binary search. */
#ifndef BUILDBPF_UTIL_SORTED_COUNT_H
#define BUILDBPF_UTIL_SORTED_COUNT_H

#include <stddef.h>
#include <linux/types.h>

/* How many of the ascending times[0 .. n) are at most ts. */
static inline size_t sorted_count_at_most(const __u64 *times, size_t n, __u64 ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (times[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif /* BUILDBPF_UTIL_SORTED_COUNT_H */
