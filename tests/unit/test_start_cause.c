// SPDX-License-Identifier: GPL-2.0
/*
 * Why each process started when it did, from synthetic records (no root):
 * make -j1's second job waits for a job slot its first job's exit frees,
 * at -j2 it waits for nothing, a job that reads a generated header waits
 * for its generator, and the parent's run queue, its own work and wakers
 * outside the build are told apart.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/graph_run.h"
#include "graph/start_cause.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "lib/make_fixture.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define DEV 8
#define MAKE MAKE_FIXTURE_PID

/* The command is make run as argv; its program begins at 1 ms: every job is ready from then on. */
static void begin_make(struct make_fixture *f, const char *const argv[])
{
	make_fixture__begin(f, argv);
}

static void begin(struct make_fixture *f)
{
	begin_make(f, (const char *[]){ "make", NULL });
}

/* A child of parent running program during [start, end] (ns). */
static void job(struct make_fixture *f, __u32 parent, __u32 pid, const char *program, __u64 start, __u64 end)
{
	synth_fork(f->m, start, parent, pid, pid, false);
	synth_exec(f->m, start + 1000, pid, parent, program, (const char *[]){ program, NULL });
	synth_exit(f->m, end, pid, pid, true, 0);
}

/*
 * The start-wake record of child's fork at fork_ns (flags BB_WAKE_*): its
 * parent's last wakeup, which, by an exiting waker, is its last by an exit too.
 */
static void wake(struct make_fixture *f, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns, __u32 waker,
		 const char *waker_comm, __u32 flags, __u64 runq_ns)
{
	struct bb_start_wake_event e = {
		.hdr = { .ts_ns = fork_ns, .type = BB_EV_START_WAKE, .pid = child, .tgid = child },
		.wake_ns = wake_ns,
		.runq_ns = runq_ns,
		.parent_pid = parent,
		.parent_tgid = parent,
		.waker_pid = waker,
		.waker_tgid = waker,
		.flags = flags,
	};

	strncpy(e.waker_comm, waker_comm, sizeof(e.waker_comm) - 1);
	if (flags & BB_WAKE_WAKER_EXITING) {
		e.flags |= BB_WAKE_EXIT_SEEN;
		e.exit_wake_ns = wake_ns;
		e.exit_runq_ns = runq_ns;
		e.exit_waker_pid = e.exit_waker_tgid = waker;
	}
	cr_assert(eq(int, start_wakes__add(f->w, &e, sizeof(e)), 0));
}

/* A sub-make of parent, run as argv during [start, end] (ns). */
static void sub_make(struct make_fixture *f, __u32 parent, __u32 pid, const char *const argv[], __u64 start, __u64 end)
{
	synth_fork(f->m, start, parent, pid, pid, false);
	synth_exec(f->m, start + 1000, pid, parent, "/usr/bin/make", argv);
	synth_exit(f->m, end, pid, pid, true, 0);
}

/* parent, woken at wake_ns by waker (not exiting: a jobserver token), forked child at fork_ns. */
static void token_wake(struct make_fixture *f, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns, __u32 waker)
{
	wake(f, parent, child, fork_ns, wake_ns, waker, "make", BB_WAKE_SEEN, 0);
}

static void compute(struct make_fixture *f, __u64 end_ns)
{
	enum graph_step failed;

	synth_exit(f->m, end_ns, MAKE, MAKE, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ns), 0));
	file_log__finish(f->fl);
	cr_assert(eq(int, with_slots__graph_run(&f->run, f->m, f->fl, f->w, &failed), 0));
}

static void end(struct make_fixture *f)
{
	make_fixture__end(f);
}

static long idx(const struct make_fixture *f, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(f->m, pid);

	cr_assert_not_null(p, "no process %u", pid);
	return (long)p->id;
}

static const struct start_cause *cause(const struct make_fixture *f, __u32 pid)
{
	return &f->run.starts.procs[idx(f, pid)];
}

Test(start_cause, at_j1_the_second_job_waits_for_the_slot_the_first_job_frees)
{
	struct make_fixture f;
	const struct start_cause *b;
	char text[96];

	begin(&f);
	job(&f, MAKE, 101, "sleep", 1 * MS + 200000, 501 * MS);
	/* make slept in wait4 until sleep 101's exit woke it, then forked 102. */
	wake(&f, MAKE, 101, 1 * MS + 200000, 0, 0, "", 0, 0);
	job(&f, MAKE, 102, "sleep", 501 * MS + 300000, 1001 * MS);
	wake(&f, MAKE, 102, 501 * MS + 300000, 500 * MS + 900000, 101, "sleep", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 1002 * MS);

	b = cause(&f, 102);
	cr_assert(eq(str, (char *)start_wait__name(b->wait), "job_slot"));
	cr_assert(eq(long, b->by, idx(&f, 101)));
	cr_assert(eq(u64, b->ready_ns, 1 * MS), "ready when make's program began");
	cr_assert(eq(u64, b->start_ns, 501 * MS + 300000));
	cr_assert(eq(long, b->input, -1));
	cr_assert(eq(str, (char *)start_cause__text(b, f.m, text, sizeof(text)), "a job slot (sleep [101] ended)"));
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 101)->wait), "none"), "forked 0.2 ms after make began");
	cr_assert(eq(int, cause(&f, MAKE)->wait, START_UNKNOWN), "the command has no traced parent");
	cr_assert(eq(sz, f.run.starts.counts[START_JOB_SLOT], 1));
	cr_assert(eq(sz, f.run.starts.records, 2));
	cr_assert(eq(sz, f.run.starts.unmatched, 0));
	/* The records are the causes' alone: given back once read, not held through the graph's peak. */
	cr_assert(eq(sz, f.w->nr, 0));
	cr_assert_null(f.w->recs);
	end(&f);
}

