// SPDX-License-Identifier: GPL-2.0
/*
 * Where the build's threads spend their time: every context switch and
 * wakeup of a tracked thread moves its state machine (struct bb_thread) and
 * accumulates on-CPU, run-queue, blocked and sleep time; each on-CPU
 * interval and each idle period of a CPU is streamed for the CPU lanes.
 *
 * These tracepoints fire system-wide on every switch: for a task outside
 * the build the cost is one hash lookup (of next; prev is known from the
 * per-CPU slot set when it was switched in) and a return.  buildbpf's own
 * threads are not in the map, so the tracer never records itself.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "shared_maps.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

#define TASK_RUNNING_STATE 0x0000
#define TASK_UNINTERRUPTIBLE_STATE 0x0002

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bb_cpu_slot);
} cpu_slots SEC(".maps");

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

static __always_inline void emit_idle(__u64 start, __u64 now)
{
	struct bb_cpu_idle_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_CPU_IDLE, 0, 0, now);
	e->start_ns = start;
	bpf_ringbuf_submit(e, wakeup_flag());
}

static __always_inline void switch_out(struct bb_thread *t, __u32 tid, struct task_struct *prev, bool preempt,
				       __u64 now)
{
	unsigned int state;
	__u32 end;

	/* Only a running thread leaves a CPU; any other state means we did not
	 * see it arrive (attached mid-run) and there is no interval to close. */
	if (t->state != BB_THREAD_RUNNING)
		return;
	thread_close_state(t, now);
	state = task_state(prev);
	/* Preempted while it was setting a sleep state: still runnable. */
	if (preempt || state == TASK_RUNNING_STATE) {
		t->state = BB_THREAD_RUNNABLE;
		t->acct.nr_involuntary++;
		end = BB_SLICE_PREEMPTED;
	} else if (state & TASK_UNINTERRUPTIBLE_STATE) {
		t->state = BB_THREAD_BLOCKED;
		t->acct.nr_voluntary++;
		end = BB_SLICE_BLOCKED;
	} else {
		t->state = BB_THREAD_SLEEPING;
		t->acct.nr_voluntary++;
		end = BB_SLICE_SLEPT;
	}
	emit_cpu_slice(t, tid, end, now);
	t->state_ts = now;
}

static __always_inline void switch_in(struct bb_thread *t, __u32 cpu, __u64 now)
{
	__u64 waited = 0;

	/* Runnable until now is run-queue wait; a thread switched in from a
	 * sleep state had a wakeup we did not see (before attach). */
	if (t->state == BB_THREAD_RUNNABLE || t->state == BB_THREAD_NEW)
		waited = now > t->state_ts ? now - t->state_ts : 0;
	thread_close_state(t, now);
	if (t->last_cpu >= 0 && (__u32)t->last_cpu != cpu)
		t->acct.nr_migrations++;
	t->last_cpu = cpu;
	t->state = BB_THREAD_RUNNING;
	t->state_ts = now;
	t->last_wait_ns = waited;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	__u32 prev_tid = BPF_CORE_READ(prev, pid), next_tid = BPF_CORE_READ(next, pid);
	struct bb_cpu_slot *slot = bpf_map_lookup_elem(&cpu_slots, &zero);
	struct bb_thread *t;

	if (!slot)
		return 0;

	if (prev_tid == 0) {
		/* The idle task leaves: one idle period of this CPU.  The first
		 * switch seen on a CPU that was idle at attach ends a period
		 * that began before the trace (user space clips it). */
		if (slot->idle_start)
			emit_idle(slot->idle_start, now);
		else if (!slot->known)
			emit_idle(1, now);
		slot->idle_start = 0;
	} else if (!slot->known || slot->cur_tid != prev_tid || slot->cur_tracked) {
		t = bpf_map_lookup_elem(&threads, &prev_tid);
		if (t)
			switch_out(t, prev_tid, prev, preempt, now);
	}

	slot->known = 1;
	slot->cur_tid = next_tid;
	if (next_tid == 0) {
		slot->cur_tracked = 0;
		slot->idle_start = now;
		return 0;
	}
	t = bpf_map_lookup_elem(&threads, &next_tid);
	slot->cur_tracked = t != NULL;
	if (t)
		switch_in(t, cpu, now);
	return 0;
}

static __always_inline int wake(struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);
	struct bb_thread *t = bpf_map_lookup_elem(&threads, &tid);
	__u64 now;

	/* A wakeup of a task that is running or queued already changes
	 * nothing (the kernel traces those too). */
	if (!t || t->state == BB_THREAD_RUNNING || t->state == BB_THREAD_RUNNABLE)
		return 0;
	now = bpf_ktime_get_ns();
	thread_close_state(t, now);
	t->state = BB_THREAD_RUNNABLE;
	t->state_ts = now;
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(handle_wakeup, struct task_struct *p)
{
	return wake(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(handle_wakeup_new, struct task_struct *p)
{
	return wake(p);
}
