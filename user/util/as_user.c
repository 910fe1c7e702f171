// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "util/as_user.h"

const char *as_user__hint(char *buf, size_t size, int err, const char *user, const char *verb, const char *advice)
{
	char esc[TERM_ESCAPE_BUF];
	const char *mark = advice ? strstr(advice, "{}") : NULL;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!user || (err != EACCES && err != EPERM))
		return buf;
	term_escape(user, esc, sizeof(esc));
	if (!advice)
		snprintf(buf, size, " (buildbpf %s as %s, not root)", verb, esc);
	else if (!mark)
		snprintf(buf, size, " (buildbpf %s as %s, not root; %s)", verb, esc, advice);
	else
		snprintf(buf, size, " (buildbpf %s as %s, not root; %.*s%s%s)", verb, esc, (int)(mark - advice), advice,
			 esc, mark + 2);
	return buf;
}
