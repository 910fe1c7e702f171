// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and reading the trace files to merge.  The trace directory
 * belongs to the build's user: everything in it is opened relative to the
 * directory's fd with O_NOFOLLOW, and only regular files are read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/array_grow.h"
#include "util/term_escape.h"
#include "merge/trace_files.h"

struct file_id {
	dev_t dev;
	ino_t ino;
	bool used;
};

struct trace_files {
	struct trace_merge *tm;
	FILE *warn;
	/* A file reached twice (two globs, '**') is merged once: a hash set by
	 * (dev, ino), open addressing, a power of two slots at most half full.
	 * A scan per file made 80,000 files cost seconds. */
	struct file_id *seen;
	size_t nr_seen, cap_seen;
	bool warned_max_files;
	const volatile sig_atomic_t *stop; /* NULL: never */
};

/* ---- reading and merging one file ---- */

static void warn_file(struct trace_files *tf, const char *path, const char *why)
{
	char esc[TERM_ESCAPE_BUF];

	fprintf(tf->warn, "buildbpf: warning: not merging '%s': %s\n", term_escape(path, esc, sizeof(esc)), why);
}

static size_t file_slot(const struct file_id *set, size_t cap, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4full;
	size_t i = (size_t)(h ^ h >> 29);

	for (i &= cap - 1; set[i].used && !(set[i].dev == dev && set[i].ino == ino); i = (i + 1) & (cap - 1))
		;
	return i;
}

static int grow_seen(struct trace_files *tf)
{
	size_t cap = tf->cap_seen ? 2 * tf->cap_seen : 1024, i;
	struct file_id *set = calloc(cap, sizeof(*set));

	if (!set)
		return -ENOMEM;
	for (i = 0; i < tf->cap_seen; i++)
		if (tf->seen[i].used)
			set[file_slot(set, cap, tf->seen[i].dev, tf->seen[i].ino)] = tf->seen[i];
	free(tf->seen);
	tf->seen = set;
	tf->cap_seen = cap;
	return 0;
}

static bool seen_before(struct trace_files *tf, const struct stat *st, int *err)
{
	size_t i;

	*err = 2 * (tf->nr_seen + 1) > tf->cap_seen ? grow_seen(tf) : 0;
	if (*err)
		return false;
	i = file_slot(tf->seen, tf->cap_seen, st->st_dev, st->st_ino);
	if (tf->seen[i].used)
		return true;
	tf->seen[i] = (struct file_id){ st->st_dev, st->st_ino, true };
	tf->nr_seen++;
	return false;
}

/*
 * Reads the open file fd (anything but a regular file is ignored) and
 * merges it.  0, or -ENOMEM; every other problem is a warning.
 */
static int merge_fd(struct trace_files *tf, int fd, const char *path)
{
	size_t max = tf->tm->limits.file_max_bytes, len = 0;
	char why[160], *buf = NULL;
	struct stat st;
	ssize_t n;
	int err = 0;

	if (tf->stop && *tf->stop)
		return -EINTR;
	if (fstat(fd, &st)) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		goto skip;
	}
	if (!S_ISREG(st.st_mode) || seen_before(tf, &st, &err))
		goto cleanup;
	if (err)
		goto cleanup;
	if (tf->nr_seen > TRACE_FILES_MAX_FILES) {
		/* Not merged, and said: counted once each, as the set remembers them. */
		tf->tm->stats.skipped++;
		if (!tf->warned_max_files)
			fprintf(tf->warn, "buildbpf: warning: more than %d trace files; merging no more\n",
				TRACE_FILES_MAX_FILES);
		tf->warned_max_files = true;
		goto cleanup;
	}
	if ((size_t)st.st_size > max) {
		snprintf(why, sizeof(why), "larger than %zu bytes (--merge-max-file)", max);
		goto skip;
	}
	/* One byte over the cap tells a file that grew since fstat. */
	buf = malloc(max + 1 < (size_t)st.st_size + 1 ? max + 1 : (size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto cleanup;
	}
	while (len <= (size_t)st.st_size && len <= max) {
		n = read(fd, buf + len, ((size_t)st.st_size < max ? (size_t)st.st_size : max) + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, sizeof(why), "%s", strerror(errno));
			goto skip;
		}
		if (n == 0)
			break;
		len += n;
	}
	if (len > max) {
		snprintf(why, sizeof(why), "larger than %zu bytes (--merge-max-file)", max);
		goto skip;
	}
	err = trace_merge__add(tf->tm, path, buf, len, why, sizeof(why));
	if (err == 1) {
		err = 0;
		warn_file(tf, path, why);
	}
	goto cleanup;
skip:
	tf->tm->stats.skipped++;
	warn_file(tf, path, why);
cleanup:
	free(buf);
	return err;
}

static char *join(const char *dir, const char *name)
{
	char *path;

	if (!*dir)
		return strdup(name);
	if (asprintf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name) < 0)
		return NULL;
	return path;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir_fd but . and .., sorted (merge order is then stable). */
static int list_dir(int dir_fd, char ***names, size_t *nr)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *dir;
	int fd = dup(dir_fd), err = 0;

	*names = NULL;
	*nr = 0;
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	rewinddir(dir);
	while (!err && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		err = array_grow((void **)names, &cap, *nr + 1, sizeof(**names));
		if (!err && !((*names)[*nr] = strdup(de->d_name)))
			err = -ENOMEM;
		if (!err)
			(*nr)++;
	}
	closedir(dir);
	if (*nr)
		qsort(*names, *nr, sizeof(**names), cmp_names);
	return err;
}

