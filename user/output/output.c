// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output/output.h"
#include "util/as_user.h"
#include "util/term_escape.h"

/* An output gets what open(2) would give it: 0666 less the umask. */
#define OUTPUT_MODE 0666

/*
 * The mode of an output made through a temporary name (mkostemp() creates
 * 0600): the one open(path, O_CREAT, 0666) would give it.  The umask is the
 * user's word on who reads their files; a trace of a build that ran
 * `mysql -pSECRET` is not ours to share.  The owner is whoever buildbpf is:
 * the user, once it has left root.
 */
static int set_output_mode(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	return fchmod(fd, OUTPUT_MODE & ~mask) ? -errno : 0;
}

const char *output__permission_hint(int err, const char *writer, char *buf, size_t size)
{
	return as_user__hint(buf, size, err, writer, "writes", "choose a path {} can write");
}

/* Refuses what must never be replaced; 0 when path may be (re)created. */
static int check_target(const char *path, const char *what, const char *opt, bool force, const char *writer)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	size_t len = strlen(path);
	struct stat st;
	int err;

	term_escape(path, esc, sizeof(esc));
	/* "dir/" names a directory even when it does not exist yet. */
	if (len && path[len - 1] == '/') {
		fprintf(stderr, "buildbpf: cannot write the %s to '%s': it names a directory (hint: %s DIR/FILE)\n",
			what, esc, opt);
		return -1;
	}

	if (lstat(path, &st)) {
		err = errno;
		if (err == ENOENT)
			return 0;
		fprintf(stderr, "buildbpf: cannot write the %s to '%s': %s%s\n", what, esc, strerror(err),
			output__permission_hint(err, writer, hint, sizeof(hint)));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "buildbpf: cannot write the %s to '%s': it is a directory (hint: %s DIR/FILE)\n",
			what, esc, opt);
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		fprintf(stderr, "buildbpf: refusing to write the %s to '%s': not a regular file\n", what, esc);
		return -1;
	}
	if (!force) {
		fprintf(stderr, "buildbpf: '%s' exists; not overwriting it (hint: -f/--force, or another %s)\n", esc, opt);
		return -1;
	}
	return 0;
}

int output__prepare(struct output *o, const char *path, const char *what, const char *opt, bool force,
		    const char *writer)
{
	char *dir_copy = NULL, esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->force = force;
	if (check_target(path, what, opt, force, writer))
		return -1;
	o->path = strdup(path);
	dir_copy = strdup(path);
	if (!o->path || !dir_copy)
		goto nomem;
	/* Not derived from the output's name: NAME plus a suffix could pass
	 * the 255-byte file name limit that NAME itself keeps. */
	if (asprintf(&o->tmp_path, "%s/.buildbpf-trace.XXXXXX", dirname(dir_copy)) < 0) {
		o->tmp_path = NULL;
		goto nomem;
	}
	o->fd = mkostemp(o->tmp_path, O_CLOEXEC);
	if (o->fd < 0) {
		err = errno;
		fprintf(stderr, "buildbpf: cannot create the %s '%s': %s%s\n", what, term_escape(path, esc, sizeof(esc)),
			strerror(err), output__permission_hint(err, writer, hint, sizeof(hint)));
		goto fail;
	}
	err = set_output_mode(o->fd);
	if (err) {
		fprintf(stderr, "buildbpf: cannot set the mode of '%s': %s\n",
			term_escape(o->tmp_path, esc, sizeof(esc)), strerror(-err));
		goto fail;
	}
	free(dir_copy);
	return 0;

nomem:
	fprintf(stderr, "buildbpf: out of memory\n");
fail:
	free(dir_copy);
	output__discard(o);
	output__free(o);
	return -1;
}

int output__commit(struct output *o)
{
	int err = 0;

	if (fsync(o->fd))
		err = -errno;
	if (close(o->fd) && !err)
		err = -errno;
	o->fd = -1;
	if (err)
		return err;
	if (o->force) {
		/* rename() replaces a symlink itself, never what it points to. */
		if (rename(o->tmp_path, o->path))
			return -errno;
	} else if (renameat2(AT_FDCWD, o->tmp_path, AT_FDCWD, o->path, RENAME_NOREPLACE)) {
		/* A file that appeared during the build is not overwritten
		 * either; the caller keeps the temporary file and says so. */
		return -errno;
	}
	free(o->tmp_path);
	o->tmp_path = NULL;
	return 0;
}

int output__discard(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp_path && unlink(o->tmp_path) && errno != ENOENT)
		return -errno;
	free(o->tmp_path);
	o->tmp_path = NULL;
	return 0;
}

void output__free(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->path);
	free(o->tmp_path);
	o->path = o->tmp_path = NULL;
}

int output__create_direct(const char *path, const char *what, const char *opt, bool force, const char *writer)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int fd, err;

	if (check_target(path, what, opt, force, writer))
		return -1;
	/* check_target() let only a regular file or a symlink through, and
	 * only with force: the name is removed, never what a link points to. */
	if (force && unlink(path) && errno != ENOENT) {
		err = errno;
		fprintf(stderr, "buildbpf: cannot replace '%s': %s%s\n", term_escape(path, esc, sizeof(esc)),
			strerror(err), output__permission_hint(err, writer, hint, sizeof(hint)));
		return -1;
	}
	/* O_EXCL: a fresh file, so the umask alone sets its mode. */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OUTPUT_MODE);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "buildbpf: cannot create the %s '%s': %s%s\n", what, term_escape(path, esc, sizeof(esc)),
			strerror(err), output__permission_hint(err, writer, hint, sizeof(hint)));
		return -1;
	}
	return fd;
}

const char *output__fallback_hint(int err, const char *writer, char *buf, size_t size)
{
	as_user__hint(buf, size, err, writer, "writes", "hint: TMPDIR=DIR, a directory {} can write");
	if (!*buf)
		snprintf(buf, size, " (hint: TMPDIR=DIR)");
	return buf;
}

int output__create_fallback(const char *base, const char *suffix, char **path)
{
	const char *tmpdir = getenv("TMPDIR");
	int fd, err;

	*path = NULL;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (asprintf(path, "%s/%s.XXXXXX%s", tmpdir, base, suffix) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	/* mkostemps() creates 0600 with O_EXCL, whatever the umask: in a
	 * directory every user shares, only its owner reads what the build
	 * said (a password on a command line, say). */
	fd = mkostemps(*path, strlen(suffix), O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	return fd;
fail:
	free(*path);
	*path = NULL;
	return err;
}
