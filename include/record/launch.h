/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Launcher: starts the traced command held on a pipe, so that capture can
 * track its pid before it execs (nothing is missed between fork and exec),
 * with the credentials of the user who asked for the trace.
 */
#ifndef BUILDBPF_LAUNCH_H
#define BUILDBPF_LAUNCH_H

#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>

/* Who the command runs as. */
struct run_as {
	bool drop;	/* switch to uid/gid/groups before exec */
	uid_t uid;
	gid_t gid;
	char name[64];	/* user name, for messages and HOME/USER */
	char home[256];
};

/*
 * Decides who the command runs as: --user NAME, else the sudo caller
 * (SUDO_UID/SUDO_GID), else whoever runs buildbpf; --keep-root keeps root
 * (the command line already refused both at once).
 * 0, or -1 with a message printed.
 */
int run_as__resolve(struct run_as *ra, const char *user_opt, bool keep_root);

struct launch {
	pid_t pid;    /* the command, waiting for launch__release() */
	int go_fd;    /* write end: one byte lets the command exec */
	int errno_fd; /* read end: the exec's errno, EOF when exec succeeded */
};

/*
 * Forks the command; it blocks until launch__release().  child_mask is the
 * signal mask the command starts with (buildbpf blocks signals it reads
 * through a signalfd; the command must not inherit that).  trace_dir, when
 * not NULL, is exported to it as $BUILDBPF_TRACE_DIR.
 */
int launch__spawn(struct launch *l, char *const argv[], const struct run_as *ra, const char *trace_dir,
		  const sigset_t *child_mask);
/*
 * Lets the command exec.  Returns 0 when exec succeeded, the errno of a
 * failed exec (> 0; the child then exits 127 or 126), or minus the errno of
 * a failed switch to the user's credentials (< 0; the child exits 126).
 */
int launch__release(struct launch *l);
/* Closes the pipes of a launch that is not released (the child exits). */
void launch__abort(struct launch *l);

#endif /* BUILDBPF_LAUNCH_H */
