// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's what-if (audit/audit_whatif.h) on the known graph,
 * recorded as make -j4 on 2 CPUs: gen (0.5 s) writes gen.h, a.o (1 s)
 * reads it, b.o (2 s) and c.o (3 s) run beside them, the link (0.5 s)
 * reads the three objects.  The answers are worked out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "graph/graph_run.h"
#include "audit/audit.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "report/report_tables.h"
#include "report/chrome_trace.h"
#include "report/svg.h"
#include "report/report_text.h"
#include "model/lanes.h"
#include "lib/answers_check.h"
#include "lib/answers_json_check.h"
#include "lib/json_fields.h"
#include "lib/synth.h"
#include "lib/written_trace.h"
#include "lib/xml_check.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define DEV 8

struct whatif_fixture {
	struct model *m;
	struct file_log *fl;
	struct graph_run g;
	struct audit a;
};

static void job_proc(struct whatif_fixture *f, __u32 pid, const char *program, __u64 start, __u64 end)
{
	synth_fork(f->m, start * MS, 100, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, 100, program, (const char *[]){ program, NULL });
	synth_exit(f->m, end * MS, pid, pid, true, 0);
}

/* An empty model and file log, make (as argv0, with jobs_arg or NULL) started. */
static void start_make(struct whatif_fixture *f, const char *argv0, const char *jobs_arg)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	f->fl = file_log__new();
	cr_assert(f->m != NULL && f->fl != NULL);
	synth_exec(f->m, 1, 100, 1, "/usr/bin/make", (const char *[]){ argv0, jobs_arg, NULL });
}

/* The models ended at end_ms (s: the scheduler's, NULL: --sched=off), the build graph and audit computed as replay does. */
static void finish_sched_audit(struct whatif_fixture *f, __u64 end_ms, struct audit_input *in, struct sched_model *s)
{
	enum graph_step failed;

	if (s)
		cr_assert(eq(int, sched_model__finish(s, end_ms * MS), 0));
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
	lanes__assign_model(f->m); /* as replay does */
	file_log__finish(f->fl);
	cr_assert(eq(int, with_slots__graph_run(&f->g, f->m, f->fl, NULL, &failed), 0));
	in->graph = &f->g;
	cr_assert(eq(int, with_slots__audit(&f->a, f->m, s, in), 0));
}

static void finish_audit(struct whatif_fixture *f, __u64 end_ms, struct audit_input *in)
{
	finish_sched_audit(f, end_ms, in, NULL);
}

/* A cc1 job of make's, pid, from start_ms (its fork 1 ns after) to end_ms, with its CPU and run-queue time. */
static void sched_job(struct whatif_fixture *f, __u32 pid, __u64 start_ms, __u64 end_ms, __u64 cpu_ns, __u64 runq_ns)
{
	synth_fork(f->m, start_ms * MS + 1, 100, pid, pid, false);
	synth_exec(f->m, start_ms * MS + 2, pid, 100, "cc1", (const char *[]){ "cc1", NULL });
	synth_exit_sched(f->m, end_ms * MS, pid, cpu_ns, runq_ns, 0);
}

/* make (as argv0) with jobs_arg (NULL: none) runs the known graph. */
static void known_audit_as(struct whatif_fixture *f, const char *argv0, const char *jobs_arg)
{
	char *argv[] = { (char *)argv0, (char *)jobs_arg, NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = jobs_arg ? 2 : 1 };

	start_make(f, argv0, jobs_arg);
	job_proc(f, 101, "gen", 1, 500);
	job_proc(f, 102, "cc", 501, 1500);
	job_proc(f, 103, "cc", 2, 2000);
	job_proc(f, 104, "cc", 3, 3000);
	job_proc(f, 105, "ld", 3001, 3500);
	synth_exit(f->m, 3510 * MS, 100, 100, true, 0);
	synth_file_open(f->fl, 400 * MS, 101, DEV, 1, true, "gen.h");
	synth_file_open(f->fl, 600 * MS, 102, DEV, 1, false, "gen.h");
	synth_file_open(f->fl, 1400 * MS, 102, DEV, 2, true, "a.o");
	synth_file_open(f->fl, 1900 * MS, 103, DEV, 3, true, "b.o");
	synth_file_open(f->fl, 2900 * MS, 104, DEV, 4, true, "c.o");
	synth_file_open(f->fl, 3100 * MS, 105, DEV, 2, false, "a.o");
	synth_file_open(f->fl, 3101 * MS, 105, DEV, 3, false, "b.o");
	synth_file_open(f->fl, 3102 * MS, 105, DEV, 4, false, "c.o");
	finish_audit(f, 3510, &in);
}

static void known_audit(struct whatif_fixture *f, const char *jobs_arg)
{
	known_audit_as(f, "make", jobs_arg);
}

static void whatif_end(struct whatif_fixture *f)
{
	audit__free(&f->a);
	graph_run__free(&f->g);
	file_log__free(f->fl);
	model__free(f->m);
}

static char *report_text(const struct whatif_fixture *f, bool verbose)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(out != NULL);
	audit_report__print(out, &f->a, f->m, verbose);
	fclose(out);
	return text;
}

/*
 * The report of every build below, checked as a person reads it: the -v
 * report's answers agree with its what-if (lib/answers_check.h), so do the
 * summary's (lib/answers_json_check.h), and the
 * default one is brief.  Every test of this suite that reads the report
 * reads it through here.
 */
