// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: file dependencies recorded by the kernel (--deps) on real
 * builds whose graph is known.  A make project where gen writes gen.h, a.o
 * reads it, b.o and c.o are independent and the link reads the three
 * objects, each step held by a sleep of known length (gen 0.5 s, a 1 s,
 * b 2 s, c 4 s, link 0.5 s): the edges are exactly the declared ones and
 * the critical path is c.o's job then the link, 4.5 s.  c's sleep is 1.5 s
 * longer than a's and b's together: at -j2 make may start c.o when gen.h
 * ends and a.o only when b.o does, and then a 0.5 s margin let a slow
 * compile on a busy machine put b.o then a.o on the path instead.  A
 * storm of independent jobs has no edge and no chain.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/hook_fallback.h"
#include "lib/integration.h"
#include "lib/input_flows.h"
#include "lib/json_fields.h"

TestSuite(deps, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

static void write_known_project(void)
{
	bb_write_file(&run, "gen.c", "#include <stdio.h>\nint main(void) { puts(\"#define GEN 42\"); return 0; }\n");
	bb_write_file(&run, "a.c", "#include \"gen.h\"\nint a(void) { return GEN; }\n");
	bb_write_file(&run, "b.c", "int b(void) { return 2; }\n");
	bb_write_file(&run, "c.c", "int c(void) { return 3; }\n");
	bb_write_file(&run, "main.c", "int a(void); int b(void); int c(void);\n"
				      "int main(void) { return a() + b() + c() != 47; }\n");
	bb_write_file(&run, "Makefile",
		      "O := out\n"
		      "all: $(O)/prog\n"
		      "$(O)/gen: gen.c\n\tmkdir -p $(O) && cc -o $@ gen.c\n"
		      "$(O)/gen.h: $(O)/gen\n\tsleep 0.5; $(O)/gen > $@\n"
		      "$(O)/a.o: a.c $(O)/gen.h\n\tsleep 1; cc -I$(O) -c -o $@ a.c\n"
		      "$(O)/b.o: b.c $(O)/gen\n\tsleep 2; cc -c -o $@ b.c\n"
		      "$(O)/c.o: c.c $(O)/gen\n\tsleep 4; cc -c -o $@ c.c\n"
		      "$(O)/prog: $(O)/a.o $(O)/b.o $(O)/c.o main.c\n"
		      "\tsleep 0.5; cc -o $@ main.c $(O)/a.o $(O)/b.o $(O)/c.o\n");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The flows whose file ends in suffix. */
static size_t flows_of(const struct bb_flow *flows, size_t n, const char *suffix, const struct bb_flow **first)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (ends_with(flows[i].file, suffix) && !k++)
			*first = &flows[i];
	return k;
}

static const char *slice_name(struct json_object *slice)
{
	return json_object_get_string(need_field(slice, "name"));
}

Test(deps, edges_of_a_known_make_build_are_the_declared_ones)
{
	struct json_object *trace, *slices;
	const struct bb_flow *f = NULL, *fa = NULL, *fb = NULL, *fc = NULL;
	struct bb_flow flows[64];
	size_t n;

	write_known_project();
	/* -v: the critical path in full is its figure. */
	bb_run_in(&run, (const char *[]){ "-v", "--deps=on", "-o", "t.json", "--", "make", "-s", "-j4", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "critical path (build graph, ") != NULL, "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	n = bb_input_flows(trace, slices, flows, 64);

	/* gen.h: written by its job's shell (the redirection), read by cc1 a.c only. */
	cr_assert(eq(sz, flows_of(flows, n, "/out/gen.h", &f), 1), "stderr: %s", run.err);
	cr_assert(strstr(slice_name(f->writer), "out/gen > out/gen.h") != NULL, "%s", slice_name(f->writer));
	cr_assert(eq(str, (char *)slice_name(f->reader), "cc1 a.c"));
	/* The generator the build linked, then ran: an input of the process that exec'd it. */
	cr_assert(eq(sz, flows_of(flows, n, "out/gen", &f), 1), "stderr: %s", run.err);
	cr_assert(strstr(slice_name(f->writer), "-o out/gen") != NULL, "%s", slice_name(f->writer));
	cr_assert(eq(str, (char *)bb_arg_argv(f->reader, 0), "out/gen"));
	/* The three objects: each written by its assembler, read by the one linker. */
	cr_assert(eq(sz, flows_of(flows, n, "/out/a.o", &fa), 1));
	cr_assert(eq(sz, flows_of(flows, n, "/out/b.o", &fb), 1));
	cr_assert(eq(sz, flows_of(flows, n, "/out/c.o", &fc), 1));
	cr_assert(eq(str, (char *)slice_name(fc->writer), "as -o out/c.o"));
	cr_assert(eq(i64, bb_arg_int(fa->reader, "pid"), bb_arg_int(fc->reader, "pid")));
	cr_assert(eq(i64, bb_arg_int(fb->reader, "pid"), bb_arg_int(fc->reader, "pid")));
	cr_assert(strstr(slice_name(fc->reader), "ld") != NULL, "%s", slice_name(fc->reader));
	/* Written files count on the slices; the writer of c.o wrote one file. */
	cr_assert(ge(i64, bb_arg_int(fc->writer, "files_written"), 1));
	cr_assert(ge(i64, bb_arg_int(fc->reader, "files_opened"), 4));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	json_object_put(slices);
	json_object_put(trace);
}

Test(deps, critical_path_of_a_known_make_build_is_c_then_the_link)
{
	struct json_object *summary, *chain, *steps, *trace;
	bool via_c = false, via_a_or_b = false, long_sleep = false;
	double busy;
	size_t i;

	write_known_project();
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--log", "b.bbl", "--summary-json", "s.json", "--", "make", "-s",
					  "-j4", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	chain = need_field(summary, "critical_chain");
	cr_assert(not(json_object_get_boolean(need_field(chain, "estimate"))));
	cr_assert(ge(int, json_object_get_int(need_field(chain, "file_edges")), 5));
	steps = need_field(chain, "processes");
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i), *file;
		double held = json_object_get_double(need_field(s, "path_to_ms")) -
			      json_object_get_double(need_field(s, "path_from_ms"));

		if (json_object_object_get_ex(s, "file", &file)) {
			via_c |= ends_with(json_object_get_string(file), "/out/c.o");
			via_a_or_b |= ends_with(json_object_get_string(file), "/out/a.o") ||
				      ends_with(json_object_get_string(file), "/out/b.o");
		}
		long_sleep |= held >= 3900.0;
	}
	cr_assert(via_c, "the path reaches the link through c.o: %s", run.err);
	cr_assert(not(via_a_or_b), "%s", run.err);
	cr_assert(long_sleep, "c.o's 4 s step holds the path: %s", run.err);
	busy = json_object_get_double(need_field(chain, "busy_ms"));
	/* 4 s + 0.5 s of sleeps, the compiles and the link on top. */
	cr_assert(ge(dbl, busy, 4500.0), "%s", run.err);
	cr_assert(le(dbl, busy, json_object_get_double(need_field(summary, "wall_ms")) + 1.0), "%s", run.err);
	json_object_put(summary);

	/* convert --deps=off: as if no file was recorded. */
	bb_run_fini(&run);
	bb_run_init(&run);
	write_known_project();
	bb_run_in(&run, (const char *[]){ "--deps=off", "-v", "-o", "t.json", "--log", "b.bbl", "--", "make", "-s", "-j4", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "chain to the end (estimate, no build graph)") != NULL, "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	cr_assert(not(json_object_object_get_ex(need_field(trace, "otherData"), "build_graph", NULL)));
	json_object_put(trace);
	bb_run_in(&run, (const char *[]){ "convert", "b.bbl", "-o", "u.json", "--deps=on", NULL }, NULL);
	cr_assert(eq(int, run.status, 1), "a recording without deps cannot give them: %s", run.err);
	cr_assert(strstr(run.err, "recorded with --deps=off") != NULL, "stderr: %s", run.err);
}

/* what_if.rows[] entry: the build's own (own) or the unlimited one (jobs null). */
static struct json_object *what_if_row(struct json_object *what_if, bool own)
{
	struct json_object *rows = need_field(what_if, "rows");
	size_t i;

	for (i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);

		if (own ? json_object_get_boolean(need_field(r, "own"))
			: json_object_is_type(need_field(r, "jobs"), json_type_null) && !json_object_get_boolean(need_field(r, "own")))
			return r;
	}
	cr_fatal("no %s row in what_if", own ? "own" : "unlimited");
	return NULL;
}

