// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/command_path.h"
#include "record/launch.h"
#include "record/trace_dir.h"
#include "util/array_grow.h"

/* What glibc's execvp searches when the environment has no PATH. */
#define EXECVP_DEFAULT_PATH "/bin:/usr/bin"
/* login(1)'s PATH for an ordinary user (Debian's /etc/login.defs ENV_PATH). */
#define LOGIN_PATH "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games"

extern char **environ;

/* Sets NAME=value, replacing an earlier NAME.  0 or -ENOMEM. */
static int env_set(struct command_env *e, const char *name, const char *value)
{
	size_t len = strlen(name), i;
	char *var;
	int err;

	if (asprintf(&var, "%s=%s", name, value) < 0)
		return -ENOMEM;
	for (i = 0; i < e->nr; i++) {
		if (!strncmp(e->vars[i], name, len) && e->vars[i][len] == '=') {
			free(e->vars[i]);
			e->vars[i] = var;
			return 0;
		}
	}
	err = array_grow((void **)&e->vars, &e->cap, e->nr + 2, sizeof(*e->vars));
	if (err) {
		free(var);
		return err;
	}
	e->vars[e->nr++] = var;
	e->vars[e->nr] = NULL;
	return 0;
}

int command_env__build(struct command_env *e, const struct run_as *ra, const char *trace_dir)
{
	const char *term = getenv("TERM");
	char **v;
	int err = 0;

	memset(e, 0, sizeof(*e));
	err = array_grow((void **)&e->vars, &e->cap, 1, sizeof(*e->vars));
	if (err)
		return err;
	e->vars[0] = NULL;
	if (ra->login_env) {
		/* root's environment (its PATH, root-only variables) is not
		 * the user's: start from what a login would give. */
		err = env_set(e, "SHELL", ra->shell) ?: env_set(e, "PATH", LOGIN_PATH) ?:
		      (term ? env_set(e, "TERM", term) : 0);
	} else {
		for (v = environ; !err && v && *v; v++) {
			char *eq = strchr(*v, '='), name[256];

			if (!eq || (size_t)(eq - *v) >= sizeof(name))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(eq - *v), *v);
			err = env_set(e, name, eq + 1);
		}
	}
	if (!err && (ra->drop || ra->login_env))
		err = env_set(e, "HOME", ra->home) ?: env_set(e, "USER", ra->name) ?: env_set(e, "LOGNAME", ra->name);
	if (!err && trace_dir)
		err = env_set(e, TRACE_DIR_ENV, trace_dir);
	if (err)
		command_env__free(e);
	return err;
}

const char *command_env__get(const struct command_env *e, const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; i < e->nr; i++)
		if (!strncmp(e->vars[i], name, len) && e->vars[i][len] == '=')
			return e->vars[i] + len + 1;
	return NULL;
}

void command_env__free(struct command_env *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		free(e->vars[i]);
	free(e->vars);
	memset(e, 0, sizeof(*e));
}

static void __attribute__((noreturn)) child_fail(int fd, int err)
{
	ssize_t n;

	do {
		n = write(fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	_exit(err == ENOENT || err == ENOTDIR ? 127 : 126);
}

static void __attribute__((noreturn)) child_main(char *const argv[], char **envp,
						  const struct command_signals *sigs, int go_fd, int errno_fd)
{
	char go;
	ssize_t n;
	int err;

	sigprocmask(SIG_SETMASK, &sigs->mask, NULL);
	/* buildbpf ignores SIGPIPE; an ignored signal would stay ignored
	 * across exec and change how the build's pipelines end.  Unless the
	 * caller ignored it too: then that is the caller's wish. */
	if (!sigs->pipe_ignored)
		signal(SIGPIPE, SIG_DFL);
	/* Held here until the parent has put this pid in the tracked map. */
	do {
		n = read(go_fd, &go, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* buildbpf gave up before release */
	/* execvp looks argv[0] up in the command's PATH. */
	environ = envp;
	execvp(argv[0], argv);
	err = errno;
	/* glibc says EACCES when a directory of PATH could not be searched, found
	 * or not; a shell says "not found" unless a file of that name was there. */
	if (err == EACCES && !strchr(argv[0], '/') &&
	    !command_path__found(argv[0], getenv("PATH") ?: EXECVP_DEFAULT_PATH))
		err = ENOENT;
	child_fail(errno_fd, err);
}

int launch__spawn(struct launch *l, char *const argv[], char **envp, const struct command_signals *sigs)
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
		child_main(argv, envp, sigs, go[0], failure[1]);
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
	ssize_t n;
	int err = 0;

	do {
		n = write(l->go_fd, "g", 1);
	} while (n < 0 && errno == EINTR);
	close(l->go_fd);
	l->go_fd = -1;
	/* EOF: the pipe was closed by a successful exec (O_CLOEXEC). */
	do {
		n = read(l->errno_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(l->errno_fd);
	l->errno_fd = -1;
	return n == (ssize_t)sizeof(err) ? err : 0;
}

void launch__abort(struct launch *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->errno_fd >= 0)
		close(l->errno_fd);
	l->go_fd = l->errno_fd = -1;
}