/*
 * kbuild's KERNELRELEASE = $(shell cat ...): make -j1, woken by the first
 * job's exit, runs the cat for the next job's environment, and the cat's
 * exit wakes it to fork the job.  The job waited for the slot, as the cat
 * did, not for the cat; the cat is counted apart.
 */
Test(start_cause, a_job_after_makes_shell_call_waits_for_what_the_call_waited_for)
{
	struct make_fixture f;
	const struct start_cause *c;

	begin(&f);
	job(&f, MAKE, 101, "sleep", 1 * MS + 200000, 501 * MS);
	wake(&f, MAKE, 101, 1 * MS + 200000, 0, 0, "", 0, 0);
	synth_captured_sh(f.m, 501 * MS + 100000, 501 * MS + 900000, MAKE, 102, "cat include/config/kernel.release");
	wake(&f, MAKE, 102, 501 * MS + 100000, 500 * MS + 900000, 101, "sleep", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	job(&f, MAKE, 103, "sleep", 502 * MS + 200000, 1002 * MS);
	wake(&f, MAKE, 103, 502 * MS + 200000, 501 * MS + 900000, 102, "sh", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
	compute(&f, 1003 * MS);

	c = cause(&f, 103);
	cr_assert(eq(str, (char *)start_wait__name(c->wait), "job_slot"));
	cr_assert(eq(long, c->by, idx(&f, 101)), "the job whose end freed the slot, not the call");
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "job_slot"));
	cr_assert(eq(sz, f.run.starts.counts[START_JOB_SLOT], 1), "the call is not counted");
	cr_assert(eq(sz, f.run.starts.counts[START_AFTER_JOB], 0));
	cr_assert(eq(sz, f.run.starts.shell_calls, 1));
	end(&f);
}

Test(start_cause, at_j2_the_second_job_waits_for_nothing)
{
	struct make_fixture f;

	begin(&f);
	job(&f, MAKE, 101, "sleep", 1 * MS + 200000, 501 * MS);
	wake(&f, MAKE, 101, 1 * MS + 200000, 0, 0, "", 0, 0);
	job(&f, MAKE, 102, "sleep", 1 * MS + 400000, 501 * MS);
	wake(&f, MAKE, 102, 1 * MS + 400000, 0, 0, "", 0, 0);
	compute(&f, 502 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_NONE));
	cr_assert(eq(int, f.run.starts.counts[START_JOB_SLOT], 0));
	end(&f);
}

Test(start_cause, a_job_reading_a_generated_header_waits_for_its_generator)
{
	struct make_fixture f;
	const struct start_cause *use;
	char text[96];

	begin(&f);
	job(&f, MAKE, 101, "gen", 2 * MS, 300 * MS);
	synth_file_open(f.fl, 250 * MS, 101, DEV, 1, true, "src/gen.h");
	wake(&f, MAKE, 101, 2 * MS, 0, 0, "", 0, 0);
	/* Independent, at -j2 beside gen. */
	job(&f, MAKE, 102, "cc", 2 * MS + 100000, 200 * MS);
	wake(&f, MAKE, 102, 2 * MS + 100000, 0, 0, "", 0, 0);
	/* gen's exit woke make, which forked the job that reads gen.h. */
	job(&f, MAKE, 103, "cc", 300 * MS + 500000, 400 * MS);
	synth_file_open(f.fl, 310 * MS, 103, DEV, 1, false, "src/gen.h");
	wake(&f, MAKE, 103, 300 * MS + 500000, 299 * MS + 900000, 101, "gen", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 401 * MS);

	use = cause(&f, 103);
	cr_assert(eq(int, use->wait, START_INPUT));
	cr_assert(eq(long, use->by, idx(&f, 101)));
	cr_assert(eq(long, use->input, idx(&f, 101)));
	cr_assert(eq(u64, use->ready_ns, 300 * MS), "ready when gen ended");
	cr_assert(eq(str, (char *)start_cause__text(use, f.m, text, sizeof(text)), "input from gen [101]"));
	end(&f);
}

