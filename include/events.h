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

/*
 * Capacities of the kernel's hash maps, each map sized from one of them by
 * user space before load (capture.c).  A full map loses what does not fit
 * and counts it as a lost event.
 */
#define BB_PROCS_MAX 65536	    /* the build's processes alive at once */
#define BB_THREADS_MAX 262144	    /* the build's threads with scheduler state (--sched) */
#define BB_WOKEN_THREADS_MAX 65536  /* the build's threads whose last wakeup is kept (--deps) */
#define BB_WRITTEN_FILES_MAX 262144 /* files the build opened for writing (--deps) */

enum bb_event_type {
	BB_EV_FORK = 1, /* a tracked task created a process or a thread */
	BB_EV_EXEC = 2, /* a tracked process loaded a new image */
	BB_EV_EXIT = 3, /* a tracked thread left its CPU for good; group_dead ends the process */
	BB_EV_CPU_SLICE = 4, /* a tracked thread left a CPU (--sched) */
	BB_EV_CPU_IDLE = 5,  /* a CPU left its idle task (--sched) */
	/* File dependencies (--deps=on), bpf/file_events.bpf.c: 10..19. */
	BB_EV_FILE_OPEN = 10,	/* a file written by the build, or opened for writing */
	BB_EV_FILE_RENAME = 11, /* a tracked process renamed a path onto another */
	BB_EV_FILE_COUNTS = 12, /* a process's files opened and written, at its end */
	/* Why a process started when it did (--deps=on), bpf/start_wake.bpf.c: 13..14. */
	BB_EV_START_WAKE = 13, /* a tracked thread forked a process: its last wakeup */
	/* Memory (issue 16): 20..29, bpf/mem_events.bpf.c */
	BB_EV_MEM_IMAGE = 20, /* a program image's address space ended: its peak RSS */
	BB_EV_MEM_PSI = 21,   /* the machine's memory pressure, read by user space */
	BB_EV_MEM_SAMPLE = 22, /* the build's resident memory, summed by user space */
	/* I/O per process (issue 16): 23..24, bpf/proc_io.bpf.h; 24 unused yet */
	BB_EV_PROC_IO = 23, /* a process's I/O totals, at its end */
	/* --attach (issue 18, numbers 30..39): written by user space */
	BB_EV_PROC_FOUND = 30, /* a process already running when it was first tracked */
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

/*
 * Why the kernel hides a process's details from the user the trace is for
 * (ptrace read access, the rule of /proc/PID/io): bpf/hidden.bpf.h.  Such
 * a process keeps its pid, names, times and exit status in the trace; its
 * I/O, memory and files are left out.  Once set, a reason stays.
 */
#define BB_HIDDEN_CREDS 0x1u	    /* uids or gids not all the user's: a setuid or setgid exec, setuid() */
#define BB_HIDDEN_NOT_DUMPABLE 0x2u /* its mm not dumpable: prctl(PR_SET_DUMPABLE, 0), a credential change */

/*
 * ns_tgid in the fork and exec records: hdr.tgid as the process's own
 * (innermost) PID namespace numbers it, what getpid() returns inside it.
 * hdr's ids are always the kernel's global ones; the two differ only in a
 * build run inside a new PID namespace (unshare --pid, containers), where
 * ns_tgid is what the build itself sees and writes.  Always filled, also
 * when equal to hdr.tgid; 0: it could not be read.
 */
struct bb_fork_event {
	struct bb_event_header hdr; /* pid/tgid: the child */
	__u32 parent_pid;
	__u32 parent_tgid;
	__u32 flags;   /* BB_FORK_* */
	__u32 ns_tgid; /* the child's process, see above (for a thread: its process's) */
	char comm[BB_COMM_LEN]; /* the child's comm, inherited from the parent */
};
_Static_assert(sizeof(struct bb_fork_event) == 56, "bb_fork_event ABI");

#define BB_EXEC_ARGS_TRUNCATED 0x1u	/* argv was longer than --args-max */
#define BB_EXEC_ARGS_UNREADABLE 0x2u	/* argv could not be read at all */
#define BB_EXEC_FILENAME_TRUNCATED 0x4u /* filename hit BB_FILENAME_MAX */
/*
 * Its standard output is a pipe, not the one its parent writes to: the
 * parent (most likely) reads what it prints.  make's $(shell ...), a
 * shell's $(...), ninja's every job; a make recipe inherits make's own
 * stdout (with --output-sync a file).  bpf/task_file.bpf.h; logs
 * recorded before this bit never have it.
 */
#define BB_EXEC_OUTPUT_CAPTURED 0x8u

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
	__u32 ns_tgid;	     /* the process, see bb_fork_event */
	__u32 hidden;	     /* BB_HIDDEN_*: the process, as the new image starts */
	char comm[BB_COMM_LEN];
	char data[]; /* last: the record's variable part */
};
_Static_assert(sizeof(struct bb_exec_event) == 72, "bb_exec_event ABI");

