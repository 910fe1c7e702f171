/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Launcher: starts the traced command held on a pipe, so that capture can
 * track its pid before it execs (nothing is missed between fork and exec).
 * buildbpf has left root already (record/privilege.h): the command simply
 * inherits the user's credentials.
 */
#ifndef BUILDBPF_LAUNCH_H
#define BUILDBPF_LAUNCH_H

#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>
#include "record/privilege.h"

/*
 * The command's environment, built before the fork: buildbpf's own (as
 * sudo left it), with HOME, USER and LOGNAME of the user it runs as; or,
 * for --user from root (ra->login_env), a clean login-like one: HOME,
 * USER, LOGNAME, SHELL, a standard PATH and TERM.  Both get
 * $BUILDBPF_TRACE_DIR when trace_dir is not NULL.
 */
struct command_env {
	char **vars; /* NULL-terminated "NAME=value" */
	size_t nr, cap;
};

/* 0 or -ENOMEM. */
int command_env__build(struct command_env *e, const struct run_as *ra, const char *trace_dir);
/* The value of NAME in e, or NULL. */
const char *command_env__get(const struct command_env *e, const char *name);
void command_env__free(struct command_env *e);

struct launch {
	pid_t pid;    /* the command, waiting for launch__release() */
	int go_fd;    /* write end: one byte lets the command exec */
	int errno_fd; /* read end: the exec's errno, EOF when exec succeeded */
};

/*
 * The caller's signal state that buildbpf changed for itself, given back to
 * the command (util/caller_signals.h): the command gets the caller's, not
 * buildbpf's.
 */
struct command_signals {
	sigset_t mask;	   /* the caller's: buildbpf blocks the signals its signalfd reads */
	bool pipe_ignored; /* the caller ignored SIGPIPE (buildbpf ignores it whatever the caller did) */
};

/*
 * Forks the command; it blocks until launch__release().  sigs: the signal
 * mask and SIGPIPE disposition it starts with; envp its environment
 * (command_env__build()), PATH in it finds argv[0].
 */
int launch__spawn(struct launch *l, char *const argv[], char **envp, const struct command_signals *sigs);
/*
 * Lets the command exec.  Returns 0 when exec succeeded, or the errno of a
 * failed exec (the child then exits 127 or 126).
 */
int launch__release(struct launch *l);
/* Closes the pipes of a launch that is not released (the child exits). */
void launch__abort(struct launch *l);

#endif /* BUILDBPF_LAUNCH_H */