/* gen's input ready at 300 ms, but make -j1 ran an unrelated job first: "add -j", not "speed up gen". */
Test(start_cause, a_ready_input_behind_another_job_waits_for_a_slot_not_the_input)
{
	struct make_fixture f;
	const struct start_cause *use;

	begin(&f);
	job(&f, MAKE, 101, "gen", 2 * MS, 300 * MS);
	synth_file_open(f.fl, 250 * MS, 101, DEV, 1, true, "src/gen.h");
	job(&f, MAKE, 102, "cc", 300 * MS + 500000, 900 * MS);
	wake(&f, MAKE, 102, 300 * MS + 500000, 299 * MS + 900000, 101, "gen", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	job(&f, MAKE, 103, "cc", 900 * MS + 500000, 1000 * MS);
	synth_file_open(f.fl, 910 * MS, 103, DEV, 1, false, "src/gen.h");
	wake(&f, MAKE, 103, 900 * MS + 500000, 899 * MS + 900000, 102, "cc", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 1001 * MS);

	use = cause(&f, 103);
	cr_assert(eq(int, use->wait, START_JOB_SLOT));
	cr_assert(eq(long, use->by, idx(&f, 102)));
	cr_assert(eq(long, use->input, idx(&f, 101)), "its input is still gen's");
	cr_assert(eq(u64, use->ready_ns, 300 * MS));
	cr_assert(eq(int, cause(&f, 102)->wait, START_JOB_SLOT), "cc 102 read nothing: gen held its slot");
	end(&f);
}

/* The generator runs inside its recipe's shell: the shell's exit woke make, gen wrote the file. */
Test(start_cause, the_exit_of_the_job_holding_the_writer_is_an_input_wait)
{
	struct make_fixture f;
	const struct start_cause *use;

	begin(&f);
	job(&f, MAKE, 101, "sh", 2 * MS, 301 * MS);
	job(&f, 101, 104, "gen", 3 * MS, 300 * MS);
	synth_file_open(f.fl, 250 * MS, 104, DEV, 1, true, "src/gen.h");
	job(&f, MAKE, 102, "sh", 301 * MS + 500000, 400 * MS);
	job(&f, 102, 105, "cc", 302 * MS, 399 * MS);
	synth_file_open(f.fl, 310 * MS, 105, DEV, 1, false, "src/gen.h");
	wake(&f, MAKE, 102, 301 * MS + 500000, 300 * MS + 900000, 101, "sh", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 401 * MS);

	use = cause(&f, 102);
	cr_assert(eq(int, use->wait, START_INPUT));
	cr_assert(eq(long, use->by, idx(&f, 104)), "the writer, not its shell");
	cr_assert(eq(u64, use->ready_ns, 300 * MS), "the subtree's input: cc 105 reads it");
	end(&f);
}

Test(start_cause, the_parents_run_queue_and_own_work_are_told_apart)
{
	struct make_fixture f;

	begin(&f);
	/* Woken at 2 ms by job 101's exit, then 250 ms of 300 in the run queue. */
	job(&f, MAKE, 101, "true", 1 * MS + 100000, 2 * MS);
	job(&f, MAKE, 102, "cc", 302 * MS, 400 * MS);
	wake(&f, MAKE, 102, 302 * MS, 2 * MS, 101, "true", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING | BB_WAKE_RUNQ_KNOWN,
	     250 * MS);
	/* Not woken since: 100 ms of make's own work, 10 ms of it runnable. */
	job(&f, MAKE, 103, "cc", 402 * MS, 500 * MS);
	wake(&f, MAKE, 103, 402 * MS, 2 * MS, 101, "true", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING | BB_WAKE_RUNQ_KNOWN,
	     260 * MS);
	/* Not woken since it began, mostly runnable. */
	job(&f, MAKE, 104, "cc", 1 * MS + 50 * MS, 60 * MS);
	wake(&f, MAKE, 104, 1 * MS + 50 * MS, 0, 0, "", BB_WAKE_RUNQ_KNOWN, 45 * MS);
	compute(&f, 501 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_RUN_QUEUE));
	cr_assert(eq(u64, cause(&f, 102)->runq_ns, 250 * MS));
	/* Ready at 1 ms, so 103's gap holds 401 ms of which 260 ms runnable. */
	cr_assert(eq(int, cause(&f, 103)->wait, START_RUN_QUEUE));
	cr_assert(eq(int, cause(&f, 104)->wait, START_RUN_QUEUE));
	end(&f);
}

Test(start_cause, a_parent_that_ran_its_own_work_was_busy)
{
	struct make_fixture f;
	char text[96];

	begin(&f);
	/* make parsed for 200 ms (no wakeup, little run queue). */
	job(&f, MAKE, 101, "cc", 201 * MS, 300 * MS);
	wake(&f, MAKE, 101, 201 * MS, 0, 0, "", BB_WAKE_RUNQ_KNOWN, 5 * MS);
	compute(&f, 301 * MS);

	cr_assert(eq(int, cause(&f, 101)->wait, START_PARENT_BUSY));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 101), f.m, text, sizeof(text)), "its parent (busy)"));
	end(&f);
}

Test(start_cause, wakers_that_did_not_end_or_are_outside_the_build_are_named)
{
	struct make_fixture f;
	char text[96];

	begin(&f);
	/* A helper the build started wrote to make's pipe: woken, not by an exit. */
	job(&f, MAKE, 101, "cat", 1 * MS + 100000, 900 * MS);
	job(&f, MAKE, 102, "cc", 500 * MS, 600 * MS);
	wake(&f, MAKE, 102, 500 * MS, 499 * MS, 101, "cat", BB_WAKE_SEEN, 0);
	/* Woken by a task outside the build (a timer, a kworker). */
	job(&f, MAKE, 103, "cc", 700 * MS, 800 * MS);
	wake(&f, MAKE, 103, 700 * MS, 699 * MS, 4242, "kworker/0:1", BB_WAKE_SEEN, 0);
	/* No record at all: a gap nobody explains. */
	job(&f, MAKE, 104, "cc", 800 * MS, 850 * MS);
	compute(&f, 901 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_WOKEN));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 102), f.m, text, sizeof(text)), "woken by cat [101]"));
	cr_assert(eq(int, cause(&f, 103)->wait, START_UNEXPLAINED));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 103), f.m, text, sizeof(text)),
		     "unexplained (woken by kworker/0:1)"));
	cr_assert(eq(int, cause(&f, 104)->wait, START_UNEXPLAINED));
	cr_assert_not(cause(&f, 104)->wake_record);
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 104), f.m, text, sizeof(text)), "unexplained"));
	end(&f);
}