#define BB_EXIT_GROUP_DEAD 0x1u /* the last thread: the process is gone */

/*
 * Where a thread's lifetime went, accumulated in the kernel from the sched
 * tracepoints (all zero with --sched=off).  For a thread: on_cpu + runq +
 * blocked + sleep = its lifetime, from fork (or first sighting) to exit.
 */
struct bb_sched_acct {
	__u64 on_cpu_ns;  /* running */
	__u64 runq_ns;	  /* runnable, waiting for a CPU */
	__u64 blocked_ns; /* uninterruptible sleep (D), usually I/O */
	__u64 sleep_ns;	  /* interruptible sleep and other states */
	__u32 nr_voluntary;   /* switches away while blocking or sleeping */
	__u32 nr_involuntary; /* switches away while still runnable */
	__u32 nr_migrations;  /* switched in on another CPU than last time */
	__u32 __pad;
};
_Static_assert(sizeof(struct bb_sched_acct) == 48, "bb_sched_acct ABI");

/*
 * Emitted at the thread's last switch-out (hdr.ts_ns), after do_exit() has
 * done everything, memory teardown included: its CPU times are final.
 */
struct bb_exit_event {
	struct bb_event_header hdr;
	/*
	 * CPU time in ns.  For a group_dead record these are the totals of
	 * every tracked thread of the process (accumulated in the kernel as
	 * each thread ends), otherwise the exiting thread's own.  utime and
	 * stime are the kernel's raw split; sum_exec is the precise runtime
	 * that user space divides in utime:stime proportion, as getrusage does.
	 */
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 sum_exec_ns;
	__u64 maxrss_kb; /* signal->maxrss: peak RSS of the process */
	struct bb_sched_acct sched; /* totals or own, like the CPU times */
	__u32 exit_status; /* wait(2) status word: code << 8 | signal */
	__u32 flags;	   /* BB_EXIT_* */
	__u32 nr_threads;  /* threads the process had that were tracked */
	__u32 hidden;	   /* BB_HIDDEN_*: then maxrss_kb is 0 */
	char comm[BB_COMM_LEN];
};
_Static_assert(sizeof(struct bb_exit_event) == 136, "bb_exit_event ABI");

/* ---- Memory: bpf/mem_events.bpf.c, read by user/model/memory.c ---- */

#define BB_MEM_IMAGE_EXITED 0x1u /* ended with the process; else an exec replaced it */
#define BB_MEM_OOM_KILLED 0x2u	 /* with EXITED: the OOM killer chose the process */
#define BB_MEM_HIDDEN 0x4u	 /* the process is hidden (BB_HIDDEN_*): peak_rss_kb is 0 */

/*
 * One program image's peak resident set, emitted where its address space
 * ends: at the exec that replaces it, or at the process's end.  image
 * numbers the images of one process: 0 is the copy of the parent it was
 * forked with (for the command, buildbpf's), n the one its nth exec loaded.
 */
struct bb_mem_image_event {
	struct bb_event_header hdr; /* pid: the thread that ended it; tgid: the process */
	/* max(mm->hiwater_rss, RSS) at the image's last checkpoint, what the
	 * kernel folds into signal->maxrss; 0: no checkpoint saw the image */
	__u64 peak_rss_kb;
	__u32 image;
	__u32 flags; /* BB_MEM_* */
};
_Static_assert(sizeof(struct bb_mem_image_event) == 40, "bb_mem_image_event ABI");

