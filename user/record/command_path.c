// SPDX-License-Identifier: GPL-2.0
/* A command's name looked up in PATH as a shell does: include/record/command_path.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "record/command_path.h"

bool command_path__found(const char *name, const char *path)
{
	char file[PATH_MAX];
	const char *dir, *end;
	struct stat st;
	int n;

	for (dir = path; dir; dir = *end ? end + 1 : NULL) {
		end = strchrnul(dir, ':');
		/* An empty element is the current directory, as execvp reads it. */
		n = snprintf(file, sizeof(file), "%.*s%s%s", (int)(end - dir), dir, end > dir ? "/" : "", name);
		if (n >= 0 && (size_t)n < sizeof(file) && !stat(file, &st) && !S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}