/* The script a "sh -c" slice ran (its argv's last word), or "". */
static const char *shell_script(struct json_object *slice)
{
	struct json_object *argv = bb_arg(slice, "argv");
	size_t n = argv ? json_object_array_length(argv) : 0;

	return n >= 3 ? json_object_get_string(json_object_array_get_idx(argv, n - 1)) : "";
}

/*
 * The process slice of the job whose shell ran "sleep N; ..." with the given
 * object: by its script, not its name, which shows only the step it runs.
 */
static struct json_object *job_slice(struct json_object *slices, const char *object)
{
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);

		if (!strncmp(slice_name(s), "sh", 2) && strstr(shell_script(s), "sleep") && strstr(shell_script(s), object))
			return s;
	}
	cr_fatal("no job slice for %s", object);
	return NULL;
}

/* Run-queue wait (ms) of a job: its shell's and every descendant's (children by (pid, start): pids wrap). */
static double job_runq_ms(const struct bb_procs *procs, struct json_object *slices, struct json_object *job)
{
	double ms = bb_arg_double(job, "runq_wait_ms");
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);

		if (bb_same_process(bb_procs_parent(procs, s), job))
			ms += job_runq_ms(procs, slices, s);
	}
	return ms;
}

/* A slice's start and end (ms, the trace's clock). */
static double start_ms(struct json_object *slice)
{
	return int_field(slice, "ts") / 1000.0;
}