/*
 * Value of the `mem_images` map, keyed by tgid: the image a tracked process
 * runs now.  User space reads rss_pages of every entry each --mem-period.
 */
struct bb_mem_proc {
	__u64 peak_pages; /* highest checkpoint so far; 0: none yet */
	__u64 rss_pages;  /* resident now, as rss_stat last saw it; 0: not seen */
	__u32 image;	  /* see bb_mem_image_event */
	__u32 __pad;
};
_Static_assert(sizeof(struct bb_mem_proc) == 24, "bb_mem_proc ABI");

#define BB_MEM_SAMPLE_TOP 5

/*
 * The build's memory at hdr.ts_ns, as user space sums the `mem_images`
 * map each --mem-period: the resident sets of its live processes (shared
 * pages counted in each, as top's RES column would add up), and the five
 * largest.
 */
struct bb_mem_sample_event {
	struct bb_event_header hdr; /* pid, tgid, cpu: 0 */
	__u64 total_kb;
	__u64 ram_kb; /* the machine's MemTotal */
	__u32 nr_procs; /* processes summed */
	__u32 nr_top;	/* used entries of top[] */
	struct {
		__u64 rss_kb;
		__u32 tgid;
		__u32 __pad;
	} top[BB_MEM_SAMPLE_TOP]; /* largest first */
};
_Static_assert(sizeof(struct bb_mem_sample_event) == 128, "bb_mem_sample_event ABI");

/*
 * The machine's memory pressure stall information (/proc/pressure/memory)
 * as user space read it when the recording began and when it ended:
 * totals since boot, so the last minus the first is the stall during the
 * build.  No record where the kernel has no PSI.
 */
struct bb_mem_psi_event {
	struct bb_event_header hdr; /* pid, tgid, cpu: 0 */
	__u64 some_us; /* time at least one task stalled on memory */
	__u64 full_us; /* time every non-idle task stalled at once */
};
_Static_assert(sizeof(struct bb_mem_psi_event) == 40, "bb_mem_psi_event ABI");

/* How an on-CPU interval ended. */
enum bb_slice_end {
	BB_SLICE_PREEMPTED = 0, /* still runnable: preempted or yielded */
	BB_SLICE_BLOCKED = 1,	/* uninterruptible sleep (D) */
	BB_SLICE_SLEPT = 2,	/* interruptible sleep or stopped */
	BB_SLICE_EXITED = 3,	/* the thread exited */
};

/*
 * One on-CPU interval of a tracked thread, [start_ns, hdr.ts_ns) on
 * hdr.cpu.  Records of one CPU are emitted on that CPU with preemption off,
 * so they arrive in time order per CPU (not across CPUs).
 */
struct bb_cpu_slice_event {
	struct bb_event_header hdr; /* ts: it left the CPU; pid/tgid: the thread */
	__u64 start_ns;		    /* it went on the CPU */
	__u64 wait_ns;		    /* runnable-but-waiting time just before start_ns */
	__u64 short_idle_ns;	    /* see below */
	__u32 end_state;	    /* enum bb_slice_end */
	__u32 __pad;
};
_Static_assert(sizeof(struct bb_cpu_slice_event) == 56, "bb_cpu_slice_event ABI");

/*
 * hdr.cpu ran its idle task during [start_ns, hdr.ts_ns). pid/tgid are 0.
 * Idle periods shorter than the kernel's idle_min_ns are not streamed (an
 * unrelated workload that ping-pongs through idle would otherwise cost a
 * record per message); their total since the CPU's previous record rides
 * on the next record of that CPU as short_idle_ns, all of it before that
 * record's start_ns.
 */
struct bb_cpu_idle_event {
	struct bb_event_header hdr;
	__u64 start_ns;
	__u64 short_idle_ns;
};
_Static_assert(sizeof(struct bb_cpu_idle_event) == 40, "bb_cpu_idle_event ABI");

