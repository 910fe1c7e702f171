/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one shell tokenizer: how a command line splits into words, read by
 * the step names (a sh -c script's step and its cds) and the job graph (the
 * file names a recipe's lines share).  A name follows only what it can
 * know without running the shell: a word with an expansion ($, `) or a
 * command with compound syntax is refused, never guessed.  Pure.
 */
#ifndef BUILDBPF_MODEL_SHELL_WORDS_H
#define BUILDBPF_MODEL_SHELL_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* What ends a word whatever is looked for: blanks, control operators, redirections, subshells. */
#define SHELL_BREAKS " \t\n;&|<>()"

/*
 * How words split.  The two differ because their readers ask different
 * questions of the same text:
 *   SHELL_SPLIT_COMMAND  as sh splits a command: quotes and backslashes
 *     join what they quote into the word; an expansion or an unbalanced
 *     quote makes the word unknown.  For what a command runs.
 *   SHELL_SPLIT_NAMES    raw runs between SHELL_BREAKS, quotes,
 *     expansions and the punctuation options glue names with (",=:{}"):
 *     for the file names inside any argument ("-Wl,-soname,libx.so",
 *     "obj=mm", "$(obj)/x.o"), where an expansion hides no name after it.
 */
enum shell_split { SHELL_SPLIT_COMMAND, SHELL_SPLIT_NAMES };

/* Where the word starting at s ends; NULL for SHELL_SPLIT_COMMAND's unknown word.  s itself: no word there. */
const char *shell_word_end(const char *s, enum shell_split how);
/*
 * The SHELL_SPLIT_COMMAND word at *s with its quotes taken off, in *word
 * (malloc'd), advancing *s past it.  0, -EINVAL (an unknown word: *word
 * NULL), -ENOMEM.
 */
int shell_word(const char **s, char **word);
/* NAME=value: an assignment before a command's name (and awk's -v NAME=value). */
bool shell_is_assignment(const char *word);
/* The length of w[0, len)'s "NAME=" when it is an assignment, else 0. */
size_t shell_assignment_len(const char *w, size_t len);

/* One simple command of a script: its words, unquoted, words[nr] NULL. */
struct shell_cmd {
	char **words;
	size_t nr, cap;
};

/*
 * The next simple command of the script at *s, advancing *s past it and
 * its separator, with redirections, leading assignments and "exec"
 * dropped.  1 with cmd filled, 0 at the script's end, -EINVAL where the
 * script uses what a name does not follow (expansions, compound commands,
 * subshells, here-documents), -ENOMEM.
 */
int shell_next_command(const char **s, struct shell_cmd *cmd);
void shell_cmd__free(struct shell_cmd *cmd);

#endif /* BUILDBPF_MODEL_SHELL_WORDS_H */
