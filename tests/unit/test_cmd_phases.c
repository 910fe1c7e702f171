// SPDX-License-Identifier: GPL-2.0
/*
 * The command's phases (audit/cmd_phases.h) from synthetic builds with
 * known answers: configure then make, a command that is the runner, a
 * pipeline, a shell that execs make last, short commands and many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "audit/audit.h"
#include "audit/cmd_phases.h"
#include "model/proc_name.h"
#include "model/trace_layout.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "lib/json_fields.h"
#include "lib/synth.h"
#include "lib/synth_build.h"
#include "lib/written_trace.h"

#define ROOT 100
#define CONFIGURE 200
#define MAKE 300

static const char *const sh_argv[] = { "/bin/sh", "-c", "./configure && make -j2", NULL };
static const char *const configure_argv[] = { "/bin/sh", "./configure", NULL };
static const char *const bash_configure_argv[] = { "/bin/bash", "./configure", NULL };
static const char *const gcc_argv[] = { "gcc", "-c", "conftest.c", NULL };
static const char *const cc1_argv[] = { "cc1", "conftest.c", NULL };
static const char *const probe_make_argv[] = { "make", "-f", "-", NULL };
static const char *const make_j2[] = { "make", "-j2", NULL };
static const char *const make_plain[] = { "make", NULL };
static const char *const job_argv[] = { "cc1", "x.c", NULL };

/*
 * configure over [from, to), re-exec'ing itself under bash as autoconf's
 * does: 8 compile probes one after another (gcc, a wrapper, running cc1),
 * and at the end a make of its own to probe, with the default -j1: the
 * make the audit once read the build's -j from.
 */
static void configure(struct synth_build *b, __u64 from, __u64 to)
{
	__u64 step = (to - from) / 10, k;

	synth_build__proc(b, CONFIGURE, ROOT, "/src/configure", configure_argv, from, to, step);
	synth_exec(b->m, SB_T0 + (from + 1) * SB_MS, CONFIGURE, ROOT, "/bin/bash", bash_configure_argv);
	for (k = 0; k < 8; k++) {
		__u64 t = from + k * step;

		synth_build__proc(b, 1000 + k, CONFIGURE, "/usr/bin/gcc", gcc_argv, t, t + step - 10, 1);
		synth_build__proc(b, 2000 + k, 1000 + k, "/usr/lib/gcc/cc1", cc1_argv, t + 5, t + step - 15,
				  step - 40);
	}
	synth_build__proc(b, 3000, CONFIGURE, "/usr/bin/make", probe_make_argv, to - step, to - step + 20, 5);
}

/* make with argv over [from, to): jobs of 1 s of CPU, two at once when at_once is 2. */
static void make(struct synth_build *b, __u32 pid, __u32 parent, const char *const argv[], __u64 from, __u64 to,
		 int at_once)
{
	__u64 t;
	__u32 job = pid + 1;

	if (pid != ROOT)
		synth_build__proc(b, pid, parent, "/usr/bin/make", argv, from, to, 10);
	for (t = from; t + 1000 <= to; t += 1000)
		for (int k = 0; k < at_once; k++, job++)
			synth_build__proc(b, job, pid, "/usr/lib/gcc/cc1", job_argv, t, t + 1000, 990);
}