/*
 * The kernel's per-task I/O accounting (struct task_io_accounting, what
 * /proc/PID/io shows): syscall-level figures (CONFIG_TASK_XACCT) and
 * storage-level ones (CONFIG_TASK_IO_ACCOUNTING).  See bpf/proc_io.bpf.h.
 */
struct bb_io_acct {
	__u64 rchar;		     /* bytes read(2)-like syscalls returned, any file */
	__u64 wchar;		     /* bytes write(2)-like syscalls accepted */
	__u64 syscr;		     /* read syscalls */
	__u64 syscw;		     /* write syscalls */
	__u64 read_bytes;	     /* bytes it made the block layer read */
	__u64 write_bytes;	     /* bytes it dirtied or wrote directly */
	__u64 cancelled_write_bytes; /* of them, dirty bytes truncated before writeback */
};
_Static_assert(sizeof(struct bb_io_acct) == 56, "bb_io_acct ABI");

/*
 * Value of the `tracked` map, keyed by tgid: presence means the process is
 * part of the build.  User space seeds the command's entry with zeroes; the
 * kernel adds each thread's final CPU times at its last switch-out, so the
 * group-dead record (from the last of them) carries the process's totals.
 */
struct bb_proc_acct {
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 sum_exec_ns;
	struct bb_sched_acct sched;
	__u32 nr_threads; /* threads forked after the first */
	__u32 nr_dead;	  /* threads past their last switch-out */
	struct bb_io_acct io; /* each ended thread's own I/O, added at its end */
	__u32 hidden;	      /* BB_HIDDEN_*, as the programs have seen the process */
	/* 1: the command before its exec, buildbpf's own copy, undumpable to
	 * guard buildbpf's BPF fds: not the build's to hide (bpf/hidden.bpf.h) */
	__u32 launching;
};
_Static_assert(sizeof(struct bb_proc_acct) == 144, "bb_proc_acct ABI");

enum bb_thread_state {
	BB_THREAD_NEW = 0,	/* forked, not yet woken */
	BB_THREAD_RUNNING = 1,
	BB_THREAD_RUNNABLE = 2, /* woken or preempted, waiting for a CPU */
	BB_THREAD_BLOCKED = 3,	/* D */
	BB_THREAD_SLEEPING = 4, /* S and the rest */
};

/*
 * Value of the `threads` map, keyed by tid: the scheduler state machine of
 * one tracked thread.  User space seeds the command's thread (SLEEPING: it
 * waits on the launch pipe) along with its `tracked` entry.
 */
struct bb_thread {
	__u64 state_ts;	   /* when it entered its state */
	__u64 last_wait_ns; /* RUNNING: how long it waited runnable before */
	struct bb_sched_acct acct;
	__u32 tgid;
	__u32 state;	/* enum bb_thread_state */
	__s32 last_cpu; /* -1: never ran while traced */
	__u32 __pad;
};
_Static_assert(sizeof(struct bb_thread) == 80, "bb_thread ABI");

/*
 * Value of the per-CPU `cpu_slots` map: what runs on that CPU, as its last
 * switch left it.  Lets the switch program know whether prev is the
 * build's without a lookup, and lets user space close the intervals still
 * open when tracing ends.
 */
struct bb_cpu_slot {
	__u64 idle_start;    /* the idle task runs since then; 0: it does not */
	__u64 short_idle_ns; /* idle in periods too short to stream, not yet reported */
	__u32 cur_tid;	     /* the task switched in last */
	__u8 cur_tracked;    /* ... and whether it is the build's */
	__u8 known;	     /* cur_* are valid (a switch was seen since attach) */
	__u8 __pad[2];
	__u64 switch_ns;     /* when the last switch seen here was, if known */
};
_Static_assert(sizeof(struct bb_cpu_slot) == 32, "bb_cpu_slot ABI");

/* ---- I/O per process: bpf/proc_io.bpf.h, read by user/model/io.c ---- */

#define BB_IO_SYSCALLS 0x1u /* rchar, wchar, syscr, syscw counted (CONFIG_TASK_XACCT) */
#define BB_IO_STORAGE 0x2u  /* read/write/cancelled_write_bytes counted (CONFIG_TASK_IO_ACCOUNTING) */
#define BB_IO_HIDDEN 0x4u   /* the process is hidden (BB_HIDDEN_*): every figure is 0 */

