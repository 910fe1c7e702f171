/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one rule for "this word names a file", and the one table of the
 * extensions source files have.  Read by the step names (what an unknown
 * program works on, a compiler's input), the job graph (the files a
 * recipe's lines share), distcc's remote jobs (the client's input) and the
 * compiler-cache audit (the operands a server repeats).  Pure.
 */
#ifndef BUILDBPF_MODEL_FILE_WORDS_H
#define BUILDBPF_MODEL_FILE_WORDS_H

#include <stddef.h>

/*
 * How sure a reader must be that a word is a file, loosest first.  No word
 * starting with '-' is a file at any level (an option).  The levels differ
 * because their readers pay differently for a wrong word:
 *   FILE_WORD_OPERAND   any other word, "" too: a cache server's compile
 *     repeats its client's operands as written, whatever they look like.
 *   FILE_WORD_PATH      a letter and a '/' or '.', not under /dev/ ("sleep
 *     0.5" and 2>/dev/null are none): words cut from any text of a recipe
 *     line (shell_words.h's SHELL_SPLIT_NAMES), where a missed name loses
 *     a link between lines, a stray one only costs a comparison.
 *   FILE_WORD_NAMED     a plain word (no blank, quote, shell syntax or
 *     format: a sed script, date's +%s.%N, "+x" are none) whose base name
 *     has a dot that is neither its first nor its last character; the
 *     value of NAME=VALUE ("-v file=mm/filemap.o") when that is one: what
 *     names a step of a program nothing else knows.
 *   FILE_WORD_SOURCE    a base name whose extension (after a dot that is
 *     not its first character) is a source language's: a compiler's input.
 *   FILE_WORD_C_SOURCE  a word whose text after its last dot is a C-family
 *     source's extension (".c", "x.cc", "a.i"; a hidden ".c" too, as
 *     distcc's client takes it): what distcc sends to be compiled.
 */
enum file_word_test {
	FILE_WORD_OPERAND,
	FILE_WORD_PATH,
	FILE_WORD_NAMED,
	FILE_WORD_SOURCE,
	FILE_WORD_C_SOURCE,
};

/*
 * Whether w[0, len) names a file by test: where the file's name starts in
 * w (after "NAME=" for FILE_WORD_NAMED, else w), or NULL.
 */
const char *file_word(const char *w, size_t len, enum file_word_test test);

#endif /* BUILDBPF_MODEL_FILE_WORDS_H */