static void free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

static int walk_dir(struct trace_files *tf, int dir_fd, const char *dir_path, int depth)
{
	char **names, *path;
	size_t nr, i;
	int err, fd;

	err = list_dir(dir_fd, &names, &nr);
	if (err == -ENOMEM)
		return err;
	for (i = 0; !err && i < nr; i++) {
		struct stat st;

		path = join(dir_path, names[i]);
		if (!path) {
			err = -ENOMEM;
			break;
		}
		/* O_NONBLOCK: a FIFO planted there must not hang us (it is then skipped). */
		fd = openat(dir_fd, names[i], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0 && !fstat(fd, &st) && S_ISDIR(st.st_mode)) {
			if (depth < TRACE_FILES_MAX_DEPTH)
				err = walk_dir(tf, fd, path, depth + 1);
		} else if (fd >= 0) {
			err = merge_fd(tf, fd, path);
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	free_names(names, nr);
	return err;
}

int trace_files__add_dir(struct trace_files *tf, int dir_fd, const char *dir_path)
{
	return walk_dir(tf, dir_fd, dir_path, 0);
}

/* ---- globs ---- */

static bool has_magic(const char *comp)
{
	return strpbrk(comp, "*?[") != NULL;
}

/*
 * Matches comps[0 .. n) below dir_fd (shown as dir_path).  '**' matches
 * zero or more directories, not hidden ones and not through symlinks (as
 * bash's globstar); at the end it matches every file below.
 */
static int glob_in(struct trace_files *tf, int dir_fd, const char *dir_path, char **comps, size_t n, int depth,
		   size_t *matched)
{
	bool last = n == 1, star2 = !strcmp(comps[0], "**");
	char **names = NULL, *path;
	size_t nr = 0, i;
	int err = 0, fd;

	if (depth > TRACE_FILES_MAX_DEPTH)
		return 0;
	if (star2 && !last) {
		err = glob_in(tf, dir_fd, dir_path, comps + 1, n - 1, depth, matched);
		if (err)
			return err;
	}
	if (!star2 && !has_magic(comps[0])) {
		names = malloc(sizeof(*names));
		if (!names || !(names[0] = strdup(comps[0]))) {
			free(names);
			return -ENOMEM;
		}
		nr = 1;
	} else {
		err = list_dir(dir_fd, &names, &nr);
		if (err == -ENOMEM)
			return err;
		err = 0;
	}
	for (i = 0; !err && i < nr; i++) {
		struct stat st;

		if (star2 ? names[i][0] == '.' : (has_magic(comps[0]) && fnmatch(comps[0], names[i], FNM_PERIOD)))
			continue;
		path = join(dir_path, names[i]);
		if (!path)
			return free_names(names, nr), -ENOMEM;
		fd = openat(dir_fd, names[i], O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (star2 ? O_NOFOLLOW : 0));
		/* There but not readable (as the user): a file asked for and not
		 * merged, counted and said, never silently "no match". */
		if (fd < 0 && last && errno != ENOENT && errno != ELOOP) {
			(*matched)++;
			tf->tm->stats.skipped++;
			warn_file(tf, path, strerror(errno));
		}
		if (fd >= 0 && !fstat(fd, &st)) {
			if (star2 && S_ISDIR(st.st_mode))
				err = glob_in(tf, fd, path, comps, n, depth + 1, matched);
			else if (star2 && last)
				(*matched)++, err = merge_fd(tf, fd, path);
			else if (last && S_ISREG(st.st_mode))
				(*matched)++, err = merge_fd(tf, fd, path);
			else if (!last && S_ISDIR(st.st_mode))
				err = glob_in(tf, fd, path, comps + 1, n - 1, depth + 1, matched);
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	free_names(names, nr);
	return err;
}

int trace_files__add_glob(struct trace_files *tf, const char *pattern)
{
	char *copy = strdup(pattern), **comps = NULL, *comp, *save = NULL, esc[TERM_ESCAPE_BUF];
	size_t n = 0, matched = 0;
	int err = 0, root_fd;

	comps = calloc(strlen(pattern) + 1, sizeof(*comps));
	if (!copy || !comps) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save))
		comps[n++] = comp;
	root_fd = open(pattern[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0) {
		fprintf(tf->warn, "buildbpf: warning: --merge '%s': %s\n", term_escape(pattern, esc, sizeof(esc)),
			strerror(errno));
		goto cleanup;
	}
	if (n)
		err = glob_in(tf, root_fd, pattern[0] == '/' ? "/" : "", comps, n, 0, &matched);
	close(root_fd);
	if (!err && !matched)
		fprintf(tf->warn, "buildbpf: warning: --merge '%s' matched no file (hint: quote the pattern)\n",
			term_escape(pattern, esc, sizeof(esc)));
cleanup:
	free(copy);
	free(comps);
	return err;
}

/* ---- life cycle ---- */

struct trace_files *trace_files__new(struct trace_merge *tm, FILE *warn)
{
	struct trace_files *tf = calloc(1, sizeof(*tf));

	if (!tf)
		return NULL;
	tf->tm = tm;
	tf->warn = warn;
	return tf;
}

void trace_files__set_stop(struct trace_files *tf, const volatile sig_atomic_t *stop)
{
	tf->stop = stop;
}

size_t trace_files__count(const struct trace_files *tf)
{
	return tf->nr_seen;
}

void trace_files__free(struct trace_files *tf)
{
	if (!tf)
		return;
	free(tf->seen);
	free(tf);
}
