// SPDX-License-Identifier: GPL-2.0
/*
 * Load: the real binary and BPF programs under shapes of load a tracer must
 * survive without losing anything (root, real BPF): tens of thousands of
 * short processes, thousands alive at once, hundreds of threads, argv and
 * paths at the kernel's own limits, and a ring buffer too small on purpose,
 * where every record that did not arrive must be counted as lost.
 * Each test logs what it measured (cr_log_info, shown with --verbose), and
 * one row of the reliability table per case (bb_reliability).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

/* 20,000 processes from make -j2 take about two minutes on the 2-CPU VM. */
TestSuite(load, .init = integration_setup, .fini = integration_teardown, .timeout = 600);

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* otherData.sched.records: scheduler records received; 0 with --sched=off. */
static long long sched_records(struct json_object *trace)
{
	struct json_object *sched = bb_other(trace, "sched"), *records;

	if (!json_object_is_type(sched, json_type_object) || !json_object_object_get_ex(sched, "records", &records))
		return 0;
	return json_object_get_int64(records);
}

static size_t arg_argc(struct json_object *ev)
{
	struct json_object *argv = bb_arg(ev, "argv");

	return argv ? json_object_array_length(argv) : 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* The command's own slice: the one process whose parent is not traced. */
static struct json_object *root_slice(struct json_object *slices)
{
	struct json_object *root = NULL;
	size_t i, n = json_object_array_length(slices);
	long long *pids = calloc(n ? n : 1, sizeof(*pids));

	cr_assert_not_null(pids);
	for (i = 0; i < n; i++)
		pids[i] = bb_arg_int(json_object_array_get_idx(slices, i), "pid");
	qsort(pids, n, sizeof(*pids), cmp_ll);
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		long long ppid = bb_arg_int(ev, "ppid");

		if (bsearch(&ppid, pids, n, sizeof(*pids), cmp_ll))
			continue;
		cr_assert_null(root, "two processes without a traced parent (pids %lld and %lld)",
			       bb_arg_int(root, "pid"), bb_arg_int(ev, "pid"));
		root = ev;
	}
	free(pids);
	cr_assert_not_null(root, "no root process in the trace");
	return root;
}

/* A (time, +1 start / -1 end) point of a span, for the overlap sweep. */
struct span_edge {
	long long ts;
	int delta;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct span_edge *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* An end and a start at the same microsecond do not overlap. */
	return x->delta - y->delta;
}

