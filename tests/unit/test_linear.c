// SPDX-License-Identifier: GPL-2.0
/*
 * Conversion costs what the recording holds: each crafted recording
 * (tests/lib/crafted_log.h), analysed as convert, report and diff do it, costs
 * at most 2.5 times the CPU time at twice its size.  Each size is chosen
 * so the larger run takes a fraction of a second; every one of them once
 * grew as n^2 or n^3, and took minutes at these sizes.  CPU time of this
 * process (each test runs in its own), not wall time: a busy machine
 * stretches both runs alike.  A regression is killed after a minute of CPU.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "log/event_log.h"
#include "merge/trace_merge.h"
#include "hosts/hosts.h"
#include "model/replay.h"
#include "lib/analysis.h"
#include "lib/build_shapes.h"
#include "lib/crafted_log.h"
#include "lib/synth_hosts.h"

/*
 * At twice the size, at most this much more CPU: n log n passes, n^2 fails
 * at 4.  Not 2.5: with the suite and CPU hogs beside it (load 5-10 on 2
 * CPUs), the larger input's working set (4 MB against 2 MB) misses the
 * shared cache more, so every one of ten tries of a run-queue pair whose
 * usual ratio is 2.0-2.1 came out above 2.5 once.
 */
#define MAX_RATIO 3.0
/* The least CPU time one measurement takes, repeating the analysis. */
#define MIN_MEASURE_SEC 0.1
/* Runs per size while the pair is over: the least of each counts.  Ten:
 * at load 10 on 2 CPUs, with the suite's other tests beside it, all five of
 * a merge pair's runs once strayed past the bound (2.0 is its usual ratio);
 * the retries cost time only while the pair is over. */
#define TRIES 10
/* What a test may cost before SIGXCPU ends it: the fixed code takes a second. */
#define CPU_LIMIT_SEC 60

static void limit_cpu(void)
{
	struct rlimit cpu = { CPU_LIMIT_SEC, CPU_LIMIT_SEC + 5 };

	cr_assert(eq(int, setrlimit(RLIMIT_CPU, &cpu), 0));
}

static double cpu_seconds(void)
{
	struct timespec ts;

	cr_assert(eq(int, clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0));
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Case c grown to n, in a memfd read from its start; its size in *bytes. */
static FILE *crafted(enum crafted_case c, size_t n, long *bytes)
{
	int fd = memfd_create("crafted", 0);
	FILE *f;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, crafted__write(c, n, fd), 0), "%s at %zu", crafted__name(c), n);
	*bytes = lseek(fd, 0, SEEK_END);
	f = fdopen(fd, "r");
	cr_assert(not(eq(ptr, f, NULL)));
	rewind(f);
	return f;
}

/*
 * The CPU time of analysing case c grown to n: of one run, averaged over
 * as many as make MIN_MEASURE_SEC, so a small case is not lost in noise.
 */
static double analysis_cpu(enum crafted_case c, size_t n, long *bytes)
{
	FILE *f = crafted(c, n, bytes);
	double start = cpu_seconds(), cpu;
	int runs = 0;

	do {
		rewind(f);
		cr_assert(eq(int, analysis__run(f), 0), "%s at %zu", crafted__name(c), n);
		runs++;
		cpu = cpu_seconds() - start;
	} while (cpu < MIN_MEASURE_SEC);
	fclose(f);
	return cpu / runs;
}

/*
 * The CPU time of merging one tool trace per process of CRAFTED_PROGRAMS
 * grown to n, each naming its writer by pid (the replay is not counted).
 */
static double merge_cpu(enum crafted_case c, size_t n, long *bytes)
{
	struct replay_opts opts = {};
	struct event_log_reader *r;
	struct trace_merge *tm;
	struct replay rp;
	char text[256], path[64], err[256];
	FILE *f = crafted(c, n, bytes);
	double cpu;
	size_t i;

	cr_assert(eq(int, event_log_reader__open(&r, f, err, sizeof(err)), 0), "%s", err);
	cr_assert(eq(int, replay__run(&rp, r, &opts, err, sizeof(err)), 0), "%s", err);
	cr_assert(eq(int, replay__lay_out(&rp), 0));
	cpu = cpu_seconds();
	tm = trace_merge__new(rp.model, rp.layout, 0, NULL);
	cr_assert(not(eq(ptr, tm, NULL)));
	for (i = 0; i < rp.model->nr_procs; i++) {
		__u32 pid = rp.model->procs[i].pid;

		snprintf(path, sizeof(path), "traces/p%u.json", pid);
		snprintf(text, sizeof(text),
			 "{\"traceEvents\":[{\"pid\":%u,\"tid\":%u,\"ph\":\"X\",\"ts\":0,\"dur\":1,"
			 "\"name\":\"Frontend\"}]}",
			 pid, pid);
		cr_assert(eq(int, trace_merge__add(tm, path, text, strlen(text), err, sizeof(err)), 0), "%s", err);
	}
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	trace_merge__free(tm);
	cpu = cpu_seconds() - cpu;
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);
	return cpu;
}

