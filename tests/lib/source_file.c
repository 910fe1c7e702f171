// SPDX-License-Identifier: GPL-2.0
/* A file of the source tree: lib/source_file.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/source_file.h"

char *bb_read_source(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long len;

	cr_assert_not_null(f, "%s: %s (run the unit tests from the top of the tree)", path, strerror(errno));
	cr_assert(eq(int, fseek(f, 0, SEEK_END), 0));
	len = ftell(f);
	cr_assert(ge(i64, len, 0));
	rewind(f);
	text = malloc(len + 1);
	cr_assert_not_null(text);
	cr_assert(eq(sz, fread(text, 1, len, f), (size_t)len));
	text[len] = '\0';
	fclose(f);
	return text;
}