Test(start_cause, records_of_unknown_processes_and_wrong_sizes_are_counted)
{
	struct make_fixture f;
	struct bb_start_wake_event e = {};

	begin(&f);
	cr_assert(eq(int, start_wakes__add(f.w, &e, sizeof(e) - 1), -EINVAL));
	cr_assert(eq(sz, f.w->malformed, 1));
	job(&f, MAKE, 101, "cc", 2 * MS, 3 * MS);
	wake(&f, MAKE, 999, 2 * MS, 0, 0, "", 0, 0); /* no such fork */
	compute(&f, 4 * MS);
	cr_assert(eq(sz, f.run.starts.records, 2), "the malformed one included, as otherData counts what arrived");
	cr_assert(eq(sz, f.run.starts.unmatched, 1));
	end(&f);
}

/* A --deps=on log with one start-wake record: replay keeps it unless --deps=off. */
Test(start_cause, start_wake_records_replay_with_the_deps_level)
{
	static char *argv[] = { "make", NULL };
	struct event_log_info info = {
		.buildbpf_version = "9.9.9", .kernel_release = "6.18.0-test", .user = "builder",
		.online_cpus = 1, .possible_cpus = 1, .page_size = 4096, .start_ns = MS, .root_pid = MAKE,
		.args_max = 16384, .ringbuf_bytes = 1 << 24, .sched = SCHED_OFF, .sched_resolution_ns = 10 * MS,
		.deps = true, .cmd_argv = argv, .cmd_argc = 1,
	};
	struct bbl_trailer t = { .end_ns = 10 * MS, .exit_ns = 10 * MS, .flags = BBL_EXITED };
	struct bb_start_wake_event e = {
		.hdr = { .ts_ns = 2 * MS, .type = BB_EV_START_WAKE, .pid = 101, .tgid = 101 },
		.parent_pid = MAKE, .parent_tgid = MAKE, .flags = BB_WAKE_SEEN, .wake_ns = MS,
	};
	struct replay_opts levels[2] = { {}, { .deps = false, .deps_given = true } };
	struct event_log_writer *lw;
	int fd = memfd_create("bbl", 0);

	cr_assert_geq(fd, 0);
	cr_assert_eq(event_log_writer__open(&lw, fd, &info), 0);
	cr_assert_eq(event_log_writer__add(lw, &e, sizeof(e)), 0);
	cr_assert_eq(event_log_writer__finish(lw, &t, false), 0);
	event_log_writer__free(lw);
	for (int i = 0; i < 2; i++) {
		struct event_log_reader *r;
		struct replay rp;
		char err[256];
		FILE *f;

		cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
		f = fdopen(dup(fd), "r");
		cr_assert_not_null(f);
		cr_assert_eq(event_log_reader__open(&r, f, err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(replay__run(&rp, r, &levels[i], err, sizeof(err)), 0, "%s", err);
		cr_assert(eq(sz, rp.model->stats.malformed, 0), "not the process model's record");
		if (i == 0) {
			cr_assert_not_null(rp.wakes);
			cr_assert(eq(sz, rp.wakes->nr, 1));
			cr_assert(eq(u32, rp.wakes->recs[0].parent_tgid, MAKE));
		} else {
			cr_assert_null(rp.wakes, "convert --deps=off drops them");
		}
		replay__free(&rp);
		event_log_reader__free(r);
		fclose(f);
	}
	close(fd);
}

/* make -j2 with one job left running: its exit woke make with a slot free, so no slot was what it waited for. */
Test(start_cause, waiting_for_a_job_with_a_slot_free_is_not_waiting_for_a_slot)
{
	struct make_fixture f;
	char text[96];

	begin(&f);
	job(&f, MAKE, 101, "cc", 2 * MS, 100 * MS);
	job(&f, MAKE, 102, "cc", 2 * MS + 100000, 500 * MS); /* two at once: -j2 */
	/* 101 ended at 100 ms and its slot stayed free until 102's exit woke make. */
	job(&f, MAKE, 103, "rm", 500 * MS + 300000, 501 * MS);
	wake(&f, MAKE, 103, 500 * MS + 300000, 499 * MS + 900000, 102, "cc", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	/* Then two ran again; the exit of one woke make at full slots. */
	job(&f, MAKE, 104, "cc", 502 * MS, 700 * MS);
	job(&f, MAKE, 105, "cc", 502 * MS + 100000, 600 * MS);
	job(&f, MAKE, 106, "cc", 600 * MS + 300000, 800 * MS);
	wake(&f, MAKE, 106, 600 * MS + 300000, 599 * MS + 900000, 105, "cc", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 801 * MS);

	cr_assert(eq(int, cause(&f, 103)->wait, START_AFTER_JOB));
	cr_assert(eq(long, cause(&f, 103)->by, idx(&f, 102)));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 103), f.m, text, sizeof(text)),
		     "the end of cc [102] (a slot was free)"));
	cr_assert(eq(int, cause(&f, 106)->wait, START_JOB_SLOT));
	end(&f);
}