/*
 * The CPU time of linking distcc's jobs to their clients (convert --add)
 * for n clients on one host and n jobs on another, all with one set of
 * flags and each job inside every client's window: every client fits
 * every job.  Before them, n more that sent first and end while every
 * job runs: in each job's window by start, never fitting it.  Not a log
 * (*bytes 0); building the hosts is not counted.
 */
static double remote_jobs_cpu(enum crafted_case c, size_t n, long *bytes)
{
	const __u64 t0 = 10 * 1000 * SYNTH_MS, span = 3000 * 1000 * SYNTH_MS;
	/* Both clocks read one wall time (2026-12-01) at one instant. */
	const __s64 offset = 1796083200000000000ll;
	const __u64 jobs_at = t0 + 2 * n * 1000 + 10 * SYNTH_MS;
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256], src[32], input[48];
	double cpu;
	size_t i;

	(void)c;
	*bytes = 0;
	synth_host_begin(&a, "client", offset, t0, 100, 2);
	for (i = 0; i < 2 * n; i++) {
		/* Jobs start from jobs_at, within n us, and run 100 ms. */
		__u64 start = t0 + i * 1000, end = i < n ? jobs_at + 50 * SYNTH_MS : t0 + span;

		snprintf(src, sizeof(src), "f%zu.c", i);
		synth_distcc_client(&a, 1000 + 2 * i, src, "-O2", start, start + 2 * SYNTH_MS, end);
	}
	synth_host_end(&a, t0 + span + SYNTH_MS);
	synth_host_begin(&b, "worker", offset, t0, 200, 2);
	for (i = 0; i < n; i++) {
		__u64 start = jobs_at + i * 1000;

		snprintf(input, sizeof(input), "/tmp/distccd_%zu.i", i);
		synth_distcc_job(&b, 1000 + 2 * i, input, "-O2", start, start + 100 * SYNTH_MS);
	}
	synth_host_end(&b, t0 + span + SYNTH_MS);
	hosts[0] = (struct host){ .rp = &a.rp, .log_name = "a.bbl" };
	hosts[1] = (struct host){ .rp = &b.rp, .log_name = "b.bbl" };
	cr_assert(eq(int, hosts__align(&hs, hosts, 2, err, sizeof(err)), 0), "%s", err);
	cpu = cpu_seconds();
	cr_assert(eq(int, hosts__link_remote_jobs(&hs), 0));
	cpu = cpu_seconds() - cpu;
	cr_assert(eq(sz, hs.audit.jobs, n));
	cr_assert(eq(sz, hs.audit.matched, n), "each job has a client that waited throughout");
	cr_assert(eq(sz, hs.audit.by[MATCH_END_ORDER], n - 1), "the last job had one client left");
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
	return cpu;
}

/* Built with AddressSanitizer: its allocator and shadow memory, not the code, set the pace. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* The CPU time of analysing build shape s (tests/lib/build_shapes.h) grown to n jobs, as analysis_cpu(). */
static double shape_cpu(enum build_shape s, size_t n)
{
	int fd = memfd_create("shape", 0);
	double start, cpu;
	int runs = 0;
	FILE *f;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, build_shape__write(s, n, NULL, fd, NULL), 0), "%s at %zu", build_shape__name(s), n);
	f = fdopen(fd, "r");
	cr_assert(not(eq(ptr, f, NULL)));
	start = cpu_seconds();
	do {
		rewind(f);
		cr_assert(eq(int, analysis__run(f), 0), "%s at %zu", build_shape__name(s), n);
		runs++;
		cpu = cpu_seconds() - start;
	} while (cpu < MIN_MEASURE_SEC);
	fclose(f);
	return cpu / runs;
}

