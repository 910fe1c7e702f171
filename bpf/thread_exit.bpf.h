/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracked thread's end: its last switch-out, the sched_switch whose prev
 * is TASK_DEAD (do_task_dead()).  Only there is its CPU time final:
 * sched_process_exit fires before the current slice is accounted and, on
 * recent kernels, before exit_mm() tears the address space down, and after
 * it the thread still runs (files, namespaces, exit_notify()).  The exit
 * record is emitted here, so the thread is the build's until it leaves its
 * CPU for good, and the process's record (BB_EXIT_GROUP_DEAD) comes from
 * whichever of its threads switches out last, with every thread's time in.
 *
 * Included by both program files: the scheduler's switch program runs it
 * at every --sched level but off, where proc_events' own minimal switch
 * program does and nothing else.  Include after maps.bpf.h and emit.bpf.h.
 *
 * Also the end of a process's entries in the maps of the file and memory
 * programs (take_process_entry()), whose records come at sched_process_exit.
 */
#ifndef BUILDBPF_THREAD_EXIT_BPF_H
#define BUILDBPF_THREAD_EXIT_BPF_H

#include "proc_io.bpf.h"
#include "hidden.bpf.h"

/* Kernel page size in KiB (signal->maxrss counts pages); set by user space. */
const volatile __u32 page_size_kb __weak = 4;

/* task_struct::state was renamed __state in 5.14: read whichever exists. */
struct task_struct___pre_5_14 {
	long state;
} __attribute__((preserve_access_index));

static __always_inline unsigned int task_state(struct task_struct *task)
{
	if (bpf_core_field_exists(task->__state))
		return BPF_CORE_READ(task, __state);
	return BPF_CORE_READ((struct task_struct___pre_5_14 *)task, state);
}

/*
 * The exit code the parent's wait() will see: a group exit (exit_group(),
 * a fatal signal) records it in the signal struct; otherwise it is the
 * leader's own exit_code.  Both are set long before the last switch.
 */
#define SIGNAL_GROUP_EXIT_FLAG 0x00000004

static __always_inline __u32 group_exit_status(struct task_struct *task)
{
	struct signal_struct *sig = BPF_CORE_READ(task, signal);

	if (BPF_CORE_READ(sig, flags) & SIGNAL_GROUP_EXIT_FLAG)
		return BPF_CORE_READ(sig, group_exit_code);
	return BPF_CORE_READ(task, group_leader, exit_code);
}

static __always_inline void add_sched(struct bb_sched_acct *to, const struct bb_sched_acct *from)
{
	__sync_fetch_and_add(&to->on_cpu_ns, from->on_cpu_ns);
	__sync_fetch_and_add(&to->runq_ns, from->runq_ns);
	__sync_fetch_and_add(&to->blocked_ns, from->blocked_ns);
	__sync_fetch_and_add(&to->sleep_ns, from->sleep_ns);
	__sync_fetch_and_add(&to->nr_voluntary, from->nr_voluntary);
	__sync_fetch_and_add(&to->nr_involuntary, from->nr_involuntary);
	__sync_fetch_and_add(&to->nr_migrations, from->nr_migrations);
}

/*
 * The dead thread's scheduler state ends here (t: its entry in `threads`,
 * NULL with --sched=off or when it has none): its last on-CPU interval is
 * emitted, ending now, and its totals join the process's.
 */
static __always_inline void end_thread_sched(struct bb_thread *t, __u32 tid, struct bb_proc_acct *acct,
					     struct bb_sched_acct *own, __u64 now)
{
	__u64 start;

	if (!t)
		return;
	start = t->state_ts;
	if (thread_close_state(t, now))
		emit_cpu_slice(t, tid, BB_SLICE_EXITED, start, now);
	*own = t->acct;
	add_sched(&acct->sched, &t->acct);
	bpf_map_delete_elem(&threads, &tid);
}

/*
 * Whether the thread whose last switch added itself to acct->nr_dead was
 * the process's last: then the process's entry is removed, with its totals
 * copied to *totals first.  Two threads ending at once on two CPUs may both
 * see every thread counted (the count is read after the add: atomics that
 * return a value need BPF v3, Linux 5.12), so the map delete, which exactly
 * one caller wins, decides which of them is the last.
 */