static double end_ms(struct json_object *slice)
{
	return (int_field(slice, "ts") + int_field(slice, "dur")) / 1000.0;
}

/* The process slice of make itself (the runner). */
static struct json_object *make_slice(struct json_object *slices)
{
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *a0 = bb_arg_argv(s, 0);

		if (a0 && !strcmp(a0, "make"))
			return s;
	}
	cr_fatal("no slice of make");
	return NULL;
}

/*
 * The oracle of issue 15 at -j1, -j2 and -j4.  Every bound is the
 * program's arithmetic on this run's own measurements, or a sleep the
 * Makefile declares, so a busy machine (slower compiles, make waiting for
 * a CPU) moves both sides: the unlimited-CPU bound is the longest data
 * path, c.o's job then the link's (4.5 s of sleeps and the compiles), no
 * longer than the run and 3 s of sleeps short of the -j1 sequence; the -j1
 * simulation lands within 10 % of the measured wall, beyond the time make
 * waited for a CPU between jobs (the simulation starts a job the moment
 * its slot frees); the critical path holds c.o's 4 s step; a job's slack
 * is the link's start less its end.  The figures are printed for the note.
 */
Test(deps, what_if_of_a_known_make_build_at_j1_j2_j4)
{
	static const char *const jobs[] = { "-j1", "-j2", "-j4" };
	size_t k;

	for (k = 0; k < 3; k++) {
		struct json_object *summary, *what_if, *own, *unlimited, *chain, *steps, *trace, *slices;
		struct json_object *c_job, *b_job, *link_job, *critical;
		struct bb_procs *procs;
		double wall, predicted, bound, held_sum = 0, c_slack, b_slack, make_runq, data_path;
		bool long_sleep = false, via_c = false;
		size_t i;

		bb_run_fini(&run);
		bb_run_init(&run);
		write_known_project();
		bb_run_in(&run, (const char *[]){ "-v", "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", "make", "-s", jobs[k],
						  NULL },
			  (const char *[]){ "MAKEFLAGS=", NULL });
		cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
		cr_assert(strstr(run.err, "what if? predicted from the ") != NULL, "stderr: %s", run.err);
		trace = bb_load_trace(bb_path(&run, "t.json"));
		slices = bb_slices(trace, "process");
		procs = bb_procs_new(slices);
		c_job = job_slice(slices, "-o out/c.o");
		b_job = job_slice(slices, "-o out/b.o");
		link_job = job_slice(slices, "-o out/prog");
		make_runq = bb_arg_double(make_slice(slices), "runq_wait_ms");
		summary = bb_load_summary(&run, "s.json");
		wall = json_object_get_double(need_field(summary, "wall_ms"));
		what_if = need_field(summary, "what_if");
		own = what_if_row(what_if, true);
		unlimited = what_if_row(what_if, false);
		predicted = json_object_get_double(need_field(own, "wall_ms"));
		bound = json_object_get_double(need_field(unlimited, "wall_ms"));
		fprintf(stderr, "what-if make %s: measured %.0f ms, predicted at its own -j %.0f ms (%+.1f %%), "
				"unlimited %.0f ms; make waited %.0f ms for a CPU\n",
			jobs[k], wall, predicted, 100.0 * (predicted - wall) / wall, bound, make_runq);
		cr_assert(eq(int, json_object_get_int(need_field(own, "jobs")), (int)(jobs[k][2] - '0')));
		cr_assert(eq(str, (char *)json_object_get_string(need_field(what_if, "own_jobs_from")), "jobs"));
		/* c.o's 4 s and the link's 0.5 s, their compiles, make's start and end on top. */
		cr_assert(ge(dbl, bound, 4500.0), "%s", run.err);
		/* The link read c.o: the data path holds both jobs as this run
		 * measured them, less their wait for a CPU, which the model leaves
		 * out ("each job as fast as alone"). */
		data_path = end_ms(c_job) - start_ms(c_job) + end_ms(link_job) - start_ms(link_job) -
			    job_runq_ms(procs, slices, c_job) - job_runq_ms(procs, slices, link_job);
		cr_assert(le(dbl, data_path, bound + 1.0), "c.o's and the link's jobs took %.0f ms besides their CPU waits: %s",
			  data_path, run.err);
		/* The run itself met every data edge with these durations: the
		 * longest data path is never longer, and no -j makes it so. */
		cr_assert(le(dbl, bound, wall + 1.0), "the bound follows the data, not the -j: %s", run.err);
		cr_assert(le(dbl, bound, predicted + 1.0), "unlimited slots predicted slower than %s: %s", jobs[k],
			  run.err);
		if (k == 0)
			/* gen.h's, a.o's and b.o's 3.5 s of sleeps are off the data path. */
			cr_assert(le(dbl, bound, wall - 3000.0), "%s", run.err);
		if (k == 0)
			cr_assert(le(dbl, fabs(predicted - wall), wall / 10 + make_runq),
				  "-j1: %.0f predicted, %.0f measured, make waited %.0f ms for a CPU: %s", predicted, wall,
				  make_runq, run.err);
		chain = need_field(summary, "critical_chain");
		steps = need_field(chain, "processes");
		for (i = 0; i < json_object_array_length(steps); i++) {
			struct json_object *st = json_object_array_get_idx(steps, i), *file;
			double held = json_object_get_double(need_field(st, "path_to_ms")) -
				      json_object_get_double(need_field(st, "path_from_ms"));

			held_sum += held;
			if (held >= 3900.0 && json_object_object_get_ex(st, "wall_without_ms", &file)) {
				double without = json_object_get_double(file);

				fprintf(stderr, "what-if make %s: without the %.0f ms step %.0f ms\n", jobs[k], held,
					without);
				/* b.o (2 s) then the link (0.5 s) take over: less than with it, never past them. */
				long_sleep |= without < predicted && without >= 2500.0;
			}
			if (json_object_object_get_ex(st, "file", &file))
				via_c |= ends_with(json_object_get_string(file), "/out/c.o");
		}
		cr_assert(long_sleep, "c.o's 4 s step holds the path; without it b.o's path takes over: %s", run.err);
		if (k == 0)
			/* One job at a time: each waited for the one before, so the path is the whole build
			 * but make's turns between them. */
			cr_assert(ge(dbl, held_sum + make_runq, 0.9 * wall), "%s", run.err);
		else
			cr_assert(via_c, "the link waited for c.o: %s", run.err);
		json_object_put(summary);

		critical = bb_slices(trace, "critical");
		cr_assert(ge(sz, json_object_array_length(critical), 2), "the critical path track");
		json_object_put(critical);
		c_slack = bb_arg_double(c_job, "slack_ms");
		b_slack = bb_arg_double(b_job, "slack_ms");
		fprintf(stderr, "what-if make %s: slack c.o %.0f ms, b.o %.0f ms\n", jobs[k], c_slack, b_slack);
		/* The link reads both objects: neither could end after the link started. */
		cr_assert(le(dbl, c_slack, start_ms(link_job) - end_ms(c_job) + 1.0), "c.o's job is on the path");
		cr_assert(le(dbl, b_slack, start_ms(link_job) - end_ms(b_job) + 1.0));
		if (k == 2) {
			/* At -j4 b.o ran beside c.o, its sleep 2 s shorter: its slack is the rest of c.o's. */
			cr_assert(le(dbl, fabs(b_slack - c_slack - (end_ms(c_job) - end_ms(b_job))), 1.0),
				  "b.o's slack %.0f ms, c.o's %.0f ms, c.o ended %.0f ms after b.o", b_slack, c_slack,
				  end_ms(c_job) - end_ms(b_job));
			cr_assert(lt(dbl, c_slack, b_slack), "b.o had slack: %.0f", b_slack);
		}
		bb_procs_free(procs);
		json_object_put(slices);
		json_object_put(trace);
	}
}