/*
 * A build shape at twice the jobs costs under SHAPE_RATIO times the CPU
 * (n log n is 2.1 at these sizes; the walk back it replaced was n^3), and
 * the larger under max_sec: the bound a loaded machine still meets, five
 * times the usual.  The least of up to TRIES runs per size counts.
 *
 * A machine whose cache holds the smaller run's working set and not the
 * larger's pays the misses at the doublings that cross it: CI's once
 * measured cargo_pipeline at 0.18 s for 8,000 jobs and 0.55 s for 16,000,
 * ten tries alike, where this one measures 0.38 and 0.65.  With neighbours
 * that thrash the cache now and then, the least of the tries finds the
 * smaller run in the cache and the larger one out of it at two doublings
 * running (the suite run twice beside CPU hogs: 8,000 to 16,000 2.9 times,
 * 16,000 to 32,000 3.1 times).  So while a doubling is over, the next one
 * decides, up to SHAPE_DOUBLINGS of them, each past the last's cache: a
 * cost that grows as n^2 or n^3 is over at every doubling.
 */
#define SHAPE_DOUBLINGS 3
#define SHAPE_RATIO 2.2

/*
 * Up to TRIES pairs of runs, at n and then at 2n, back to back: the pair of
 * least ratio counts, until one is under SHAPE_RATIO with its larger run
 * under max_sec.  A pair's two runs meet the same neighbours; the least of
 * each size apart would set a smaller run from a quiet moment against a
 * larger one that never had one (its run is twice as long).
 */
static void shape_doubling(enum build_shape s, size_t n, double max_sec, double *small, double *large)
{
	int i;

	for (i = 0; i < TRIES; i++) {
		double t_small = shape_cpu(s, n), t_large = shape_cpu(s, 2 * n);

		if (i == 0 || t_large * *small < *large * t_small) {
			*small = t_small;
			*large = t_large;
		}
		if (*large < SHAPE_RATIO * *small && *large < max_sec)
			break;
	}
	cr_log_info("%s: %zu jobs in %.3f s, %zu in %.3f s of CPU", build_shape__name(s), n, *small, 2 * n, *large);
}

static void shape_doubles_in_proportion(enum build_shape s, size_t n, double max_sec)
{
	double small[SHAPE_DOUBLINGS] = {}, large[SHAPE_DOUBLINGS] = {};
	char said[SHAPE_DOUBLINGS * 80] = "";
	size_t k, at = 0;

#ifdef UNDER_SANITIZER
	cr_log_info("%s: %zu jobs in %.3f s of CPU under the sanitizers", build_shape__name(s), n, shape_cpu(s, n));
	return;
#endif
	shape_doubling(s, n, max_sec, &small[0], &large[0]);
	cr_assert(lt(dbl, large[0], max_sec), "%s: %zu jobs in %.3f s of CPU", build_shape__name(s), 2 * n, large[0]);
	for (k = 0; large[k] >= SHAPE_RATIO * small[k] && k + 1 < SHAPE_DOUBLINGS; k++)
		shape_doubling(s, n << (k + 1), max_sec * (2 << k), &small[k + 1], &large[k + 1]);
	for (size_t i = 0; i <= k; i++)
		at += snprintf(said + at, sizeof(said) - at, "%s%zu jobs in %.3f s, twice that in %.3f s", i ? "; " : "",
			       n << i, small[i], large[i]);
	cr_assert(lt(dbl, large[k], SHAPE_RATIO * small[k]), "%s: %s of CPU", build_shape__name(s), said);
}

typedef double cost_fn(enum crafted_case c, size_t n, long *bytes);


static void costs_in_proportion(const char *name, cost_fn *cost, enum crafted_case c, size_t n)
{
	double small = 0, large = 0, t;
	long small_bytes = 0, large_bytes = 0;
	int i;

#ifdef UNDER_SANITIZER
	/* The crafted input still goes through every stage once, under the
	 * sanitizers; its ratio is measured by the normal build. */
	t = cost(c, n, &small_bytes);
	cr_log_info("%s: %zu (%ld bytes) in %.3f s of CPU under the sanitizers; the ratio is the normal build's",
		    name, n, small_bytes, t);
	return;
#endif
	for (i = 0; i < TRIES && (i == 0 || !(large < MAX_RATIO * small)); i++) {
		t = cost(c, n, &small_bytes);
		small = i == 0 || t < small ? t : small;
		t = cost(c, 2 * n, &large_bytes);
		large = i == 0 || t < large ? t : large;
	}
	cr_log_info("%s: %zu (%ld bytes) in %.3f s, %zu (%ld bytes) in %.3f s of CPU", name, n,
		    small_bytes, small, 2 * n, large_bytes, large);
	cr_assert(lt(dbl, large, MAX_RATIO * small), "%s: %zu in %.3f s, twice that in %.3f s of CPU",
		  name, n, small, large);
}

