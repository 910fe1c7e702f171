/* SPDX-License-Identifier: GPL-2.0 */
/* The last component of a path as a program or a file is named by it. */
#ifndef BUILDBPF_UTIL_BASE_NAME_H
#define BUILDBPF_UTIL_BASE_NAME_H

#include <string.h>

/* What follows the last '/' of path (all of it without one; "" after a trailing '/'). */
static inline const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

#endif /* BUILDBPF_UTIL_BASE_NAME_H */
