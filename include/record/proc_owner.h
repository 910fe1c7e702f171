/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose a running process is, and whether the kernel lets a user read it:
 * --attach's check of its target and of each process it finds running.
 */
#ifndef BUILDBPF_PROC_OWNER_H
#define BUILDBPF_PROC_OWNER_H

#include <sys/types.h>
#include <linux/types.h>
#include "record/privilege.h"

struct proc_owner {
	uid_t uids[3]; /* real, effective, saved */
	gid_t gids[3];
	uid_t proc_uid; /* /proc/PID's owner: root when the process is not dumpable, else its euid */
};

/* o of pid, from /proc/PID/status and /proc/PID.  0 or -errno. */
int proc_owner__read(pid_t pid, struct proc_owner *o);
/*
 * Why the kernel hides a process owned as o from ra's user (BB_HIDDEN_*,
 * the rule bpf/hidden.bpf.h applies to the processes it sees start): its
 * uids or gids not all the user's, else not dumpable.  Root's hides nothing.
 */
__u32 proc_owner__hidden(const struct proc_owner *o, const struct run_as *ra);

#endif /* BUILDBPF_PROC_OWNER_H */
