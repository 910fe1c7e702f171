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

/* Enough for any path the messages print, cut with "..." beyond that. */
#define TERM_ESCAPE_BUF 1024

/*
 * s with control bytes, DEL, backslash and non-ASCII bytes as \xNN, in buf
 * (cut with "..." when it does not fit).  Returns buf.
 */
const char *term_escape(const char *s, char *buf, size_t size);

#endif /* BUILDBPF_TERM_ESCAPE_H */
