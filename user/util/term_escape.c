// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "util/term_escape.h"

const char *term_escape(const char *s, char *buf, size_t size)
{
	static const char cut[] = "...";
	const unsigned char *c;
	size_t n = 0;

	if (!size)
		return buf;
	for (c = (const unsigned char *)(s ? s : ""); *c; c++) {
		bool plain = term_byte_is_plain(*c);
		size_t need = plain ? 1 : 4;

		/* Keep room for the cut mark and the NUL. */
		if (n + need + sizeof(cut) > size) {
			if (size >= sizeof(cut))
				memcpy(buf + (n < size - sizeof(cut) ? n : size - sizeof(cut)), cut, sizeof(cut));
			else
				buf[0] = '\0';
			return buf;
		}
		if (plain)
			buf[n++] = *c;
		else
			n += snprintf(buf + n, size - n, "\\x%02x", *c);
	}
	buf[n] = '\0';
	return buf;
}
