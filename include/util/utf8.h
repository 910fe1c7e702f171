/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BUILDBPF_UTF8_H
#define BUILDBPF_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, what every byte that is not UTF-8 becomes. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

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
 * The length of the well-formed character at bytes (Unicode table 3-7),
 * avail bytes there (at least 1); 0 when the byte at bytes starts none,
 * the byte utf8_sanitize() replaces.  An ASCII byte, NUL too, is 1.
 */
size_t utf8_char_len(const char *bytes, size_t avail);

/*
 * The length of the longest prefix of the valid UTF-8 string s that is at
 * most max_bytes long and ends on a character boundary: where to cut s
 * without splitting a character.
 */
size_t utf8_prefix_len(const char *s, size_t max_bytes);

/*
 * The length of the character at s (valid UTF-8) when it changes how the
 * text around it is shown without being seen itself, else 0: a C1 control
 * (U+0080-U+009F), a bidirectional control (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069: a name could read reversed) or a
 * zero-width one (U+00AD, U+200B-U+200D, U+2060-U+2064, U+FEFF).  The
 * page, the picture and the Markdown show such a character's bytes as
 * \xNN, as the terminal shows every byte outside printable ASCII
 * (util/term_escape.h): one rule, so a name reads the same everywhere.
 */
size_t utf8_invisible_len(const char *s);

#endif /* BUILDBPF_UTF8_H */
