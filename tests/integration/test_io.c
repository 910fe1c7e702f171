// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: I/O per process (bpf/proc_io.bpf.h, model/io.h).  Known
 * answers: dd moves 50 MiB with direct I/O, so storage and syscall figures
 * both say 50 MiB; tests/workloads/io_threads.c writes a known amount from
 * threads that end before the process, or after its main thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

#define MIB (1024ll * 1024)

TestSuite(io, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

/* The process slice whose argv has the word arg. */
static struct json_object *proc_with_arg(struct json_object *slices, const char *arg)
{
	size_t i, k;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *a;

		for (k = 0; (a = bb_arg_argv(ev, k)); k++)
			if (!strcmp(a, arg))
				return ev;
	}
	return NULL;
}

/* |got - want| <= 5 % of want. */
static void assert_near(long long got, long long want, const char *what)
{
	long long diff = got > want ? got - want : want - got;

	cr_assert(le(i64, diff * 20, want), "%s: %lld, expected %lld +- 5 %%", what, got, want);
}

/*
 * 50 MiB written with O_DIRECT and read back with O_DIRECT: both go to the
 * disk in full (no page cache), so storage and syscall figures agree.
 * Needs a block device under the run's directory (the kernel matrix's
 * guests have none: left out there, like sched's D-state test).
 */
Test(io, direct_io_is_counted_at_storage_and_syscall_level)
{
	struct json_object *trace, *slices, *writer, *reader, *summary, *io, *top;
	const char *const dd_both = "dd if=/dev/zero of=io.out bs=1M count=50 oflag=direct status=none && "
				    "dd if=io.out of=/dev/null bs=1M iflag=direct status=none";
	struct statfs fs;
	int pass;

	cr_assert(eq(int, statfs(run.dir, &fs), 0));
	cr_assert(fs.f_type != TMPFS_MAGIC, "%s is on tmpfs: direct I/O needs a disk", run.dir);
	/* Once traced directly, once recorded and converted: the log replays the figures. */
	for (pass = 0; pass < 2; pass++) {
		if (!pass) {
			bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "sh", "-c",
							  dd_both, NULL }, NULL);
		} else {
			bb_run_in(&run, (const char *[]){ "record", "-q", "-o", "io.bbl", "--", "sh", "-c", dd_both,
							  NULL }, NULL);
			cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
			/* -v: the I/O lines are the audit's detail, not its brief answers. */
			bb_run_in(&run, (const char *[]){ "convert", "-v", "-f", "-o", "t.json", "--summary-json",
							  "s.json", "io.bbl", NULL }, NULL);
		}
		cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
		trace = bb_load_trace(bb_path(&run, "t.json"));
		slices = bb_slices(trace, "process");
		writer = proc_with_arg(slices, "of=io.out");
		reader = proc_with_arg(slices, "if=io.out");
		cr_assert(writer && reader, "dd missing from the trace");
		cr_log_info("io direct (%s): writer write_bytes %lld wchar %lld syscw %lld; reader read_bytes %lld "
			    "rchar %lld syscr %lld",
			    pass ? "converted" : "traced", bb_arg_int(writer, "io_write_bytes"),
			    bb_arg_int(writer, "io_wchar"), bb_arg_int(writer, "io_syscw"),
			    bb_arg_int(reader, "io_read_bytes"), bb_arg_int(reader, "io_rchar"),
			    bb_arg_int(reader, "io_syscr"));
		assert_near(bb_arg_int(writer, "io_write_bytes"), 50 * MIB, "writer's storage write_bytes");
		assert_near(bb_arg_int(writer, "io_wchar"), 50 * MIB, "writer's syscall wchar");
		assert_near(bb_arg_int(writer, "io_syscw"), 50, "writer's write syscalls");
		assert_near(bb_arg_int(reader, "io_read_bytes"), 50 * MIB, "reader's storage read_bytes");
		assert_near(bb_arg_int(reader, "io_rchar"), 50 * MIB, "reader's syscall rchar");
		/* The writer read /dev/zero, not the disk; the reader wrote to /dev/null. */
		cr_assert(lt(i64, bb_arg_int(writer, "io_read_bytes"), 5 * MIB / 2));
		cr_assert(lt(i64, bb_arg_int(reader, "io_write_bytes"), 5 * MIB / 2));
		cr_assert(eq(i64, bb_other_int(trace, "io_records"), bb_other_int(trace, "processes")));

		summary = bb_load_summary(&run, "s.json");
		io = need_field(summary, "io");
		assert_near(json_object_get_int64(need_field(io, "write_bytes")), 50 * MIB, "build's write_bytes");
		assert_near(json_object_get_int64(need_field(io, "read_bytes")), 50 * MIB, "build's read_bytes");
		top = json_object_array_get_idx(need_field(io, "top_written"), 0);
		cr_assert(top != NULL);
		cr_assert(eq(i64, json_object_get_int64(need_field(top, "pid")), bb_arg_int(writer, "pid")));
		if (pass) {
			cr_assert(strstr(run.err, "most written to storage: dd io.out 50.0 MiB") != NULL, "stderr: %s", run.err);
			bb_reliability("dd 50 MiB oflag=direct, read back iflag=direct",
				       "each dd's storage and syscall figures within 5 % of 50 MiB, traced and converted",
				       trace, "writer %lld B to storage, %lld B by syscalls; reader %lld B from storage",
				       bb_arg_int(writer, "io_write_bytes"), bb_arg_int(writer, "io_wchar"),
				       bb_arg_int(reader, "io_read_bytes"));
		}
		json_object_put(summary);
		json_object_put(slices);
		json_object_put(trace);
	}
}