static char *checked_report(const struct whatif_fixture *f, bool verbose)
{
	char *text = report_text(f, verbose), *other = report_text(f, !verbose), why[4096];
	const char *v = verbose ? text : other, *brief = verbose ? other : text;
	struct json_object *summary = audit_json__new(&f->a, f->m);

	cr_assert_not_null(summary);
	cr_assert(bb_summary_answers_agree(summary, why, sizeof(why)), "%s", why);
	json_object_put(summary);
	cr_assert(bb_answers_agree(v, why, sizeof(why)), "%s", why);
	/* The audit alone: the traced line above it takes one of the report's lines. */
	cr_assert(bb_report_is_brief(brief, AUDIT_REPORT_BRIEF_LINES - 1, REPORT_WIDTH, false, why, sizeof(why)),
		  "%s", why);
	free(other);
	return text;
}

Test(audit_whatif, rows_at_the_builds_own_jobs_and_more_cpus)
{
	struct whatif_fixture f;
	const struct audit_whatif *w;

	known_audit(&f, "-j4");
	w = &f.a.whatif;
	cr_assert(w->known);
	cr_assert(eq(sz, w->nr_jobs, 5));
	cr_assert(eq(sz, w->nr_job_edges, 4));
	cr_assert(eq(int, w->from, WHATIF_JOBS_ASKED));
	/* Without --sched figures each job keeps its measured wall time. */
	cr_assert(not(w->cpu_model));
	/* As run -j4 on 2 CPUs, -j1, -j2 (= CPUs), twice the CPUs as jobs is -j4 on 2 again (not
	 * repeated: the machine was not seen busy), twice the CPUs -j4 on 4, unlimited. */
	cr_assert(eq(sz, w->nr_rows, 5));
	cr_assert(w->rows[0].own);
	cr_assert(eq(int, w->rows[0].kind, WHATIF_AS_RUN));
	cr_assert(eq(sz, w->rows[0].jobs, 4));
	cr_assert(eq(sz, w->rows[1].jobs, 1));
	cr_assert(eq(sz, w->rows[2].jobs, 2));
	cr_assert(eq(int, w->rows[3].kind, WHATIF_TWICE_CPUS));
	cr_assert(eq(sz, w->rows[3].jobs, 4));
	cr_assert(eq(sz, w->rows[3].cpus, 4));
	cr_assert(eq(sz, w->rows[4].jobs, SIM_UNLIMITED));
	/* make started its first job at 1 ms; c.o 2,997 ms, the link 499 ms, make's exit 10 ms. */
	cr_assert(eq(u64, w->rows[0].wall_ns, 3507 * MS));
	cr_assert(eq(u64, w->rows[4].wall_ns, 3507 * MS));
	whatif_end(&f);
}

Test(audit_whatif, the_builds_own_j1_replays_every_job_in_turn)
{
	struct whatif_fixture f;
	const struct audit_whatif *w;

	known_audit(&f, NULL); /* make alone: -j1, its default */
	w = &f.a.whatif;
	cr_assert(eq(sz, w->rows[0].jobs, 1));
	/* 1 ms, then 499 + 999 + 1,998 + 2,997 + 499, then 10 ms. */
	cr_assert(eq(u64, w->rows[0].wall_ns, 7003 * MS));
	/* More jobs on the same CPUs: gen and b.o first, c.o in gen's slot (500 to 3,497),
	 * a.o in b.o's (1,999 to 2,998), the link 3,497 to 3,996, make's exit 10 ms. */
	cr_assert(eq(sz, w->nr_rows, 5), "as run -j1, -j2, -j4 on 2 and on 4 CPUs, unlimited");
	cr_assert(eq(sz, w->rows[1].jobs, 2));
	cr_assert(eq(sz, w->rows[1].cpus, 2));
	cr_assert(eq(u64, w->rows[1].wall_ns, 4006 * MS));
	cr_assert(eq(int, w->rows[2].kind, WHATIF_TWICE_JOBS));
	cr_assert(eq(sz, w->rows[2].jobs, 4));
	cr_assert(eq(sz, w->rows[2].cpus, 2));
	whatif_end(&f);
}

Test(audit_whatif, a_job_count_the_command_does_not_say_is_the_peak_seen)
{
	struct whatif_fixture f;
	char *text;

	known_audit_as(&f, "mk", NULL); /* make under another name: its -j is not read */
	cr_assert(eq(int, f.a.whatif.from, WHATIF_JOBS_PEAK));
	cr_assert(eq(sz, f.a.whatif.rows[0].jobs, 3), "gen, b.o and c.o ran at once");
	text = checked_report(&f, false);
	cr_assert(strstr(text, "-j3 on 2 CPUs 3.51 s (as run; measured 3.51 s);") != NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf:   (-j3: the most jobs seen at once; the command did not say)\n") != NULL,
		  "%s", text);
	free(text);
	whatif_end(&f);
}

