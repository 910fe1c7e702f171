// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/launch.h"
#include "util/term_escape.h"
#include "record/trace_dir.h"

/* What the child reports through errno_fd when it cannot go on. */
enum launch_stage {
	STAGE_CREDENTIALS = 1,
	STAGE_EXEC = 2,
};

struct launch_failure {
	int stage;
	int err;
};

static int parse_id(const char *s, unsigned long *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static void fill_from_passwd(struct run_as *ra, const struct passwd *pw)
{
	snprintf(ra->name, sizeof(ra->name), "%s", pw->pw_name);
	snprintf(ra->home, sizeof(ra->home), "%s", pw->pw_dir);
}

int run_as__resolve(struct run_as *ra, const char *user_opt, bool keep_root)
{
	const struct passwd *pw;
	unsigned long id, gid;
	const char *sudo_uid;

	memset(ra, 0, sizeof(*ra));
	if (user_opt) {
		pw = getpwnam(user_opt);
		if (!pw && parse_id(user_opt, &id) == 0)
			pw = getpwuid(id);
		if (!pw) {
			char esc[TERM_ESCAPE_BUF];

			fprintf(stderr, "buildbpf: --user '%s': no such user\n",
				term_escape(user_opt, esc, sizeof(esc)));
			return -1;
		}
		ra->drop = true;
		ra->uid = pw->pw_uid;
		ra->gid = pw->pw_gid;
		fill_from_passwd(ra, pw);
		return 0;
	}

	ra->uid = getuid();
	ra->gid = getgid();
	sudo_uid = getenv("SUDO_UID");
	if (!keep_root && ra->uid == 0 && sudo_uid) {
		if (parse_id(sudo_uid, &id) || parse_id(getenv("SUDO_GID"), &gid)) {
			fprintf(stderr, "buildbpf: SUDO_UID/SUDO_GID are not numbers (hint: --user NAME or --keep-root)\n");
			return -1;
		}
		ra->uid = id;
		ra->gid = gid;
		ra->drop = ra->uid != 0;
	}
	pw = getpwuid(ra->uid);
	if (pw) {
		fill_from_passwd(ra, pw);
	} else {
		snprintf(ra->name, sizeof(ra->name), "%lu", (unsigned long)ra->uid);
		snprintf(ra->home, sizeof(ra->home), "/");
	}
	return 0;
}

/* In the child: become the user, with their supplementary groups. */
static int become_user(const struct run_as *ra)
{
	if (initgroups(ra->name, ra->gid) && setgroups(0, NULL))
		return -1;
	if (setgid(ra->gid) || setuid(ra->uid))
		return -1;
	/* Not only the real ids: a later setuid(0) must fail. */
	if (ra->uid != 0 && setuid(0) == 0)
		return errno = EPERM, -1;
	setenv("HOME", ra->home, 1);
	setenv("USER", ra->name, 1);
	setenv("LOGNAME", ra->name, 1);
	return 0;
}

static void __attribute__((noreturn)) child_fail(int fd, int stage, int err)
{
	struct launch_failure f = { .stage = stage, .err = err };
	ssize_t n;

	do {
		n = write(fd, &f, sizeof(f));
	} while (n < 0 && errno == EINTR);
	_exit(stage == STAGE_EXEC && (err == ENOENT || err == ENOTDIR) ? 127 : 126);
}

static void __attribute__((noreturn)) child_main(char *const argv[], const struct run_as *ra,
						  const char *trace_dir, const sigset_t *child_mask, int go_fd,
						  int errno_fd)
{
	char go;
	ssize_t n;

	sigprocmask(SIG_SETMASK, child_mask, NULL);
	/* buildbpf ignores SIGPIPE; an ignored signal would stay ignored
	 * across exec and change how the build's pipelines end. */
	signal(SIGPIPE, SIG_DFL);
	if (ra->drop && become_user(ra))
		child_fail(errno_fd, STAGE_CREDENTIALS, errno);
	if (trace_dir && setenv(TRACE_DIR_ENV, trace_dir, 1))
		child_fail(errno_fd, STAGE_CREDENTIALS, errno);
	/* Held here until the parent has put this pid in the tracked map. */
	do {
		n = read(go_fd, &go, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* buildbpf gave up before release */
	execvp(argv[0], argv);
	child_fail(errno_fd, STAGE_EXEC, errno);
}

int launch__spawn(struct launch *l, char *const argv[], const struct run_as *ra, const char *trace_dir,
		  const sigset_t *child_mask)
{
	int go[2], failure[2];
	pid_t pid;

	l->pid = -1;
	l->go_fd = l->errno_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(failure, O_CLOEXEC)) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(go[0]);
		close(go[1]);
		close(failure[0]);
		close(failure[1]);
		return err;
	}
	if (pid == 0) {
		close(go[1]);
		close(failure[0]);
		child_main(argv, ra, trace_dir, child_mask, go[0], failure[1]);
	}
	close(go[0]);
	close(failure[1]);
	l->pid = pid;
	l->go_fd = go[1];
	l->errno_fd = failure[0];
	return 0;
}

int launch__release(struct launch *l)
{
	struct launch_failure f = {};
	ssize_t n;

	do {
		n = write(l->go_fd, "g", 1);
	} while (n < 0 && errno == EINTR);
	close(l->go_fd);
	l->go_fd = -1;
	/* EOF: the pipe was closed by a successful exec (O_CLOEXEC). */
	do {
		n = read(l->errno_fd, &f, sizeof(f));
	} while (n < 0 && errno == EINTR);
	close(l->errno_fd);
	l->errno_fd = -1;
	if (n != (ssize_t)sizeof(f))
		return 0;
	if (f.stage == STAGE_CREDENTIALS)
		return -f.err; /* negative: could not become the user */
	return f.err;
}

void launch__abort(struct launch *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->errno_fd >= 0)
		close(l->errno_fd);
	l->go_fd = l->errno_fd = -1;
}
