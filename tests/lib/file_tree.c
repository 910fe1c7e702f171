// SPDX-License-Identifier: GPL-2.0
/* Writing a generated project's files: lib/file_tree.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/file_tree.h"

/* Makes every directory of path before its last component. */
static int make_parents(char *path)
{
	char *slash;

	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*slash = '/';
			return -errno;
		}
		*slash = '/';
	}
	return 0;
}

FILE *file_tree__open(const char *top, const char *rel)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", top, rel);

	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/* make_parents() leaves errno set on failure. */
	if (make_parents(path))
		return NULL;
	return fopen(path, "w");
}

int file_tree__close(FILE *f)
{
	int err = ferror(f) ? -EIO : 0;

	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int file_tree__write(const char *top, const char *rel, const char *text)
{
	FILE *f = file_tree__open(top, rel);

	if (!f)
		return -errno;
	fputs(text, f);
	return file_tree__close(f);
}
