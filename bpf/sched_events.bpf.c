// SPDX-License-Identifier: GPL-2.0
/*
 * Where the build's threads spend their time: every context switch and
 * wakeup of a tracked thread moves its state machine (struct bb_thread) and
 * accumulates on-CPU, run-queue, blocked and sleep time; each on-CPU
 * interval and each idle period of a CPU is streamed for the CPU lanes.
 *
 * These tracepoints fire system-wide on every switch: for a task outside
 * the build the cost is one hash lookup (of next; prev is known from the
 * per-CPU slot set when it was switched in) and a return.  A tracked
 * thread's last switch ends it (thread_exit.bpf.h).  buildbpf's own
 * threads are not in the map, so the tracer never records itself.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "maps.bpf.h"
#include "emit.bpf.h"
#include "thread_exit.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

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
	e->short_idle_ns = take_short_idle();
	bpf_ringbuf_submit(e, wakeup_flag());
}

static __always_inline void switch_out(struct bb_thread *t, __u32 tid, unsigned int state, bool preempt, __u64 now)
{
	__u64 start;
	int end = thread_switch_out(t, preempt, state, now, &start);

	if (end >= 0)
		emit_cpu_slice(t, tid, end, start, now);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(handle_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	/* tp_btf arguments are BTF-typed pointers: read directly (still CO-RE
	 * relocated), no bpf_probe_read_kernel() call on the hottest path. */
	__u32 prev_tid = prev->pid, next_tid = next->pid;
	struct bb_cpu_slot *slot = bpf_map_lookup_elem(&cpu_slots, &zero);
	struct bb_thread *t;

	if (!slot)
		return 0;

	if (prev_tid == 0) {
		/* The idle task leaves: one idle period of this CPU.  The first
		 * switch seen on a CPU that was idle at attach ends a period
		 * that began before the trace (user space clips it). */
		if (slot->idle_start && now - slot->idle_start < idle_min_ns)
			slot->short_idle_ns += now - slot->idle_start;
		else if (slot->idle_start)
			emit_idle(slot->idle_start, now);
		else if (!slot->known)
			emit_idle(1, now);
		slot->idle_start = 0;
	} else {
		/* A dead task's last switch is looked at whatever the slot
		 * says: its process may be tracked without a thread entry. */
		unsigned int state = task_state(prev);
		bool dead = state & BB_TASK_DEAD;

		t = NULL;
		if (dead || !slot->known || slot->cur_tid != prev_tid || slot->cur_tracked)
			t = bpf_map_lookup_elem(&threads, &prev_tid);
		/* Not what we saw arrive: a switch here went unseen (see
		 * thread_arrived_unseen()), so the idle task, if that was it,
		 * left unseen too and its period is not known. */
		if (slot->known && slot->cur_tid != prev_tid) {
			slot->idle_start = 0;
			if (t)
				thread_arrived_unseen(t, cpu, slot->switch_ns);
		}
		if (dead)
			thread_final_switch(prev, t, now);
		else if (t)
			switch_out(t, prev_tid, state, preempt, now);
	}

	slot->known = 1;
	slot->switch_ns = now;
	slot->cur_tid = next_tid;
	if (next_tid == 0) {
		slot->cur_tracked = 0;
		slot->idle_start = now;
		return 0;
	}
	t = bpf_map_lookup_elem(&threads, &next_tid);
	slot->cur_tracked = t != NULL;
	if (t)
		thread_switch_in(t, cpu, now);
	return 0;
}

static __always_inline int wake(struct task_struct *p)
{
	__u32 tid = p->pid; /* a tp_btf argument: read directly, as in handle_switch */
	struct bb_thread *t = bpf_map_lookup_elem(&threads, &tid);

	if (t)
		thread_wake(t, bpf_ktime_get_ns());
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
