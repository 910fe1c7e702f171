/* hash.c — an open-addressing table of word counts. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "demo.h"

struct slot {
	char *word;
	size_t len;
	size_t count;
};

struct wordtab {
	struct slot *slots;
	size_t cap, used;
};

/* FNV-1a */
static uint32_t hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct wordtab *wordtab_new(void)
{
	struct wordtab *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->cap = (size_t)1 << DEMO_HASH_BITS;
	t->slots = calloc(t->cap, sizeof *t->slots);
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void wordtab_free(struct wordtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].word);
	free(t->slots);
	free(t);
}

static struct slot *find(struct slot *slots, size_t cap, const char *word, size_t len)
{
	size_t i = hash(word, len) & (cap - 1);
	while (slots[i].word && (slots[i].len != len || memcmp(slots[i].word, word, len)))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct wordtab *t)
{
	size_t cap = t->cap * 2;
	struct slot *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].word)
			*find(slots, cap, t->slots[i].word, t->slots[i].len) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

int wordtab_add(struct wordtab *t, const char *word, size_t len)
{
	if (len < DEMO_MIN_LEN)
		return 0;
	if ((t->used + 1) * 4 > t->cap * 3 && grow(t))
		return -1;
	struct slot *s = find(t->slots, t->cap, word, len);
	if (!s->word) {
		s->word = malloc(len + 1);
		if (!s->word)
			return -1;
		memcpy(s->word, word, len);
		s->word[len] = '\0';
		s->len = len;
		t->used++;
	}
	s->count++;
	return 0;
}

size_t wordtab_size(const struct wordtab *t)
{
	return t->used;
}

int wordtab_collect(const struct wordtab *t, struct vec *out)
{
	for (size_t i = 0; i < t->cap; i++) {
		const struct slot *s = &t->slots[i];
		if (s->word && vec_push(out, (struct wordcount){ s->word, s->len, s->count }))
			return -1;
	}
	return 0;
}
