// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "util/md_escape.h"

/* Characters that start emphasis, code, a link, an HTML tag or an entity, or end a cell. */
static const char md_special[] = "|\\`*_<>[]&!~#";

const char *md_escape_cell(const char *raw, char *buf, size_t size)
{
	size_t i, o = 0;

	if (!size)
		return buf;
	for (i = 0; raw[i] && o + 3 < size; i++) {
		unsigned char c = (unsigned char)raw[i];

		if (c && strchr(md_special, c))
			buf[o++] = '\\';
		buf[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[o] = '\0';
	return buf;
}