/* The -v report (the phases are there) with its wrapped lines joined: "\nbuildbpf:" and the indent become one space. */
static char *report_of(const struct synth_build *b)
{
	char *text = NULL, *r, *w;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	audit_report__print(out, &b->a, b->m, true);
	fclose(out);
	for (r = w = text; *r;) {
		if (!strncmp(r, "\nbuildbpf: ", 11)) {
			for (r += 11; *r == ' '; r++)
				;
			*w++ = ' ';
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
	return text;
}

static void assert_says(const char *text, const char *words)
{
	cr_assert(not(eq(ptr, strstr(text, words), NULL)), "no \"%s\" in:\n%s", words, text);
}

static char *phase_name(const struct synth_build *b, size_t i)
{
	return proc_display_name(b->m, &b->m->procs[b->a.cmd_phases[i].proc]);
}

/* sed's case: ./configure && make -j2; configure 80 % of the wall, one step at a time. */
static void configure_then_make(struct synth_build *b)
{
	synth_build__start_cmd(b, ROOT, "/src", "/bin/sh", sh_argv);
	configure(b, 0, 8000);
	make(b, MAKE, ROOT, make_j2, 8000, 10000, 2);
	synth_build__finish(b, 10000);
}

Test(cmd_phases, configure_then_make_has_two_phases_and_the_makes_j)
{
	struct synth_build b;
	const struct audit_cmd_phase *ph;
	char *name, *text;

	configure_then_make(&b);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 2));
	ph = b.a.cmd_phases;
	name = phase_name(&b, 0);
	cr_assert(eq(str, name, "configure"));
	free(name);
	cr_assert(eq(u64, ph[0].start_ns, SB_T0));
	cr_assert(eq(u64, ph[0].end_ns, SB_T0 + 8000 * SB_MS));
	cr_assert(ph[0].serial, "configure ran one probe at a time");
	cr_assert(eq(long, ph[0].runner, -1), "its probe make did none of its work");
	cr_assert(eq(u32, b.m->procs[ph[1].proc].pid, MAKE));
	cr_assert(eq(u64, ph[1].end_ns - ph[1].start_ns, 2000 * SB_MS));
	cr_assert(not(ph[1].serial));
	cr_assert(eq(u64, ph[1].step_ns, 4000 * SB_MS), "two 1 s jobs at once for 2 s");
	cr_assert(eq(long, ph[1].jobs.jobs, 2));
	/* The build's -j is the make's, not configure's probe make's -j1 (which started first). */
	cr_assert(eq(long, b.a.jobs.jobs, 2));
	cr_assert(eq(int, b.a.jobs.source, JOBS_ARGUMENT));

	text = report_of(&b);
	assert_says(text, "phases: configure 8.00 s (80 %), one step at a time, 0.86 CPUs busy; "
			  "make -j2 2.00 s (20 %), 2.00 steps at once, 1.99 CPUs busy");
	assert_says(text, "speed up? configure ran one step at a time and took 8.00 s (80 % of the "
			  "wall): ./configure -C keeps its results in config.cache");
	cr_assert(eq(ptr, strstr(text, "no single step stands out"), NULL), "%s", text);
	/* A serial stretch mostly within configure was said by it; one within make was not. */
	cr_assert(audit__mostly_within_standing_phase(&b.a, SB_T0, SB_T0 + 5000 * SB_MS));
	cr_assert(not(audit__mostly_within_standing_phase(&b.a, SB_T0 + 6000 * SB_MS, SB_T0 + 10000 * SB_MS)));
	free(text);
	synth_build__free(&b);
}

Test(cmd_phases, json_lists_each_phase_with_its_runner)
{
	struct json_object *o, *phases, *p0, *p1, *runner;
	struct synth_build b;

	configure_then_make(&b);
	o = audit_json__new(&b.a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	phases = need_field(o, "phases");
	cr_assert(eq(sz, json_object_array_length(phases), 2));
	p0 = json_object_array_get_idx(phases, 0);
	p1 = json_object_array_get_idx(phases, 1);
	cr_assert(str_field_is(p0, "name", "configure"));
	cr_assert(eq(dbl, double_field(p0, "wall_share"), 0.8));
	cr_assert(json_object_get_boolean(need_field(p0, "serial")));
	cr_assert(json_object_is_type(need_field(p0, "runner"), json_type_null));
	cr_assert(eq(int, int_field(p1, "pid"), MAKE));
	cr_assert(eq(dbl, double_field(p1, "wall_share"), 0.2));
	cr_assert(eq(dbl, double_field(p1, "average_steps"), 2.0));
	cr_assert(not(json_object_get_boolean(need_field(p1, "serial"))));
	runner = need_field(p1, "runner");
	cr_assert(eq(int, int_field(runner, "requested"), 2));
	cr_assert(str_field_is(runner, "source", "argument"));
	cr_assert(eq(int, int_field(need_field(o, "jobs"), "requested"), 2));
	json_object_put(o);
	synth_build__free(&b);
}

/* `make -j2` itself: one phase, the command, and no phases line. */
Test(cmd_phases, a_runner_command_is_one_phase)
{
	struct synth_build b;
	char *text;

	synth_build__start(&b, ROOT, "/src");
	make(&b, ROOT, 0, make_j2, 0, 2000, 2);
	synth_build__finish(&b, 2000);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 1));
	cr_assert(eq(long, b.a.cmd_phases[0].proc, b.m->root));
	cr_assert(eq(long, b.a.cmd_phases[0].runner, b.m->root));
	cr_assert(eq(long, b.a.cmd_phases[0].jobs.jobs, 2));
	cr_assert(eq(u64, b.a.cmd_phases[0].step_ns, 4000 * SB_MS));
	text = report_of(&b);
	cr_assert(eq(ptr, strstr(text, "buildbpf: phases:"), NULL), "%s", text);
	free(text);
	synth_build__free(&b);
}

