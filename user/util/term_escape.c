// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "util/term_escape.h"

/* term_escape(), with a display name's ellipsis as "..." when names is set. */
static const char *escape(const char *s, char *buf, size_t size, bool names)
{
	static const char cut[] = "...";
	const unsigned char *c;
	size_t n = 0;

	if (!size)
		return buf;
	for (c = (const unsigned char *)(s ? s : ""); *c; c++) {
		size_t mark = names ? term_ellipsis_len(c) : 0;
		bool plain = term_byte_is_plain(*c);
		size_t need = mark ? 3 : plain ? 1 : 4;

		/* Keep room for the cut mark and the NUL. */
		if (n + need + sizeof(cut) > size) {
			if (size >= sizeof(cut))
				memcpy(buf + (n < size - sizeof(cut) ? n : size - sizeof(cut)), cut, sizeof(cut));
			else
				buf[0] = '\0';
			return buf;
		}
		if (mark) {
			memcpy(buf + n, "...", 3);
			n += 3;
			c += mark - 1;
		} else if (plain) {
			buf[n++] = *c;
		} else {
			n += snprintf(buf + n, size - n, "\\x%02x", *c);
		}
	}
	buf[n] = '\0';
	return buf;
}

const char *term_escape(const char *s, char *buf, size_t size)
{
	return escape(s, buf, size, false);
}

const char *term_escape_name(const char *s, char *buf, size_t size)
{
	return escape(s, buf, size, true);
}
