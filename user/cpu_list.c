// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_list.h"

#define ONLINE_PATH "/sys/devices/system/cpu/online"

int cpu_list__parse(const char *text, bool *set, size_t nr)
{
	const char *p = text;
	unsigned long a, b, i;
	char *end;

	memset(set, 0, nr * sizeof(*set));
	while (*p && *p != '\n') {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtoul(p, &end, 10);
			if (b < a)
				return -EINVAL;
		}
		for (i = a; i <= b && i < nr; i++)
			set[i] = true;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int cpu_list__read_online(bool *set, size_t nr)
{
	char text[4096];
	FILE *f = fopen(ONLINE_PATH, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(text, sizeof(text), f))
		err = ferror(f) ? -EIO : -EINVAL;
	fclose(f);
	return err ?: cpu_list__parse(text, set, nr);
}
