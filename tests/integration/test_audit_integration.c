// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the audit of a real traced make -j2 whose last step is a
 * deliberate serial one, and the --summary-json/--svg output rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/answers_check.h"
#include "lib/integration.h"
#include "lib/json_fields.h"
#include "report/audit_report.h"
#include "report/report_text.h"

TestSuite(audit_integration, .init = integration_setup, .fini = integration_teardown, .timeout = 180);

/* Four 0.3 s jobs for -j2, then a 1.5 s step that nothing runs beside. */
static void write_makefile(void)
{
	char text[2048];
	const char *burn = bb_test_prog("cpu-burn");

	snprintf(text, sizeof(text),
		 "all: link\n"
		 "a1 a2 a3 a4:\n\t%s 1 0.3\n"
		 "link: a1 a2 a3 a4\n\t%s 1 1.5\n"
		 ".PHONY: all link a1 a2 a3 a4\n",
		 burn, burn);
	bb_write_file(&run, "Makefile", text);
}

/* The pid of the cpu-burn run with SECONDS as its second argument. */
static long long burn_pid(struct json_object *trace, const char *seconds)
{
	struct json_object *slices = bb_slices(trace, "process");
	long long pid = -1;
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *a0 = bb_arg_argv(ev, 0), *a2 = bb_arg_argv(ev, 2);

		if (a0 && strstr(a0, "cpu-burn") && a2 && !strcmp(a2, seconds))
			pid = bb_arg_int(ev, "pid");
	}
	json_object_put(slices);
	return pid;
}

/* The traced line, the audit's, the answers in their order, then the line to the rest; none past 100 columns. */
static void check_answers(const char *err)
{
	/* "machine shared?" ranks after "speed up?": where the room runs short (here the line of -o), it gives way. */
	static const char *const order[] = { "buildbpf: traced '", "buildbpf: audit: ", "buildbpf: parallel? ",
					     "buildbpf: more CPUs or jobs? ", "buildbpf: speed up? ",
					     "buildbpf: the rest: " };
	char why[4096];
	const char *at = err, *line, *nl;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		at = strstr(at, order[i]);
		cr_assert(not(eq(ptr, (void *)at, NULL)), "no '%s' after the one before; stderr: %s", order[i], err);
	}
	cr_assert(bb_report_is_brief(err, AUDIT_REPORT_BRIEF_LINES, REPORT_WIDTH, true, why, sizeof(why)), "%s", why);
	for (line = strstr(err, "buildbpf: audit: "); line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		cr_assert(le(long, nl - line, 100), "%ld columns: %.*s", (long)(nl - line), (int)(nl - line), line);
	}
}