Test(audit_whatif, each_critical_step_says_the_wall_without_it)
{
	struct whatif_fixture f;
	char *text, *line;
	size_t i;
	bool seen_c = false;

	known_audit(&f, "-j4");
	for (i = 0; i < f.a.nr_chain; i++) {
		if (f.m->procs[f.a.chain[i]].pid != 104)
			continue;
		/* Without c.o, b.o's 1,998 ms and the link hold the path. */
		cr_assert(eq(u64, f.a.whatif.without_ns[i], 2508 * MS));
		seen_c = true;
	}
	cr_assert(seen_c, "c.o is on the critical path");
	text = checked_report(&f, false);
	cr_assert(strstr(text, "what if? predicted: -j4 on 2 CPUs 3.51 s (as run; measured 3.51 s); -j1 on") != NULL,
		  "%s", text);
	/* The step to speed up is the what-if's, with its figure. */
	line = bb_answer_line(text, "speed up? ");
	cr_assert(eq(str, line, "speed up? cc on the critical path (held 3.00 s, 85 % of the wall): without it 2.51 s "
				"against 3.51 s as run (-28 %)"));
	free(line);
	cr_assert(strstr(text, "(model:") == NULL && strstr(text, "critical path steps") == NULL,
		  "the model and the steps' list are in -v: %s", text);
	free(text);
	text = checked_report(&f, true);
	cr_assert(strstr(text, "what if? predicted from the 5 jobs: -j4 on 2 CPUs 3.51 s (as run; measured 3.51 s); "
			       "-j1 on") != NULL, "%s", text);
	cr_assert(strstr(text, "unlimited CPUs 3.51 s (the longest path of data and the runners' order)") != NULL, "%s", text);
	cr_assert(strstr(text, "  (model: measured job times without --sched figures: a job's wait for a CPU is kept in") !=
		  NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf: critical path steps (held, share of wall, wall without it at -j4 on 2 CPUs "
			       "as run):\n") != NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf:   cc 3.00 s, 85 %, without it 2.51 s\n") != NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf:   ld 0.50 s, 14 %, without it 3.01 s\n") != NULL, "%s", text);
	free(text);
	whatif_end(&f);
}

Test(audit_whatif, the_summary_json_has_the_rows_and_each_steps_share)
{
	struct whatif_fixture f;
	struct json_object *o, *w, *row, *steps;
	size_t i;
	bool seen_c = false;

	known_audit(&f, "-j4");
	o = audit_json__new(&f.a, f.m);
	cr_assert(o != NULL);
	w = json_object_object_get(o, "what_if");
	cr_assert(eq(int, json_object_get_int(json_object_object_get(w, "jobs_simulated")), 5));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(w, "own_jobs_from")), "jobs"));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(w, "measured_wall_ms")), 3510.0));
	row = json_object_array_get_idx(json_object_object_get(w, "rows"), 0);
	cr_assert(json_object_get_boolean(json_object_object_get(row, "own")));
	cr_assert(eq(int, json_object_get_int(json_object_object_get(row, "jobs")), 4));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(row, "wall_ms")), 3507.0));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(row, "kind")), "as_run"));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(w, "model")), "measured_wall"));
	row = json_object_array_get_idx(json_object_object_get(w, "rows"), 4);
	cr_assert(json_object_is_type(json_object_object_get(row, "jobs"), json_type_null), "unlimited");
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(row, "assumes")),
		     "unlimited jobs and CPUs: the longest path of data and the runners' order, each job as fast as alone"));
	steps = json_object_object_get(json_object_object_get(o, "critical_chain"), "processes");
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);

		if (json_object_get_int(json_object_object_get(s, "pid")) != 104)
			continue;
		cr_assert(eq(dbl, json_object_get_double(json_object_object_get(s, "wall_without_ms")), 2508.0));
		cr_assert(ieee_ulp_eq(dbl, json_object_get_double(json_object_object_get(s, "wall_share")),
				      2997.0 / 3510.0, 4));
		seen_c = true;
	}
	cr_assert(seen_c);
	json_object_put(o);
	whatif_end(&f);
}

Test(trace_critical, the_path_is_a_track_under_parallelism_and_slices_carry_slack)
{
	struct whatif_fixture f;
	struct trace_meta meta = { .graph = NULL };
	struct json_object *trace, *events, *c, *b;
	const char *names[8];
	size_t i, n = 0;
	bool named_track = false, named_process = false;

	known_audit(&f, "-j4");
	meta.graph = &f.g;
	trace = written_trace(f.m, &meta); /* keeps every trace rule, or fails */
	events = trace_events(trace);
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (int_field(ev, "pid") != 3)
			continue;
		if (str_field_is(ev, "ph", "M") && str_field_is(ev, "name", "process_name"))
			named_process |= !strcmp(str_field(need_field(ev, "args"), "name"), "Parallelism");
		if (str_field_is(ev, "ph", "M") && str_field_is(ev, "name", "thread_name"))
			named_track |= !strcmp(str_field(need_field(ev, "args"), "name"), "critical path") &&
				       int_field(ev, "tid") == 4;
		if (str_field_is(ev, "ph", "X")) {
			cr_assert(str_field_is(ev, "cat", "critical"));
			cr_assert(lt(sz, n, 8));
			names[n++] = str_field(ev, "name");
			if (int_field(need_field(ev, "args"), "pid") == 104) {
				cr_assert(eq(dbl, double_field(need_field(ev, "args"), "held_ms"), 2997.0));
				cr_assert(str_field_is(need_field(ev, "args"), "then", "input"));
				cr_assert(str_field_is(need_field(ev, "args"), "file", "/c.o"));
			}
		}
	}
	cr_assert(named_process, "the track sits under Parallelism, even at --sched=off");
	cr_assert(named_track);
	/* make, c.o's compile, the link, make: the path in time order. */
	cr_assert(eq(sz, n, 4));
	cr_assert(eq(str, (char *)names[1], "cc"));
	cr_assert(eq(str, (char *)names[2], "ld"));
	c = written_trace_proc_slice(trace, 104);
	b = written_trace_proc_slice(trace, 103);
	cr_assert(c != NULL && b != NULL);
	cr_assert(json_object_get_boolean(need_field(need_field(c, "args"), "critical")));
	/* The link read c.o 1 ms after it ended; b.o could have ended 1,001 ms later. */
	cr_assert(eq(dbl, double_field(need_field(c, "args"), "slack_ms"), 1.0));
	cr_assert(eq(dbl, double_field(need_field(b, "args"), "slack_ms"), 1001.0));
	cr_assert(not(json_object_object_get_ex(need_field(b, "args"), "critical", NULL)));
	cr_assert(not(json_object_object_get_ex(need_field(written_trace_proc_slice(trace, 100), "args"), "slack_ms",
						NULL)),
		  "make is the runner: no slack of its own");
	json_object_put(trace);
	whatif_end(&f);
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (; (text = strstr(text, what)) != NULL; text++)
		n++;
	return n;
}

