// SPDX-License-Identifier: GPL-2.0
/*
 * The per-thread scheduler state machine the BPF programs run, driven by
 * synthetic switch/wakeup sequences.
 */
#include <stdbool.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <linux/types.h>
#include "events.h"
#include "thread_sched.h"
#include "lib/seeded_random.h"

#define TASK_INTERRUPTIBLE 0x0001

static __u64 accounted(const struct bb_thread *t)
{
	return t->acct.on_cpu_ns + t->acct.runq_ns + t->acct.blocked_ns + t->acct.sleep_ns;
}

Test(thread_sched, preemption_block_sleep_and_migration)
{
	struct bb_thread t;
	__u64 start = 0;

	thread_init(&t, 42, BB_THREAD_NEW, 0);
	thread_wake(&t, 10);		/* wakeup_new */
	thread_switch_in(&t, 0, 30);
	cr_assert(eq(u64, t.last_wait_ns, 20));
	cr_assert(eq(int, thread_switch_out(&t, true, BB_TASK_RUNNING, 80, &start), BB_SLICE_PREEMPTED));
	cr_assert(eq(u64, start, 30));
	thread_switch_in(&t, 1, 100); /* another CPU */
	cr_assert(eq(int, thread_switch_out(&t, false, BB_TASK_UNINTERRUPTIBLE, 150, &start), BB_SLICE_BLOCKED));
	thread_wake(&t, 170);
	thread_switch_in(&t, 1, 175);
	cr_assert(eq(int, thread_switch_out(&t, false, TASK_INTERRUPTIBLE, 200, &start), BB_SLICE_SLEPT));
	thread_wake(&t, 300);
	thread_switch_in(&t, 1, 310);
	cr_assert(eq(u64, thread_close_state(&t, 320), 10)); /* exit while running */

	cr_assert(eq(u64, t.acct.on_cpu_ns, 50 + 50 + 25 + 10));
	cr_assert(eq(u64, t.acct.runq_ns, 30 + 20 + 5 + 10));
	cr_assert(eq(u64, t.acct.blocked_ns, 20));
	cr_assert(eq(u64, t.acct.sleep_ns, 100));
	cr_assert(eq(u32, t.acct.nr_involuntary, 1));
	cr_assert(eq(u32, t.acct.nr_voluntary, 2));
	cr_assert(eq(u32, t.acct.nr_migrations, 1));
	cr_assert(eq(u64, accounted(&t), 320));
}

/* Preempted while setting a sleep state: it is still runnable. */
Test(thread_sched, preempt_flag_wins_over_a_sleep_state)
{
	struct bb_thread t;
	__u64 start;

	thread_init(&t, 1, BB_THREAD_RUNNABLE, 0);
	thread_switch_in(&t, 0, 5);
	cr_assert(eq(int, thread_switch_out(&t, true, TASK_INTERRUPTIBLE, 9, &start), BB_SLICE_PREEMPTED));
	cr_assert(eq(u32, t.state, BB_THREAD_RUNNABLE));
	thread_switch_in(&t, 0, 12);
	cr_assert(eq(u64, t.acct.runq_ns, 5 + 3));
}

Test(thread_sched, wakeups_of_running_or_queued_threads_change_nothing)
{
	struct bb_thread t;

	thread_init(&t, 1, BB_THREAD_RUNNABLE, 0);
	thread_wake(&t, 5);
	cr_assert(eq(u64, t.state_ts, 0));
	thread_switch_in(&t, 0, 10);
	thread_wake(&t, 12);
	cr_assert(eq(u32, t.state, BB_THREAD_RUNNING));
	cr_assert(eq(u64, t.state_ts, 10));
	cr_assert(eq(u64, t.last_wait_ns, 10));
}

/* The command is seeded asleep on the launch pipe; its wakeup may be missed. */
Test(thread_sched, missing_first_wakeup_counts_as_sleep)
{
	struct bb_thread t;

	thread_init(&t, 1, BB_THREAD_SLEEPING, 0);
	thread_switch_in(&t, 0, 50);
	cr_assert(eq(u64, t.acct.sleep_ns, 50));
	cr_assert(eq(u64, t.last_wait_ns, 0));
	cr_assert(eq(u32, t.acct.nr_migrations, 0));
}

/* Attached mid-run: a switch-out of a thread we never saw arrive. */
Test(thread_sched, switch_out_of_a_thread_not_running_reports_nothing)
{
	struct bb_thread t;
	__u64 start = 77;

	thread_init(&t, 1, BB_THREAD_SLEEPING, 0);
	cr_assert(eq(int, thread_switch_out(&t, false, TASK_INTERRUPTIBLE, 10, &start), -1));
	cr_assert(eq(u64, start, 77));
	cr_assert(eq(u64, accounted(&t), 0));
	cr_assert(eq(u32, t.state, BB_THREAD_SLEEPING));
}

/* Whatever the sequence, the four times add up to the lifetime. */
Test(thread_sched, times_add_up_to_the_lifetime_on_random_sequences)
{
	static const unsigned int states[] = { BB_TASK_RUNNING, TASK_INTERRUPTIBLE, BB_TASK_UNINTERRUPTIBLE };
	__u64 seed, rnd, now, start;
	struct bb_thread t;
	int i;

	for (seed = 1; seed <= 50; seed++) {
		rnd = seed;
		now = 1000;
		thread_init(&t, 1, BB_THREAD_NEW, now);
		for (i = 0; i < 2000; i++) {
			now += seeded_random(&rnd) % 1000;
			switch (seeded_random(&rnd) % 3) {
			case 0:
				thread_wake(&t, now);
				break;
			case 1:
				if (t.state != BB_THREAD_RUNNING)
					thread_switch_in(&t, seeded_random(&rnd) % 4, now);
				break;
			default:
				thread_switch_out(&t, seeded_random(&rnd) % 2, states[seeded_random(&rnd) % 3], now,
						  &start);
				break;
			}
		}
		thread_close_state(&t, now + 1);
		cr_assert(eq(u64, accounted(&t), now + 1 - 1000), "seed %llu", (unsigned long long)seed);
	}
}

/* A switch-out on a CPU where the thread was not seen to arrive: it ran
 * since the CPU's last seen switch, after waiting in the run queue. */
Test(thread_sched, an_unseen_arrival_runs_since_the_last_seen_switch)
{
	struct bb_thread t;
	__u64 start = 0;

	thread_init(&t, 1, BB_THREAD_RUNNABLE, 0);
	thread_switch_in(&t, 0, 10);
	cr_assert(eq(int, thread_switch_out(&t, true, BB_TASK_RUNNING, 20, &start), BB_SLICE_PREEMPTED));
	/* CPU 0 switched to another task at 20; the switch back went unseen. */
	cr_assert(thread_arrived_unseen(&t, 0, 20));
	cr_assert(eq(int, thread_switch_out(&t, false, TASK_INTERRUPTIBLE, 310, &start), BB_SLICE_SLEPT));
	cr_assert(eq(u64, start, 20));
	cr_assert(eq(u64, t.acct.on_cpu_ns, 10 + 290));
	cr_assert(eq(u64, t.acct.runq_ns, 10));
	cr_assert(eq(u32, t.acct.nr_migrations, 0));
	cr_assert(eq(u64, accounted(&t), 310));

	/* Seen running (here or, switch-out missed, elsewhere): nothing is made up. */
	thread_switch_in(&t, 1, 400);
	cr_assert(not(thread_arrived_unseen(&t, 0, 350)));
	cr_assert(eq(u64, t.state_ts, 400));
}