Test(audit_integration, serial_step_of_a_real_make_is_the_top_phase)
{
	struct json_object *summary, *trace, *phases, *top, *jobs, *proc;
	long long link_pid;
	char *svg = NULL;
	size_t len = 0;
	FILE *f;

	write_makefile();
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--svg", "t.svg", "--", "make",
					  "-s", "-j2", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: audit: ") != NULL, "stderr: %s", run.err);
	cr_assert(strstr(run.err, "make -j2 (from the command)") != NULL, "stderr: %s", run.err);
	check_answers(run.err);
	/* The 1.5 s step ran alone for most of the build: it is what to speed up. */
	cr_assert(strstr(run.err, "buildbpf: speed up? cpu-burn ") != NULL, "stderr: %s", run.err);

	trace = bb_load_trace(bb_path(&run, "t.json"));
	link_pid = burn_pid(trace, "1.5");
	cr_assert(lt(i64, 0, link_pid), "the link step is not in the trace");
	summary = bb_load_summary(&run, "s.json");
	cr_assert(eq(int, json_object_get_int(need_field(summary, "version")), 1));
	jobs = need_field(summary, "jobs");
	cr_assert(eq(int, json_object_get_int(need_field(jobs, "requested")), 2));
	cr_assert(eq(str, (char *)json_object_get_string(need_field(jobs, "source")), "argument"));

	phases = need_field(need_field(summary, "serial_phases"), "phases");
	cr_assert(ge(sz, json_object_array_length(phases), 1), "stderr: %s", run.err);
	top = json_object_array_get_idx(phases, 0);
	/* 1.5 s of CPU; on a loaded machine it may take longer, never less. */
	cr_assert(ge(dbl, json_object_get_double(need_field(top, "duration_ms")), 1300.0), "stderr: %s", run.err);
	proc = json_object_array_get_idx(need_field(top, "processes"), 0);
	cr_assert(not(eq(ptr, proc, NULL)));
	cr_assert(eq(i64, json_object_get_int64(need_field(proc, "pid")), link_pid), "stderr: %s", run.err);
	cr_assert(strstr(json_object_get_string(need_field(proc, "name")), "cpu-burn") != NULL);

	/* The same audit rides in the trace's metadata. */
	cr_assert(eq(int,
		     json_object_get_int(need_field(need_field(need_field(trace, "otherData"), "audit"), "version")),
		     1));
	bb_check_summary(need_field(need_field(trace, "otherData"), "audit"));

	f = fopen(bb_path(&run, "t.svg"), "r");
	cr_assert(not(eq(ptr, f, NULL)), "no SVG written");
	cr_assert(getdelim(&svg, &len, '\0', f) > 0);
	fclose(f);
	cr_assert(strstr(svg, "<svg ") != NULL);
	cr_assert(strstr(svg, "class=\"serial\"") != NULL);
	free(svg);
	json_object_put(summary);
	json_object_put(trace);
}

struct cpu_edge {
	long long ts_us;
	int delta;
};

static int cmp_edge(const void *a, const void *b)
{
	const struct cpu_edge *x = a, *y = b;

	/* At one instant, ends before starts: touching slices do not overlap. */
	return x->ts_us != y->ts_us ? (x->ts_us > y->ts_us) - (x->ts_us < y->ts_us) : x->delta - y->delta;
}

/* Time (ms) in [from_ms, to_ms) that the trace's CPU lanes show two or more build threads running. */
static double lanes_parallel_ms(struct json_object *trace, double from_ms, double to_ms)
{
	struct json_object *cpu = bb_slices(trace, "cpu");
	size_t n = json_object_array_length(cpu), i;
	struct cpu_edge *edges = calloc(2 * n + 1, sizeof(*edges));
	long long from = (long long)(from_ms * 1000), to = (long long)(to_ms * 1000), prev = from, total = 0;
	int running = 0;

	cr_assert(not(eq(ptr, edges, NULL)));
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(cpu, i), *ts, *dur;

		cr_assert(json_object_object_get_ex(ev, "ts", &ts) && json_object_object_get_ex(ev, "dur", &dur));
		edges[2 * i] = (struct cpu_edge){ json_object_get_int64(ts), 1 };
		edges[2 * i + 1] = (struct cpu_edge){ json_object_get_int64(ts) + json_object_get_int64(dur), -1 };
	}
	qsort(edges, 2 * n, sizeof(*edges), cmp_edge);
	for (i = 0; i < 2 * n; i++) {
		long long at = edges[i].ts_us < from ? from : edges[i].ts_us > to ? to : edges[i].ts_us;

		if (running >= 2 && at > prev)
			total += at - prev;
		prev = at > prev ? at : prev;
		running += edges[i].delta;
	}
	free(edges);
	json_object_put(cpu);
	return total / 1000.0;
}

/*
 * A serial step, then two jobs in parallel whose every few milliseconds of
 * CPU are broken by a fork and exec (a moment with one CPU idle): those
 * moments must not stretch the phase over the parallel work.  Checked
 * against the trace's own CPU lanes (--sched=full: every slice drawn).
 */
