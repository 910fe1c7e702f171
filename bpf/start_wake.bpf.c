// SPDX-License-Identifier: GPL-2.0
/*
 * Why a process of the build started when it did (--deps=on): make -jN,
 * ninja or a shell forks its next job when something wakes it, usually the
 * exit of a job it waited for.  Each wakeup of a build thread remembers its
 * waker (the task running when sched_waking fires: `current`) in
 * `last_wake`; when that thread forks a process, one record carries the
 * wakeup that led to the fork.  One record per process started, not one
 * per wakeup.
 *
 * sched_waking fires in the waker's context on every wakeup of the
 * machine: a task outside the build costs one `tracked` lookup and a
 * return.  (sched_wakeup may fire on the wakee's CPU from an IPI, where
 * `current` is an unrelated task.)  A wakeup raised from an interrupt
 * names the task it interrupted; user space only calls a waker an exit
 * when BB_WAKE_WAKER_EXITING says the waker was in do_exit().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "maps.bpf.h"
#include "emit.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

/* The kernel's PF_EXITING (include/linux/sched.h): set at do_exit()'s start. */
#define BB_PF_EXITING 0x00000004

/* A build thread's last wakeup, and its last by an exit, keyed by its tid; deleted when it exits. */
struct last_wake {
	__u64 ts;
	__u64 runq_ns; /* the thread's run-queue total then (--sched) */
	__u64 exit_ts;
	__u64 exit_runq_ns;
	__u32 waker_pid;
	__u32 waker_tgid;
	__u32 exit_waker_pid;
	__u32 exit_waker_tgid;
	__u32 flags; /* BB_WAKE_WAKER_EXITING, BB_WAKE_RUNQ_KNOWN, BB_WAKE_EXIT_SEEN */
	__u32 __pad;
	char waker_comm[BB_COMM_LEN];
};

/*
 * Preallocated (no BPF_F_NO_PREALLOC): sched_waking runs with interrupts
 * off, where 6.1 could not allocate an element and the wakeup was lost;
 * a preallocated map takes its element from a free list in any context.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, __u32);
	__type(value, struct last_wake);
} last_wake SEC(".maps");

SEC("tp_btf/sched_waking")
int BPF_PROG(handle_start_waking, struct task_struct *p)
{
	/* tp_btf arguments are BTF-typed: read directly, as in handle_switch. */
	__u32 tgid = p->tgid, tid = p->pid;
	struct task_struct *cur;
	struct bb_thread *t;
	struct last_wake w = {}, *old;

	if (!bpf_map_lookup_elem(&tracked, &tgid))
		return 0;
	old = bpf_map_lookup_elem(&last_wake, &tid);
	if (old && (old->flags & BB_WAKE_EXIT_SEEN)) {
		w.exit_ts = old->exit_ts;
		w.exit_runq_ns = old->exit_runq_ns;
		w.exit_waker_pid = old->exit_waker_pid;
		w.exit_waker_tgid = old->exit_waker_tgid;
		w.flags = BB_WAKE_EXIT_SEEN;
	}
	cur = bpf_get_current_task_btf();
	w.ts = bpf_ktime_get_ns();
	w.waker_pid = cur->pid;
	w.waker_tgid = cur->tgid;
	bpf_get_current_comm(&w.waker_comm, sizeof(w.waker_comm));
	/* --sched: the run-queue wait from here to the fork is the
	 * difference of the thread's totals (threads is empty otherwise). */
	t = bpf_map_lookup_elem(&threads, &tid);
	if (t) {
		w.runq_ns = t->acct.runq_ns;
		w.flags |= BB_WAKE_RUNQ_KNOWN;
	}
	if (cur->flags & BB_PF_EXITING) {
		w.flags |= BB_WAKE_WAKER_EXITING | BB_WAKE_EXIT_SEEN;
		w.exit_ts = w.ts;
		w.exit_runq_ns = w.runq_ns;
		w.exit_waker_pid = w.waker_pid;
		w.exit_waker_tgid = w.waker_tgid;
	}
	/*
	 * Not kept (the map full, or its bucket busy with an update this
	 * wakeup interrupted): the thread's older wakeup goes too, so that its next fork
	 * claims none rather than a stale one.  No record is lost, so
	 * dropped_events, which counts records, is not bumped: the fork's
	 * record still comes, saying no wakeup was seen.
	 */
	if (bpf_map_update_elem(&last_wake, &tid, &w, BPF_ANY))
		bpf_map_delete_elem(&last_wake, &tid);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(handle_start_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 parent_tgid = parent->tgid, parent_tid = parent->pid, child_tgid = child->tgid;
	struct bb_start_wake_event *e;
	struct last_wake *w;
	struct bb_thread *t;

	/* A new thread is not a new job. */
	if (child_tgid == parent_tgid || !bpf_map_lookup_elem(&tracked, &parent_tgid))
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return 0;
	}
	fill_header(&e->hdr, BB_EV_START_WAKE, child->pid, child_tgid, bpf_ktime_get_ns());
	e->parent_pid = parent_tid;
	e->parent_tgid = parent_tgid;
	e->wake_ns = 0;
	e->runq_ns = 0;
	e->exit_wake_ns = 0;
	e->exit_runq_ns = 0;
	e->waker_pid = 0;
	e->waker_tgid = 0;
	e->exit_waker_pid = 0;
	e->exit_waker_tgid = 0;
	e->flags = 0;
	e->__pad = 0;
	__builtin_memset(e->waker_comm, 0, sizeof(e->waker_comm));
	w = bpf_map_lookup_elem(&last_wake, &parent_tid);
	if (w) {
		e->wake_ns = w->ts;
		e->waker_pid = w->waker_pid;
		e->waker_tgid = w->waker_tgid;
		e->exit_wake_ns = w->exit_ts;
		e->exit_waker_pid = w->exit_waker_pid;
		e->exit_waker_tgid = w->exit_waker_tgid;
		e->flags = BB_WAKE_SEEN | (w->flags & (BB_WAKE_WAKER_EXITING | BB_WAKE_EXIT_SEEN));
		__builtin_memcpy(e->waker_comm, w->waker_comm, sizeof(e->waker_comm));
		t = (w->flags & BB_WAKE_RUNQ_KNOWN) ? bpf_map_lookup_elem(&threads, &parent_tid) : NULL;
		if (t && t->acct.runq_ns >= w->runq_ns && w->runq_ns >= w->exit_runq_ns) {
			e->runq_ns = t->acct.runq_ns - w->runq_ns;
			e->exit_runq_ns = t->acct.runq_ns - w->exit_runq_ns;
			e->flags |= BB_WAKE_RUNQ_KNOWN;
		}
	}
	bpf_ringbuf_submit(e, wakeup_flag());
	return 0;
}

/* Every thread's end, the machine's included: a delete, found or not. */
/*
 * Thread tid exits: its last wakeup goes.  Called from file_events.bpf.c's
 * sched_process_exit program rather than being one: every program on a
 * tracepoint that has three or more makes detaching them wait for an RCU
 * grace period (the kernel's 2 -> 1 transition), at every shutdown.
 */
__hidden int start_wake_forget(__u32 tid)
{
	bpf_map_delete_elem(&last_wake, &tid);
	return 0;
}