/* `make 2>&1 | tee log`: the two commands overlap, one phase, named by the one that did the work. */
Test(cmd_phases, a_pipeline_is_one_phase)
{
	static const char *const tee_argv[] = { "tee", "log", NULL };
	struct synth_build b;
	char *name;

	synth_build__start_cmd(&b, ROOT, "/src", "/bin/sh", sh_argv);
	synth_build__proc(&b, 400, ROOT, "/usr/bin/tee", tee_argv, 0, 2001, 5);
	make(&b, MAKE, ROOT, make_j2, 1, 2001, 2);
	synth_build__finish(&b, 2002);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 1));
	cr_assert(eq(sz, b.a.cmd_phases[0].nr_commands, 2));
	name = phase_name(&b, 0);
	cr_assert(eq(u32, b.m->procs[b.a.cmd_phases[0].proc].pid, MAKE), "named %s", name);
	free(name);
	cr_assert(eq(long, b.a.jobs.jobs, 2));
	synth_build__free(&b);
}

/* `bash -c './configure && make -j3'` where bash execs the last command: make is the root's last image. */
Test(cmd_phases, a_shell_that_execs_make_last)
{
	static const char *const make_j3[] = { "make", "-j3", NULL };
	struct synth_build b;

	synth_build__start_cmd(&b, ROOT, "/src", "/bin/bash", sh_argv);
	configure(&b, 0, 3000);
	synth_exec(b.m, SB_T0 + 3000 * SB_MS, ROOT, 1, "/usr/bin/make", make_j3);
	make(&b, ROOT, 0, make_j3, 3000, 5000, 2);
	synth_build__finish(&b, 5000);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 2));
	cr_assert(eq(u32, b.m->procs[b.a.cmd_phases[0].proc].pid, CONFIGURE));
	cr_assert(eq(long, b.a.cmd_phases[1].proc, b.m->root));
	cr_assert(eq(u64, b.a.cmd_phases[1].start_ns, SB_T0 + 3000 * SB_MS));
	cr_assert(eq(u64, b.a.cmd_phases[1].step_ns, 4000 * SB_MS), "only the jobs forked after the exec");
	cr_assert(eq(long, b.a.cmd_phases[1].jobs.jobs, 3));
	cr_assert(eq(long, b.a.jobs.jobs, 3));
	synth_build__free(&b);
}

/*
 * kbuild's shape: make -j2 remakes its config with a sub-make (no -j of its
 * own: it takes the jobserver make passes in MAKEFLAGS), then re-execs
 * itself.  The sub-make's phase has the top make's -j2, not make's -j1.
 */
Test(cmd_phases, a_sub_make_before_the_re_exec_shares_the_top_makes_j)
{
	static const char *const syncconfig[] = { "make", "-f", "../linux/Makefile", "syncconfig", NULL };
	struct synth_build b;

	synth_build__start_cmd(&b, ROOT, "/src", "/usr/bin/make", make_j2);
	make(&b, MAKE, ROOT, syncconfig, 0, 3000, 2);
	synth_exec(b.m, SB_T0 + 3000 * SB_MS, ROOT, 1, "/usr/bin/make", make_j2);
	make(&b, ROOT, 0, make_j2, 3000, 5000, 2);
	synth_build__finish(&b, 5000);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 2));
	cr_assert(eq(u32, b.m->procs[b.a.cmd_phases[0].proc].pid, MAKE));
	cr_assert(eq(long, b.a.cmd_phases[0].jobs.jobs, 2), "the jobserver's -j2");
	cr_assert(eq(int, b.a.cmd_phases[0].jobs.source, JOBS_MAKEFLAGS));
	cr_assert(eq(long, b.a.cmd_phases[1].jobs.jobs, 2));
	synth_build__free(&b);
}

/* A make at its default -j1 that held most of the wall is said first, with the -j that uses the CPUs. */
Test(cmd_phases, a_serial_make_is_told_its_j)
{
	struct synth_build b;
	char *text;

	synth_build__start_cmd(&b, ROOT, "/src", "/bin/sh", sh_argv);
	configure(&b, 0, 1000);
	make(&b, MAKE, ROOT, make_plain, 1000, 10000, 1);
	synth_build__finish(&b, 10000);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 2));
	cr_assert(b.a.cmd_phases[1].serial);
	cr_assert(eq(int, b.a.jobs.source, JOBS_TOOL_DEFAULT));
	text = report_of(&b);
	assert_says(text, "speed up? make ran one step at a time and took 9.00 s (90 % of "
			  "the wall): it ran one job at a time (-j1, its default); -j2 would let it ");
	assert_says(text, "and: configure ran one step at a time and took 1.00 s (10 %");
	free(text);
	synth_build__free(&b);
}