static __always_inline bool take_group_dead(__u32 tgid, struct bb_proc_acct *acct, struct bb_proc_acct *totals)
{
	/* nr_threads counts the threads forked after the first, and none
	 * can be forked once none is left to fork it. */
	if (*(volatile __u32 *)&acct->nr_dead < *(volatile __u32 *)&acct->nr_threads + 1)
		return false;
	*totals = *acct;
	return bpf_map_delete_elem(&tracked, &tgid) == 0;
}

/*
 * task (TASK_DEAD) leaves its CPU for the last time at now.  Its final
 * times go into the process's totals; the exit record is the thread's own,
 * or the process's when it is the last of its threads to go.
 */
static __always_inline void thread_final_switch(struct task_struct *task, struct bb_thread *t, __u64 now)
{
	__u32 tgid = BPF_CORE_READ(task, tgid), tid = BPF_CORE_READ(task, pid);
	struct bb_sched_acct own_sched = {};
	struct bb_proc_acct *acct, totals;
	__u64 utime, stime, sum_exec;
	struct bb_exit_event *e;
	__u32 hidden;
	bool group_dead;

	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct) {
		if (t)
			bpf_map_delete_elem(&threads, &tid);
		return;
	}
	utime = BPF_CORE_READ(task, utime);
	stime = BPF_CORE_READ(task, stime);
	sum_exec = BPF_CORE_READ(task, se.sum_exec_runtime);
	__sync_fetch_and_add(&acct->utime_ns, utime);
	__sync_fetch_and_add(&acct->stime_ns, stime);
	__sync_fetch_and_add(&acct->sum_exec_ns, sum_exec);
	end_thread_sched(t, tid, acct, &own_sched, now);
	/* I/O (proc_io.bpf.h): in before nr_dead, so the last thread's copy has it. */
	add_thread_io(&acct->io, task);
	/* Credentials only: the mm is gone.  In before nr_dead, like the I/O. */
	hidden = mark_hidden(acct, task);
	__sync_fetch_and_add(&acct->nr_dead, 1);
	group_dead = take_group_dead(tgid, acct, &totals);
	if (group_dead) {
		hidden |= totals.hidden;
		emit_proc_io(task, tid, tgid, &totals, hidden, now);
	}

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_EXIT, tid, tgid, now);
	e->flags = group_dead ? BB_EXIT_GROUP_DEAD : 0;
	e->hidden = hidden;
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	if (group_dead) {
		e->utime_ns = totals.utime_ns;
		e->stime_ns = totals.stime_ns;
		e->sum_exec_ns = totals.sum_exec_ns;
		e->sched = totals.sched;
		e->nr_threads = totals.nr_threads;
		e->exit_status = group_exit_status(task);
	} else {
		e->utime_ns = utime;
		e->stime_ns = stime;
		e->sum_exec_ns = sum_exec;
		e->sched = own_sched;
		e->nr_threads = 0;
		e->exit_status = BPF_CORE_READ(task, exit_code);
	}
	/* signal->maxrss is in pages.  The kernel folds the mm's peak in
	 * when the last thread starts exiting, before that thread's last
	 * switch, so before the process's last one.  The signal struct
	 * lives as long as the task does. */
	e->maxrss_kb = hidden ? 0 : BPF_CORE_READ(task, signal, maxrss) * page_size_kb;
	bpf_ringbuf_submit(e, wakeup_flag());
}

/*
 * A per-process entry (keyed by tgid) that leaves with the process's last
 * thread, at sched_process_exit: do_exit() counted the thread out of
 * signal->live before that tracepoint.  Two threads ending at once may both
 * see zero live; the map delete, which exactly one of them wins, decides
 * which one takes the entry.  True when this caller took it: the entry's
 * value is then in *copy (size bytes, a constant), the map no longer has it,
 * and the caller sends the process's record.
 */
static __always_inline bool take_process_entry(void *map, struct task_struct *p, __u32 tgid, void *copy,
					       __u32 size)
{
	void *v;

	if (BPF_CORE_READ(p, signal, live.counter) != 0)
		return false;
	v = bpf_map_lookup_elem(map, &tgid);
	if (!v)
		return false;
	__builtin_memcpy(copy, v, size);
	return bpf_map_delete_elem(map, &tgid) == 0;
}

#endif /* BUILDBPF_THREAD_EXIT_BPF_H */
