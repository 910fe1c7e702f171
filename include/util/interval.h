/* SPDX-License-Identifier: GPL-2.0 */
/* Half-open time intervals [from, to), in ns. */
#ifndef BUILDBPF_UTIL_INTERVAL_H
#define BUILDBPF_UTIL_INTERVAL_H

#include <linux/types.h>

/* How long [a0, a1) and [b0, b1) share; 0 when they do not meet. */
static inline __u64 interval_overlap(__u64 a0, __u64 a1, __u64 b0, __u64 b1)
{
	__u64 lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

#endif /* BUILDBPF_UTIL_INTERVAL_H */
