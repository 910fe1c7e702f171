// SPDX-License-Identifier: GPL-2.0
/* The sort keys of strings (util/str_key.h) order every pair as strcmp() does. */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/str_key.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

Test(str_key, every_pair_compares_as_strcmp_says)
{
	/* Around the key's 8 bytes, bytes above 0x7f, prefixes of each other, alike ones. */
	static const char *const s[] = {
		"",	    "a",	"cc1",	       "cc1plus",    "collect2",  "collect2x", "collect",  "collect3",
		"abcdefg",  "abcdefgh", "abcdefghi",  "abcdefgha",  "abcdefgg",  "\xc3\xa9t\xc3\xa9", "\xff",
		"z",	    "cc1",	"abcdefghi",  "gcc -c a.c", "gcc -c b.c", "gcc -c a.cc",
	};
	size_t n = sizeof(s) / sizeof(s[0]), i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			cr_assert(eq(int, sign(str_key_cmp(str_key(s[i]), s[i], str_key(s[j]), s[j])),
				     sign(strcmp(s[i], s[j]))),
				  "'%s' vs '%s'", s[i], s[j]);
}
