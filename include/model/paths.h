/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paths as step names show them: lexical (no file system is read, a
 * symlinked directory's ".." is not followed), from the build's directory
 * ("src/foo.c", "../lib/x.h"), cut in the middle of their directories.
 * Pure.
 */
#ifndef BUILDBPF_MODEL_PATHS_H
#define BUILDBPF_MODEL_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The directory an image runs in and the build's, both normalised ("." when unknown). */
struct name_dirs {
	const char *dir;
	const char *build;
};

/* The last component of path, ignoring trailing slashes ("/" of "/"); *len 0 if none. */
const char *path_basename(const char *path, size_t *len);
/* path_basename() of the path path[0, len). */
const char *path_basename_of(const char *path, size_t len, size_t *base_len);
/*
 * A copy of path without "." or empty components and with ".." taken out
 * where it can be ("/.." is "/"; a relative path keeps its leading "..").
 * "." for an empty relative path; NULL on allocation failure.
 */
char *path_normalise(const char *path);
/* path taken from directory dir (both may be relative), normalised; NULL without memory. */
char *path_resolve(const char *dir, const char *path);
/*
 * dir (malloc'd, or NULL) if it is no longer than getcwd() reports, else
 * "." (unknown): a longer one is no build's, and each name below it would
 * cost its length.
 */
char *path_dir_known(char *dir);
/* The directory path names from directory dir, as a cd or -C takes it (path_dir_known()). */
char *path_dir_resolve(const char *dir, const char *path);
/*
 * The normalised path as seen from the normalised directory from: "x/y"
 * under it, "../x" (up to two levels) beside it, else the path itself (a
 * relative path and an absolute directory, or the reverse, cannot be
 * related).  malloc'd; NULL without memory.
 */
char *path_from(const char *path, const char *from);
/*
 * A compiler's temporary: a file right in /tmp, /var/tmp or /dev/shm
 * (unless the build is there), or anywhere in the go command's $WORK there.
 */
bool path_is_temporary(const char *path, const char *build_dir);
/* Cuts a long path, in place, to its last components after "…/" (a single long name to itself). */
void path_shorten(char *s);

/* path (an argument of an image run in dirs) as a name shows it; NULL without memory. */
char *name_dirs__shown(const struct name_dirs *dirs, const char *path);
/* *temp: whether path, an argument of an image run in dirs, is a compiler's temporary.  0 or -ENOMEM. */
int name_dirs__temporary(const struct name_dirs *dirs, const char *path, bool *temp);

#endif /* BUILDBPF_MODEL_PATHS_H */
