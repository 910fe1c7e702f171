/* SPDX-License-Identifier: GPL-2.0 */
/* Texts of known length (not NUL-terminated: a word in an argv, a path's last component) compared. */
#ifndef BUILDBPF_UTIL_TEXT_CMP_H
#define BUILDBPF_UTIL_TEXT_CMP_H

#include <string.h>

/* <0, 0, >0 as a's a_len bytes sort before, with or after b's b_len bytes: byte order, a prefix first. */
static inline int text_cmp(const char *a, size_t a_len, const char *b, size_t b_len)
{
	int c = memcmp(a, b, a_len < b_len ? a_len : b_len);

	return c ? c : a_len < b_len ? -1 : a_len > b_len;
}

#endif /* BUILDBPF_UTIL_TEXT_CMP_H */