/*
 * io-threads: THREADS x EACH MiB written by the threads and 1 MiB by the
 * main thread, each MiB one pwrite: every thread's counts, once.  The
 * kernel's own sum (signal->ioac) would miss the main thread's while it is
 * a zombie, and count twice a thread both released and still listed.
 */
static void threads_write(const char *mode)
{
	enum { THREADS = 4, EACH = 4 };
	struct json_object *trace, *slices, *proc;
	struct statfs fs;

	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", bb_test_prog("io-threads"), mode, "4", "4",
					  "threads.out", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	proc = proc_with_arg(slices, "threads.out");
	cr_assert(proc != NULL, "io-threads missing from the trace");
	cr_log_info("io-threads %s: threads %lld, wchar %lld, syscw %lld, write_bytes %lld", mode,
		    bb_arg_int(proc, "threads"), bb_arg_int(proc, "io_wchar"), bb_arg_int(proc, "io_syscw"),
		    bb_arg_int(proc, "io_write_bytes"));
	cr_assert(eq(i64, bb_arg_int(proc, "threads"), THREADS));
	/* Exact: each thread's own counts added once, the main thread's 1 MiB included. */
	cr_assert(eq(i64, bb_arg_int(proc, "io_wchar"), (THREADS * EACH + 1) * MIB));
	cr_assert(eq(i64, bb_arg_int(proc, "io_syscw"), THREADS * EACH + 1));
	/* Buffered writes are charged as they dirty the page cache, with the
	 * file system's own blocks the process dirtied (a page or a few);
	 * tmpfs has no storage to charge. */
	cr_assert(eq(int, statfs(run.dir, &fs), 0));
	if (fs.f_type != TMPFS_MAGIC)
		assert_near(bb_arg_int(proc, "io_write_bytes"), (THREADS * EACH + 1) * MIB, "storage write_bytes");
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	json_object_put(slices);
	json_object_put(trace);
}

Test(io, threads_that_end_before_the_process_are_counted_once)
{
	threads_write("join");
}

/* The main thread a zombie while the others write: the kernel folds its
 * counts into the process's only when it is reaped, after the last switch. */
Test(io, threads_that_outlive_the_main_thread_are_counted_once)
{
	threads_write("leader-first");
}