Test(svg_critical, the_path_is_outlined_on_the_process_lanes)
{
	struct whatif_fixture f;
	char *svg = NULL, *group;
	size_t len = 0, elements = 0;
	FILE *out;

	known_audit(&f, "-j4");
	out = open_memstream(&svg, &len);
	cr_assert(out != NULL);
	cr_assert(eq(int, svg__write(out, &f.a, f.m, NULL), 0));
	fclose(out);
	cr_assert(eq(ptr, (void *)xml_check(svg, &elements), NULL), "well-formed");
	group = strstr(svg, "<g class=\"crit\"");
	cr_assert(group != NULL, "%s", svg);
	/* One line through the four steps (eight points); outlines where a step is 2 px wide or
	 * more: c.o's compile, the link and make's last 10 ms (4 px), not make's 3 ms fork. */
	cr_assert(eq(sz, count_of(group, "<polyline points="), 1));
	cr_assert(eq(sz, count_of(strstr(group, "<polyline"), ","), 8));
	cr_assert(eq(sz, count_of(group, "<title>critical path: "), 3));
	cr_assert(strstr(group, "<title>critical path: cc held it 2.997 s</title>") != NULL, "%s", group);
	cr_assert(strstr(svg, ">critical path</text>") != NULL, "in the legend");
	free(svg);
	whatif_end(&f);
}

Test(svg_critical, no_build_graph_no_outline)
{
	struct whatif_fixture f;
	char *svg = NULL;
	size_t len = 0;
	FILE *out;

	known_audit(&f, "-j4");
	f.a.graph = NULL; /* as the audit of a --deps=off recording has it */
	out = open_memstream(&svg, &len);
	cr_assert(eq(int, svg__write(out, &f.a, f.m, NULL), 0));
	fclose(out);
	cr_assert(strstr(svg, "critical path") == NULL);
	free(svg);
	whatif_end(&f);
}

/*
 * make -j1 with a long gap of its own: gen (0.5 s), then 2 s in make alone
 * (its order: nothing ran), then cc (0.5 s), then the third job, ld, waited
 * for the one slot behind cc.  make held most of the path, but a runner is
 * never a step to speed up: the longest step is a job's, and make's share
 * is said in words.
 */
static void runner_held_audit(struct whatif_fixture *f)
{
	char *argv[] = { "make", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 1 };

	start_make(f, "make", NULL);
	job_proc(f, 101, "gen", 1, 500);
	job_proc(f, 102, "cc", 2500, 3000);
	job_proc(f, 103, "ld", 3001, 3400);
	synth_exit(f->m, 3410 * MS, 100, 100, true, 0);
	synth_file_open(f->fl, 400 * MS, 101, DEV, 1, true, "gen.h");
	synth_file_open(f->fl, 2900 * MS, 102, DEV, 2, true, "a.o");
	synth_file_open(f->fl, 3100 * MS, 103, DEV, 2, false, "a.o");
	finish_audit(f, 3410, &in);
}

Test(audit_whatif, a_runner_is_never_named_as_a_step_to_speed_up)
{
	struct whatif_fixture f;
	struct json_object *o, *steps;
	char *text, *line;
	size_t i, runners = 0;

	runner_held_audit(&f);
	for (i = 0; i < f.a.nr_chain; i++) {
		bool runner = f.m->procs[f.a.chain[i]].pid == 100;

		runners += runner;
		cr_assert(eq(int, audit_whatif__is_step(&f.a, i), !runner));
		if (runner)
			cr_assert(eq(u64, f.a.whatif.without_ns[i], 0), "a runner is never simulated away");
	}
	cr_assert(eq(sz, runners, 3), "make started, held the gap and exited on the path");
	/* "N steps" counts the steps: make's three parts are none. */
	cr_assert(eq(sz, audit_whatif__nr_steps(&f.a), f.a.nr_chain - 3));
	/* make's 2 s alone, its 1 ms before gen and its 10 ms exit. */
	cr_assert(eq(u64, f.a.chain_no_job_ns, 2011 * MS));
	text = checked_report(&f, true);
	cr_assert(strstr(text, "critical path (build graph, 1 file edge): 3 steps; longest") != NULL, "%s", text);
	cr_assert(strstr(text, "critical path (build graph, 1 file edge): 3 steps; of 3.41 s wall, steps held 1.40 s, "
			       "outside any job") != NULL, "%s", text);
	cr_assert(strstr(text, "ld 0.40 s; outside any job (a runner's own work,\nbuildbpf:     what no make or ninja "
			       "ran): 2.01 s (59 %)\n") != NULL, "%s", text);
	cr_assert(strstr(text, "if make") == NULL && strstr(text, "  make 2.00 s, ") == NULL, "%s", text);
	/* Re-simulated without cc at the build's -j1: gen 0.5 s, ld 0.4 s, make's ends. */
	cr_assert(strstr(text, "  cc 0.50 s, 15 %, without it 0.91 s\n") != NULL, "%s", text);
	line = bb_answer_line(text, "speed up? ");
	cr_assert(strstr(line, "speed up? cc on the critical path (held 0.50 s, 15 % of the wall): without it 0.91 s "
			       "against 1.41 s as run (-35 %)") == line, "%s", line);
	free(line);
	free(text);
	o = audit_json__new(&f.a, f.m);
	cr_assert(o != NULL);
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(json_object_object_get(o, "what_if"),
									    "runner_held_ms")), 2011.0));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(json_object_object_get(o, "critical_chain"), "steps")),
		     (long long)f.a.nr_chain - 3));
	steps = json_object_object_get(json_object_object_get(o, "critical_chain"), "processes");
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		bool runner = json_object_get_int(json_object_object_get(s, "pid")) == 100;

		cr_assert(eq(int, json_object_get_boolean(json_object_object_get(s, "step")), !runner));
		cr_assert(eq(int, json_object_object_get_ex(s, "wall_without_ms", NULL), !runner));
	}
	json_object_put(o);
	whatif_end(&f);
}

