/* fmt.c — small formatting helpers. */
#include <stdio.h>

#include "config.h"
#include "demo.h"

/* A bar of '#' of DEMO_BAR_WIDTH columns at most, VALUE out of MAX. */
char *fmt_bar(char *buf, size_t size, size_t value, size_t max)
{
	size_t n = max ? (value * DEMO_BAR_WIDTH + max - 1) / max : 0;

	if (size == 0)
		return buf;
	if (n > DEMO_BAR_WIDTH)
		n = DEMO_BAR_WIDTH;
	if (n > size - 1)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = '#';
	buf[n] = '\0';
	return buf;
}

char *fmt_size(char *buf, size_t size, size_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%zu B", bytes);
	else
		snprintf(buf, size, "%.1f %s", v, units[u]);
	return buf;
}
