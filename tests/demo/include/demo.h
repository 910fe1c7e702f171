/* demo.h — the API of libdemo.a. */
#ifndef DEMO_DEMO_H
#define DEMO_DEMO_H

#include <stddef.h>
#include <stdint.h>

#include "vec.h"

/* crc.c: CRC-32 (IEEE 802.3), start with crc = 0. */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);

/* words.c: calls FN for each word (a run of letters, digits or '_') of
 * TEXT, lower-cased into a scratch buffer; stops early when FN returns
 * non-zero.  Returns the number of words seen. */
typedef int (*word_fn)(const char *word, size_t len, void *ctx);
size_t words_split(const char *text, size_t len, word_fn fn, void *ctx);

/* hash.c: counts of distinct words. */
struct wordtab;
struct wordtab *wordtab_new(void);
void wordtab_free(struct wordtab *t);
/* Returns 0, or -1 when out of memory. */
int wordtab_add(struct wordtab *t, const char *word, size_t len);
size_t wordtab_size(const struct wordtab *t);
/* Appends every (word, count) to OUT; the words stay owned by T. */
int wordtab_collect(const struct wordtab *t, struct vec *out);

/* fmt.c */
char *fmt_bar(char *buf, size_t size, size_t value, size_t max);
char *fmt_size(char *buf, size_t size, size_t bytes);

/* mix.c: a slow-to-compile but fast-to-run 32-bit fingerprint. */
uint32_t mix_fingerprint(uint32_t x);

#endif