/*
 * runner_held_audit's build, but make exits 0.5 ms after ld: a part of the
 * path held by no job too short to list.  The time outside any job is one
 * figure: the header's, the answer's and both JSON fields count that part.
 */
Test(audit_whatif, the_time_outside_any_job_counts_the_parts_too_short_to_list)
{
	char *argv[] = { "make", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 1 };
	struct whatif_fixture f;
	struct json_object *o;
	size_t i, runners = 0;

	start_make(&f, "make", NULL);
	job_proc(&f, 101, "gen", 1, 500);
	job_proc(&f, 102, "cc", 2500, 3000);
	job_proc(&f, 103, "ld", 3001, 3400);
	synth_exit(f.m, 3400 * MS + MS / 2, 100, 100, true, 0);
	synth_file_open(f.fl, 400 * MS, 101, DEV, 1, true, "gen.h");
	synth_file_open(f.fl, 2900 * MS, 102, DEV, 2, true, "a.o");
	synth_file_open(f.fl, 3100 * MS, 103, DEV, 2, false, "a.o");
	finish_audit(&f, 3401, &in);
	for (i = 0; i < f.a.nr_chain; i++)
		runners += f.m->procs[f.a.chain[i]].pid == 100;
	cr_assert(eq(sz, runners, 2), "make's 0.5 ms exit is not listed");
	/* make's 2 s alone, its 1 ms before gen and its 0.5 ms exit. */
	cr_assert(eq(u64, f.a.chain_no_job_ns, 2001 * MS + MS / 2));
	o = audit_json__new(&f.a, f.m);
	cr_assert(o != NULL);
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(json_object_object_get(o, "what_if"),
									    "runner_held_ms")), 2001.5));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(json_object_object_get(o, "critical_chain"),
									    "outside_jobs_ms")), 2001.5));
	json_object_put(o);
	whatif_end(&f);
}

/*
 * make -j1 runs 30 jobs of 10 ms one after another, 2 ms of its own before
 * each, in a build that ends at end_ms: the path alternates make's parts and
 * the jobs, more entries than the page lists.
 */
static void thirty_jobs_in_turn(struct whatif_fixture *f, __u64 end_ms)
{
	static char *argv[] = { "make", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 1 };
	__u32 k;

	start_make(f, "make", NULL);
	for (k = 0; k < 30; k++)
		job_proc(f, 101 + k, "cc", 2 + 12 * k, 12 + 12 * k);
	synth_exit(f->m, end_ms * MS, 100, 100, true, 0);
	synth_file_open(f->fl, 340 * MS, 129, DEV, 1, true, "a.o");
	synth_file_open(f->fl, 352 * MS, 130, DEV, 1, false, "a.o");
	finish_audit(f, end_ms, &in);
}

/*
 * The thirty jobs in 400 ms: the path's note counts the entries left out
 * and says how many of the path's entries are steps, the count the
 * report's "N steps" gives.
 */
Test(audit_whatif, the_pages_path_note_says_entries_and_steps_apart)
{
	char want[128];
	struct whatif_fixture f;
	struct report_tables t;

	thirty_jobs_in_turn(&f, 400);
	cr_assert(f.a.nr_chain > REPORT_PATH_ROWS && audit_whatif__nr_steps(&f.a) < f.a.nr_chain,
		  "%zu entries, %zu steps", f.a.nr_chain, audit_whatif__nr_steps(&f.a));
	cr_assert(eq(int, report_tables__compute(&t, &f.a, f.m), 0));
	snprintf(want, sizeof(want), "%zu shorter entries of the path's %zu not listed (%zu of its entries are steps; "
		 "the rest, a runner's parts)", f.a.nr_chain - REPORT_PATH_ROWS, f.a.nr_chain,
		 audit_whatif__nr_steps(&f.a));
	cr_assert(eq(str, t.tables[REPORT_TABLE_PATH].note, want));
	report_tables__free(&t);
	whatif_end(&f);
}

/*
 * The thirty jobs in a 4 s build: each holds the path for 0.25 % of the
 * wall, under the 1 % from which a step's removal is simulated.  Their
 * "wall without it" is "-", not an empty cell, and the note says why after
 * what it says of the entries left out.
 */
Test(audit_whatif, a_step_too_short_to_simulate_shows_a_dash_and_says_why)
{
	struct whatif_fixture f;
	struct report_tables t;
	const struct report_table *path;
	size_t i, dashes = 0;

	thirty_jobs_in_turn(&f, 4000);
	cr_assert(f.a.whatif.known);
	cr_assert(eq(int, report_tables__compute(&t, &f.a, f.m), 0));
	path = &t.tables[REPORT_TABLE_PATH];
	for (i = 0; i < path->nr_rows; i++) {
		const char *without = path->cells[i * path->nr_cols + 7];

		cr_assert(ne(str, (char *)without, ""), "row %zu (%s): an empty cell", i,
			  path->cells[i * path->nr_cols + 1]);
		dashes += !strcmp(without, "-");
	}
	cr_assert(lt(sz, 0, dashes));
	cr_assert(path->note && strstr(path->note, " not listed (") != NULL, "%s", path->note ?: "(none)");
	cr_assert(strstr(path->note, "; \"-\": not simulated (only the 32 longest steps of 1 % of the wall or more are)") !=
			  NULL,
		  "%s", path->note);
	report_tables__free(&t);
	whatif_end(&f);
}