/* The two fork programs read the clock apart, milliseconds apart under emulation: the record still finds its fork. */
Test(start_cause, a_record_finds_its_fork_however_far_its_clock_was_read)
{
	struct make_fixture f;

	begin(&f);
	job(&f, MAKE, 101, "sleep", 2 * MS, 400 * MS);
	wake(&f, MAKE, 101, 2 * MS, 0, 0, "", 0, 0);
	job(&f, MAKE, 102, "sleep", 400 * MS + 300000, 800 * MS);
	wake(&f, MAKE, 102, 405 * MS, 399 * MS + 900000, 101, "sleep", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
	/* pid 101 again, later, forked by another parent: not that fork's record. */
	job(&f, 102, 101, "true", 500 * MS, 501 * MS);
	wake(&f, MAKE, 101, 499 * MS, 0, 0, "", 0, 0);
	compute(&f, 801 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_JOB_SLOT));
	cr_assert(eq(sz, f.run.starts.records, 3));
	cr_assert(eq(sz, f.run.starts.unmatched, 1), "the last record names make, which did not fork the second 101");
	end(&f);
}

/* make's stat after the job's exit slept on a network file system: an interrupt woke it last, the exit still counts. */
Test(start_cause, an_io_wakeup_after_the_jobs_exit_does_not_hide_it)
{
	struct make_fixture f;
	struct bb_start_wake_event e = {
		.hdr = { .ts_ns = 503 * MS, .type = BB_EV_START_WAKE, .pid = 102, .tgid = 102 },
		.wake_ns = 502 * MS, /* the I/O completion, in an interrupt over the idle task */
		.exit_wake_ns = 500 * MS,
		.parent_pid = MAKE, .parent_tgid = MAKE,
		.waker_comm = "swapper/1",
		.exit_waker_pid = 101, .exit_waker_tgid = 101,
		.flags = BB_WAKE_SEEN | BB_WAKE_EXIT_SEEN,
	};

	begin(&f);
	job(&f, MAKE, 101, "sleep", 2 * MS, 500 * MS + 100000);
	job(&f, MAKE, 102, "sleep", 503 * MS, 900 * MS);
	cr_assert(eq(int, start_wakes__add(f.w, &e, sizeof(e)), 0));
	compute(&f, 901 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_JOB_SLOT));
	cr_assert(eq(long, cause(&f, 102)->by, idx(&f, 101)));
	end(&f);
}

/* The generator's exit woke make just before it ended, and make then slept on I/O: still an input wait. */
Test(start_cause, the_generators_exit_wakeup_before_its_end_is_an_input_wait)
{
	struct make_fixture f;
	struct bb_start_wake_event e = {
		.hdr = { .ts_ns = 320 * MS, .type = BB_EV_START_WAKE, .pid = 102, .tgid = 102 },
		.wake_ns = 315 * MS,
		.exit_wake_ns = 299 * MS + 900000, /* before gen's last switch-out at 300 ms */
		.parent_pid = MAKE, .parent_tgid = MAKE,
		.waker_comm = "cc1",
		.exit_waker_pid = 101, .exit_waker_tgid = 101,
		.flags = BB_WAKE_SEEN | BB_WAKE_EXIT_SEEN,
	};

	begin(&f);
	job(&f, MAKE, 101, "gen", 2 * MS, 300 * MS);
	synth_file_open(f.fl, 250 * MS, 101, DEV, 1, true, "src/gen.h");
	job(&f, MAKE, 102, "cc", 320 * MS, 400 * MS);
	synth_file_open(f.fl, 330 * MS, 102, DEV, 1, false, "src/gen.h");
	cr_assert(eq(int, start_wakes__add(f.w, &e, sizeof(e)), 0));
	compute(&f, 401 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_INPUT));
	cr_assert(eq(long, cause(&f, 102)->by, idx(&f, 101)));
	end(&f);
}

/*
 * make -j3 runs kernel/ and mm/ as sub-makes sharing its jobserver:
 * kernel/'s make holds two slots, mm/'s one.  mm/'s second job waits for a
 * token; kernel/'s make hands one back when its job 112 ends.
 */
static void shared_jobserver(struct make_fixture *f, const char *const mm_argv[])
{
	begin_make(f, (const char *[]){ "make", "-j3", "kernel/", "mm/", NULL });
	sub_make(f, MAKE, 101, (const char *[]){ "make", "obj=kernel", NULL }, 1 * MS + 100000, 600 * MS);
	sub_make(f, MAKE, 102, mm_argv, 1 * MS + 200000, 700 * MS);
	job(f, 101, 111, "sh", 2 * MS, 500 * MS);
	job(f, 101, 112, "sh", 2 * MS + 100000, 300 * MS);
	job(f, 102, 121, "sh", 2 * MS + 200000, 600 * MS);
	/* kernel/'s make reaped 112 and wrote the token back: mm/'s make woke. */
	job(f, 102, 122, "sh", 300 * MS + 400000, 650 * MS);
	token_wake(f, 102, 122, 300 * MS + 400000, 300 * MS + 200000, 101);
	compute(f, 701 * MS);
}

