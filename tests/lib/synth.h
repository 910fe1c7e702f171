/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic kernel records for the pure-stage unit tests. */
#ifndef BUILDBPF_TESTS_SYNTH_H
#define BUILDBPF_TESTS_SYNTH_H

#include <stdbool.h>
#include <linux/types.h>
#include "model/cpu_sched.h"
#include "model/file_log.h"
#include "model/model.h"
#include "model/start_wakes.h"

/*
 * Fork and exec records carry the namespace pid of a process in the initial
 * PID namespace (ns_tgid == tgid) unless made with the _ns variants.
 */
void synth_fork(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 child_tid, bool thread);
/* A new process (not a thread) whose own PID namespace numbers it ns_tgid. */
void synth_fork_ns(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 ns_tgid);
/* argv: NULL-terminated; the record's argv area is NUL-separated. */
void synth_exec(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *const argv[]);
void synth_exec_ns(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u32 ns_tgid, const char *filename,
		   const char *const argv[]);
/*
 * parent's child pid runs `/bin/sh -c cmd` during [start, end] (ns), its
 * output piped to parent (BB_EXEC_OUTPUT_CAPTURED): under make, a $(shell).
 */
void synth_captured_sh(struct model *m, __u64 start, __u64 end, __u32 parent, __u32 pid, const char *cmd);
/* The raw argv area as the kernel hands it over, for cut or odd argv. */
void synth_exec_raw(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *args,
		    size_t args_len, __u32 flags);
/* --attach: tgid was running (since start_ns) when it was found at ts. */
void synth_found(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u64 start_ns, const char *filename,
		 const char *const argv[]);
void synth_exit(struct model *m, __u64 ts, __u32 tgid, __u32 tid, bool group_dead, __u32 status);
/* A group-dead exit with CPU accounting. */
void synth_exit_acct(struct model *m, __u64 ts, __u32 tgid, __u32 status, __u64 utime, __u64 stime, __u64 sum_exec,
		     __u64 maxrss_kb);
/* A group-dead exit with the scheduler's account of its threads (--sched): CPU, run-queue, blocked time. */
void synth_exit_sched(struct model *m, __u64 ts, __u32 tgid, __u64 on_cpu_ns, __u64 runq_ns, __u64 blocked_ns);
/* The first instance of pid in a finished model, or NULL. */
const struct proc_instance *synth_proc_of(const struct model *m, __u32 pid);

/* One image's peak RSS, as mem_events.bpf.c reports it (flags: BB_MEM_*). */
/* A group-dead exit of a process the kernel hid from the user (BB_HIDDEN_*): no maxrss. */
void synth_exit_hidden(struct model *m, __u64 ts, __u32 tgid, __u32 hidden);
void synth_mem_image(struct model *m, __u64 ts, __u32 tgid, __u32 image, __u64 peak_rss_kb, __u32 flags);
/* A process's I/O at its end, as bpf/proc_io.bpf.h reports it (flags: BB_IO_*). */
void synth_proc_io(struct model *m, __u64 ts, __u32 tgid, const struct bb_io_acct *io, __u32 flags);

/*
 * Scheduler records, as the switch handler streams them: thread tid of
 * process tgid ran on cpu during [start, end) after waiting wait_ns
 * runnable (absolute times).  The _event form leaves the record to be
 * changed or fed by the caller; the others feed it and require success.
 */
struct bb_cpu_slice_event synth_cpu_slice_event(__u32 cpu, __u32 tid, __u32 tgid, __u64 start, __u64 end,
						__u64 wait_ns);
void synth_cpu_slice(struct sched_model *s, __u32 cpu, __u32 tid, __u32 tgid, __u64 start, __u64 end,
		     __u64 wait_ns);
/* cpu idled during [start, end). */
void synth_cpu_idle(struct sched_model *s, __u32 cpu, __u64 start, __u64 end);

/*
 * File records (--deps), as bpf/file_events.bpf.c sends them: path is
 * "a/b/c" from the file system's root (split into names[], leaf first).
 */
struct bb_file_event synth_file_event(__u64 ts, __u32 tgid, __u32 dev, __u64 ino, bool write, const char *path);
void synth_file_open(struct file_log *fl, __u64 ts, __u32 tgid, __u32 dev, __u64 ino, bool write, const char *path);
void synth_file_rename(struct file_log *fl, __u64 ts, __u32 tgid, const char *old_path, const char *new_path);
void synth_file_counts(struct file_log *fl, __u64 ts, __u32 tgid, __u32 opened, __u32 written);

/*
 * The start-wake record of child's fork at fork_ns by parent (--deps):
 * woken last at wake_ns by waker's exit; waker 0: not woken since it was
 * ready (the parent ran on).
 */
void synth_start_wake(struct start_wakes *w, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns, __u32 waker);
/* The same, woken by waker still running (a message down a pipe: rustc telling cargo its .rmeta is out). */
void synth_start_wake_running(struct start_wakes *w, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns,
			      __u32 waker);

#endif /* BUILDBPF_TESTS_SYNTH_H */
