/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sorting many strings of few values (programs, step names): each string's
 * first 8 bytes as one number that orders as strcmp() orders them, taken
 * once, so that most comparisons are one of numbers and no call.
 */
#ifndef BUILDBPF_STR_KEY_H
#define BUILDBPF_STR_KEY_H

#include <string.h>
#include <linux/types.h>

/* s's first 8 bytes, big-endian, NUL-padded: a < b as numbers iff they are as strcmp() says. */
static inline __u64 str_key(const char *s)
{
	__u64 k = 0;
	size_t i;

	for (i = 0; i < 8 && s[i]; i++)
		k |= (__u64)(unsigned char)s[i] << (56 - 8 * i);
	return k;
}

/* strcmp(a, b)'s sign, given ka = str_key(a) and kb = str_key(b). */
static inline int str_key_cmp(__u64 ka, const char *a, __u64 kb, const char *b)
{
	if (ka != kb)
		return ka < kb ? -1 : 1;
	/* Equal keys whose 8th byte is NUL: both strings ended inside them, alike. */
	if (!(ka & 0xff))
		return 0;
	return strcmp(a + 8, b + 8);
}

#endif /* BUILDBPF_STR_KEY_H */
