// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "lib/xml_check.h"

const char *xml_check(const char *x, size_t *nr_elements)
{
	const char *stack[256], *p = x, *name, *end;
	size_t depth = 0, n, len[256];

	*nr_elements = 0;
	if (strncmp(p, "<?xml", 5))
		return "no XML declaration";
	p = strstr(p, "?>") + 2;
	for (; *p; p++) {
		if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r')
			return "control byte";
		if (*p == '&') {
			n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz#0123456789");
			if (!n || p[1 + n] != ';')
				return "bare &";
			continue;
		}
		if (*p == '>')
			return "stray >";
		if (*p != '<')
			continue;
		if (p[1] == '/') {
			name = p + 2;
			n = strcspn(name, ">");
			if (!depth || n != len[depth - 1] || strncmp(name, stack[depth - 1], n))
				return "unbalanced close tag";
			depth--;
			p = name + n;
			continue;
		}
		name = p + 1;
		n = strcspn(name, " />");
		if (!n)
			return "empty tag name";
		/* Attributes: name="value" with no '<' inside. */
		for (end = name + n; *end && *end != '>'; end++) {
			if (*end == '"') {
				const char *close = strchr(end + 1, '"');

				if (!close || memchr(end + 1, '<', close - end - 1))
					return "bad attribute";
				end = close;
			} else if (*end == '<') {
				return "< in a tag";
			}
		}
		if (!*end)
			return "unterminated tag";
		(*nr_elements)++;
		if (end[-1] != '/') {
			if (depth == 256)
				return "too deep";
			stack[depth] = name;
			len[depth++] = n;
		}
		p = end;
	}
	return depth ? "unclosed element" : NULL;
}
