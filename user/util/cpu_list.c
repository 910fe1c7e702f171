// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/cpu_list.h"

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

int cpu_list__read_online(char *buf, size_t size)
{
	FILE *f = fopen(ONLINE_PATH, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		err = ferror(f) ? -EIO : -EINVAL;
	fclose(f);
	if (err)
		return err;
	buf[strcspn(buf, "\n")] = '\0';
	return *buf ? 0 : -EINVAL;
}