Test(load, make_j2_with_20000_processes_loses_nothing)
{
	enum { TARGETS = 20000 };
	struct json_object *trace, *slices, *make = NULL;
	struct timespec start;
	char *seen = calloc(TARGETS, 1);
	size_t i, n, found = 0;
	long long make_pid, lost;
	FILE *f;

	cr_assert_not_null(seen);
	/* Independent targets; make runs a recipe without shell syntax itself. */
	f = fopen(bb_path(&run, "Makefile"), "w");
	cr_assert_not_null(f);
	fprintf(f, "T :=");
	for (i = 0; i < TARGETS; i++)
		fprintf(f, " t%05zu", i);
	fprintf(f, "\n.PHONY: all $(T)\nall: $(T)\n$(T):\n\t@true $@\n");
	cr_assert_eq(fclose(f), 0);

	clock_gettime(CLOCK_MONOTONIC, &start);
	bb_run_in(&run, (const char *[]){ "-q", "--sched=summary", "-o", "t.json", "--", "make", "-j2", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	n = json_object_array_length(slices);
	lost = bb_other_int(trace, "lost_events");
	cr_log_info("load make -j2: %zu processes, %lld scheduler records, %lld lost events, %.1f s traced wall, "
		    "%.1f s with loading the trace",
		    n, sched_records(trace), lost, bb_other_int(trace, "duration_us") / 1e6, seconds_since(&start));

	for (i = 0; i < n && !make; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(ev, 0);

		if (argv0 && !strcmp(argv0, "make"))
			make = ev;
	}
	cr_assert_not_null(make, "make is missing from the trace");
	make_pid = bb_arg_int(make, "pid");
	/* One pass: with pid_max at 32768 the pids wrap, so match by argv. */
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(ev, 0), *target = bb_arg_argv(ev, 1);
		char *end;
		long t;

		if (!argv0 || strcmp(argv0, "true"))
			continue;
		cr_assert(eq(sz, arg_argc(ev), 2));
		cr_assert(target && target[0] == 't', "true without a target");
		t = strtol(target + 1, &end, 10);
		cr_assert(end[0] == '\0' && t >= 0 && t < TARGETS, "unexpected target %s", target);
		cr_assert(seen[t] == 0, "%s made twice", target);
		seen[t] = 1;
		found++;
		cr_assert(eq(i64, bb_arg_int(ev, "ppid"), make_pid), "%s has the wrong parent", target);
		cr_assert(eq(str, (char *)bb_arg_str(ev, "exit_status"), "exit 0"), "%s", target);
	}
	for (i = 0; i < TARGETS; i++)
		cr_assert(seen[i], "no process made t%05zu (%zu of %d found)", i, found, TARGETS);
	cr_assert(eq(sz, n, (size_t)TARGETS + 1), "make and one process per target");
	cr_assert(eq(i64, bb_other_int(trace, "processes"), TARGETS + 1));
	cr_assert(eq(i64, bb_other_int(trace, "unfinished_processes"), 0));
	cr_assert(eq(i64, lost, 0));
	bb_reliability("20,000 processes from make -j2",
		       "every target made exactly once, by make, exit 0; no process unfinished; 0 lost", trace,
		       "%zu of %d targets; %.1f s with loading the trace", found, TARGETS, seconds_since(&start));
	free(seen);
	json_object_put(slices);
	json_object_put(trace);
}

/* Traces `load-gen MODE COUNT MS` into t.json, from *start (now), and loads the trace. */
static struct json_object *trace_load_gen(const char *mode, int count, int ms, struct timespec *start)
{
	char count_arg[16], ms_arg[16];

	snprintf(count_arg, sizeof(count_arg), "%d", count);
	snprintf(ms_arg, sizeof(ms_arg), "%d", ms);
	clock_gettime(CLOCK_MONOTONIC, start);
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", bb_test_prog("load-gen"), mode, count_arg, ms_arg,
					  NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	return bb_load_trace(bb_path(&run, "t.json"));
}

Test(load, two_thousand_concurrent_sleepers)
{
	enum { SLEEPERS = 2000, SLEEP_MS = 300 };
	struct json_object *trace, *slices, *root;
	struct span_edge *edges;
	long long *printed, *traced, root_pid, lost;
	size_t i, n, nr_printed = 0, nr_children = 0, nr_edges = 0;
	long peak = 0, alive = 0;
	char *line, *save;
	struct timespec start;

	trace = trace_load_gen("sleepers", SLEEPERS, SLEEP_MS, &start);
	slices = bb_slices(trace, "process");
	n = json_object_array_length(slices);
	root = root_slice(slices);
	root_pid = bb_arg_int(root, "pid");
	lost = bb_other_int(trace, "lost_events");

	/* The workload printed each child's pid: every one must be traced. */
	printed = calloc(SLEEPERS + 1, sizeof(*printed));
	traced = calloc(n, sizeof(*traced));
	edges = calloc(2 * n, sizeof(*edges));
	cr_assert(printed && traced && edges);
	for (line = strtok_r(run.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cr_assert(lt(sz, nr_printed, (size_t)SLEEPERS), "more children than asked for");
		printed[nr_printed++] = atoll(line);
	}
	cr_assert(eq(sz, nr_printed, (size_t)SLEEPERS));
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		long long ts = int_field(ev, "ts");

		if (ev == root)
			continue;
		cr_assert(eq(i64, bb_arg_int(ev, "ppid"), root_pid), "pid %lld is not the workload's child",
			  bb_arg_int(ev, "pid"));
		cr_assert(eq(str, (char *)bb_arg_str(ev, "exit_status"), "exit 0"), "pid %lld", bb_arg_int(ev, "pid"));
		/* Each slept at least SLEEP_MS after the barrier (nanosleep never
		 * returns early): its exit record carried its own accounting. */
		/* All of its accounting in the message: where the sleep went if
		 * not to sleep_ms, and whether records were lost meanwhile. */
		cr_assert(ge(dbl, bb_arg_double(ev, "sleep_ms"), SLEEP_MS * 0.99),
			  "pid %lld slept %.3f ms (%lld lost); args %s", bb_arg_int(ev, "pid"),
			  bb_arg_double(ev, "sleep_ms"), lost,
			  json_object_to_json_string(json_object_object_get(ev, "args")));
		traced[nr_children++] = bb_arg_int(ev, "pid");
		edges[nr_edges++] = (struct span_edge){ ts, +1 };
		edges[nr_edges++] = (struct span_edge){ ts + int_field(ev, "dur"), -1 };
	}
	qsort(traced, nr_children, sizeof(*traced), cmp_ll);
	for (i = 0; i < nr_printed; i++)
		cr_assert(bsearch(&printed[i], traced, nr_children, sizeof(*traced), cmp_ll) != NULL,
			  "child pid %lld is missing from the trace", printed[i]);
	qsort(edges, nr_edges, sizeof(*edges), cmp_edge);
	for (i = 0; i < nr_edges; i++) {
		alive += edges[i].delta;
		if (alive > peak)
			peak = alive;
	}
	cr_log_info("load sleepers: %zu processes, %zu children, peak %ld alive at once, %lld lanes, "
		    "%lld scheduler records, %lld lost events, %.2f s traced wall, %.2f s test",
		    n, nr_children, peak, bb_other_int(trace, "lanes"), sched_records(trace), lost,
		    bb_other_int(trace, "duration_us") / 1e6, seconds_since(&start));
	cr_assert(eq(sz, nr_children, (size_t)SLEEPERS));
	cr_assert(ge(i64, peak, SLEEPERS), "at most %ld children alive at once", peak);
	cr_assert(eq(i64, bb_other_int(trace, "unfinished_processes"), 0));
	cr_assert(eq(i64, lost, 0));
	bb_reliability("2,000 concurrent sleepers",
		       "every child pid the workload printed is traced, all alive at once, each asleep >= 300 ms; "
		       "0 lost",
		       trace, "peak %ld alive at once, %lld lanes", peak, bb_other_int(trace, "lanes"));
	free(printed);
	free(traced);
	free(edges);
	json_object_put(slices);
	json_object_put(trace);
}

Test(load, five_hundred_threads_in_one_process)
{
	enum { THREADS = 500, SLEEP_MS = 300 };
	struct json_object *trace, *slices, *proc;
	struct timespec start;
	long long lost;

	trace = trace_load_gen("threads", THREADS, SLEEP_MS, &start);
	slices = bb_slices(trace, "process");
	cr_assert(eq(sz, json_object_array_length(slices), 1));
	proc = root_slice(slices);
	lost = bb_other_int(trace, "lost_events");
	cr_log_info("load threads: %zu process, %lld threads, %.1f ms asleep in all, %lld scheduler records, "
		    "%lld lost events, %.2f s traced wall, %.2f s test",
		    json_object_array_length(slices), bb_arg_int(proc, "threads"), bb_arg_double(proc, "sleep_ms"),
		    sched_records(trace), lost, bb_other_int(trace, "duration_us") / 1e6, seconds_since(&start));
	cr_assert(eq(str, (char *)bb_arg_str(proc, "comm"), "load-gen"));
	cr_assert(eq(str, (char *)bb_arg_str(proc, "exit_status"), "exit 0"));
	cr_assert(ge(i64, bb_arg_int(proc, "threads"), THREADS));
	/* The process's total is the sum over its threads: every thread's
	 * exit must have arrived for it to reach THREADS sleeps. */
	cr_assert(ge(dbl, bb_arg_double(proc, "sleep_ms"), THREADS * SLEEP_MS * 0.99), "asleep %.1f ms in all",
		  bb_arg_double(proc, "sleep_ms"));
	cr_assert(eq(i64, lost, 0));
	bb_reliability("500 threads in one process",
		       "one process; every thread's exit arrived (its sleep adds up to >= 500 x 300 ms); 0 lost", trace,
		       "%lld threads, %.0f ms asleep in all", bb_arg_int(proc, "threads"),
		       bb_arg_double(proc, "sleep_ms"));
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * The argv area of an exec: argv[0] "/bin/true", then 127-byte arguments
 * (each numbered, so a shifted or dropped one shows), the last one shorter
 * so that the area, NULs included, is exactly `total` bytes.
 */
static size_t make_argv_area(char *area, size_t total)
{
	size_t len = 0, i;

	strcpy(area, "/bin/true");
	len = sizeof("/bin/true");
	for (i = 1; len < total; i++) {
		size_t room = total - len - 1, arg_len = room < 127 ? room : 127;

		snprintf(area + len, total - len, "a%04zu-", i);
		memset(area + len + 6, 'x' + i % 3, arg_len > 6 ? arg_len - 6 : 0);
		area[len + arg_len] = '\0';
		len += arg_len + 1;
	}
	return i; /* argc */
}

/*
 * args.argv joined with NULs, as the kernel laid it out, without the final
 * NUL (a cut last argument has none).
 */
static char *joined_argv(struct json_object *ev, size_t *len)
{
	size_t argc = arg_argc(ev), i, off = 0, cap = 1;
	char *out;

	for (i = 0; i < argc; i++)
		cap += strlen(bb_arg_argv(ev, i)) + 1;
	out = malloc(cap);
	cr_assert_not_null(out);
	for (i = 0; i < argc; i++) {
		size_t l = strlen(bb_arg_argv(ev, i));

		memcpy(out + off, bb_arg_argv(ev, i), l);
		off += l;
		out[off++] = '\0';
	}
	*len = off ? off - 1 : 0;
	return out;
}

/* The single process of a one-process trace, exec'd into /bin/true. */
static struct json_object *traced_true(struct json_object *trace, struct json_object **slices)
{
	struct json_object *proc;

	*slices = bb_slices(trace, "process");
	cr_assert(eq(sz, json_object_array_length(*slices), 1));
	proc = json_object_array_get_idx(*slices, 0);
	cr_assert(eq(i64, bb_arg_int(proc, "images"), 2), "load-gen, then /bin/true");
	cr_assert(eq(str, (char *)bb_arg_str(proc, "filename"), "/bin/true"));
	cr_assert(eq(str, (char *)bb_arg_str(proc, "exit_status"), "exit 0"));
	return proc;
}

Test(load, argv_of_128k_is_cut_at_args_max_and_whole_at_128k)
{
	enum { AREA = 128 * 1024, DEFAULT_MAX = 16 * 1024 };
	struct json_object *trace, *slices, *proc;
	char *area = malloc(AREA), *got;
	char *last;
	size_t argc, got_len, cut;
	struct timespec start;
	FILE *f;

	cr_assert_not_null(area);
	/* 1,025 arguments: far more than any one argument may hold
	 * (MAX_ARG_STRLEN), and the area exactly the largest --args-max. */
	argc = make_argv_area(area, AREA);
	f = fopen(bb_path(&run, "argv.bin"), "w");
	cr_assert_not_null(f);
	cr_assert(eq(sz, fwrite(area, 1, AREA, f), (size_t)AREA));
	cr_assert_eq(fclose(f), 0);

	/* Default --args-max: the first 16 KiB, the cut argument kept, flagged. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	bb_run_in(&run, (const char *[]){ "-q", "-o", "default.json", "--", bb_test_prog("load-gen"), "exec-args",
					  "argv.bin", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "default.json"));
	proc = traced_true(trace, &slices);
	got = joined_argv(proc, &got_len);
	cut = area[DEFAULT_MAX - 1] == '\0' ? DEFAULT_MAX - 1 : DEFAULT_MAX;
	cr_log_info("load argv, default --args-max: %zu of %zu args, %zu of %d argv bytes kept, truncated %d, "
		    "%lld lost events",
		    arg_argc(proc), argc, got_len + (got_len < AREA && area[got_len] == '\0'), AREA,
		    bb_arg_flag(proc, "args_truncated"), bb_other_int(trace, "lost_events"));
	cr_assert(bb_arg_flag(proc, "args_truncated"));
	cr_assert(eq(i64, bb_other_int(trace, "args_max"), DEFAULT_MAX));
	cr_assert(eq(sz, got_len, cut), "kept %zu argv bytes", got_len);
	cr_assert(eq(int, memcmp(got, area, cut), 0), "the kept argv is not the start of the real one");
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("128 KiB argv, default --args-max",
		       "the first 16 KiB kept byte for byte, the cut flagged args_truncated; 0 lost", trace,
		       "%zu of %d argv bytes, %zu of %zu arguments kept",
		       got_len + (got_len < AREA && area[got_len] == '\0'), AREA, arg_argc(proc), argc);
	free(got);
	json_object_put(slices);
	json_object_put(trace);

	/* --args-max 128K: every byte, not flagged. */
	bb_run_in(&run, (const char *[]){ "-q", "--args-max", "128K", "-o", "full.json", "--", bb_test_prog("load-gen"),
					  "exec-args", "argv.bin", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "full.json"));
	proc = traced_true(trace, &slices);
	got = joined_argv(proc, &got_len);
	cr_log_info("load argv, --args-max 128K: %zu of %zu args, %zu of %d argv bytes kept, truncated %d, "
		    "%lld lost events, %.2f s for both runs",
		    arg_argc(proc), argc, got_len + (got_len < AREA && area[got_len] == '\0'), AREA,
		    bb_arg_flag(proc, "args_truncated"), bb_other_int(trace, "lost_events"), seconds_since(&start));
	cr_assert(eq(int, bb_arg_flag(proc, "args_truncated"), 0));
	cr_assert(eq(sz, arg_argc(proc), argc));
	cr_assert(eq(sz, got_len, (size_t)AREA - 1), "kept %zu argv bytes", got_len);
	cr_assert(eq(int, memcmp(got, area, AREA - 1), 0), "the argv differs from the one exec'd");
	last = area + AREA - 2;
	while (last[-1])
		last--;
	cr_assert(eq(str, (char *)bb_arg_argv(proc, argc - 1), last), "the last argument differs");
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("128 KiB argv, --args-max 128K", "every argument kept whole, byte for byte, not flagged; 0 lost",
		       trace, "%zu of %d argv bytes, %zu of %zu arguments kept",
		       got_len + (got_len < AREA && area[got_len] == '\0'), AREA, arg_argc(proc), argc);
	free(got);
	free(area);
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * Makes dir/REL, an executable copy of /bin/true, where REL is `rel_len`
 * bytes of nested 200-byte directory names.  Everything is made relative
 * to directory descriptors, so REL may be longer than the kernel takes as
 * one path.  Returns REL (malloc'd).
 */
static char *make_deep_true(const char *dir, size_t rel_len)
{
	char *rel = malloc(rel_len + 1), buf[65536];
	int dfd = open(dir, O_PATH | O_DIRECTORY), src, dst;
	size_t len = 0;
	ssize_t n;

	cr_assert(rel && dfd >= 0);
	/* A directory component while a final name of >= 10 bytes still fits. */
	while (rel_len - len > 201 + 10) {
		char comp[201];
		int next;

		memset(comp, 'd', 200);
		comp[200] = '\0';
		cr_assert(mkdirat(dfd, comp, 0755) == 0 || errno == EEXIST, "mkdirat: %s", strerror(errno));
		next = openat(dfd, comp, O_PATH | O_DIRECTORY);
		cr_assert(next >= 0);
		close(dfd);
		dfd = next;
		memcpy(rel + len, comp, 200);
		rel[len + 200] = '/';
		len += 201;
	}
	memset(rel + len, 'x', rel_len - len);
	rel[rel_len] = '\0';
	src = open("/bin/true", O_RDONLY);
	dst = openat(dfd, rel + len, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	cr_assert(src >= 0 && dst >= 0, "cannot copy /bin/true: %s", strerror(errno));
	while ((n = read(src, buf, sizeof(buf))) > 0)
		cr_assert(eq(sz, (size_t)write(dst, buf, n), (size_t)n));
	cr_assert(n == 0 && close(dst) == 0);
	close(src);
	close(dfd);
	return rel;
}

/* Runs an absolute path of exactly `len` bytes and returns its only slice. */
static struct json_object *trace_exec_of_path(size_t len, const char *out, struct json_object **trace,
					      struct json_object **slices, char **path)
{
	size_t dir_len = strlen(run.dir);
	char *rel = make_deep_true(run.dir, len - dir_len - 1);

	cr_assert(asprintf(path, "%s/%s", run.dir, rel) > 0);
	free(rel);
	cr_assert(eq(sz, strlen(*path), len));
	bb_run_in(&run, (const char *[]){ "-q", "--sched=off", "-o", out, "--", *path, NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	*trace = bb_load_trace(bb_path(&run, out));
	*slices = bb_slices(*trace, "process");
	cr_assert(eq(sz, json_object_array_length(*slices), 1));
	return json_object_array_get_idx(*slices, 0);
}

Test(load, exec_of_a_4k_path)
{
	struct json_object *trace, *slices, *proc;
	const char *filename;
	char *path, *rel, *expected;
	int fd_num;

	/* 4,094 bytes, one short of the longest path the kernel takes. */
	proc = trace_exec_of_path(4094, "t.json", &trace, &slices, &path);
	filename = bb_arg_str(proc, "filename");
	cr_log_info("load 4 KiB path: %zu-byte path, %zu-byte filename recorded, filename_truncated %d, "
		    "%lld lost events",
		    strlen(path), filename ? strlen(filename) : 0, bb_arg_flag(proc, "filename_truncated"),
		    bb_other_int(trace, "lost_events"));
	cr_assert(eq(str, (char *)filename, path));
	cr_assert(eq(str, (char *)bb_arg_argv(proc, 0), path));
	cr_assert(eq(int, bb_arg_flag(proc, "filename_truncated"), 0));
	cr_assert(eq(str, (char *)bb_arg_str(proc, "exit_status"), "exit 0"));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("exec of a 4,094-byte path", "filename and argv[0] recorded whole, not flagged; 0 lost", trace,
		       "%zu-byte filename recorded", strlen(filename));
	free(path);
	json_object_put(slices);
	json_object_put(trace);

	/*
	 * A name longer than PATH_MAX does reach the tracepoint: execveat()
	 * of a relative path names the image "/dev/fd/N/REL".  It is cut to
	 * the longest path there can be, and flagged.
	 */
	rel = make_deep_true(run.dir, 4090);
	bb_run_in(&run, (const char *[]){ "-q", "--sched=off", "-o", "at.json", "--", bb_test_prog("load-gen"),
					  "execveat", run.dir, rel, NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "at.json"));
	slices = bb_slices(trace, "process");
	cr_assert(eq(sz, json_object_array_length(slices), 1));
	proc = json_object_array_get_idx(slices, 0);
	filename = bb_arg_str(proc, "filename");
	cr_assert_not_null(filename);
	cr_assert(eq(int, sscanf(filename, "/dev/fd/%d/", &fd_num), 1), "filename %.40s…", filename);
	cr_assert(asprintf(&expected, "/dev/fd/%d/%s", fd_num, rel) > 0);
	cr_log_info("load execveat: %zu-byte image name, %zu bytes recorded, filename_truncated %d",
		    strlen(expected), strlen(filename), bb_arg_flag(proc, "filename_truncated"));
	cr_assert(lt(sz, (size_t)4095, strlen(expected)));
	cr_assert(eq(sz, strlen(filename), (size_t)4095));
	cr_assert(eq(int, strncmp(filename, expected, 4095), 0), "the recorded name is not the start of the real one");
	cr_assert(bb_arg_flag(proc, "filename_truncated"));
	cr_assert(eq(str, (char *)bb_arg_argv(proc, 0), rel), "argv[0] is REL, whole");
	cr_assert(eq(str, (char *)bb_arg_str(proc, "exit_status"), "exit 0"));
	bb_reliability("execveat image name longer than PATH_MAX",
		       "the name cut at 4,095 bytes, a prefix of the real one, flagged filename_truncated", trace,
		       "%zu-byte name, %zu bytes recorded", strlen(expected), strlen(filename));
	free(expected);
	free(rel);
	json_object_put(slices);
	json_object_put(trace);
}

/* PATH_MAX counts the NUL: 4,095 bytes is the longest path exec takes, and it fits whole. */
Test(load, exec_of_a_path_max_path_is_whole_and_not_flagged)
{
	struct json_object *trace, *slices, *proc;
	const char *filename;
	char *path;

	proc = trace_exec_of_path(4095, "t.json", &trace, &slices, &path);
	filename = bb_arg_str(proc, "filename");
	cr_log_info("load PATH_MAX path: %zu-byte path, %zu-byte filename recorded, filename_truncated %d",
		    strlen(path), filename ? strlen(filename) : 0, bb_arg_flag(proc, "filename_truncated"));
	cr_assert(eq(str, (char *)filename, path));
	cr_assert(eq(int, bb_arg_flag(proc, "filename_truncated"), 0), "a whole filename is flagged truncated");
	bb_reliability("exec of a 4,095-byte (PATH_MAX) path", "filename recorded whole, not flagged", trace,
		       "%zu-byte filename recorded", strlen(filename));
	free(path);
	json_object_put(slices);
	json_object_put(trace);
}

Test(load, a_too_small_ring_buffer_counts_every_lost_record)
{
	enum { BURST = 300, STATUS = 7 };
	struct json_object *trace, *slices, *root;
	long long lost, root_pid, expected, received, records, process_records, orphan_exits;
	size_t i, n, visible = 0, forks = 0, seen_at_exec = 0, execs = 0, exits = 0, root_records;
	size_t unfinished = 0;
	struct timespec start;
	char summary[64], count[16], status[16];

	snprintf(count, sizeof(count), "%d", BURST);
	snprintf(status, sizeof(status), "%d", STATUS);
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* --sched=off, --deps=off: fork, exec and exit are the only records
	 * (deps' own accounting: deps/a_too_small_ring_buffer_counts_every_lost_file_record),
	 * and per process two memory records (bpf/mem_events.bpf.c: the image
	 * forked from its parent, ended by its exec, and its last, at its exit)
	 * and one I/O record (bpf/proc_io.bpf.h, at its end). */
	bb_run_in(&run, (const char *[]){ "--sched=off", "--deps=off", "--buffer-size", "4K", "-o", "t.json", "--",
					  bb_test_prog("load-gen"), "rt-burst", count, status, "/bin/true", NULL }, NULL);
	cr_assert(eq(int, run.status, STATUS), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	n = json_object_array_length(slices);
	root = root_slice(slices);
	root_pid = bb_arg_int(root, "pid");
	lost = bb_other_int(trace, "lost_events");

	/*
	 * What arrived, per process.  A child is in the trace because its fork
	 * record arrived, or its exec's did (then flagged fork_record_lost).
	 * Every child is reaped before the workload exits, so a child without
	 * its exit record is the one left "unfinished".
	 */
	/* A root whose exit record was lost still ends, from waitpid. */
	root_records = (bb_arg_int(root, "images") == 1) + !bb_arg_flag(root, "unfinished") -
		       bb_arg_flag(root, "exit_record_lost");
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *comm = bb_arg_str(ev, "comm");
		long long images = bb_arg_int(ev, "images");

		unfinished += bb_arg_flag(ev, "unfinished");
		if (ev == root)
			continue;
		visible++;
		cr_assert(eq(i64, bb_arg_int(ev, "ppid"), root_pid));
		cr_assert(comm && (!strcmp(comm, "load-gen") || !strcmp(comm, "true")), "comm %s", comm);
		cr_assert(le(i64, images, 1));
		if (images)
			cr_assert(eq(str, (char *)bb_arg_str(ev, "filename"), "/bin/true"));
		if (bb_arg_flag(ev, "fork_record_lost")) {
			cr_assert(eq(i64, images, 1), "a child first seen at its exec has no image");
			seen_at_exec++;
		} else {
			forks++;
		}
		execs += images;
		exits += !bb_arg_flag(ev, "unfinished");
	}
	received = root_records + forks + execs + exits;
	/* The root's fork is buildbpf's own, before tracing: exec and exit. */
	expected = 3LL * BURST + 2 + 3LL * (BURST + 1);
	/*
	 * Exact: every record the workload produced either reached the model
	 * (otherData.records counts each one accepted, orphans included) or
	 * was counted lost in the kernel.  A child whose fork and exec records
	 * were both lost leaves nothing in the trace, even when its exit
	 * record arrived (the model counts it an orphan and drops it): those
	 * exits are the only records that arrived yet do not show, between
	 * none and one per invisible child.
	 */
	records = bb_other_int(trace, "records");
	process_records = records - bb_other_int(trace, "memory_records") - bb_other_int(trace, "io_records");
	orphan_exits = process_records - received;
	cr_log_info("load ring buffer 4K: %d forked, %zu children in the trace (%zu unfinished, %zu first seen at "
		    "exec), %lld records arrived (%lld fork, exec, exit), %lld shown (forks %zu, execs %zu, exits %zu, "
		    "root %zu), %lld lost, %lld expected, so %lld exit records of invisible children (0..%zu possible), "
		    "%.2f s traced wall, %.2f s test",
		    BURST, visible, unfinished, seen_at_exec, records, process_records, received, forks, execs, exits,
		    root_records, lost, expected, orphan_exits, BURST - visible,
		    bb_other_int(trace, "duration_us") / 1e6, seconds_since(&start));
	cr_assert(lt(i64, 0, lost), "a 4 KiB buffer kept up with the burst: nothing tested");
	cr_assert(lt(sz, visible, (size_t)BURST));
	cr_assert(eq(i64, bb_other_int(trace, "processes"), (long long)n));
	cr_assert(eq(i64, bb_other_int(trace, "unfinished_processes"), (long long)unfinished));
	cr_assert(eq(i64, records + lost, expected), "%lld records arrived and %lld were counted lost: %lld produced",
		  records, lost, expected);
	cr_assert(ge(i64, orphan_exits, 0), "the trace shows %lld fork, exec and exit records, more than the %lld that "
		  "arrived", received, process_records);
	cr_assert(le(i64, orphan_exits, (long long)(BURST - visible)),
		  "%lld records arrived but show nowhere, more than one per invisible child", orphan_exits);
	/* Orphans: those exits, and the execs of the children first seen there. */
	cr_assert(le(i64, orphan_exits + (long long)seen_at_exec, bb_other_int(trace, "orphan_records")));
	snprintf(summary, sizeof(summary), ", %lld lost events", lost);
	cr_assert(strstr(run.err, summary) != NULL, "summary does not say '%s': %s", summary, run.err);
	/* On the audit line ("buildbpf: audit: N processes, ..."), or its own line when there is no audit. */
	snprintf(summary, sizeof(summary), ": %zu processes", n);
	cr_assert(strstr(run.err, summary) != NULL, "summary does not say '%s': %s", summary, run.err);
	bb_reliability("4 KiB ring buffer, 300 children forked at SCHED_FIFO",
		       "records lost > 0; records arrived + counted lost = records produced, exactly; every record "
		       "that arrived shows in the trace except exits of children left invisible; the summary says "
		       "the loss",
		       trace, "%lld of %lld records arrived, %lld counted lost, %lld exits of invisible children",
		       records, expected, lost, orphan_exits);
	json_object_put(slices);
	json_object_put(trace);
}
