// SPDX-License-Identifier: GPL-2.0
/*
 * The one rule for "this word names a file" (model/file_words.h), at each
 * of its levels, on the words that tell the levels apart.
 */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/file_words.h"

static bool names_file(const char *w, enum file_word_test test)
{
	return file_word(w, strlen(w), test) != NULL;
}

Test(file_words, no_option_names_a_file_at_any_level)
{
	enum file_word_test t;

	for (t = FILE_WORD_OPERAND; t <= FILE_WORD_C_SOURCE; t++) {
		cr_assert(not(names_file("-o", t)));
		cr_assert(not(names_file("-x.c", t)));
		cr_assert(not(names_file("-Isrc/x.c", t)));
	}
}

Test(file_words, an_operand_is_any_word_that_is_no_option)
{
	cr_assert(names_file("x", FILE_WORD_OPERAND));
	cr_assert(names_file("", FILE_WORD_OPERAND));
	cr_assert(names_file("a b", FILE_WORD_OPERAND));
}

Test(file_words, a_path_has_a_letter_and_a_slash_or_dot)
{
	const char *line = "x.c;rm";

	cr_assert(names_file("mm/a.o", FILE_WORD_PATH));
	cr_assert(names_file("Makefile.in", FILE_WORD_PATH));
	cr_assert(not(names_file("Makefile", FILE_WORD_PATH)));
	cr_assert(not(names_file("0.5", FILE_WORD_PATH)));
	cr_assert(not(names_file("../..", FILE_WORD_PATH)));
	cr_assert(not(names_file("/dev/null", FILE_WORD_PATH)));
	cr_assert(names_file("/devx/y", FILE_WORD_PATH));
	/* A span of a longer text: only its own bytes count. */
	cr_assert(eq(ptr, (void *)file_word(line, 3, FILE_WORD_PATH), (void *)line));
	cr_assert(eq(ptr, (void *)file_word(line + 4, 2, FILE_WORD_PATH), NULL));
}

Test(file_words, a_named_file_is_a_plain_word_with_an_inner_dot)
{
	const char *awk = "file=mm/filemap.o";

	cr_assert(names_file("mm/filemap.o", FILE_WORD_NAMED));
	cr_assert(names_file("data.bin", FILE_WORD_NAMED));
	cr_assert(not(names_file("s/x/y/", FILE_WORD_NAMED)));
	cr_assert(not(names_file("/dev/null", FILE_WORD_NAMED)));
	cr_assert(not(names_file(".bashrc", FILE_WORD_NAMED)));
	cr_assert(not(names_file("dir/x.", FILE_WORD_NAMED)));
	cr_assert(not(names_file("+%s.%N", FILE_WORD_NAMED)));
	cr_assert(not(names_file("+x.c", FILE_WORD_NAMED)));
	cr_assert(not(names_file("a b.c", FILE_WORD_NAMED)));
	cr_assert(not(names_file("s/a.b/c/'", FILE_WORD_NAMED)));
	/* NAME=VALUE names its value's file. */
	cr_assert(eq(str, (char *)file_word(awk, strlen(awk), FILE_WORD_NAMED), "mm/filemap.o"));
	cr_assert(not(names_file("CC=gcc", FILE_WORD_NAMED)));
	cr_assert(not(names_file("x=-y.c", FILE_WORD_NAMED)));
}

Test(file_words, a_source_by_its_base_names_extension)
{
	cr_assert(names_file("src/foo.c", FILE_WORD_SOURCE));
	cr_assert(names_file("foo.C", FILE_WORD_SOURCE));
	cr_assert(names_file("a.b/foo.rs", FILE_WORD_SOURCE));
	cr_assert(names_file("foo.c/", FILE_WORD_SOURCE));
	cr_assert(not(names_file("foo.o", FILE_WORD_SOURCE)));
	cr_assert(not(names_file(".c", FILE_WORD_SOURCE)));
	cr_assert(not(names_file("dir/.c", FILE_WORD_SOURCE)));
	cr_assert(not(names_file("foo.c.o", FILE_WORD_SOURCE)));
	cr_assert(not(names_file("foo.", FILE_WORD_SOURCE)));
	cr_assert(not(names_file("foo.cmakelists", FILE_WORD_SOURCE)));
}

Test(file_words, a_c_source_by_the_text_after_its_last_dot)
{
	cr_assert(names_file("x.c", FILE_WORD_C_SOURCE));
	cr_assert(names_file("x.S", FILE_WORD_C_SOURCE));
	cr_assert(names_file("x.c++", FILE_WORD_C_SOURCE));
	cr_assert(names_file("/tmp/distccd_1.i", FILE_WORD_C_SOURCE));
	/* Hidden ".c" counts here (distcc's suffix test), unlike FILE_WORD_SOURCE. */
	cr_assert(names_file(".c", FILE_WORD_C_SOURCE));
	cr_assert(not(names_file("x.s", FILE_WORD_C_SOURCE)));
	cr_assert(not(names_file("x.h", FILE_WORD_C_SOURCE)));
	cr_assert(not(names_file("x.rs", FILE_WORD_C_SOURCE)));
	cr_assert(not(names_file("x.c/", FILE_WORD_C_SOURCE)));
	cr_assert(not(names_file("xc", FILE_WORD_C_SOURCE)));
}