Test(deps, convert_deps_off_drops_the_graph_of_a_recording_that_has_one)
{
	struct json_object *trace;

	write_known_project();
	bb_run_in(&run, (const char *[]){ "record", "--deps=on", "-q", "-o", "b.bbl", "--", "make", "-s", "-j4", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	bb_run_in(&run, (const char *[]){ "convert", "b.bbl", "-o", "on.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "on.json"));
	cr_assert(ge(i64, json_object_get_int64(need_field(bb_other(trace, "build_graph"), "edges")), 5));
	json_object_put(trace);
	bb_run_in(&run, (const char *[]){ "convert", "b.bbl", "-v", "-o", "off.json", "--deps=off", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "(estimate, no build graph)") != NULL, "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "off.json"));
	cr_assert(not(json_object_object_get_ex(need_field(trace, "otherData"), "build_graph", NULL)));
	json_object_put(trace);
}

/* 120-205 s in the kernel matrix's emulated guests beside a loaded host, near the suite's limit of 240. */
Test(deps, a_storm_of_independent_jobs_has_no_edge_and_no_data_chain, .timeout = 600)
{
	struct json_object *summary, *chain, *procs;
	double wall;
	size_t i;

	bb_write_fanout_makefile(&run, 400, "@true");
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", "make", "-s", "-j2", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	chain = need_field(summary, "critical_chain");
	cr_assert(not(json_object_get_boolean(need_field(chain, "estimate"))));
	cr_assert(eq(int, json_object_get_int(need_field(chain, "file_edges")), 0), "%s", run.err);
	/* No data chain: the path goes from true to true through make's slots
	 * and order, and make holds only its own work, not the waits. */
	procs = need_field(chain, "processes");
	for (i = 0; i < json_object_array_length(procs); i++)
		cr_assert(not(eq(str, (char *)json_object_get_string(need_field(json_object_array_get_idx(procs, i), "then")),
				 "input")), "%s", run.err);
	wall = json_object_get_double(need_field(summary, "wall_ms"));
	cr_assert(le(dbl, json_object_get_double(need_field(chain, "outside_jobs_ms")), wall / 2), "%s", run.err);
	cr_assert(le(dbl, json_object_get_double(need_field(chain, "busy_ms")) +
				  json_object_get_double(need_field(chain, "waits_ms")), wall + 1.0), "%s", run.err);
	json_object_put(summary);
}

Test(deps, a_too_small_ring_buffer_counts_every_lost_file_record)
{
	enum { BURST = 300, STATUS = 7 };
	struct json_object *trace;
	long long lost, records, file_records, wake_records, mem_records, io_records, expected;
	char count[16], status[16];

	snprintf(count, sizeof(count), "%d", BURST);
	snprintf(status, sizeof(status), "%d", STATUS);
	/*
	 * --sched=off: besides fork, exec and exit (3 per child; the root's
	 * exec and exit), the file records are one count per process that
	 * opened a file: every /bin/true and load-gen itself (the dynamic
	 * loader opens the C library), and no open of a file the build wrote;
	 * and two memory records per process (bpf/mem_events.bpf.c: the
	 * image forked from its parent, ended by its exec, and its last),
	 * one I/O record per process (bpf/proc_io.bpf.h, at its end), and
	 * one start-wake record per process forked (bpf/start_wake.bpf.c).
	 */
	bb_run_in(&run, (const char *[]){ "--deps=on", "--sched=off", "--buffer-size", "4K", "-o", "t.json", "--",
					  bb_test_prog("load-gen"), "rt-burst", count, status, "/bin/true", NULL }, NULL);
	cr_assert(eq(int, run.status, STATUS), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	lost = bb_other_int(trace, "lost_events");
	records = bb_other_int(trace, "records");
	file_records = json_object_get_int64(need_field(bb_other(trace, "build_graph"), "file_records"));
	wake_records = json_object_get_int64(need_field(bb_other(trace, "build_graph"), "start_wake_records"));
	mem_records = bb_other_int(trace, "memory_records");
	io_records = bb_other_int(trace, "io_records");
	expected = 3LL * BURST + 2 + BURST + 1 + 3LL * (BURST + 1) + BURST;
	/* By kind, each beside what the burst makes of it: a kind above its
	 * own count was sent more often than the rule above says. */
	cr_log_info("deps ring buffer 4K: %lld records (fork, exec, exit %lld of %d; memory %lld of %d; I/O %lld of %d), "
		    "%lld file records of %d, %lld start-wake records of %d arrived, %lld lost, %lld expected",
		    records, records - mem_records - io_records, 3 * BURST + 2, mem_records, 2 * (BURST + 1),
		    io_records, BURST + 1, file_records, BURST + 1, wake_records, BURST, lost, expected);
	cr_assert(lt(i64, 0, lost), "a 4K buffer took a %d-process burst whole", BURST);
	cr_assert(eq(i64, records + file_records + wake_records + lost, expected), "stderr: %s", run.err);
	json_object_put(trace);
}

/* The memory checkpoints' hook as --version names it ("tracepoints", "fentry", "syscall entry"), in mem_hook's words. */
static const char *said_mem_hook(const char *version)
{
	static const char *const hooks[] = { "tracepoint", "fentry", "syscall" };
	const char *at = strstr(version, "memory checkpoints: ");

	cr_assert(at != NULL, "--version: %s", version);
	at += strlen("memory checkpoints: ");
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (!strncmp(at, hooks[i], strlen(hooks[i])))
			return hooks[i];
	cr_fail("--version: %s", version);
	return NULL;
}

/*
 * do_filp_open holding as many BPF programs as the kernel takes: the file
 * dependencies go to the syscall tracepoint and are still recorded (sh
 * writes f, cat reads it), and the memory checkpoints keep their hook: a
 * full trampoline on one function costs no other hook its fentry.  It waits
 * for the kernel alone (bb_hold_kernel_alone()): another test's length.
 */
Test(deps, a_full_trampoline_on_do_filp_open_moves_file_dependencies_to_the_syscall_tracepoint, .timeout = 600)
{
	static const char *const want[] = { "handle_file_sys", NULL };
	/* the memory checkpoints are on fentry or tracepoints where this runs */
	static const char *const unwanted[] = { "handle_file_ope", "handle_file_ren", "mem_sys_enter", NULL };
	struct bb_fallback_case c = {
		.func = "do_filp_open",
		.warning = "the fentry file-dependency programs failed (handle_file_open_fexit: ",
		.deps_hook = "syscall",
		.want = want,
		.unwanted = unwanted,
		.script = "\"$0\" > census.txt || exit 41; sh -c 'echo 1 > f'; cat f > /dev/null; exit 5",
		.arg1 = "",
		.status = 5,
	};
	const struct bb_flow *f = NULL;
	struct json_object *trace, *slices;
	struct bb_flow flows[64];
	char *version = bb_require_hook(&run, "file dependencies: fentry");

	c.mem_hook = said_mem_hook(version);
	bb_run_with_full_trampoline(&c);
	free(version);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	cr_assert(eq(sz, flows_of(flows, bb_input_flows(trace, slices, flows, 64), "/f", &f), 1), "stderr: %s", run.err);
	cr_assert(eq(str, (char *)bb_arg_argv(f->reader, 0), "cat"));
	json_object_put(slices);
	json_object_put(trace);
}