Test(start_cause, a_sub_makes_job_waits_for_a_slot_another_sub_makes_job_held)
{
	struct make_fixture f;
	const struct start_cause *c;
	char text[96];

	shared_jobserver(&f, (const char *[]){ "make", "obj=mm", NULL });
	c = cause(&f, 122);
	cr_assert(eq(int, c->wait, START_JOB_SLOT), "woken by kernel/'s make handing back a token");
	cr_assert(eq(long, c->by, idx(&f, 112)), "the job whose end freed the token");
	cr_assert(eq(long, c->slot_runner, idx(&f, 101)));
	cr_assert(eq(str, (char *)start_cause__text(c, f.m, text, sizeof(text)), "a job slot held by sh [112] of make [101]"));
	end(&f);
}

Test(start_cause, a_sub_make_with_its_own_j_does_not_share_the_pool)
{
	struct make_fixture f;

	shared_jobserver(&f, (const char *[]){ "make", "-j1", "obj=mm", NULL });
	cr_assert(eq(int, cause(&f, 122)->wait, START_WOKEN), "mm/'s make has slots of its own: a wakeup, not a token");
	end(&f);
}

/*
 * make -j2: mm/'s job 121 ends while kernel/'s 111 still runs: every slot of
 * the pool was held (one by each sub-make), though mm/'s make alone never
 * ran two jobs.  Later kernel/'s make runs alone: its job's end leaves a
 * slot free.
 */
Test(start_cause, slots_are_counted_across_the_sub_makes_of_a_jobserver)
{
	struct make_fixture f;

	begin_make(&f, (const char *[]){ "make", "-j2", "kernel/", "mm/", NULL });
	sub_make(&f, MAKE, 101, (const char *[]){ "make", "obj=kernel", NULL }, 1 * MS + 100000, 800 * MS);
	sub_make(&f, MAKE, 102, (const char *[]){ "make", "obj=mm", NULL }, 1 * MS + 200000, 500 * MS);
	job(&f, 101, 111, "sh", 2 * MS, 600 * MS);
	job(&f, 102, 121, "sh", 2 * MS + 100000, 300 * MS);
	job(&f, 102, 122, "sh", 300 * MS + 400000, 499 * MS);
	wake(&f, 102, 122, 300 * MS + 400000, 299 * MS + 900000, 121, "sh", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
	/* mm/'s make has ended: kernel/'s next job had a slot free when 111 ended. */
	job(&f, 101, 112, "sh", 600 * MS + 400000, 700 * MS);
	wake(&f, 101, 112, 600 * MS + 400000, 599 * MS + 900000, 111, "sh", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
	compute(&f, 801 * MS);

	cr_assert(eq(int, cause(&f, 122)->wait, START_JOB_SLOT), "kernel/'s job held the other slot");
	cr_assert(eq(int, cause(&f, 112)->wait, START_AFTER_JOB), "one of two slots held: a slot was free");
	end(&f);
}

/* make -j2 with `build: | prep`: prep's sub-make ran one job; build's waited for prep, not for a slot. */
Test(start_cause, an_order_only_prerequisite_is_not_a_wait_for_a_slot)
{
	struct make_fixture f;
	char text[96];

	begin_make(&f, (const char *[]){ "make", "-j2", "build", NULL });
	sub_make(&f, MAKE, 101, (const char *[]){ "make", "-C", "prep", NULL }, 1 * MS + 100000, 300 * MS);
	job(&f, 101, 111, "sh", 2 * MS, 299 * MS);
	wake(&f, 101, 111, 2 * MS, 0, 0, "", 0, 0);
	sub_make(&f, MAKE, 102, (const char *[]){ "make", "-C", "build", NULL }, 300 * MS + 400000, 500 * MS);
	wake(&f, MAKE, 102, 300 * MS + 400000, 299 * MS + 900000, 101, "make", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 501 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_AFTER_JOB));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 102), f.m, text, sizeof(text)),
		     "the end of make [101] (a slot was free)"));
	end(&f);
}

/*
 * make -j2: kernel/'s make waits for a token while mm/'s make holds the
 * other slot; when mm/'s make ends, the top make hands its token on: the
 * slot was held by mm/'s last job.
 */
