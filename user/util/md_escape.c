// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/md_escape.h"
#include "util/utf8.h"

/* Characters that start emphasis, code, a link, an HTML tag or an entity, or end a cell. */
static const char md_special[] = "|\\`*_<>[]&!~";

/*
 * Characters that start a mention (@all), an e-mail autolink (a@b.c), an
 * issue reference (#1) or math ($x$) where the Markdown is read: each goes
 * in a <span> of its own, so that no text of the rendered page holds one
 * with what follows it (GitHub's documented way for $; a backslash alone
 * leaves "@all" in the text, still a ping).  So do the ':' of "://" and
 * the dot of "www.", which start a URL autolink.
 */
static const char md_unlinked[] = "@#$";

/* Whether the character at s, in raw, starts a URL autolink. */
static bool starts_url(const char *raw, const char *s)
{
	if (*s == ':')
		return s[1] == '/' && s[2] == '/';
	return *s == '.' && s - raw >= 3 && !strncasecmp(s - 3, "www", 3);
}

/* The piece of raw at s as Markdown, in piece (32 bytes); its length. */
static size_t escape_one(const char *raw, const char *s, char piece[32], size_t *used)
{
	unsigned char c = (unsigned char)*s;
	size_t n = utf8_invisible_len(s), len = 0, i;

	*used = n ? n : 1;
	/* Shown as the terminal shows it, the backslash escaped. */
	for (i = 0; i < n; i++)
		len += snprintf(piece + len, 32 - len, "\\\\x%02x", (unsigned char)s[i]);
	if (n)
		return len;
	if (strchr(md_unlinked, c) || starts_url(raw, s))
		return snprintf(piece, 32, "<span>\\%c</span>", c);
	if (c >= 0x80) {
		/* A character of its own, whole (the text is valid UTF-8 by now). */
		*used = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		memcpy(piece, s, *used);
		return *used;
	}
	if (strchr(md_special, c))
		piece[len++] = '\\';
	piece[len++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	return len;
}

const char *md_escape_cell(const char *raw, char *buf, size_t size)
{
	char *clean, piece[32];
	const char *s;
	size_t o = 0, len, used;

	if (!size)
		return buf;
	/* Valid UTF-8, so that a character is never cut in two. */
	clean = utf8_sanitize(raw, strlen(raw));
	if (!clean) {
		snprintf(buf, size, "?");
		return buf;
	}
	for (s = clean; *s; s += used) {
		len = escape_one(clean, s, piece, &used);
		if (o + len >= size)
			break;
		memcpy(buf + o, piece, len);
		o += len;
	}
	buf[o] = '\0';
	free(clean);
	return buf;
}
