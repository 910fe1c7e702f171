// SPDX-License-Identifier: GPL-2.0
/* Tags that tell apart steps of one name (include/model/step_tags.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/step_tags.h"

/* CMake's directory of a target's objects: the target's name, then this. */
#define TARGET_DIR_SUFFIX ".dir"
/* libtool's directory of the objects it compiles with -fPIC for a shared library. */
#define LIBTOOL_PIC_DIR ".libs"

/* The number of components of path ("a/b/c": 3). */
static size_t nr_components(const char *path)
{
	size_t n = 1;

	for (; *path; path++)
		n += *path == '/' && path[1];
	return n;
}

/* The start of component k of path, and its length in *len. */
static const char *component(const char *path, size_t k, size_t *len)
{
	for (; k > 0; k--)
		path = strchr(path, '/') + 1;
	*len = strcspn(path, "/");
	return path;
}

static bool same_component(const char *a, size_t ka, const char *b, size_t kb)
{
	size_t la, lb;
	const char *ca = component(a, ka, &la), *cb = component(b, kb, &lb);

	return la == lb && !memcmp(ca, cb, la);
}

/* Components [from, to) of path as a tag: a target's directory by its name, libtool's .libs as "PIC". */
static char *tag_of(const char *path, size_t from, size_t to)
{
	char *tag = malloc(strlen(path) + 4), *out = tag;
	size_t k, len, suffix = strlen(TARGET_DIR_SUFFIX);

	if (!tag)
		return NULL;
	for (k = from; k < to; k++) {
		const char *c = component(path, k, &len);

		if (out != tag)
			*out++ = '/';
		if (len == strlen(LIBTOOL_PIC_DIR) && !memcmp(c, LIBTOOL_PIC_DIR, len)) {
			memcpy(out, "PIC", 3);
			out += 3;
			continue;
		}
		if (len > suffix && !memcmp(c + len - suffix, TARGET_DIR_SUFFIX, suffix))
			len -= suffix;
		memcpy(out, c, len);
		out += len;
	}
	*out = '\0';
	return tag;
}

/* Whether some made path differs from made[first] in its component k, counted from its end when from_end. */
static bool differs_at(const char *const *made, size_t nr, size_t first, size_t k, bool from_end)
{
	size_t i, n = nr_components(made[first]);

	for (i = first + 1; i < nr; i++) {
		size_t m = made[i] ? nr_components(made[i]) : 0;

		if (made[i] && !same_component(made[first], from_end ? n - 1 - k : k, made[i], from_end ? m - 1 - k : k))
			return true;
	}
	return false;
}

/*
 * The components every made path of [0, nr) shares at its start (*lead)
 * and, after those, at its end (*trail).  Returns how many made anything.
 */
static size_t shared_components(const char *const *made, size_t nr, size_t *lead, size_t *trail)
{
	size_t i, first = nr, least = 0, known = 0;

	for (i = 0; i < nr; i++) {
		if (!made[i])
			continue;
		if (!known++) {
			first = i;
			least = nr_components(made[i]);
		} else if (nr_components(made[i]) < least) {
			least = nr_components(made[i]);
		}
	}
	*lead = *trail = 0;
	if (known < 2)
		return known;
	while (*lead < least && !differs_at(made, nr, first, *lead, false))
		++*lead;
	while (*lead + *trail < least && !differs_at(made, nr, first, *trail, true))
		++*trail;
	return known;
}

int step_tags(const char *const *made, size_t nr, char **tags)
{
	size_t lead, trail, i, known = shared_components(made, nr, &lead, &trail);

	for (i = 0; i < nr; i++) {
		size_t n = made[i] ? nr_components(made[i]) : 0, from = known < 2 ? n - 1 : lead;
		size_t to = known < 2 ? n : n - trail;

		tags[i] = NULL;
		if (!made[i] || from >= to)
			continue;
		tags[i] = tag_of(made[i], from, to);
		if (!tags[i]) {
			while (i > 0)
				free(tags[--i]);
			return -ENOMEM;
		}
	}
	return 0;
}
