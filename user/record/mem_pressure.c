// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record/mem_pressure.h"

#define PSI_MEMORY_PATH "/proc/pressure/memory"

/* The total= of the line starting with kind ("some" or "full"). */
static int line_total(const char *text, const char *kind, __u64 *total)
{
	size_t klen = strlen(kind);
	const char *line, *t, *end;
	char *num_end;

	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, kind, klen) || line[klen] != ' ')
			continue;
		end = strchr(line, '\n');
		t = strstr(line, " total=");
		if (!t || (end && t > end))
			return -EINVAL;
		t += strlen(" total=");
		if (*t < '0' || *t > '9')
			return -EINVAL;
		errno = 0;
		*total = strtoull(t, &num_end, 10);
		if (errno || (*num_end && *num_end != '\n' && *num_end != ' '))
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

int mem_pressure__parse(const char *text, struct bb_mem_psi_event *e)
{
	return line_total(text, "some", &e->some_us) ?: line_total(text, "full", &e->full_us);
}

int mem_pressure__read(struct bb_mem_psi_event *e, __u64 ts_ns)
{
	char text[512];
	size_t n;
	FILE *f;

	memset(e, 0, sizeof(*e));
	e->hdr.ts_ns = ts_ns;
	e->hdr.type = BB_EV_MEM_PSI;
	f = fopen(PSI_MEMORY_PATH, "re");
	if (!f)
		return -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return mem_pressure__parse(text, e);
}
