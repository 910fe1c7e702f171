// SPDX-License-Identifier: GPL-2.0
/*
 * The trace directory belongs to the build's user: removal goes name by
 * name through directory fds with O_NOFOLLOW, so a symlink planted there
 * never leads the removal out of it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/trace_dir.h"
#include "util/as_user.h"
#include "util/term_escape.h"

/* Removal goes no deeper: a hostile tree must not exhaust the stack. */
#define TRACE_DIR_MAX_DEPTH 32

int trace_dir__create(struct trace_dir *d)
{
	const char *tmp = getenv("TMPDIR");
	int err;

	d->fd = -1;
	/* A relative or empty $TMPDIR would land in the build's tree. */
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(d->path, sizeof(d->path), "%s/buildbpf-traces.XXXXXX", tmp) >= sizeof(d->path))
		return -ENAMETOOLONG;
	/* mkdtemp creates (0700) and never reuses or follows what is there. */
	if (!mkdtemp(d->path))
		return -errno;
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		err = -errno;
		rmdir(d->path);
		return err;
	}
	return 0;
}

void trace_dir__open_for_run(struct trace_dir *d, bool wanted, const char *user)
{
	char hint[AS_USER_HINT_BUF];
	int err;

	d->fd = -1;
	d->user = user;
	if (!wanted)
		return;
	err = trace_dir__create(d);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot create a trace directory: %s%s; "
				"BUILDBPF_TRACE_DIR is not set (hint: set TMPDIR, or --no-trace-dir)\n",
			strerror(-err), as_user__hint(hint, sizeof(hint), -err, user, "writes", NULL));
}

void trace_dir__close(struct trace_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

bool trace_dir__has_files(const struct trace_dir *d)
{
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	bool found = false;
	DIR *dir;

	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return true; /* unknown: keep it */
	}
	while (!found && (de = readdir(dir)))
		found = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dir);
	return found;
}

/* Empties the directory dir_fd; closes it. */
static int remove_tree(int dir_fd, int depth)
{
	DIR *dir = fdopendir(dir_fd);
	struct dirent *de;
	int err = 0, sub;

	if (!dir) {
		err = -errno;
		close(dir_fd);
		return err;
	}
	/* The fd may share its offset with one already read to the end. */
	rewinddir(dir);
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(dir), de->d_name, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			err = err ?: -errno;
			continue;
		}
		/* A directory: O_NOFOLLOW so a swapped-in symlink is not entered. */
		sub = depth < TRACE_DIR_MAX_DEPTH
			      ? openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			      : -1;
		if (sub < 0) {
			err = err ?: (depth < TRACE_DIR_MAX_DEPTH ? -errno : -ELOOP);
			continue;
		}
		err = remove_tree(sub, depth + 1) ?: err;
		if (unlinkat(dirfd(dir), de->d_name, AT_REMOVEDIR))
			err = err ?: -errno;
	}
	closedir(dir);
	return err;
}

int trace_dir__remove(struct trace_dir *d)
{
	int err = 0, fd;

	if (d->fd < 0)
		return 0;
	fd = dup(d->fd);
	err = fd < 0 ? -errno : remove_tree(fd, 0);
	trace_dir__close(d);
	/* rmdir never follows a symlink put at the path meanwhile. */
	if (rmdir(d->path) && !err)
		err = -errno;
	return err;
}

void trace_dir__finish(struct trace_dir *d, bool keep, bool keep_if_used)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int err;

	if (d->fd < 0)
		return;
	if (keep || (keep_if_used && trace_dir__has_files(d))) {
		term_escape(d->path, esc, sizeof(esc));
		if (keep_if_used)
			fprintf(stderr, "buildbpf: the tools' own traces are in %s; merge them with: buildbpf convert "
					"--merge '%s/**' ...\n", esc, esc);
		else
			fprintf(stderr, "buildbpf: trace directory kept: %s\n", esc);
		trace_dir__close(d);
		return;
	}
	err = trace_dir__remove(d);
	if (err) {
		as_user__hint(hint, sizeof(hint), -err, d->user, "writes", "remove it by hand");
		fprintf(stderr, "buildbpf: warning: cannot remove the trace directory '%s': %s%s\n",
			term_escape(d->path, esc, sizeof(esc)), strerror(-err), *hint ? hint : " (remove it by hand)");
	}
}
