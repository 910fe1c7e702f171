/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BUILDBPF_UTF8_H
#define BUILDBPF_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A malloc'd, NUL-terminated copy of len raw bytes as valid UTF-8: each
 * byte that does not start a well-formed sequence becomes U+FFFD, and
 * embedded NULs become U+FFFD as well so the result is one C string.
 * NULL on allocation failure.
 */
char *utf8_sanitize(const char *bytes, size_t len);

/* Whether len raw bytes are valid UTF-8 without NULs: utf8_sanitize() would copy them unchanged. */
bool utf8_is_clean(const char *bytes, size_t len);

/*
 * The length of the longest prefix of the valid UTF-8 string s that is at
 * most max_bytes long and ends on a character boundary: where to cut s
 * without splitting a character.
 */
size_t utf8_prefix_len(const char *s, size_t max_bytes);

#endif /* BUILDBPF_UTF8_H */