Test(start_cause, a_token_a_sub_make_gave_back_names_its_last_job)
{
	struct make_fixture f;
	const struct start_cause *c;
	char text[96];

	begin_make(&f, (const char *[]){ "make", "-j2", "kernel/", "mm/", NULL });
	sub_make(&f, MAKE, 101, (const char *[]){ "make", "obj=kernel", NULL }, 1 * MS + 100000, 900 * MS);
	sub_make(&f, MAKE, 102, (const char *[]){ "make", "obj=mm", NULL }, 1 * MS + 200000, 500 * MS);
	job(&f, 101, 111, "sh", 2 * MS, 800 * MS);
	job(&f, 102, 121, "sh", 2 * MS + 100000, 300 * MS);
	job(&f, 102, 122, "sh", 300 * MS + 400000, 499 * MS);
	job(&f, 101, 112, "sh", 500 * MS + 500000, 850 * MS);
	token_wake(&f, 101, 112, 500 * MS + 500000, 500 * MS + 200000, MAKE);
	compute(&f, 901 * MS);

	c = cause(&f, 112);
	cr_assert(eq(int, c->wait, START_JOB_SLOT));
	cr_assert(eq(long, c->by, idx(&f, 122)), "mm/'s last job, not mm/'s make");
	cr_assert(eq(long, c->slot_runner, idx(&f, 102)));
	cr_assert(eq(str, (char *)start_cause__text(c, f.m, text, sizeof(text)), "a job slot held by sh [122] of make [102]"));
	end(&f);
}

/* A recipe line: make's shell running cmd as a child of parent during [start, end] (ns). */
static void line(struct make_fixture *f, __u32 parent, __u32 pid, const char *cmd, __u64 start, __u64 end)
{
	synth_fork(f->m, start, parent, pid, pid, false);
	synth_exec(f->m, start + 1000, pid, parent, "/bin/sh", (const char *[]){ "/bin/sh", "-c", cmd, NULL });
	synth_exit(f->m, end, pid, pid, true, 0);
}

/* Forked by make at fork_ns, right after the exit of the job before woke it. */
static void after_exit(struct make_fixture *f, __u32 child, __u64 fork_ns, __u32 before, __u64 before_end)
{
	wake(f, MAKE, child, fork_ns, before_end - 100000, before, "sh", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
}

/*
 * make -j1, kbuild's shape: mm/a.o's recipe is three lines, each its own
 * shell, all naming the target; then mm/b.o's first line.  The recipe's
 * later lines waited for the line before, not for a slot since make began;
 * b.o's first line waited for the slot a.o's recipe held.
 */
Test(start_cause, a_recipes_later_lines_do_not_wait_for_a_slot_again)
{
	struct make_fixture f;

	begin(&f);
	line(&f, MAKE, 101, "set -e; gcc -c -o mm/a.o mm/a.c", 2 * MS, 300 * MS);
	wake(&f, MAKE, 101, 2 * MS, 0, 0, "", 0, 0);
	line(&f, MAKE, 102, "set -e; trap 'rm -f mm/a.o; trap - HUP' HUP; ", 300 * MS + 300000, 301 * MS);
	after_exit(&f, 102, 300 * MS + 300000, 101, 300 * MS);
	line(&f, MAKE, 103, "set -e; trap 'rm -f mm/a.o; trap - HUP' HUP; objtool mm/a.o", 301 * MS + 300000,
	     310 * MS);
	after_exit(&f, 103, 301 * MS + 300000, 102, 301 * MS);
	line(&f, MAKE, 104, "set -e; gcc -c -o mm/b.o mm/b.c", 310 * MS + 300000, 600 * MS);
	after_exit(&f, 104, 310 * MS + 300000, 103, 310 * MS);
	compute(&f, 601 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_NONE), "ready when line 1 ended");
	cr_assert(eq(u64, cause(&f, 102)->ready_ns, 300 * MS));
	cr_assert(eq(int, cause(&f, 103)->wait, START_NONE));
	cr_assert(eq(u64, cause(&f, 103)->ready_ns, 301 * MS));
	cr_assert(eq(int, cause(&f, 104)->wait, START_JOB_SLOT), "another target: it waited for a.o's slot");
	cr_assert(eq(long, cause(&f, 104)->by, idx(&f, 103)));
	cr_assert(eq(u64, cause(&f, 104)->ready_ns, 1 * MS));
	cr_assert(eq(sz, f.run.starts.counts[START_JOB_SLOT], 1), "one recipe waited, once");
	end(&f);
}

/* Every recipe names the tool it runs: b.o's first line shares ./tools/objtool with a.o's last, and is b.o's. */
Test(start_cause, a_file_every_recipe_names_does_not_join_two_recipes)
{
	struct make_fixture f;

	begin(&f);
	line(&f, MAKE, 101, "gcc -c -o mm/a.o mm/a.c; ./tools/objtool mm/a.o > mm/.a.o.cmd", 2 * MS, 300 * MS);
	wake(&f, MAKE, 101, 2 * MS, 0, 0, "", 0, 0);
	line(&f, MAKE, 102, "echo 'mm/a.o: ./tools/objtool' >> mm/.a.o.cmd", 300 * MS + 300000, 301 * MS);
	after_exit(&f, 102, 300 * MS + 300000, 101, 300 * MS);
	line(&f, MAKE, 103, "gcc -c -o mm/b.o mm/b.c; ./tools/objtool mm/b.o > mm/.b.o.cmd", 301 * MS + 300000, 600 * MS);
	after_exit(&f, 103, 301 * MS + 300000, 102, 301 * MS);
	line(&f, MAKE, 104, "echo 'mm/b.o: ./tools/objtool' >> mm/.b.o.cmd", 600 * MS + 300000, 601 * MS);
	after_exit(&f, 104, 600 * MS + 300000, 103, 600 * MS);
	compute(&f, 602 * MS);

	cr_assert(eq(int, cause(&f, 102)->wait, START_NONE), "a.o's second line");
	cr_assert(eq(int, cause(&f, 103)->wait, START_JOB_SLOT), "b.o's first line names b.o first");
	cr_assert(eq(long, cause(&f, 103)->by, idx(&f, 102)));
	cr_assert(eq(int, cause(&f, 104)->wait, START_NONE), "b.o's second line");
	end(&f);
}

