// SPDX-License-Identifier: GPL-2.0
/*
 * The one shell tokenizer (model/shell_words.h): where words end in each
 * split, quotes taken off, the commands of a script and what a name
 * refuses to follow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/shell_words.h"

/* How long the word at s is in split how; -1 for an unknown word. */
static long word_len(const char *s, enum shell_split how)
{
	const char *end = shell_word_end(s, how);

	return end ? end - s : -1;
}

Test(shell_words, a_command_word_ends_where_sh_ends_it)
{
	cr_assert(eq(long, word_len("cc -c", SHELL_SPLIT_COMMAND), 2));
	cr_assert(eq(long, word_len("'a b'c d", SHELL_SPLIT_COMMAND), 6));
	cr_assert(eq(long, word_len("a\\ b c", SHELL_SPLIT_COMMAND), 4));
	cr_assert(eq(long, word_len("x.o;rm", SHELL_SPLIT_COMMAND), 3));
	cr_assert(eq(long, word_len("a=b,c:d", SHELL_SPLIT_COMMAND), 7));
	cr_assert(eq(long, word_len(";x", SHELL_SPLIT_COMMAND), 0));
}

Test(shell_words, a_command_word_with_an_expansion_or_open_quote_is_unknown)
{
	cr_assert(eq(long, word_len("a$b", SHELL_SPLIT_COMMAND), -1));
	cr_assert(eq(long, word_len("\"x`y`\"", SHELL_SPLIT_COMMAND), -1));
	cr_assert(eq(long, word_len("'open", SHELL_SPLIT_COMMAND), -1));
	cr_assert(eq(long, word_len("\"open", SHELL_SPLIT_COMMAND), -1));
	cr_assert(eq(long, word_len("end\\", SHELL_SPLIT_COMMAND), -1));
	/* Single quotes keep a $ from expanding. */
	cr_assert(eq(long, word_len("'$x' y", SHELL_SPLIT_COMMAND), 4));
}

Test(shell_words, name_parts_split_at_option_punctuation_and_quotes)
{
	const char *flags = "-Wl,-soname,libx.so";

	cr_assert(eq(long, word_len(flags, SHELL_SPLIT_NAMES), 3));
	cr_assert(eq(long, word_len(flags + 12, SHELL_SPLIT_NAMES), 7));
	cr_assert(eq(long, word_len("obj=mm", SHELL_SPLIT_NAMES), 3));
	cr_assert(eq(long, word_len("$(obj)/x.o", SHELL_SPLIT_NAMES), 0));
	cr_assert(eq(long, word_len("'a b'", SHELL_SPLIT_NAMES), 0));
	cr_assert(eq(long, word_len("mm/a.o", SHELL_SPLIT_NAMES), 6));
	cr_assert(eq(long, word_len("x.c}", SHELL_SPLIT_NAMES), 3));
}

static void expect_word(const char *s, const char *want, long rest)
{
	const char *p = s;
	char *word;

	cr_assert(eq(int, shell_word(&p, &word), 0), "%s", s);
	cr_assert(eq(str, word, (char *)want));
	cr_assert(eq(long, p - s, rest));
	free(word);
}

Test(shell_words, quotes_and_backslashes_are_taken_off)
{
	expect_word("'a b'\"c\\\"d\"e\\ f g", "a bc\"de f", 15);
	/* In double quotes a backslash quotes only " \ $ `: before n it stays. */
	expect_word("\"a\\nb\"", "a\\nb", 6);
	/* A backslash before a newline joins the lines. */
	expect_word("ab\\\ncd", "abcd", 6);
	expect_word("''", "", 2);
}

Test(shell_words, an_unknown_word_is_refused)
{
	const char *s = "a$HOME", *p = s;
	char *word = (char *)s;

	cr_assert(eq(int, shell_word(&p, &word), -EINVAL));
	cr_assert(eq(ptr, word, NULL));
	cr_assert(eq(ptr, (void *)p, (void *)s));
}

Test(shell_words, assignments)
{
	cr_assert(shell_is_assignment("CC=gcc"));
	cr_assert(shell_is_assignment("_x1="));
	cr_assert(not(shell_is_assignment("1A=2")));
	cr_assert(not(shell_is_assignment("=x")));
	cr_assert(not(shell_is_assignment("CC")));
	cr_assert(not(shell_is_assignment("a-b=c")));
	cr_assert(eq(sz, shell_assignment_len("ab=c", 4), 3));
	/* The '=' must lie within the word's length. */
	cr_assert(eq(sz, shell_assignment_len("ab=c", 2), 0));
}

/* The commands of script, each as its words joined by '|', ";" after each; "!" for -EINVAL. */
static void expect_commands(const char *script, const char *want)
{
	struct shell_cmd cmd = { 0 };
	const char *p = script;
	char got[256] = "";
	int found;
	size_t i;

	while ((found = shell_next_command(&p, &cmd)) == 1) {
		for (i = 0; i < cmd.nr; i++) {
			strcat(got, i ? "|" : "");
			strcat(got, cmd.words[i]);
		}
		cr_assert(eq(ptr, cmd.words[cmd.nr], NULL));
		strcat(got, ";");
	}
	if (found == -EINVAL)
		strcat(got, "!");
	else
		cr_assert(eq(int, found, 0));
	cr_assert(eq(str, got, (char *)want), "%s", script);
	shell_cmd__free(&cmd);
}

Test(shell_words, a_script_splits_into_simple_commands)
{
	expect_commands("cd /b && CC=gcc exec cc -c x.c 2>/dev/null >out; echo hi", "cd|/b;cc|-c|x.c;echo|hi;");
	expect_commands("a || b | c & d\n e", "a;b;c;d;e;");
	expect_commands("# a comment\nmake -j2", "make|-j2;");
	expect_commands("cat <in 2>&1", "cat;");
	expect_commands(" ; ;", "");
	expect_commands("", "");
}

Test(shell_words, what_a_name_does_not_follow_stops_the_script)
{
	expect_commands("true; if x; then y; fi", "true;!");
	expect_commands("(cd x && make)", "!");
	expect_commands("cat <<EOF", "!");
	expect_commands("a; echo $x", "a;!");
	expect_commands("for f in a; do x; done", "!");
}
