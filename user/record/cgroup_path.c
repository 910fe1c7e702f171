// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "record/cgroup_path.h"

/*
 * Copies one space-separated mountinfo field, undoing the kernel's octal
 * escapes (\040 for a space, \011, \012, \134).  Returns the end of the
 * field in src, or NULL when it does not fit.
 */
static const char *copy_field(const char *src, char *dst, size_t size)
{
	size_t n = 0;

	while (*src && *src != ' ' && *src != '\n') {
		char c = *src++;

		if (c == '\\' && src[0] >= '0' && src[0] <= '3' && src[1] >= '0' && src[1] <= '7' && src[2] >= '0' &&
		    src[2] <= '7') {
			c = (char)((src[0] - '0') << 6 | (src[1] - '0') << 3 | (src[2] - '0'));
			src += 3;
		}
		if (n + 1 >= size)
			return NULL;
		dst[n++] = c;
	}
	dst[n] = '\0';
	return src;
}

/* The start of field i (0-based) of a line, or NULL. */
static const char *field(const char *line, int i)
{
	while (i-- > 0) {
		line = strpbrk(line, " \n");
		if (!line || *line == '\n')
			return NULL;
		line++;
	}
	return line;
}

int cgroup_path__mount(const char *mountinfo, char *mnt, size_t mnt_size, char *root, size_t root_size)
{
	const char *line = mountinfo;

	while (line && *line) {
		/* Optional fields end at " - ", then fstype and source. */
		const char *sep = strstr(line, " - "), *eol = strchr(line, '\n');

		if (sep && (!eol || sep < eol) && !strncmp(sep + 3, "cgroup2 ", 8)) {
			const char *r = field(line, 3), *m = field(line, 4);

			if (!r || !m)
				return -ENOENT;
			if (!copy_field(r, root, root_size) || !copy_field(m, mnt, mnt_size))
				return -ENAMETOOLONG;
			return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

/* Path components of p ("/a//b/" has 2); -1 for a ".." one. */
static int components(const char *p)
{
	int n = 0;

	while (*p) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if (len == 2 && !strncmp(p, "..", 2))
			return -1;
		if (len && !(len == 1 && *p == '.'))
			n++;
		p += len;
	}
	return n;
}

int cgroup_path__resolve(const char *mnt, const char *mnt_root, const char *path, char *out, size_t size,
			 unsigned int *level)
{
	size_t mnt_len = strlen(mnt);
	const char *rel;
	int below, above;

	if (!*path)
		return -EINVAL;
	/* Under the mount point already ("/" mounted there: everything is). */
	if (!strncmp(path, mnt, mnt_len) && (path[mnt_len] == '/' || path[mnt_len] == '\0' || !strcmp(mnt, "/")))
		rel = path + mnt_len;
	else
		rel = path;
	below = components(rel);
	above = components(mnt_root);
	if (below < 0 || above < 0)
		return -EINVAL;
	if ((size_t)snprintf(out, size, "%s%s%s", mnt, *rel == '/' || !strcmp(mnt, "/") ? "" : "/", rel) >= size)
		return -ENAMETOOLONG;
	*level = above + below;
	return 0;
}