/*
 * The case through the audit, at --sched=summary: make -j8 on 2 CPUs
 * ran 12 independent jobs of 0.4 s CPU, the first eight 1.2 s in the run
 * queue, the last four 0.4 s.  Each row re-shares the CPUs: -j4 on 4 CPUs
 * is three rounds of 0.4 s (the replay of wall times said 15 s), unlimited
 * one job's CPU.
 */
Test(audit_whatif, rows_share_the_cpus_among_the_running_jobs)
{
	char *argv[] = { "make", "-j8", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 2 };
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, 0);
	struct whatif_fixture f;
	const struct audit_whatif *w;
	struct json_object *o, *jw;
	char *text, *line;
	__u32 i;

	cr_assert(s != NULL);
	start_make(&f, "make", "-j8");
	for (i = 0; i < 12; i++) {
		__u64 start = i < 8 ? 0 : 1600, end = i < 8 ? 1600 : 2400;

		/* Each waited its wall less its CPU time (it started 1 ns after its fork). */
		sched_job(&f, 101 + i, start, end, 400 * MS, (i < 8 ? 1200 : 400) * MS - 1);
	}
	synth_exit(f.m, 2410 * MS, 100, 100, true, 0);
	/* The two CPUs ran the build's jobs throughout: no outside work. */
	for (i = 0; i < 2; i++)
		synth_cpu_slice(s, i, 101 + i, 101 + i, 0, 2410 * MS, 0);
	finish_sched_audit(&f, 2410, &in, s);
	w = &f.a.whatif;
	cr_assert(w->cpu_model);
	cr_assert(w->was_quiet);
	cr_assert(eq(u64, w->cpu_ns, 4800 * MS));
	/* As run, -j1, -j2, -j4 on 2 CPUs, -j4 on 4 CPUs, unlimited. */
	cr_assert(eq(sz, w->nr_rows, 6));
	cr_assert(eq(int, w->rows[4].kind, WHATIF_TWICE_CPUS));
	text = checked_report(&f, true);
	line = bb_answer_line(text, "what if? ");
	cr_assert(strstr(line, "-j8 on 2 CPUs 2.41 s (as run; measured 2.41 s); on a quiet machine: -j1 on 2 CPUs "
			       "4.81 s,") != NULL, "%s", line);
	cr_assert(strstr(line, "-j4 on 4 CPUs 1.21 s") != NULL, "%s", line);
	cr_assert(strstr(line, "unlimited CPUs 0.41 s (the longest path of data and the runners' order)") != NULL, "%s",
		  line);
	free(line);
	/* Twice the CPUs halves it: more CPUs, read off the same rows. */
	line = bb_answer_line(text, "more CPUs or jobs? ");
	cr_assert(eq(str, line, "more CPUs or jobs? more CPUs; the model: -j8 on 2 CPUs 2.41 s as run, -j4 on 4 CPUs "
				"1.21 s (-50 %)"));
	free(line);
	cr_assert(strstr(text, "slow each other is not learned") != NULL, "%s", text);
	cr_assert(strstr(text, "  -j4 on 2 CPUs 2.41 s: twice the CPUs as jobs on these CPUs, quiet\n") != NULL, "%s",
		  text);
	free(text);
	o = audit_json__new(&f.a, f.m);
	jw = json_object_object_get(o, "what_if");
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(jw, "model")), "cpu_and_blocked"));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(jw, "cpu_ms")), 4800.0));
	cr_assert(not(json_object_get_boolean(json_object_object_get(jw, "slowdown_learned"))));
	json_object_put(o);
	whatif_end(&f);
	sched_model__free(s);
}

/*
 * The jobs' slowing of each other, said: make -j2 on 2 CPUs ran four cc1
 * of 0.4 s CPU alone, then eight in pairs at 0.8 s each (a busy CPU beside
 * a job doubled its CPU time); the second CPU idled for the first 1.6 s.
 */
Test(audit_whatif, the_slowing_learned_is_said_with_its_error)
{
	char *argv[] = { "make", "-j2", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 2 };
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, 0);
	struct whatif_fixture f;
	char *text, *line;
	__u32 i;

	cr_assert(s != NULL);
	start_make(&f, "make", "-j2");
	for (i = 0; i < 12; i++) {
		__u64 start = i < 4 ? 400 * i : 1600 + 800 * ((i - 4) / 2), len = i < 4 ? 400 : 800;

		sched_job(&f, 101 + i, start, start + len, len * MS - 1, 0);
	}
	synth_exit(f.m, 4810 * MS, 100, 100, true, 0);
	synth_cpu_slice(s, 0, 101, 101, 0, 4810 * MS, 0);
	synth_cpu_idle(s, 1, 0, 1600 * MS);
	synth_cpu_slice(s, 1, 105, 105, 1600 * MS, 4810 * MS, 0);
	finish_sched_audit(&f, 4810, &in, s);
	cr_assert(f.a.whatif.contention.learned);
	cr_assert(eq(sz, f.a.whatif.contention.nr_fitted, 12));
	text = checked_report(&f, true);
	line = bb_answer_line(text, "  (model: "); /* the model's assumptions are -v's */
	cr_assert(strstr(line, "slows its CPU work 100 % (learned from 12 jobs on 2 CPUs") != NULL, "%s", text);
	cr_assert(strstr(line, "rows with more CPUs extrapolate it") != NULL, "%s", text);
	free(line);
	/* The pairs ran no faster than the jobs alone: -j1 takes what -j2 took, and so does -j4 on 2 CPUs
	 * (a thread on a CPU is slowed by the other CPU, not by the threads it time-shares with). */
	cr_assert(eq(sz, f.a.whatif.rows[1].jobs, 1));
	cr_assert(eq(u64, (f.a.whatif.rows[1].wall_ns + MS / 2) / MS, 4810));
	cr_assert(eq(sz, f.a.whatif.rows[2].jobs, 4));
	cr_assert(eq(u64, (f.a.whatif.rows[2].wall_ns + MS / 2) / MS, 4810));
	free(text);
	whatif_end(&f);
	sched_model__free(s);
}