/*
 * A process's I/O when its last thread left its CPU for good (hdr.ts_ns,
 * the same as its group-dead exit record's, which follows it): the sum
 * over its tracked threads of each one's own counts at its end.  Figures
 * whose flag is clear were not counted by this kernel and are 0.
 */
struct bb_proc_io_event {
	struct bb_event_header hdr; /* pid: the last thread; tgid: the process */
	struct bb_io_acct io;
	__u32 flags;	  /* BB_IO_* */
	__u32 nr_threads; /* threads summed */
};
_Static_assert(sizeof(struct bb_proc_io_event) == 88, "bb_proc_io_event ABI");

/* ---- file dependencies (--deps=on) ---- */

#define BB_FILE_WRITE 0x1u	    /* opened for writing: the process is a writer */
#define BB_FILE_PATH_COMPLETE 0x2u  /* names[] reach its file system's root */
/* Path components kept per file record, leaf first, each cut to the length. */
#define BB_FILE_NAMES 8
#define BB_FILE_NAME_LEN 64

/*
 * A tracked process opened a regular file (open, openat, openat2, creat)
 * for writing, or for reading when the build had opened it for writing
 * before (the kernel's written-files map): files the build only reads
 * (system headers) send nothing.  The file is its inode, (dev, ino): a
 * rename keeps it.  names[] is the display path as the file's dentries
 * spell it at the open, leaf first, relative to its file system's root
 * (not its mount point): names[i] NUL-terminated, nr_names of them.
 */
struct bb_file_event {
	struct bb_event_header hdr; /* pid/tgid: the opener */
	__u64 ino;
	__u32 dev; /* the file system's s_dev */
	__u32 flags; /* BB_FILE_* */
	__u32 nr_names;
	__u32 __pad;
	char names[BB_FILE_NAMES][BB_FILE_NAME_LEN];
};
_Static_assert(sizeof(struct bb_file_event) == 560, "bb_file_event ABI");

/* Longest path kept of each side of a rename, NUL included. */
#define BB_RENAME_PATH_LEN 256

/*
 * A tracked process's rename, renameat or renameat2 succeeded: old_path
 * onto new_path, as the process passed them (relative to its cwd or a
 * directory fd; cut to BB_RENAME_PATH_LEN - 1 bytes, NUL-terminated).
 * The inode keeps its identity, so readers still find their writer; the
 * record makes the renaming process a writer of that file too.
 */
struct bb_file_rename_event {
	struct bb_event_header hdr;
	char old_path[BB_RENAME_PATH_LEN];
	char new_path[BB_RENAME_PATH_LEN];
};
_Static_assert(sizeof(struct bb_file_rename_event) == 536, "bb_file_rename_event ABI");

/*
 * Value of the kernel's per-process file counters, and the record that
 * carries them when the process ends (hdr.ts_ns: its exit).  A process
 * that opened nothing sends none.
 */
struct bb_file_counts {
	__u32 opened;  /* files it opened, any file, any mode */
	__u32 written; /* ... of them for writing */
};

struct bb_file_counts_event {
	struct bb_event_header hdr;
	struct bb_file_counts counts;
};
_Static_assert(sizeof(struct bb_file_counts_event) == 32, "bb_file_counts_event ABI");

/* ---- why a process started when it did (--deps=on) ---- */

#define BB_WAKE_SEEN 0x1u	    /* the parent thread was woken since it was tracked */
#define BB_WAKE_WAKER_EXITING 0x2u /* the waker was exiting (PF_EXITING): its exit woke the parent */
#define BB_WAKE_RUNQ_KNOWN 0x4u    /* runq_ns and exit_runq_ns are valid (--sched was not off) */
#define BB_WAKE_EXIT_SEEN 0x8u	    /* exit_* are valid: an exiting task woke the parent since it was tracked */

