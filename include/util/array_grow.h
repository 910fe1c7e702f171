/* SPDX-License-Identifier: GPL-2.0 */
/* Growing a heap array by doubling, for the pure stages' buffers. */
#ifndef BUILDBPF_ARRAY_GROW_H
#define BUILDBPF_ARRAY_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Makes *ptr hold at least need elements of elem bytes: *cap doubles from
 * 64 until it does.  0, or -ENOMEM with *ptr and *cap unchanged.
 */
static inline int array_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t new_cap = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		new_cap *= 2;
	}
	p = realloc(*ptr, new_cap * elem);
	if (!p)
		return -ENOMEM;
	*ptr = p;
	*cap = new_cap;
	return 0;
}

#endif /* BUILDBPF_ARRAY_GROW_H */