/*
 * taskset -c 0: make -j2 on a 2-CPU machine ran four jobs of 0.4 s CPU two
 * at a time on CPU 0 (each 0.8 s, half of it waiting), CPU 1 idle.  As run
 * is on the one CPU the build could use; on both, the pairs take 0.4 s.
 */
Test(audit_whatif, a_build_confined_to_one_cpu_is_predicted_on_all)
{
	char *argv[] = { "make", "-j2", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 2 };
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, 0);
	struct whatif_fixture f;
	const struct audit_whatif *w;
	char *text, *line;
	__u32 i;

	cr_assert(s != NULL);
	start_make(&f, "make", "-j2");
	for (i = 0; i < 4; i++) {
		__u64 start = 800 * (i / 2);

		sched_job(&f, 101 + i, start, start + 800, 400 * MS, 400 * MS - 1);
		synth_cpu_slice(s, 0, 101 + i, 101 + i, start * MS + 2 + (i % 2) * 400 * MS,
				start * MS + 2 + (i % 2 + 1) * 400 * MS, (i % 2) * 400 * MS);
	}
	synth_exit(f.m, 1610 * MS, 100, 100, true, 0);
	synth_cpu_idle(s, 1, 0, 1610 * MS);
	finish_sched_audit(&f, 1610, &in, s);
	w = &f.a.whatif;
	cr_assert(eq(sz, f.a.cpus_build_ran, 1));
	cr_assert(eq(sz, w->cpus_as_run, 1));
	cr_assert(not(w->was_quiet), "the build had one of the two CPUs");
	cr_assert(eq(sz, w->rows[0].cpus, 1));
	cr_assert(eq(u64, (w->rows[0].wall_ns + MS / 2) / MS, 1610));
	/* Its own -j2 on both CPUs: two rounds of 0.4 s, make's 10 ms. */
	cr_assert(eq(int, w->rows[1].kind, WHATIF_OWN_QUIET));
	cr_assert(eq(sz, w->rows[1].cpus, 2));
	cr_assert(eq(u64, (w->rows[1].wall_ns + MS / 2) / MS, 810));
	text = checked_report(&f, true);
	line = bb_answer_line(text, "what if? ");
	cr_assert(strstr(line, "-j2 on 1 CPU 1.61 s (as run, confined to 1 of the 2 CPUs; measured 1.61 s); on a quiet "
			       "machine: -j2 on 2 CPUs 0.81 s,") != NULL, "%s", line);
	free(line);
	/* The CPUs it was kept from, not a quieter machine. */
	line = bb_answer_line(text, "more CPUs or jobs? ");
	cr_assert(strstr(line, "more CPUs or jobs? all the CPUs, then more CPUs with more jobs; the model: -j2 on 2 CPUs "
			       "0.81 s with all the CPUs against 1.61 s as run (-50 %; measured 1.61 s)") == line, "%s", line);
	free(line);
	free(text);
	whatif_end(&f);
	sched_model__free(s);
}

/*
 * make -j1 runs 70 jobs in turn, more than any list of the path keeps: cc
 * 150 ms each (1 % of the wall), but the third, gen, 2 s and the 65th, ld,
 * 1.5 s.  The lists keep the longest steps wherever they are on the path:
 * -v's 10 (before, the first 10 of the path) and the JSON's 64 (before,
 * the last 64), each in path order and saying how many it leaves out.
 */
Test(audit_whatif, lists_cut_short_keep_the_longest_steps_wherever_they_are)
{
	char *argv[] = { "make", "-j1", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 2 };
	struct whatif_fixture f;
	struct json_object *o, *chain, *steps;
	__u64 t = 1, last_from = 0;
	size_t i, k, gen = 0, ld = 0;
	char *text, *at_gen, *at_ld;

	start_make(&f, "make", "-j1");
	for (k = 0; k < 70; k++) {
		__u64 dur = k == 2 ? 2000 : k == 64 ? 1500 : 150;

		job_proc(&f, 101 + (__u32)k, k == 2 ? "gen" : k == 64 ? "ld" : "cc", t, t + dur);
		t += dur + 1;
	}
	synth_exit(f.m, (t + 10) * MS, 100, 100, true, 0);
	finish_audit(&f, t + 10, &in);
	cr_assert(eq(sz, audit_whatif__nr_steps(&f.a), 70));
	text = checked_report(&f, false);
	cr_assert(strstr(text, "speed up? gen on the critical path (held 2.00 s,") != NULL, "%s", text);
	free(text);
	text = checked_report(&f, true);
	at_gen = strstr(text, "buildbpf:   gen 2.00 s, 15 %, without it ");
	at_ld = strstr(text, "buildbpf:   ld 1.50 s, 11 %, without it ");
	cr_assert(at_gen != NULL && at_ld != NULL && at_gen < at_ld, "both, in path order: %s", text);
	cr_assert(eq(sz, count_of(text, "buildbpf:   cc 0.15 s, 1 %, without it "), 8), "%s", text);
	cr_assert(strstr(text, "buildbpf:   60 shorter steps of the 70 not listed\n") != NULL, "%s", text);
	free(text);
	o = audit_json__new(&f.a, f.m);
	cr_assert(o != NULL);
	chain = json_object_object_get(o, "critical_chain");
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(chain, "count")), (long long)f.a.nr_chain));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(chain, "steps")), 70));
	steps = json_object_object_get(chain, "processes");
	cr_assert(eq(sz, json_object_array_length(steps), 64));
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		__u64 from = (__u64)(json_object_get_double(json_object_object_get(s, "path_from_ms")) * 1000);
		long pid = json_object_get_int(json_object_object_get(s, "pid"));

		cr_assert(i == 0 || from > last_from, "in path order");
		last_from = from;
		gen += pid == 103;
		ld += pid == 165;
	}
	cr_assert(eq(sz, gen, 1), "the what-if's longest step, early on the path");
	cr_assert(eq(sz, ld, 1));
	json_object_put(o);
	whatif_end(&f);
}