Test(audit_integration, a_serial_phase_holds_no_parallel_work)
{
	struct json_object *summary, *trace, *phases, *top, *proc;
	long long serial_pid;
	char text[2048];
	size_t i;

	snprintf(text, sizeof(text),
		 "all: p1 p2\n"
		 "p1 p2: serial\n\t@i=0; while [ $$i -lt 25 ]; do %s 1 0.02; i=$$((i+1)); done\n"
		 "serial:\n\t%s 1 0.8\n"
		 ".PHONY: all serial p1 p2\n",
		 bb_test_prog("cpu-burn"), bb_test_prog("cpu-burn"));
	bb_write_file(&run, "Makefile", text);
	bb_run_in(&run, (const char *[]){ "--sched=full", "-o", "t.json", "--summary-json", "s.json", "--", "make",
					  "-s", "-j2", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	serial_pid = burn_pid(trace, "0.8");
	cr_assert(lt(i64, 0, serial_pid), "the serial step is not in the trace");
	summary = bb_load_summary(&run, "s.json");
	phases = need_field(need_field(summary, "serial_phases"), "phases");
	cr_assert(ge(sz, json_object_array_length(phases), 1), "stderr: %s", run.err);
	for (i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *ph = json_object_array_get_idx(phases, i);
		double start = json_object_get_double(need_field(ph, "start_ms")), end = json_object_get_double(need_field(ph, "end_ms"));
		double seen = lanes_parallel_ms(trace, start, end);
		/* The stated tolerance: 2 ms + 5 % of the phase (and 1 ms of rounding). */
		double tolerated = 2.0 + (end - start) * 0.05 + 1.0;

		cr_log_info("phase %zu: %.1f-%.1f ms, %.1f ms with two or more build threads running (tolerated %.1f)",
			    i, start, end, seen, tolerated);
		cr_assert(le(dbl, seen, tolerated), "phase %zu at %.1f-%.1f ms holds %.1f ms of parallel work; stderr: %s",
			  i, start, end, seen, run.err);
	}
	top = json_object_array_get_idx(phases, 0);
	proc = json_object_array_get_idx(need_field(top, "processes"), 0);
	cr_assert(not(eq(ptr, proc, NULL)));
	cr_assert(eq(i64, json_object_get_int64(need_field(proc, "pid")), serial_pid), "stderr: %s", run.err);
	/* Named by its share of the phase's CPU: it is nearly all of it. */
	cr_assert(ge(dbl, json_object_get_double(need_field(proc, "share")), 0.9), "stderr: %s", run.err);
	json_object_put(summary);
	json_object_put(trace);
}

/* Checked before the build: an existing file stops it from running at all. */
Test(audit_integration, existing_summary_file_is_refused_before_the_build)
{
	bb_write_file(&run, "s.json", "keep me\n");
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "touch", "ran", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 1), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: '") != NULL && strstr(run.err, "another --summary-json") != NULL,
		  "stderr: %s", run.err);
	cr_assert(access(bb_path(&run, "ran"), F_OK) != 0, "the command ran");
	cr_assert(access(bb_path(&run, "t.json"), F_OK) != 0, "a trace was written");
}

Test(audit_integration, quiet_hides_the_report_and_sched_off_says_what_is_missing)
{
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "audit") == NULL, "stderr: %s", run.err);

	bb_run_in(&run, (const char *[]){ "-f", "-o", "t.json", "--sched=off", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "more CPUs or jobs? unknown (traced with --sched=off)") != NULL, "stderr: %s", run.err);
	check_answers(run.err);

	/* --verbose keeps every figure in the audit's own terms. */
	bb_run_in(&run, (const char *[]){ "-f", "-v", "-o", "t.json", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: parallel? ") != NULL, "stderr: %s", run.err);
	cr_assert(strstr(run.err, "lost parallelism: ") != NULL && strstr(run.err, "run-queue wait: ") != NULL &&
			  strstr(run.err, " at peak, ") != NULL,
		  "stderr: %s", run.err);
}

/*
 * A build run again with every target up to date: "make: Nothing to be
 * done", "ninja: no work to do".  Each output says nothing compiled, in
 * the same words: the report, --summary-json, the --html page.
 */
static void check_nothing_compiled(const char *runner)
{
	struct json_object *s, *nc;
	char want[128], *html;

	snprintf(want, sizeof(want), "nothing compiled: %s ran no job, every target was up to date", runner);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, want), NULL)), "stderr: %s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "parallel?"), NULL), "stderr: %s", run.err);
	s = bb_load_summary(&run, "s.json");
	cr_assert(json_object_object_get_ex(s, "nothing_compiled", &nc) && nc, "summary: nothing_compiled");
	cr_assert(str_field_is(nc, "runner", runner));
	cr_assert(str_field_is(nc, "found", "no_job"));
	cr_assert(not(eq(ptr, strstr(str_field(nc, "text"), want), NULL)), "%s", str_field(nc, "text"));
	json_object_put(s);
	html = bb_read_file(bb_path(&run, "p.html"), NULL);
	cr_assert(not(eq(ptr, html, NULL)));
	cr_assert(not(eq(ptr, strstr(html, want), NULL)), "the page says it");
	free(html);
}

