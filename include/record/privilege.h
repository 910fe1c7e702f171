/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who buildbpf becomes once the BPF programs are loaded.  Root is needed
 * for exactly that; everything after (the ring buffer and map fds it
 * holds, the event log, replay, merge, every output file) is done as the
 * user the command runs as, so a path the build controls can lead only
 * where that user could write anyway.
 */
#ifndef BUILDBPF_PRIVILEGE_H
#define BUILDBPF_PRIVILEGE_H

#include <stdbool.h>
#include <sys/types.h>

/* Who the command (and, after privilege__drop(), buildbpf) runs as. */
struct run_as {
	bool drop;	/* leave root for uid/gid and the user's groups */
	bool login_env;	/* --user from root: a clean login-like environment */
	uid_t uid;
	gid_t gid;
	char name[64];	/* user name, for messages, groups and USER */
	char home[256];
	char shell[256];
};

/*
 * Decides who the command runs as: --user NAME, else the sudo caller
 * (SUDO_UID/SUDO_GID), else whoever runs buildbpf; --keep-root and --user
 * root keep root (the command line already refused --user with
 * --keep-root).  --user is refused unless buildbpf runs as root (a user
 * with file capabilities acts for nobody else).  keep_env: no clean
 * environment for --user.  0, or -1 with a message printed.
 */
int run_as__resolve(struct run_as *ra, const char *user_opt, bool keep_root, bool keep_env);
/*
 * The user buildbpf acts as once it has left root (ra->drop), for the
 * messages that name them; NULL when it stays root.
 */
const char *run_as__user(const struct run_as *ra);

/*
 * Leaves every privilege but root's that stays root (--keep-root, plain
 * root).  A user's buildbpf with capabilities (no sudo) drops them all,
 * effective, permitted, inheritable and ambient (not the bounding set,
 * which grants nothing), not dumpable as below.  And when ra->drop, it
 * leaves root for good: the user's groups, gid and uid
 * (real, effective and saved), no capability left, not dumpable while the
 * BPF objects are held (the build, now of the same uid, must not ptrace
 * buildbpf or take its BPF fds; record__free() makes it dumpable again).  Checks that root cannot be regained.  0, or -1 with a message
 * printed: buildbpf must not go on as root then.
 */
int privilege__drop(const struct run_as *ra);

/*
 * For a mode that loads no BPF (convert, report, and any mode added later):
 * privilege__drop(), then dumpable again, as record__free() does once the
 * BPF objects are closed: such a process holds nothing the user's other
 * processes must not reach.  0, or -1 with a message printed.
 */
int privilege__drop_holding_nothing(const struct run_as *ra);

#endif /* BUILDBPF_PRIVILEGE_H */
