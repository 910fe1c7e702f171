/* words.c — split text into lower-case words. */
#include <ctype.h>

#include "demo.h"

#define WORD_MAX 64

static int is_word_char(unsigned char c)
{
	return isalnum(c) || c == '_';
}

size_t words_split(const char *text, size_t len, word_fn fn, void *ctx)
{
	char word[WORD_MAX];
	size_t i = 0, n = 0;

	while (i < len) {
		while (i < len && !is_word_char((unsigned char)text[i]))
			i++;
		if (i == len)
			break;
		size_t wlen = 0;
		while (i < len && is_word_char((unsigned char)text[i])) {
			if (wlen < WORD_MAX)
				word[wlen++] = (char)tolower((unsigned char)text[i]);
			i++;
		}
		n++;
		if (fn && fn(word, wlen, ctx))
			break;
	}
	return n;
}