Test(audit_whatif, a_step_counts_from_exactly_its_share_of_the_wall)
{
	/* 1 % of 12.345 s is 123.45 ms to the nanosecond: one nanosecond less is under it. */
	cr_assert(whatif_over_step_min(123450000, 12345000000ull));
	cr_assert(not(whatif_over_step_min(123449999, 12345000000ull)));
	cr_assert(whatif_over_step_min(12345000000ull, 12345000000ull));
	cr_assert(not(whatif_over_step_min(0, 1)));
	/* No wall (an empty recording): nothing is under its share. */
	cr_assert(whatif_over_step_min(0, 0));
}

/*
 * Run-queue waits the jobs' averages do not explain are the outside's only
 * while a CPU ran outside work.  cc1 101 ran on CPU 0 for 2 s; 102 waited
 * 1 s for CPU 1, then ran 0.5 s.  On CPU 1 first ran (own) cc1 103 under
 * make -j3, or (outside) a program outside the build under make -j2.
 * Averaged over the build, its threads wanted 2.25 CPUs (1.75 outside), yet
 * got only 78 % (71 %) of what they wanted: as if 0.32 (1.05) more threads
 * had shared the CPUs.  Before, both were outside work: a quiet machine
 * took the build's own wait away too, and a machine with nothing but the
 * build on it was never quiet.
 */
static void wait_behind(struct whatif_fixture *f, struct sched_model *s, bool own)
{
	char *argv[] = { "make", own ? "-j3" : "-j2", NULL };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 2 };

	start_make(f, "make", argv[1]);
	sched_job(f, 101, 0, 2000, 2000 * MS, 0);
	sched_job(f, 102, 0, 1500, 500 * MS, 1000 * MS - 2);
	synth_cpu_slice(s, 0, 101, 101, 2, 2000 * MS, 0);
	if (own) {
		sched_job(f, 103, 0, 1000, 1000 * MS, 0);
		synth_cpu_slice(s, 1, 103, 103, 2, 1000 * MS, 0);
	} /* else CPU 1 has no record before 102's slice: it ran outside work */
	synth_cpu_slice(s, 1, 102, 102, 1000 * MS, 1500 * MS, 1000 * MS - 2);
	synth_cpu_idle(s, 1, 1500 * MS, 2010 * MS);
	synth_cpu_idle(s, 0, 2000 * MS, 2010 * MS);
	synth_exit(f->m, 2010 * MS, 100, 100, true, 0);
	finish_sched_audit(f, 2010, &in, s);
}

Test(audit_whatif, a_wait_behind_the_builds_own_threads_stays_on_a_quiet_machine)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, 0);
	struct whatif_fixture f;
	const struct audit_whatif *w = &f.a.whatif;
	char *text;
	size_t i;

	cr_assert(s != NULL);
	wait_behind(&f, s, true);
	cr_assert(eq(u64, f.a.noisy_ns, 0));
	cr_assert(w->outside_threads > 0.3 && w->outside_threads < 0.33, "%f", w->outside_threads);
	cr_assert(ieee_ulp_eq(dbl, w->burst_threads, w->outside_threads, 4));
	cr_assert(w->was_quiet, "only the build's own threads held the CPUs");
	for (i = 1; i < w->nr_rows; i++)
		cr_assert(not(eq(int, w->rows[i].kind, WHATIF_OWN_QUIET)), "as run is its own -j on a quiet machine");
	text = checked_report(&f, true);
	cr_assert(strstr(text, "and by 0.32 always-runnable threads (the waits") != NULL, "%s", text);
	free(text);
	whatif_end(&f);
	sched_model__free(s);

	s = sched_model__new(SCHED_SUMMARY, 0, 2, 0);
	cr_assert(s != NULL);
	wait_behind(&f, s, false);
	cr_assert(eq(u64, f.a.noisy_ns, f.a.runq_wall_ns));
	cr_assert(w->outside_threads > 1.0 && w->outside_threads < 1.1, "%f", w->outside_threads);
	cr_assert(eq(dbl, w->burst_threads, 0));
	cr_assert(not(w->was_quiet));
	cr_assert(eq(int, w->rows[1].kind, WHATIF_OWN_QUIET));
	cr_assert(lt(u64, w->rows[1].wall_ns, w->rows[0].wall_ns), "a quiet machine takes the outside's share away");
	text = checked_report(&f, true);
	cr_assert(strstr(text, "always-runnable") == NULL, "%s", text);
	free(text);
	whatif_end(&f);
	sched_model__free(s);
}
