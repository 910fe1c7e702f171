/* SPDX-License-Identifier: GPL-2.0 */
/* Counting in a sorted array of times by binary search. */
#ifndef BUILDBPF_UTIL_SORTED_COUNT_H
#define BUILDBPF_UTIL_SORTED_COUNT_H

#include <stddef.h>
#include <linux/types.h>
#include "util/sorted_search.h"

struct sorted_times_key {
	const __u64 *times;
	__u64 ts;
};

static inline bool sorted_time_at_most(const void *key, size_t i)
{
	const struct sorted_times_key *k = key;

	return k->times[i] <= k->ts;
}

/* How many of the ascending times[0 .. n) are at most ts. */
static inline size_t sorted_count_at_most(const __u64 *times, size_t n, __u64 ts)
{
	struct sorted_times_key key = { times, ts };

	return sorted_first_not_before(0, n, sorted_time_at_most, &key);
}

#endif /* BUILDBPF_UTIL_SORTED_COUNT_H */
