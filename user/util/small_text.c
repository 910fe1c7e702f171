// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include "util/small_text.h"

char *small_text__read(const char *path, size_t max)
{
	FILE *f = fopen(path, "re");
	char *text;
	size_t n;

	if (!f)
		return NULL;
	/* One byte more than max is asked for: a file that fills it is too large. */
	text = malloc(max + 1);
	n = text ? fread(text, 1, max + 1, f) : 0;
	fclose(f);
	if (!text || n > max) {
		free(text);
		return NULL;
	}
	text[n] = 0;
	return text;
}
