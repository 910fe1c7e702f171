/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel <-> user ABI of buildbpf: every record the BPF programs put in
 * the ring buffer.  Included by the BPF programs (after vmlinux.h) and by user
 * space (after <linux/types.h>).  Fixed-width types only, largest fields
 * first, explicit padding, and a size assertion per struct so that a change
 * on one side cannot silently skew the other.
 */
#ifndef BUILDBPF_EVENTS_H
#define BUILDBPF_EVENTS_H

#define BB_COMM_LEN 16
/* Longest exec filename kept (the kernel's PATH_MAX). */
#define BB_FILENAME_MAX 4096
/* Hard upper bound of --args-max: the size of the per-CPU scratch buffer. */
#define BB_ARGS_MAX_LIMIT (128 * 1024)
#define BB_ARGS_MAX_DEFAULT (16 * 1024)

enum bb_event_type {
	BB_EV_FORK = 1, /* a tracked task created a process or a thread */
	BB_EV_EXEC = 2, /* a tracked process loaded a new image */
	BB_EV_EXIT = 3, /* a tracked thread exited; group_dead ends the process */
};

/* First in every record: what it is, when, and on which CPU. */
struct bb_event_header {
	__u64 ts_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 type;  /* enum bb_event_type */
	__u32 cpu;
	__u32 pid; /* the thread (kernel task pid) the event is about */
	__u32 tgid; /* its process (thread group id) */
};
_Static_assert(sizeof(struct bb_event_header) == 24, "bb_event_header ABI");

#define BB_FORK_THREAD 0x1u /* the child is a thread of the parent's process */

struct bb_fork_event {
	struct bb_event_header hdr; /* pid/tgid: the child */
	__u32 parent_pid;
	__u32 parent_tgid;
	__u32 flags; /* BB_FORK_* */
	__u32 __pad;
	char comm[BB_COMM_LEN]; /* the child's comm, inherited from the parent */
};
_Static_assert(sizeof(struct bb_fork_event) == 56, "bb_fork_event ABI");

#define BB_EXEC_ARGS_TRUNCATED 0x1u	/* argv was longer than --args-max */
#define BB_EXEC_ARGS_UNREADABLE 0x2u	/* argv could not be read at all */
#define BB_EXEC_FILENAME_TRUNCATED 0x4u /* filename hit BB_FILENAME_MAX */

/*
 * Variable length: `data` holds filename_len bytes of the exec'd path
 * (no NUL) followed by args_len bytes of the NUL-separated argv as the
 * new image sees it.  The record is sizeof(struct bb_exec_event) +
 * filename_len + args_len bytes long.
 */
struct bb_exec_event {
	struct bb_event_header hdr; /* pid: the process (after de_thread) */
	__u32 ppid;		    /* real parent's tgid */
	__u32 old_tid;		    /* the thread that called exec */
	__u32 flags;		    /* BB_EXEC_* */
	__u32 filename_len;
	__u32 args_len;
	__u32 args_full_len; /* argv's real size, before truncation */
	char comm[BB_COMM_LEN];
	char data[];
};
_Static_assert(sizeof(struct bb_exec_event) == 64, "bb_exec_event ABI");

#define BB_EXIT_GROUP_DEAD 0x1u /* the last thread: the process is gone */

struct bb_exit_event {
	struct bb_event_header hdr;
	/*
	 * CPU time in ns.  For a group_dead record these are the totals of
	 * every tracked thread of the process (accumulated in the kernel as
	 * each thread exits), otherwise the exiting thread's own.  utime and
	 * stime are the kernel's raw split; sum_exec is the precise runtime
	 * that user space divides in utime:stime proportion, as getrusage does.
	 */
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 sum_exec_ns;
	__u64 maxrss_kb; /* signal->maxrss: peak RSS of the process */
	__u32 exit_status; /* wait(2) status word: code << 8 | signal */
	__u32 flags;	   /* BB_EXIT_* */
	__u32 nr_threads;  /* threads the process had that were tracked */
	__u32 __pad;
	char comm[BB_COMM_LEN];
};
_Static_assert(sizeof(struct bb_exit_event) == 88, "bb_exit_event ABI");

/*
 * Value of the `tracked` map, keyed by tgid: presence means the process is
 * part of the build.  User space seeds the command's entry with zeroes; the
 * kernel adds each exiting thread's CPU times so the group-dead record
 * carries the whole process's totals.
 */
struct bb_proc_acct {
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 sum_exec_ns;
	__u32 nr_threads;
	__u32 __pad;
};
_Static_assert(sizeof(struct bb_proc_acct) == 32, "bb_proc_acct ABI");

#endif /* BUILDBPF_EVENTS_H */
