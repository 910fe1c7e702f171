/* SPDX-License-Identifier: GPL-2.0 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/utf8.h"

#define FFFD "\xef\xbf\xbd"

/* Sanitises len bytes of in and checks the result is exactly want. */
static void expect_clean(const char *in, size_t len, const char *want)
{
	char *out = utf8_sanitize(in, len);

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(str, out, (char *)want));
	free(out);
}

#define EXPECT(in, want) expect_clean((in), sizeof(in) - 1, (want))

Test(utf8, ascii_and_empty_pass_through)
{
	EXPECT("", "");
	EXPECT("gcc -O2 -c foo.c", "gcc -O2 -c foo.c");
	/* Control characters are valid UTF-8; escaping them is JSON's job. */
	EXPECT("a\tb\nc\x1b[0m\x7f", "a\tb\nc\x1b[0m\x7f");
}

Test(utf8, well_formed_sequences_pass_through)
{
	EXPECT("\xc2\x80", "\xc2\x80");			/* U+0080, smallest 2-byte */
	EXPECT("caf\xc3\xa9", "caf\xc3\xa9");		/* é */
	EXPECT("\xe0\xa0\x80", "\xe0\xa0\x80");		/* U+0800, smallest 3-byte */
	EXPECT("\xe2\x82\xac", "\xe2\x82\xac");		/* € */
	EXPECT("\xed\x9f\xbf", "\xed\x9f\xbf");		/* U+D7FF, just below surrogates */
	EXPECT("\xee\x80\x80", "\xee\x80\x80");		/* U+E000, just above them */
	EXPECT("\xef\xbf\xbd", "\xef\xbf\xbd");		/* U+FFFD itself */
	EXPECT("\xf0\x90\x80\x80", "\xf0\x90\x80\x80"); /* U+10000 */
	EXPECT("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"); /* emoji */
	EXPECT("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"); /* U+10FFFF, the last */
}

Test(utf8, invalid_bytes_become_replacement)
{
	EXPECT("\xff", FFFD);
	EXPECT("\xfe\xff", FFFD FFFD);
	EXPECT("a\x80z", "a" FFFD "z"); /* lone continuation byte */
	EXPECT("\xbf\xbf", FFFD FFFD);
	EXPECT("latin1 caf\xe9!", "latin1 caf" FFFD "!");
	EXPECT("\xf8\x88\x80\x80\x80", FFFD FFFD FFFD FFFD FFFD); /* old 5-byte form */
}

Test(utf8, overlongs_rejected)
{
	EXPECT("\xc0\xaf", FFFD FFFD);		     /* '/' in 2 bytes */
	EXPECT("\xc1\xbf", FFFD FFFD);
	EXPECT("\xe0\x80\xaf", FFFD FFFD FFFD);	     /* '/' in 3 bytes */
	EXPECT("\xe0\x9f\xbf", FFFD FFFD FFFD);	     /* U+07FF in 3 bytes */
	EXPECT("\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD); /* '/' in 4 bytes */
	EXPECT("\xf0\x8f\xbf\xbf", FFFD FFFD FFFD FFFD); /* U+FFFF in 4 bytes */
}

Test(utf8, surrogates_rejected)
{
	EXPECT("\xed\xa0\x80", FFFD FFFD FFFD); /* U+D800 */
	EXPECT("\xed\xbf\xbf", FFFD FFFD FFFD); /* U+DFFF */
	/* A CESU-8 surrogate pair is not UTF-8 either. */
	EXPECT("\xed\xa0\xbd\xed\xb8\x80", FFFD FFFD FFFD FFFD FFFD FFFD);
}

Test(utf8, above_max_code_point_rejected)
{
	EXPECT("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD); /* U+110000 */
	EXPECT("\xf5\x80\x80\x80", FFFD FFFD FFFD FFFD);
	EXPECT("\xf7\xbf\xbf\xbf", FFFD FFFD FFFD FFFD);
}

Test(utf8, truncated_sequence_keeps_what_follows)
{
	/* The broken lead byte and its partial tail are replaced byte by byte;
	 * the valid character after them survives. */
	EXPECT("\xe2\x82" "A", FFFD FFFD "A");
	EXPECT("\xf0\x9f\x98" "\xc3\xa9", FFFD FFFD FFFD "\xc3\xa9");
	EXPECT("x\xe2\x82", "x" FFFD FFFD); /* cut at the end of the input */
	EXPECT("\xc3", FFFD);
}

Test(utf8, embedded_nul_becomes_replacement)
{
	static const char in[] = { 'a', '\0', 'b', '\0' };
	char *out = utf8_sanitize(in, sizeof(in));

	cr_assert(eq(str, out, "a" FFFD "b" FFFD));
	free(out);
}

Test(utf8, length_bounds_the_input)
{
	/* Only len bytes are read: the rest of the buffer does not matter. */
	expect_clean("abc\xff", 3, "abc");
	expect_clean("\xc3\xa9", 1, FFFD);
}

Test(utf8, every_byte_value_gives_valid_output)
{
	unsigned char in[256 * 2];
	char *out, *again;
	size_t i;

	for (i = 0; i < 256; i++) {
		in[2 * i] = i;
		in[2 * i + 1] = 0xff - i;
	}
	out = utf8_sanitize((const char *)in, sizeof(in));
	cr_assert(not(eq(ptr, out, NULL)));
	/* Sanitising valid output changes nothing: it is a fixed point. */
	again = utf8_sanitize(out, strlen(out));
	cr_assert(eq(str, again, out));
	free(again);
	free(out);
}

Test(utf8, prefix_len_never_splits_a_character)
{
	const char *s = "ab\xe2\x82\xac" "cd"; /* "ab€cd": € is bytes 2..4 */

	cr_assert(eq(sz, utf8_prefix_len(s, 100), 7));
	cr_assert(eq(sz, utf8_prefix_len(s, 7), 7));
	cr_assert(eq(sz, utf8_prefix_len(s, 5), 5));
	cr_assert(eq(sz, utf8_prefix_len(s, 4), 2));
	cr_assert(eq(sz, utf8_prefix_len(s, 3), 2));
	cr_assert(eq(sz, utf8_prefix_len(s, 2), 2));
	cr_assert(eq(sz, utf8_prefix_len(s, 0), 0));
}