static void doubles_in_proportion(enum crafted_case c, size_t n)
{
	costs_in_proportion(crafted__name(c), analysis_cpu, c, n);
}

/* Naming: every image replayed its ancestors' directory changes (n^3). */
Test(linear, one_process_exec_ing_sh_cd_thousands_of_times, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_CD_CHAIN, 32000);
}

Test(linear, directories_of_fifty_characters, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_LONG_DIRS, 16000);
}

/* Naming: every name normalised the 200 KB cwd again. */
Test(linear, processes_under_a_long_working_directory, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_LONG_CWD, 12000);
}

/* Start causes and the critical path: edges x depth^2. */
Test(linear, two_deep_fork_chains_and_one_edge, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_FORK_CHAINS, 8000);
}

/*
 * The build graph: each rename and exec looked back over every read and
 * up to 4,096 writes (at 2n within that bound, so the scan shows as n^2).
 */
Test(linear, renames_no_write_matches, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_RENAMES, 2048);
}

Test(linear, execs_no_write_matches, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_EXEC_LOOKBACK, 2048);
}

/* The build graph: each read scanned the file's edges. */
Test(linear, one_file_read_by_every_process, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_WIDE_READERS, 16000);
}

/* The critical path and the start causes: each step scanned the parent's children. */
Test(linear, a_shell_running_its_jobs_one_after_another, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_SEQUENTIAL_JOBS, 16000);
}

/* Lanes: each span looked at every lane. */
Test(linear, thousands_of_jobs_at_once, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_PARALLEL_JOBS, 16000);
}

/* The audit and the diff: each process searched the programs found so far. */
Test(linear, a_program_of_its_own_per_process, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_PROGRAMS, 16000);
}

/* The outside wait: each waiting process summed the daemon's work interval by interval. */
Test(linear, processes_waiting_across_a_daemons_jobs, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_DAEMON_WAITS, 16000);
}

/* The merge: each tool trace scanned every process for its writer, each writer for its children. */
Test(linear, a_tool_trace_per_process, .init = limit_cpu)
{
	costs_in_proportion(crafted__name(CRAFTED_PROGRAMS), merge_cpu, CRAFTED_PROGRAMS, 16000);
}

/* Lanes and the scheduler's figures: thousands of processes waiting for a CPU at once. */
Test(linear, thousands_waiting_for_a_cpu, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_RUN_QUEUE, 8000);
}

/*
 * Every stage at once on the shape of a large build (a kernel's is 30,000
 * processes, a browser's hundreds of thousands): make, sub-makes, sh, gcc,
 * cc1, as, ld, with CPU slices, files, memory, I/O and start wakes.
 */
Test(linear, a_build_of_thousands_of_compiles, .init = limit_cpu)
{
	doubles_in_proportion(CRAFTED_BIG_BUILD, 6000);
}

/* convert --add: every distcc job weighed every client of its flags (n^2). */
Test(linear, thousands_of_distcc_clients_alike, .init = limit_cpu)
{
	costs_in_proportion("distcc_clients_alike", remote_jobs_cpu, CRAFTED_NR, 16000);
}

/* The runner's order: each child walked back over its runner's units, one end at a time, while its slots stayed full. */
Test(linear, one_long_job_beside_thousands_at_j1, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_LONG_BESIDE_J1, 8000, 2.0);
}

Test(linear, one_long_job_beside_thousands_at_j2, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_LONG_BESIDE_J2, 8000, 2.0);
}

Test(linear, one_long_job_beside_thousands_at_j8, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_LONG_BESIDE_J8, 8000, 2.0);
}

Test(linear, thousands_of_jobs_of_one_make_at_once, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_ALL_AT_ONCE, 8000, 2.0);
}

/* Slots held: each query walked every sub-make of the pool (n^2/8), and down chains of makes alive (n^2/2). */
Test(linear, a_thousand_sub_makes_sharing_one_jobserver, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_JOBSERVER, 8000, 2.0);
}

Test(linear, a_chain_of_makes_thousands_deep, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_DEEP_MAKES, 8000, 2.0);
}

Test(linear, a_kernel_of_sub_makes_per_directory, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_KERNEL, 4000, 2.0);
}

Test(linear, ninja_with_long_links_at_the_end, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_NINJA_LINKS, 8000, 2.0);
}

Test(linear, cargo_pipelined_crates, .init = limit_cpu)
{
	shape_doubles_in_proportion(SHAPE_CARGO_PIPELINE, 8000, 2.0);
}
