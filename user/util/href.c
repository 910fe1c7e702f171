// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/href.h"

char *href_encode(const char *raw)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(3 * strlen(raw) + 1), *o = out;
	const unsigned char *c;

	if (!out)
		return NULL;
	for (c = (const unsigned char *)raw; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("-._~/", *c)) {
			*o++ = (char)*c;
		} else {
			*o++ = '%';
			*o++ = hex[*c >> 4];
			*o++ = hex[*c & 15];
		}
	}
	*o = '\0';
	return out;
}

/* The directory part of path resolved, in buf (PATH_MAX); the base name in *base.  0, or -1. */
static int resolve_dir(const char *path, char *buf, const char **base)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	*base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return realpath(dir, buf) ? 0 : -1;
}

/* The length of path's first component (path past its slashes). */
static size_t component_len(const char *path)
{
	return strcspn(path, "/");
}

char *href_relative(const char *from_file, const char *to_file)
{
	char from[PATH_MAX], to[PATH_MAX], *rel, *out;
	const char *base, *ignored, *f, *t;
	size_t ups = 0, n;

	if (resolve_dir(from_file, from, &ignored) || resolve_dir(to_file, to, &base))
		return NULL;
	/* Past the components both directories share. */
	f = from;
	t = to;
	for (;;) {
		while (*f == '/')
			f++;
		while (*t == '/')
			t++;
		n = component_len(f);
		if (!n || n != component_len(t) || strncmp(f, t, n))
			break;
		f += n;
		t += n;
	}
	/* One "../" per component of from left. */
	for (; *f; f += component_len(f)) {
		while (*f == '/')
			f++;
		ups += *f != '\0';
	}
	rel = malloc(3 * ups + strlen(t) + 1 + strlen(base) + 1);
	if (!rel)
		return NULL;
	rel[0] = '\0';
	while (ups--)
		strcat(rel, "../");
	if (*t) {
		strcat(rel, t);
		strcat(rel, "/");
	}
	strcat(rel, base);
	out = href_encode(rel);
	free(rel);
	return out;
}
