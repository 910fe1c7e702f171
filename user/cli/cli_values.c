// SPDX-License-Identifier: GPL-2.0
/* Option values: counts, durations, sizes (include/cli/cli_values.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli_values.h"

int cli__parse_u64(const char *s, unsigned long long *v, char **end)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 10);
	return errno || *end == s ? -EINVAL : 0;
}

int cli__parse_duration(const char *s, __u64 *out)
{
	static const struct {
		const char *unit;
		__u64 ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	unsigned long long v;
	char *end;
	size_t i;

	if (cli__parse_u64(s, &v, &end))
		return -EINVAL;
	/* A bare number needs a unit: "--duration 60" meant 60 ns and traced nothing. */
	if (!*end)
		return v ? -EINVAL : (*out = 0, 0);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].ns)
			return -EINVAL;
		*out = v * units[i].ns;
		return 0;
	}
	return -EINVAL;
}

int cli__parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	bool suffix = true;
	char *end;

	if (cli__parse_u64(s, &v, &end) || v > (1ull << 40))
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	default: suffix = false; break;
	}
	if (suffix) {
		end++;
		if (*end == 'i') /* "KiB"-style spellings */
			end++;
		if (*end == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}
