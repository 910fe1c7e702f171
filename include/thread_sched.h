/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-thread scheduler state machine (struct bb_thread): pure functions
 * shared by the BPF programs, which run them on every switch and wakeup of
 * a tracked thread, and by the unit tests, which drive them with synthetic
 * switch/wakeup sequences.  Include after events.h (and vmlinux.h in BPF).
 *
 * Invariant: each call first closes the time spent in the state being left
 * into exactly one of on_cpu/runq/blocked/sleep, so for every thread their
 * sum is its lifetime from thread_init() to the last call.
 */
#ifndef BUILDBPF_THREAD_SCHED_H
#define BUILDBPF_THREAD_SCHED_H

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define BB_TASK_RUNNING 0x0000
#define BB_TASK_UNINTERRUPTIBLE 0x0002
/* The kernel's TASK_DEAD: set by do_task_dead() just before its last schedule. */
#define BB_TASK_DEAD 0x0080

static __always_inline void thread_init(struct bb_thread *t, __u32 tgid, __u32 state, __u64 now)
{
	__builtin_memset(t, 0, sizeof(*t));
	t->tgid = tgid;
	t->state = state;
	t->state_ts = now;
	t->last_cpu = -1;
}

/*
 * Closes the time t spent in its current state at now.  Returns how long it
 * was RUNNING (0 in any other state).
 */
static __always_inline __u64 thread_close_state(struct bb_thread *t, __u64 now)
{
	__u64 dur = now > t->state_ts ? now - t->state_ts : 0;

	t->state_ts = now > t->state_ts ? now : t->state_ts;
	switch (t->state) {
	case BB_THREAD_RUNNING:
		t->acct.on_cpu_ns += dur;
		return dur;
	case BB_THREAD_BLOCKED:
		t->acct.blocked_ns += dur;
		break;
	case BB_THREAD_SLEEPING:
		t->acct.sleep_ns += dur;
		break;
	default: /* NEW, RUNNABLE: it wanted a CPU */
		t->acct.runq_ns += dur;
		break;
	}
	return 0;
}

/* t was switched in on cpu at now. */
static __always_inline void thread_switch_in(struct bb_thread *t, __u32 cpu, __u64 now)
{
	__u64 waited = 0;

	/* Runnable until now is run-queue wait.  Switched in from a sleep
	 * state means a wakeup we did not see (before attach): that time
	 * stays sleep, and no wait is claimed. */
	if (t->state == BB_THREAD_RUNNABLE || t->state == BB_THREAD_NEW)
		waited = now > t->state_ts ? now - t->state_ts : 0;
	thread_close_state(t, now);
	if (t->last_cpu >= 0 && (__u32)t->last_cpu != cpu)
		t->acct.nr_migrations++;
	t->last_cpu = cpu;
	t->state = BB_THREAD_RUNNING;
	t->last_wait_ns = waited;
}

/*
 * t leaves cpu, which we last saw switch at since, to another task: its
 * arrival there was not seen.  A switch now and then goes unseen by every
 * tracer at once (perf misses the same ones); the kernel then charges t
 * the stretch since that switch, so t is taken to have arrived there, not
 * to have waited while something else ran.  Returns whether t was not
 * running, i.e. whether its arrival was made up.
 */
static __always_inline bool thread_arrived_unseen(struct bb_thread *t, __u32 cpu, __u64 since)
{
	if (t->state == BB_THREAD_RUNNING)
		return false;
	thread_switch_in(t, cpu, since);
	return true;
}

/*
 * t was switched out at now with the kernel's task state and preempt flag.
 * Returns how the on-CPU interval ended (enum bb_slice_end) and its start in
 * *start, or -1 when t was not running (we did not see it arrive: attached
 * mid-run), in which case there is no interval to report.
 */
static __always_inline int thread_switch_out(struct bb_thread *t, bool preempt, unsigned int task_state, __u64 now,
					     __u64 *start)
{
	int end;

	if (t->state != BB_THREAD_RUNNING)
		return -1;
	*start = t->state_ts;
	thread_close_state(t, now);
	/* Preempted while it was setting a sleep state: still runnable. */
	if (preempt || task_state == BB_TASK_RUNNING) {
		t->state = BB_THREAD_RUNNABLE;
		t->acct.nr_involuntary++;
		end = BB_SLICE_PREEMPTED;
	} else if (task_state & BB_TASK_UNINTERRUPTIBLE) {
		t->state = BB_THREAD_BLOCKED;
		t->acct.nr_voluntary++;
		end = BB_SLICE_BLOCKED;
	} else {
		t->state = BB_THREAD_SLEEPING;
		t->acct.nr_voluntary++;
		end = BB_SLICE_SLEPT;
	}
	return end;
}

/*
 * t was woken at now.  A wakeup of a thread that is running or queued
 * already changes nothing (the kernel traces those too).
 */
static __always_inline void thread_wake(struct bb_thread *t, __u64 now)
{
	if (t->state == BB_THREAD_RUNNING || t->state == BB_THREAD_RUNNABLE)
		return;
	thread_close_state(t, now);
	t->state = BB_THREAD_RUNNABLE;
}

#endif /* BUILDBPF_THREAD_SCHED_H */
