/* SPDX-License-Identifier: GPL-2.0 */
/*
 * argv and filenames reach us as raw bytes from the kernel: any encoding,
 * or none.  JSON must be UTF-8, so every such string passes through here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/utf8.h"

static const char replacement[] = UTF8_REPLACEMENT;
#define REPLACEMENT_LEN (sizeof(replacement) - 1)

/*
 * See the header.  The narrowed second-byte ranges are
 * what reject overlongs (C0, C1, E0 80..9F, F0 80..8F), surrogates
 * (ED A0..BF) and code points above U+10FFFF (F4 90.., F5..FF).
 */
size_t utf8_char_len(const char *bytes, size_t avail)
{
	const unsigned char *s = (const unsigned char *)bytes;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (avail < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	}
	return len;
}

bool utf8_is_clean(const char *bytes, size_t len)
{
	const unsigned char *in = (const unsigned char *)bytes;
	size_t pos = 0, seq;

	while (pos < len) {
		/* ASCII, the common case, without the table walk */
		if (in[pos] >= 0x01 && in[pos] < 0x80) {
			pos++;
			continue;
		}
		seq = in[pos] ? utf8_char_len(bytes + pos, len - pos) : 0;
		if (!seq)
			return false;
		pos += seq;
	}
	return true;
}

char *utf8_sanitize(const char *bytes, size_t len)
{
	const unsigned char *in = (const unsigned char *)bytes;
	size_t pos = 0, out_len = 0, seq;
	char *out;

	/* Worst case every byte becomes a 3-byte U+FFFD. */
	if (len > (SIZE_MAX - 1) / REPLACEMENT_LEN)
		return NULL;
	out = malloc(len * REPLACEMENT_LEN + 1);
	if (!out)
		return NULL;

	while (pos < len) {
		seq = utf8_char_len(bytes + pos, len - pos);
		if (seq == 0 || in[pos] == '\0') {
			/* One replacement per offending byte, then resync on the
			 * next byte: a broken sequence never swallows a valid
			 * character that follows it. */
			memcpy(out + out_len, replacement, REPLACEMENT_LEN);
			out_len += REPLACEMENT_LEN;
			pos++;
			continue;
		}
		memcpy(out + out_len, in + pos, seq);
		out_len += seq;
		pos += seq;
	}
	out[out_len] = '\0';
	return out;
}

size_t utf8_prefix_len(const char *s, size_t max_bytes)
{
	size_t len = strnlen(s, max_bytes + 1);

	if (len <= max_bytes)
		return len;
	/* Back off continuation bytes so the cut lands before a lead byte. */
	len = max_bytes;
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* utf8_invisible_len()'s characters, as code point ranges. */
static const struct {
	unsigned int lo, hi;
} invisible[] = {
	{ 0x80, 0x9f },	    /* C1 controls */
	{ 0xad, 0xad },	    /* soft hyphen */
	{ 0x61c, 0x61c },   /* arabic letter mark */
	{ 0x200b, 0x200f }, /* zero-width space, non-joiner, joiner; LRM, RLM */
	{ 0x202a, 0x202e }, /* LRE, RLE, PDF, LRO, RLO */
	{ 0x2060, 0x2064 }, /* word joiner, invisible operators */
	{ 0x2066, 0x2069 }, /* LRI, RLI, FSI, PDI */
	{ 0xfeff, 0xfeff }, /* zero-width no-break space */
};

size_t utf8_invisible_len(const char *s)
{
	const unsigned char *c = (const unsigned char *)s;
	unsigned int cp;
	size_t len, i;

	/* Every one of them is two or three bytes long. */
	if (c[0] >= 0xc2 && c[0] <= 0xdf && (c[1] & 0xc0) == 0x80) {
		cp = (c[0] & 0x1fu) << 6 | (c[1] & 0x3fu);
		len = 2;
	} else if ((c[0] & 0xf0) == 0xe0 && (c[1] & 0xc0) == 0x80 && (c[2] & 0xc0) == 0x80) {
		cp = (c[0] & 0x0fu) << 12 | (c[1] & 0x3fu) << 6 | (c[2] & 0x3fu);
		len = 3;
	} else {
		return 0;
	}
	for (i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++)
		if (cp >= invisible[i].lo && cp <= invisible[i].hi)
			return len;
	return 0;
}
