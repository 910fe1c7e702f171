/* main.c — wordstat: word frequencies of text files.
 *
 * Usage: wordstat [FILE...]   (standard input when there is no FILE) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "demo.h"

struct totals {
	struct wordtab *tab;
	int failed;
};

static int count_word(const char *word, size_t len, void *ctx)
{
	struct totals *t = ctx;

	if (wordtab_add(t->tab, word, len)) {
		t->failed = 1;
		return 1;
	}
	return 0;
}

/* Reads all of F into a malloc'ed buffer; returns NULL on error. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);

	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			return NULL;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct totals totals = { wordtab_new(), 0 };
	size_t bytes = 0, words = 0;
	uint32_t crc = 0;
	int status = 0;

	if (!totals.tab) {
		fprintf(stderr, "%s: out of memory\n", DEMO_NAME);
		return 1;
	}
	for (int i = 1; i < argc || i == 1; i++) {
		const char *name = i < argc ? argv[i] : "-";
		FILE *f = strcmp(name, "-") ? fopen(name, "rb") : stdin;
		size_t len;
		char *text;

		if (!f) {
			fprintf(stderr, "%s: %s: %s\n", DEMO_NAME, name, strerror(errno));
			status = 1;
			continue;
		}
		text = slurp(f, &len);
		if (f != stdin)
			fclose(f);
		if (!text) {
			fprintf(stderr, "%s: %s: read error\n", DEMO_NAME, name);
			status = 1;
			continue;
		}
		bytes += len;
		crc = crc32_update(crc, text, len);
		words += words_split(text, len, count_word, &totals);
		free(text);
		if (totals.failed) {
			fprintf(stderr, "%s: out of memory\n", DEMO_NAME);
			wordtab_free(totals.tab);
			return 1;
		}
	}

	struct vec v = VEC_INIT;
	if (wordtab_collect(totals.tab, &v)) {
		fprintf(stderr, "%s: out of memory\n", DEMO_NAME);
		status = 1;
	}
	vec_sort_by_count(&v);

	char size[32], bar[DEMO_BAR_WIDTH + 1];
	printf("%s %s: %d file(s), %s, %zu words, %zu distinct (length >= %d)\n",
	       DEMO_NAME, DEMO_VERSION, argc > 1 ? argc - 1 : 1,
	       fmt_size(size, sizeof size, bytes), words, wordtab_size(totals.tab), DEMO_MIN_LEN);
	printf("crc32 %08lx, fingerprint %08lx\n\n", (unsigned long)crc,
	       (unsigned long)mix_fingerprint(crc));
	for (size_t i = 0; i < v.len && i < DEMO_TOP_N; i++)
		printf("%-16.*s %6zu %s\n", (int)v.items[i].len, v.items[i].word, v.items[i].count,
		       fmt_bar(bar, sizeof bar, v.items[i].count, v.items[0].count));

	vec_free(&v);
	wordtab_free(totals.tab);
	return status;
}
