// SPDX-License-Identifier: GPL-2.0
/* The text of step names (include/model/name_text.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/name_text.h"
#include "util/utf8.h"

char *name_join(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = b ? strlen(sep) : 0, lb = b ? strlen(b) : 0;
	char *s = malloc(la + ls + lb + 1);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, sep, ls);
	memcpy(s + la + ls, b ? b : "", lb);
	s[la + ls + lb] = '\0';
	return s;
}

int name_append(char **s, const char *key, const char *value)
{
	char *part = name_join(key, "", value), *next;

	if (!part)
		return -ENOMEM;
	next = *s ? name_join(*s, " ", part) : strdup(part);
	free(part);
	if (!next)
		return -ENOMEM;
	free(*s);
	*s = next;
	return 0;
}

void name_cap(char *s, size_t max_bytes)
{
	size_t cut;

	if (strlen(s) <= max_bytes)
		return;
	cut = utf8_prefix_len(s, max_bytes - NAME_ELLIPSIS_LEN);
	while (cut > 0 && s[cut - 1] == ' ')
		cut--;
	memcpy(s + cut, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN + 1);
}

/*
 * In the word s[start, end) of a name, the '/' from which "…" + the rest
 * saves at least need bytes: the first such when first, else its file
 * name's own; 0 when it saves fewer.
 */
static size_t dirs_cut_at(const char *s, size_t start, size_t end, size_t need, bool first)
{
	size_t i, last = 0;

	for (i = start + 1; i < end; i++) {
		if (s[i] == '/')
			last = i;
	}
	for (i = start + 1; first && i <= last; i++) {
		if (s[i] == '/' && i - start >= need + NAME_ELLIPSIS_LEN)
			return i;
	}
	return last && last - start >= need + NAME_ELLIPSIS_LEN ? last : 0;
}

/*
 * Cuts the leading directories of the first word of s (after its program,
 * the first word) whose directories save need bytes: as few as do that
 * when first, else all of them.  Returns whether there was such a word.
 */
static bool cut_dirs(char *s, size_t need, bool first)
{
	size_t i = strcspn(s, " ");

	while (s[i]) {
		size_t w = i + 1, e = w + strcspn(s + w, " "), from = dirs_cut_at(s, w, e, need, first);

		if (from) {
			memcpy(s + w, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
			memmove(s + w + NAME_ELLIPSIS_LEN, s + from, strlen(s + from) + 1);
			return true;
		}
		i = e;
	}
	return false;
}

/*
 * Cuts s to max_bytes after its last whole word that fits, past its
 * program, with " …" ("m4 …/x.m4 > …/traces.0t" to "m4 …/x.m4 > …"): a
 * word is a path whose end is its file name.  name_cap() when no word
 * fits, or the words that do fill less than half of max_bytes.
 */
static void cap_at_word(char *s, size_t max_bytes)
{
	size_t prog = strcspn(s, " "), cut;

	if (strlen(s) <= max_bytes)
		return;
	for (cut = max_bytes - NAME_ELLIPSIS_LEN - 1; cut > prog && s[cut] != ' '; cut--)
		;
	/* The words before a run of blanks end at its first. */
	while (cut > prog && s[cut - 1] == ' ')
		cut--;
	/* As name_fold(): a cut that would keep less than half of the room goes inside the word. */
	if (cut <= prog || 2 * cut < max_bytes || cut + 1 + NAME_ELLIPSIS_LEN > max_bytes) {
		name_cap(s, max_bytes);
		return;
	}
	memcpy(s + cut + 1, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN + 1);
}

void name_shorten(char *s, size_t max_bytes)
{
	size_t len;

	/* One path's directories when they are enough; else every path's, first to last, while it helps. */
	while ((len = strlen(s)) > max_bytes && max_bytes > NAME_ELLIPSIS_LEN) {
		if (cut_dirs(s, len - max_bytes, true))
			return;
		if (!cut_dirs(s, 1, false))
			break;
	}
	if (max_bytes > NAME_ELLIPSIS_LEN + 1)
		cap_at_word(s, max_bytes);
	else
		name_cap(s, max_bytes);
}

bool name_fold(char *s, size_t max_chars)
{
	size_t in, out = 0, chars = 0, blank = 0, blank_chars = 0; /* the last blank, and the characters before it */
	bool space = false, cut = false;

	for (in = 0; s[in]; in++) {
		unsigned char c = s[in];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			space = out > 0;
			continue;
		}
		if ((c & 0xc0) != 0x80) { /* a character starts here */
			if (chars + space >= max_chars) {
				/* After the last whole word, unless that drops more than half: a word may be a file's name. */
				if (space)
					s[out++] = ' ';
				else if (blank && 2 * blank_chars >= max_chars)
					out = blank + 1;
				memcpy(s + out, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
				out += NAME_ELLIPSIS_LEN;
				cut = true;
				break;
			}
			chars += 1 + space;
		}
		if (space) {
			blank = out;
			blank_chars = chars - 1; /* chars counted this blank already */
			s[out++] = ' ';
			space = false;
		}
		s[out++] = c;
	}
	s[out] = '\0';
	return cut;
}

bool name_in_list(const char *s, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		/* The first two bytes rule out most entries without a call: every
		 * option starts with '-'.  s[1] is read only when s[0] is no NUL. */
		if (s[0] != list[i][0] || (s[0] && s[1] != list[i][1]))
			continue;
		if (!strcmp(s, list[i]))
			return true;
	}
	return false;
}

/* strcmp()'s order, inline: the names looked up are a few bytes long, and looked up for every argument of a compile. */
static int cmp_short(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

bool name_in_sorted(const char *s, const char *const *list, size_t nr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_short(s, list[mid]);

		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

bool names_sorted(const char *const *list, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (strcmp(list[i - 1], list[i]) >= 0)
			return false;
	return true;
}