/*
 * A recipe line's shell runs `gcc …; rm -f x.d` (kbuild's fixdep step): it
 * holds no job slots, so rm was ready when gcc ended, not when the shell
 * began: it waited for nothing, not for a slot gcc held.
 */
Test(start_cause, a_shells_next_command_does_not_wait_for_a_slot)
{
	struct make_fixture f;

	begin(&f);
	line(&f, MAKE, 101, "gcc -c -o mm/a.o mm/a.c; rm -f mm/.a.o.d", 2 * MS, 300 * MS);
	wake(&f, MAKE, 101, 2 * MS, 0, 0, "", 0, 0);
	job(&f, 101, 111, "gcc", 3 * MS, 290 * MS);
	wake(&f, 101, 111, 3 * MS, 0, 0, "", 0, 0);
	job(&f, 101, 112, "rm", 290 * MS + 300000, 299 * MS);
	wake(&f, 101, 112, 290 * MS + 300000, 290 * MS - 100000, 111, "gcc", BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING,
	     0);
	compute(&f, 301 * MS);

	cr_assert(eq(int, cause(&f, 112)->wait, START_NONE), "ready when gcc ended");
	cr_assert(eq(u64, cause(&f, 112)->ready_ns, 290 * MS));
	cr_assert(eq(sz, f.run.starts.counts[START_JOB_SLOT], 0));
	end(&f);
}

/*
 * cargo (or go) as the command, run as argv with what it inherited (env,
 * on cpus CPUs): a chain of two units, step 102 forked 0.4 ms after the
 * exit of step 101 woke the tool.
 */
static void tool_chain(struct make_fixture *f, const char *tool, const char *const argv[], const char *step,
		       const struct jobs_env *env, size_t cpus)
{
	enum graph_step failed;

	make_fixture__begin_as(f, tool, argv);
	job(f, MAKE, 101, step, 1 * MS + 200000, 501 * MS);
	wake(f, MAKE, 101, 1 * MS + 200000, 0, 0, "", 0, 0);
	job(f, MAKE, 102, step, 501 * MS + 300000, 1001 * MS);
	wake(f, MAKE, 102, 501 * MS + 300000, 500 * MS + 900000, 101, step, BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING, 0);
	synth_exit(f->m, 1002 * MS, MAKE, MAKE, true, 0);
	cr_assert(eq(int, model__finish(f->m, 1002 * MS), 0));
	file_log__finish(f->fl);
	cr_assert(eq(int, with_slots__graph_run_env(&f->run, f->m, env, cpus, f->fl, f->w, &failed), 0));
}

/*
 * The start causes read cargo's -j where cargo reads it, as the audit
 * does (model/tool_jobs.h): CARGO_BUILD_JOBS=1 with no -j on its command
 * line is one slot, the next unit waited for it; at CARGO_BUILD_JOBS=2 (or
 * cargo's default, the CPUs) a slot was free, the unit waited for the one
 * before, though cargo never ran two at once.
 */
Test(start_cause, cargos_jobs_from_its_environment_are_the_slots_a_unit_waits_for)
{
	const char *const argv[] = { "cargo", "build", "--release", NULL };
	const struct jobs_env one = { .cargo_build_jobs = "1" }, two = { .cargo_build_jobs = "2" };
	struct make_fixture f;
	char text[96];

	tool_chain(&f, "/usr/bin/cargo", argv, "rustc", &one, 4);
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "job_slot"));
	cr_assert(eq(str, (char *)start_cause__text(cause(&f, 102), f.m, text, sizeof(text)),
		     "a job slot (rustc [101] ended)"));
	end(&f);
	tool_chain(&f, "/usr/bin/cargo", argv, "rustc", &two, 4);
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "after_job"), "CARGO_BUILD_JOBS=2");
	end(&f);
	tool_chain(&f, "/usr/bin/cargo", argv, "rustc", NULL, 2);
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "after_job"), "its default: 2 CPUs");
	end(&f);
}

/* go's -p from GOFLAGS, the same way: -p=1 is one slot; -p=2 had one free. */
Test(start_cause, gos_p_from_goflags_is_the_slots_a_package_waits_for)
{
	const char *const argv[] = { "go", "build", "-o", "app", ".", NULL };
	const struct jobs_env one = { .goflags = "-mod=mod -p=1" }, two = { .goflags = "-p=2" };
	struct make_fixture f;

	tool_chain(&f, "/usr/bin/go", argv, "compile", &one, 4);
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "job_slot"));
	cr_assert(eq(long, cause(&f, 102)->by, idx(&f, 101)));
	end(&f);
	tool_chain(&f, "/usr/bin/go", argv, "compile", &two, 4);
	cr_assert(eq(str, (char *)start_wait__name(cause(&f, 102)->wait), "after_job"), "GOFLAGS=-p=2");
	end(&f);
}
