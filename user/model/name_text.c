// SPDX-License-Identifier: GPL-2.0
/* The text of step names (include/model/name_text.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/name_text.h"
#include "util/utf8.h"

char *name_join(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = b ? strlen(sep) : 0, lb = b ? strlen(b) : 0;
	char *s = malloc(la + ls + lb + 1);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, sep, ls);
	memcpy(s + la + ls, b ? b : "", lb);
	s[la + ls + lb] = '\0';
	return s;
}

int name_append(char **s, const char *key, const char *value)
{
	char *part = name_join(key, "", value), *next;

	if (!part)
		return -ENOMEM;
	next = *s ? name_join(*s, " ", part) : strdup(part);
	free(part);
	if (!next)
		return -ENOMEM;
	free(*s);
	*s = next;
	return 0;
}

void name_cap(char *s, size_t max_bytes)
{
	size_t cut;

	if (strlen(s) <= max_bytes)
		return;
	cut = utf8_prefix_len(s, max_bytes - NAME_ELLIPSIS_LEN);
	while (cut > 0 && s[cut - 1] == ' ')
		cut--;
	memcpy(s + cut, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN + 1);
}

bool name_fold(char *s, size_t max_chars)
{
	size_t in, out = 0, chars = 0;
	bool space = false, cut = false;

	for (in = 0; s[in]; in++) {
		unsigned char c = s[in];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			space = out > 0;
			continue;
		}
		if ((c & 0xc0) != 0x80) { /* a character starts here */
			if (chars + space >= max_chars) {
				memcpy(s + out, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
				out += NAME_ELLIPSIS_LEN;
				cut = true;
				break;
			}
			chars += 1 + space;
		}
		if (space) {
			s[out++] = ' ';
			space = false;
		}
		s[out++] = c;
	}
	s[out] = '\0';
	return cut;
}

bool name_in_list(const char *s, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		/* The first two bytes rule out most entries without a call: every
		 * option starts with '-'.  s[1] is read only when s[0] is no NUL. */
		if (s[0] != list[i][0] || (s[0] && s[1] != list[i][1]))
			continue;
		if (!strcmp(s, list[i]))
			return true;
	}
	return false;
}