/* Commands under 1 % of the wall are no phase; of many, the 16 longest are kept, in time order. */
Test(cmd_phases, short_commands_are_left_out_and_many_are_cut_to_the_longest)
{
	static const char *const date_argv[] = { "date", NULL };
	static const char *const step_argv[] = { "step", NULL };
	struct synth_build b;
	__u64 t = 0;
	__u32 k;

	synth_build__start_cmd(&b, ROOT, "/src", "/bin/sh", sh_argv);
	for (k = 0; k < 20; k++) {
		synth_build__proc(&b, 500 + k, ROOT, "/usr/bin/date", date_argv, t, t + 1, 1);
		t += 2;
		/* Step k lasts 100 + 10 k ms: the four first are the shortest. */
		synth_build__proc(&b, 600 + k, ROOT, "/opt/step", step_argv, t, t + 100 + 10 * k, 50);
		t += 100 + 10 * k;
	}
	synth_build__finish(&b, t);
	cr_assert(eq(sz, b.a.nr_cmd_phases, AUDIT_MAX_CMD_PHASES));
	for (k = 0; k < AUDIT_MAX_CMD_PHASES; k++)
		cr_assert(eq(u32, b.m->procs[b.a.cmd_phases[k].proc].pid, 600 + 4 + k), "phase %u", k);
	synth_build__free(&b);
}

/* make -j2, then make -j2 check: two phases of one name are told apart by their command lines. */
Test(cmd_phases, make_then_make_check_by_their_command_lines)
{
	static const char *const make_check[] = { "make", "-j2", "check", NULL };
	struct json_object *o, *phases;
	struct synth_build b;
	char *text;

	synth_build__start_cmd(&b, ROOT, "/src", "/bin/sh", sh_argv);
	make(&b, MAKE, ROOT, make_j2, 0, 2000, 2);
	make(&b, 400, ROOT, make_check, 2000, 4000, 1);
	synth_build__finish(&b, 4000);
	cr_assert(eq(sz, b.a.nr_cmd_phases, 2));
	text = report_of(&b);
	assert_says(text, "phases: make -j2 2.00 s (50 %), 2.00 steps at once, 1.99 CPUs busy; make -j2 "
			  "check 2.00 s (50 %), one step at a time");
	assert_says(text, "speed up? make -j2 check ran one step at a time and took 2.00 s (50 % of the "
			  "wall): the build's own order allowed no more at once");
	free(text);
	o = audit_json__new(&b.a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	phases = need_field(o, "phases");
	cr_assert(str_field_is(json_object_array_get_idx(phases, 0), "command", "make -j2"));
	cr_assert(str_field_is(json_object_array_get_idx(phases, 1), "command", "make -j2 check"));
	json_object_put(o);
	synth_build__free(&b);
}

/* The trace draws the phases on a track of their own under Parallelism, and keeps every trace rule. */
Test(cmd_phases, the_trace_has_a_phases_track)
{
	struct synth_build b;
	struct trace_meta meta = { 0 };
	struct json_object *trace, *events, *ev;
	size_t i, slices = 0;

	configure_then_make(&b);
	meta.audit = &b.a;
	trace = written_trace(b.m, &meta); /* keeps every trace rule, or fails */
	events = trace_events(trace);
	for (i = 0; i < json_object_array_length(events); i++) {
		ev = json_object_array_get_idx(events, i);
		if (!str_field_is(ev, "cat", "phase"))
			continue;
		/* Microseconds from the start, plus one (model/trace_layout.h). */
		cr_assert(eq(int, int_field(ev, "ts"), trace_us(b.m, b.a.cmd_phases[slices].start_ns)));
		cr_assert(eq(int, int_field(ev, "dur"),
			     trace_us(b.m, b.a.cmd_phases[slices].end_ns) - trace_us(b.m, b.a.cmd_phases[slices].start_ns)));
		cr_assert(eq(int, int_field(need_field(ev, "args"), "pid"), slices ? MAKE : CONFIGURE));
		slices++;
	}
	cr_assert(eq(sz, slices, 2));
	json_object_put(trace);
	synth_build__free(&b);
}
