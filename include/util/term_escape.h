/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names that come from the user or the build (paths, argv, options) are
 * printed escaped: a file name holding terminal escapes must not retitle
 * or clear the user's terminal when buildbpf mentions it.
 */
#ifndef BUILDBPF_TERM_ESCAPE_H
#define BUILDBPF_TERM_ESCAPE_H

#include <stddef.h>

#include <stdbool.h>

/* A byte printed as itself; any other is printed as \xNN. */
static inline bool term_byte_is_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/*
 * 3 when c starts "…" (U+2026), the mark buildbpf itself puts in a display
 * name it shortened (model/proc_name.h), else 0.
 */
static inline size_t term_ellipsis_len(const unsigned char *c)
{
	return c[0] == 0xe2 && c[1] == 0x80 && c[2] == 0xa6 ? 3 : 0;
}

/* Enough for any path the messages print, cut with "..." beyond that. */
#define TERM_ESCAPE_BUF 1024

/*
 * s with control bytes, DEL, backslash and non-ASCII bytes as \xNN, in buf
 * (cut with "..." when it does not fit).  Returns buf.
 */
const char *term_escape(const char *s, char *buf, size_t size);

/*
 * A display name (a step, a program, a file the build touched) for a text
 * table: as term_escape(), but the ellipsis of a shortened name as "...".
 * A name is read, not typed back, so the mark may be lossy; and the text
 * stays ASCII, one byte a column, so padding by bytes lines it up.  A path
 * the user gave keeps term_escape(): "..." there would name another file.
 */
const char *term_escape_name(const char *s, char *buf, size_t size);

#endif /* BUILDBPF_TERM_ESCAPE_H */