Test(audit_integration, a_make_or_ninja_with_nothing_to_do_says_nothing_compiled)
{
	static const char *const outputs[] = { "-o", "t.json", "--summary-json", "s.json", "--html", "p.html" };
	const char *args[16];
	size_t n;

	bb_write_file(&run, "Makefile", "all: out\nout:\n\ttouch out\n");
	bb_write_file(&run, "build.ninja", "rule touch\n  command = touch $out\nbuild nout: touch\n");
	for (int tool = 0; tool < 2; tool++) {
		for (int pass = 0; pass < 2; pass++) {
			/* The first pass builds (and is audited); the second finds it all done. */
			n = 0;
			args[n++] = "-f";
			for (size_t k = 0; k < sizeof(outputs) / sizeof(outputs[0]); k++)
				args[n++] = outputs[k];
			args[n++] = "--";
			args[n++] = tool ? "ninja" : "make";
			args[n] = NULL;
			bb_run_in(&run, args, NULL);
			if (!pass) {
				cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
				cr_assert(eq(ptr, strstr(run.err, "nothing compiled"), NULL), "stderr: %s", run.err);
			}
		}
		check_nothing_compiled(tool ? "ninja" : "make");
	}
}

/* The summary's jobs.source and requested of a run of args with extra in the environment. */
static void jobs_from(const char *const args[], const char *const extra[], const char *source, int requested)
{
	struct json_object *s, *jobs;

	bb_run_in(&run, args, extra);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	s = bb_load_summary(&run, "s.json");
	cr_assert(json_object_object_get_ex(s, "jobs", &jobs));
	cr_assert(str_field_is(jobs, "source", source), "%s", str_field(jobs, "source"));
	cr_assert(eq(i64, int_field(jobs, "requested"), requested));
	json_object_put(s);
}

/*
 * go takes -p=N from $GOFLAGS when its command line has no -p: the
 * recorder keeps that variable of the environment it gives the command,
 * and an env before go sets it too.  (true, named go: only its name and
 * argv matter here.)
 */
Test(audit_integration, gos_jobs_from_goflags_are_said_to_come_from_there)
{
	/* A program, not a script: a script's image is its shell's. */
	cr_assert(eq(int, symlink("/bin/true", bb_path(&run, "go")), 0));
	jobs_from((const char *[]){ "-f", "-o", "t.json", "--summary-json", "s.json", "--", "./go", "build", ".", NULL },
		  (const char *[]){ "GOFLAGS=-mod=mod -p=3", NULL }, "goflags", 3);
	jobs_from((const char *[]){ "-f", "-o", "t.json", "--summary-json", "s.json", "--", "env", "GOFLAGS=-p=1",
				    "./go", "build", ".", NULL },
		  (const char *[]){ "GOFLAGS=-p=3", NULL }, "goflags", 1);
	jobs_from((const char *[]){ "-f", "-o", "t.json", "--summary-json", "s.json", "--", "./go", "build", "-p", "2",
				    ".", NULL },
		  (const char *[]){ "GOFLAGS=-p=3", NULL }, "argument", 2);
}
