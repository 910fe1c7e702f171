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

/* A path outside the build's directory is shown as "../../x" at most. */
#define PATH_MAX_UPS 2

/*
 * The directory an image runs in and the build's, both normalised ("." when
 * unknown); the sources' root, the build's or an ancestor of it (NULL: the
 * build's), from which a source outside the build's directory is shown.
 */
struct name_dirs {
	const char *dir;
	const char *build;
	const char *root;
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
/* Whether dir is one of the directories compilers put temporaries in ("/tmp"). */
bool path_is_temp_dir(const char *dir);
/* Cuts a long path, in place, to its last components after "…/" (a single long name to itself). */
void path_shorten(char *s);
/* path_shorten() to max_bytes: "…/deps/libx-1a2b.rmeta"; a file name longer than that is left whole. */
void path_shorten_to(char *s, size_t max_bytes);

/* Whether the normalised path is the directory dir or under it. */
bool path_is_under(const char *path, const char *dir);
/*
 * The deepest directory two normalised absolute paths share ("/" at
 * least); "." when either is relative.  malloc'd; NULL without memory.
 */
char *path_common_dir(const char *a, const char *b);
/*
 * The normalised full path as a name shows it: from the build's directory
 * when under it, else from root (NULL: the build's) when under that ("src/x.c"
 * for "../src/x.c" of an out-of-tree build), else as path_from(full, build).
 * malloc'd; NULL without memory.
 */
char *path_from_root(const char *full, const char *build, const char *root);
/* path (an argument of an image run in dirs) as a name shows it; NULL without memory. */
char *name_dirs__shown(const struct name_dirs *dirs, const char *path);
/* *temp: whether path, an argument of an image run in dirs, is a compiler's temporary.  0 or -ENOMEM. */
int name_dirs__temporary(const struct name_dirs *dirs, const char *path, bool *temp);

#endif /* BUILDBPF_MODEL_PATHS_H */
