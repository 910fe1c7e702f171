/* SPDX-License-Identifier: GPL-2.0 */
/*
 * I/O per process: the kernel's per-task I/O accounting (task->ioac, what
 * /proc/PID/io sums), added up per process as its threads end.
 *
 * Each thread's own counts are final at its last switch-out (every figure
 * is charged to current, and a TASK_DEAD task never runs again), so each
 * is added there once, into its process's `tracked` entry, and the
 * process's total goes out with its group-dead exit.  signal->ioac is not
 * read: release_task() -> __exit_signal() folds a dead non-leader thread's
 * ioac into it (without clearing the thread's) from exit_notify(), after
 * sched_process_exit and before the last switch on 6.1, 6.12 and 6.18
 * alike, while the leader's is never folded (it waits, a zombie, to be
 * reaped) and a ptraced thread's only when its tracer reaps it.  Reading
 * it at any one point would count some threads twice or miss others.
 *
 * The fields exist only where the kernel counts them: rchar..syscw with
 * CONFIG_TASK_XACCT, read_bytes..cancelled_write_bytes with
 * CONFIG_TASK_IO_ACCOUNTING; without one the record's flag is clear and
 * those figures are 0, never read.  Include after maps.bpf.h and emit.bpf.h.
 */
#ifndef BUILDBPF_PROC_IO_BPF_H
#define BUILDBPF_PROC_IO_BPF_H

static __always_inline __u32 io_counted(struct task_struct *task)
{
	__u32 flags = 0;

	if (bpf_core_field_exists(task->ioac.rchar))
		flags |= BB_IO_SYSCALLS;
	if (bpf_core_field_exists(task->ioac.read_bytes))
		flags |= BB_IO_STORAGE;
	return flags;
}

/* The thread's own counts, final at its last switch-out, into its process's. */
static __always_inline void add_thread_io(struct bb_io_acct *to, struct task_struct *task)
{
	if (bpf_core_field_exists(task->ioac.rchar)) {
		__sync_fetch_and_add(&to->rchar, BPF_CORE_READ(task, ioac.rchar));
		__sync_fetch_and_add(&to->wchar, BPF_CORE_READ(task, ioac.wchar));
		__sync_fetch_and_add(&to->syscr, BPF_CORE_READ(task, ioac.syscr));
		__sync_fetch_and_add(&to->syscw, BPF_CORE_READ(task, ioac.syscw));
	}
	if (bpf_core_field_exists(task->ioac.read_bytes)) {
		__sync_fetch_and_add(&to->read_bytes, BPF_CORE_READ(task, ioac.read_bytes));
		__sync_fetch_and_add(&to->write_bytes, BPF_CORE_READ(task, ioac.write_bytes));
		__sync_fetch_and_add(&to->cancelled_write_bytes, BPF_CORE_READ(task, ioac.cancelled_write_bytes));
	}
}

/*
 * The process's totals, just before its group-dead exit record (same ts);
 * none but the flag when it is hidden (hidden.bpf.h: BB_HIDDEN_*).
 */
static __always_inline void emit_proc_io(struct task_struct *task, __u32 tid, __u32 tgid,
					 const struct bb_proc_acct *totals, __u32 hidden, __u64 now)
{
	struct bb_proc_io_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_PROC_IO, tid, tgid, now);
	if (hidden) {
		__builtin_memset(&e->io, 0, sizeof(e->io));
		e->flags = BB_IO_HIDDEN;
	} else {
		e->io = totals->io;
		e->flags = io_counted(task);
	}
	e->nr_threads = totals->nr_dead;
	bpf_ringbuf_submit(e, wakeup_flag());
}

#endif /* BUILDBPF_PROC_IO_BPF_H */
