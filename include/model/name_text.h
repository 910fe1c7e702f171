/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text of step names, below everything that names a step: the cap on
 * a name's length, how a name is cut, joined and folded, and the lookup of
 * a word in a list of words.  Pure.
 */
#ifndef BUILDBPF_MODEL_NAME_TEXT_H
#define BUILDBPF_MODEL_NAME_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The longest name, in bytes; longer ones end in an ellipsis. */
#define NAME_MAX_BYTES 80
/* U+2026 HORIZONTAL ELLIPSIS, which ends a name or a script that was cut. */
#define NAME_ELLIPSIS "\xe2\x80\xa6"
#define NAME_ELLIPSIS_LEN (sizeof(NAME_ELLIPSIS) - 1)

/* "a" + sep + "b", or just a when b is NULL.  malloc'd; NULL without memory. */
char *name_join(const char *a, const char *sep, const char *b);
/* Appends " key value" to *s (malloc'd, or NULL for ""), as "key value" when *s is NULL.  0 or -ENOMEM. */
int name_append(char **s, const char *key, const char *value);
/* Cuts the valid UTF-8 string s, in place, to max_bytes with an ellipsis (blanks before it dropped). */
void name_cap(char *s, size_t max_bytes);
/*
 * Cuts the valid UTF-8 name s, in place, to max_bytes: the leading
 * directories of a path in it give way first ("cc1 …/nested/x.c [lib]"),
 * never its file name; then whole words give way from the end ("m4
 * …/x.m4 > …"); name_cap() when the words that fit fill less than half.
 */
void name_shorten(char *s, size_t max_bytes);
/*
 * Folds whitespace runs of the valid UTF-8 string s to one space, in place,
 * and cuts it after max_chars characters with an ellipsis: after its last
 * whole word (" …"), unless that would keep less than half.  s must have
 * room for NAME_ELLIPSIS_LEN more bytes than its length.  Returns whether it cut.
 */
bool name_fold(char *s, size_t max_chars);
/* Whether s is one of list[0, nr). */
bool name_in_list(const char *s, const char *const *list, size_t nr);

/* Whether s is one of list[0, nr), which is in strcmp() order (names_sorted()): a binary search. */
bool name_in_sorted(const char *s, const char *const *list, size_t nr);
/* Whether list[0, nr) is in strcmp() order, each name once. */
bool names_sorted(const char *const *list, size_t nr);

#define NAME_IN_LIST(s, list) name_in_list((s), (list), sizeof(list) / sizeof((list)[0]))

#endif /* BUILDBPF_MODEL_NAME_TEXT_H */