/*
 * A tracked thread forked a process (hdr.ts_ns: the fork; hdr.pid/tgid:
 * the child): the last wakeup of the forking thread before it, and who
 * woke it (the task running when sched_waking fired; a wakeup from an
 * interrupt names whatever task it interrupted).  make -jN forks a job
 * when a running job's exit wakes it: the waker is that job, exiting.
 * The last wakeup by an exiting task rides along too: between that exit
 * and the fork the parent may sleep again (a stat on a network file
 * system), and the wakeup that ends such a sleep is an interrupt's.
 * One record per process the build starts, not one per wakeup.
 */
struct bb_start_wake_event {
	struct bb_event_header hdr;
	__u64 wake_ns;	    /* the parent thread's last wakeup; with BB_WAKE_SEEN */
	__u64 runq_ns;	    /* its run-queue wait since then; with BB_WAKE_RUNQ_KNOWN */
	__u64 exit_wake_ns; /* its last wakeup by an exiting task; with BB_WAKE_EXIT_SEEN */
	__u64 exit_runq_ns; /* its run-queue wait since then; with BB_WAKE_RUNQ_KNOWN */
	__u32 parent_pid;   /* the forking thread */
	__u32 parent_tgid;
	__u32 waker_pid;    /* the waking task (thread), 0: the idle task or none */
	__u32 waker_tgid;
	__u32 exit_waker_pid; /* the exiting task of exit_wake_ns */
	__u32 exit_waker_tgid;
	__u32 flags;	    /* BB_WAKE_* */
	__u32 __pad;
	char waker_comm[BB_COMM_LEN];
};
_Static_assert(sizeof(struct bb_start_wake_event) == 104, "bb_start_wake_event ABI");

/*
 * --attach, --cgroup: a process that was already running when buildbpf
 * began tracking it, so its fork and exec were never seen.  User space
 * writes it into the log for the processes found at the start, from the
 * task iterator's view of the process (struct bb_task_seen) and /proc; the
 * kernel emits it (through the ring buffer, with no `data`: argv cannot be
 * read from another task there) for a process moved into the --cgroup.  hdr.ts_ns
 * is when it was first tracked (the trace start, or its own start_ns when
 * it was born during the seeding); start_ns is the kernel's start time of
 * the process.  `data` holds filename_len bytes of /proc/PID/exe (no NUL)
 * then args_len bytes of /proc/PID/cmdline, as in bb_exec_event (flags are
 * BB_EXEC_*); both may be empty when unreadable.
 */
struct bb_proc_found_event {
	struct bb_event_header hdr;
	__u64 start_ns;	     /* task->start_time: CLOCK_MONOTONIC */
	__u32 ppid;	     /* real parent's tgid */
	__u32 ns_tgid;	     /* as in bb_fork_event */
	__u32 flags;	     /* BB_EXEC_* */
	__u32 filename_len;
	__u32 args_len;
	__u32 args_full_len; /* as in bb_exec_event */
	__u32 nr_threads;    /* its threads when it was found */
	__u32 __pad;
	char comm[BB_COMM_LEN];
	char data[];
};
_Static_assert(sizeof(struct bb_proc_found_event) == 80, "bb_proc_found_event ABI");

/*
 * One task (thread) as the task iterator (bpf/task_iter.bpf.c) sees it,
 * read by user space from the iterator's seq file when --attach seeds the
 * tracked map.  CPU times are the thread's own so far: the seed subtracts
 * them, so a found process's exit record counts only its traced time.
 */
struct bb_task_seen {
	__u64 start_ns;	   /* task->start_time: CLOCK_MONOTONIC */
	__u64 start_boottime_ns; /* task->start_boottime: what /proc/PID/stat shows, in ticks */
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 sum_exec_ns;
	__u32 tid;
	__u32 tgid;
	__u32 ppid;	   /* real parent's tgid */
	__u32 ns_tgid;	   /* as in bb_fork_event */
	__u32 state;	   /* task's __state */
	__u32 flags;	   /* BB_TASK_SEEN_* */
	char comm[BB_COMM_LEN];
};
_Static_assert(sizeof(struct bb_task_seen) == 80, "bb_task_seen ABI");

#define BB_TASK_SEEN_IN_CGROUP 0x1u /* --cgroup: its cgroup v2 is the target or below it */

#endif /* BUILDBPF_EVENTS_H */
