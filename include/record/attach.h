/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --attach PID: trace a process tree that is already running.  Who may be
 * attached to is decided here (attach__open_target()), before the BPF
 * programs load; once they are, attach__seed() puts the tree's processes
 * in the kernel's tracked map and writes a BB_EV_PROC_FOUND record for each,
 * so the trace shows them from its start, marked as started before it.
 *
 * The pure part, tested without root: grouping the task iterator's threads
 * into processes (attach_tree__procs()) and picking the descendants of the
 * attached process from them (attach_tree__descendants()).
 */
#ifndef BUILDBPF_ATTACH_H
#define BUILDBPF_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include "events.h"
#include "record/capture.h"
#include "record/privilege.h"

/* One live process of a task snapshot: its threads' figures summed. */
struct attach_proc {
	__u64 start_ns;	   /* the leader's start: the process's */
	__u64 start_boottime_ns; /* the same on CLOCK_BOOTTIME, as /proc shows it */
	__u64 utime_ns;	   /* sums over its live threads */
	__u64 stime_ns;
	__u64 sum_exec_ns;
	__u32 tgid;
	__u32 ppid;
	__u32 ns_tgid;
	__u32 nr_threads;  /* live threads */
	bool in_cgroup;	   /* --cgroup: a thread of it is in the target */
	char comm[BB_COMM_LEN];
};

/*
 * The live processes of a snapshot, sorted by tgid.  A thread past its
 * last switch (TASK_DEAD: a zombie, an exiting thread) is left out, and a
 * process with no live thread with it.  *out is malloc'd.  0 or -ENOMEM.
 */
int attach_tree__procs(const struct bb_task_seen *tasks, size_t nr, struct attach_proc **out, size_t *nr_out);
/*
 * root and its descendants among procs, parents before children (breadth
 * first), as indices into procs written to order (room for nr entries).
 * root 0 (--cgroup): the processes in_cgroup instead, parents before
 * children.  skip and its descendants are left out (buildbpf itself, when
 * it runs under the attached process).  Returns how many; 0 when root is
 * not live.
 */
size_t attach_tree__descendants(const struct attach_proc *procs, size_t nr, __u32 root, __u32 skip, size_t *order);

/*
 * Checks that ra's user may trace pid: a user (under sudo: the invoking
 * one; with --user: that one) only their own processes, which the kernel
 * lets them read (ptrace read access, as for /proc/PID/io): real,
 * effective and saved uids and gids all theirs, and dumpable; root
 * (buildbpf run as root without sudo, --keep-root, --user root) any.
 * Called before the BPF programs load.  *pidfd gets a pidfd on it, taken
 * before the check, which pins the process and turns readable at its exit;
 * -1 where pidfds do not exist (before 5.3; valgrind).  0, or -1 with a
 * message (about option opt) printed.
 */
int attach__open_target(pid_t pid, const struct run_as *ra, const char *opt, int *pidfd);

/* A process --attach or --follow named, pinned by attach__open_target(). */
struct attach_target {
	pid_t pid;	 /* 0: --cgroup, no such process */
	int pidfd;	 /* -1: none (before 5.3; valgrind) */
	const char *opt; /* "--attach", "--follow": for messages */
};

/*
 * attach__open_target()'s check again, on its pidfd: the process is still
 * alive (so its pid names it, not a process that got the pid since) and
 * still passes.  Run after anything read or seeded by its pid, before it is
 * kept.  0, or -1 with a message printed.
 */
int attach__check_target(const struct attach_target *t, const struct run_as *ra);

/* --cgroup: the target, resolved against the cgroup2 mount. */
struct cgroup_target {
	char path[4096]; /* the cgroup's directory */
	__u64 id;	 /* its cgroup id: the directory's inode number */
	__u32 level;	 /* its depth below the root cgroup */
};

/*
 * Resolves --cgroup PATH against the cgroup2 mount of /proc/self/mountinfo
 * (record/cgroup_path.h) and checks that ra's user may trace it: root any,
 * a user only a cgroup whose directory is theirs (delegated to them, as
 * systemd does with user@UID.service).  0, or -1 with a message printed.
 */
int attach__open_cgroup(const char *path, const struct run_as *ra, struct cgroup_target *t);

struct attach_stats {
	size_t found;	/* processes seeded, each with a BB_EV_PROC_FOUND record */
	size_t forked;	/* descendants the kernel caught at their fork meanwhile */
	size_t rounds;	/* snapshots taken until one found nothing new */
	size_t gone;	/* descendants that exited before they were confirmed: left out */
};

/*
 * Tracks target->pid and its descendants (0: the processes of the --cgroup
 * the task iterator was loaded for), existing and new.  Snapshots of the
 * task list are taken until one finds no process left to seed: a child
 * forked by a process not yet tracked is found by the next.  Each found
 * process gets its starting CPU times subtracted (its exit record counts
 * the traced time only), its threads' scheduler state (with --sched), and
 * a BB_EV_PROC_FOUND record through emit, stamped start_ns (or its own
 * start, when later), argv from /proc/PID/cmdline (args_max bytes kept).
 * The pids come from a snapshot and buildbpf may have been stopped since:
 * each process is confirmed after it is seeded and read, before its record
 * is emitted, the target by attach__check_target() as ra's user, a
 * descendant by its start time (one gone by then is untracked and left
 * out).  0, or -errno with a message printed: the recording must not go on.
 */
int attach__seed(struct capture *cap, const struct attach_target *target, const struct run_as *ra, __u64 start_ns,
		 __u32 args_max, capture_record_fn emit, void *ctx, struct attach_stats *st);

/*
 * /proc/PID/cmdline as a NULL-terminated argv (one malloc'd block): the
 * recording's command line in attach mode.  Falls back to "[comm]" when
 * unreadable or empty.  0 or -ENOMEM.
 */
int attach__argv(pid_t pid, char ***argv, int *argc);

#endif /* BUILDBPF_ATTACH_H */
