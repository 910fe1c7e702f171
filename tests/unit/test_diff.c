// SPDX-License-Identifier: GPL-2.0
/* buildbpf diff: matching, figures, the gate, from synthetic builds with known answers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "diff/diff.h"
#include "diff/diff_format.h"
#include "diff/diff_html.h"
#include "diff/diff_json.h"
#include "diff/diff_report.h"
#include "diff/diff_svg.h"
#include "diff/fail_if.h"
#include "diff/proc_match.h"
#include "model/proc_name.h"
#include "lib/page_policy.h"
#include "lib/synth_build.h"
#include "lib/xml_check.h"

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void expect_norm(const char *arg, const char *cwd, __u32 pid, __u32 ppid, const char *want)
{
	char *got = proc_match__normalise_arg(arg, cwd, pid, ppid);

	cr_assert(not(eq(ptr, got, NULL)));
	cr_assert(eq(str, got, (char *)want));
	free(got);
}

Test(proc_match, normalise_removes_volatile_parts)
{
	expect_norm("/tmp/ccAbC123.s", NULL, 0, 0, "/tmp/<tmp>.s");
	expect_norm("-o/tmp/ccXy.o", NULL, 0, 0, "-o/tmp/ccXy.o"); /* not at a token start */
	expect_norm("-MF=/var/tmp/dep.123.d", NULL, 0, 0, "-MF=/tmp/<tmp>.d");
	expect_norm("/home/a/proj/src/foo.c", "/home/a/proj", 0, 0, "./src/foo.c");
	expect_norm("/home/a/project/x.c", "/home/a/proj", 0, 0, "/home/a/project/x.c");
	expect_norm("-DPID=4242", NULL, 4242, 1, "-DPID=<pid>");
	expect_norm("-j42420", NULL, 4242, 1, "-j42420"); /* a longer number is not the pid */
	expect_norm("plain", "/", 7, 8, "plain");
	/* A build in /tmp: its files are not temporary, gcc's still are. */
	expect_norm("/tmp/ccAbC123.s", "/tmp", 0, 0, "/tmp/<tmp>.s");
	expect_norm("/tmp/proj/a.c", "/tmp/proj", 0, 0, "./a.c");
	expect_norm("/tmp/proj", "/tmp/proj/sub", 0, 0, "/tmp/proj");
	expect_norm("/tmp/proj/b/a.c", "/tmp", 0, 0, "./proj/b/a.c");
}

/* One compile as gcc runs it: cc -> cc1 (to a temp .s) -> as.  pid..pid+2. */
static void compile(struct synth_build *b, __u32 pid, const char *src, const char *tmp_s, __u64 from,
		    __u64 cc1_ms, __u64 cc1_cpu)
{
	char obj[64];

	snprintf(obj, sizeof(obj), "%.*s.o", (int)(strlen(src) - 2), src);
	synth_build__proc(b, pid, b->root_pid, "/usr/bin/cc", ARGV("cc", "-c", src, "-o", obj), from,
			  from + cc1_ms + 20, 2);
	synth_build__proc(b, pid + 1, pid, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
			  ARGV("cc1", "-quiet", src, "-o", tmp_s), from + 1, from + 1 + cc1_ms, cc1_cpu);
	synth_build__proc(b, pid + 2, pid, "/usr/bin/as", ARGV("as", "-o", obj, tmp_s), from + 2 + cc1_ms,
			  from + 15 + cc1_ms, 10);
}

/* The demo-like build: three compiles and a link; slow_ms added to b.c's cc1. */
static void demo_build(struct synth_build *b, __u32 base_pid, const char *cwd, const char *tmp_tag,
		       __u64 slow_ms)
{
	char tmp[3][64];
	int i;

	for (i = 0; i < 3; i++)
		snprintf(tmp[i], sizeof(tmp[i]), "/tmp/cc%s%d.s", tmp_tag, i);
	synth_build__start(b, base_pid, cwd);
	compile(b, base_pid + 10, "a.c", tmp[0], 10, 300, 290);
	compile(b, base_pid + 20, "b.c", tmp[1], 10, 300 + slow_ms, 290 + slow_ms);
	compile(b, base_pid + 30, "c.c", tmp[2], 400 + slow_ms, 50, 45);
	synth_build__proc(b, base_pid + 40, base_pid, "/usr/bin/ld", ARGV("ld", "-o", "prog", "a.o", "b.o", "c.o"),
			  500 + slow_ms, 560 + slow_ms, 50);
	synth_build__finish(b, 600 + slow_ms);
}

Test(proc_match, same_build_in_another_tree_matches_every_process)
{
	struct synth_build o, n;
	struct diff d;

	demo_build(&o, 100, "/home/a/old", "AbC", 0);
	demo_build(&n, 5000, "/srv/ci/new", "XyZ", 0);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, o.m->nr_procs));
	cr_assert(eq(sz, d.match.matched_by_name, 0));
	cr_assert(eq(sz, d.nr_only_old_procs + d.nr_only_new_procs, 0));
	/* Each process with its own: the same step, not merely a process. */
	for (size_t i = 0; i < o.m->nr_procs; i++) {
		long j = d.match.old_to_new[i];
		char *a, *b;

		cr_assert(ge(long, j, 0));
		a = proc_display_name(o.m, &o.m->procs[i]);
		b = proc_display_name(n.m, &n.m->procs[j]);
		cr_assert(eq(str, a, b));
		cr_assert(eq(u32, o.m->procs[i].pid - 100, n.m->procs[j].pid - 5000));
		free(a);
		free(b);
	}
	cr_assert(eq(sz, d.nr_top_cpu, 0));
	cr_assert(eq(sz, d.nr_top_wall, 0));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(diff, slowed_compile_is_named_first_with_its_size)
{
	struct synth_build o, n;
	const struct diff_step *top;
	struct diff d;
	char *name;

	demo_build(&o, 100, "/w", "AbC", 0);
	demo_build(&n, 200, "/w", "Def", 500);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, o.m->nr_procs));
	cr_assert(eq(sz, d.nr_top_cpu, 1)); /* only b.c's cc1 used more CPU past the floor */
	top = &d.top_cpu[0];
	name = proc_display_name(n.m, &n.m->procs[top->new_proc]);
	cr_assert(eq(str, name, "cc1 b.c"));
	free(name);
	cr_assert(eq(u64, top->new_ns - top->old_ns, 500 * SB_MS));
	/* By wall: the root and b.c's cc and cc1 all took 0.5 s longer; only cc1 is a step. */
	cr_assert(eq(sz, d.nr_top_wall, 1));
	cr_assert(eq(sz, d.top_wall[0].new_proc, top->new_proc));
	cr_assert(eq(u64, d.top_wall[0].new_ns - d.top_wall[0].old_ns, 500 * SB_MS));
	/* cc1 gained 0.5 s of CPU, first among the programs. */
	cr_assert(eq(str, d.programs[0].name, "cc1"));
	cr_assert(eq(u64, d.programs[0].new_cpu_ns - d.programs[0].old_cpu_ns, 500 * SB_MS));
	cr_assert(lt(dbl, 0.49, diff_value__change(&d.values[DIFF_WALL])));
	cr_assert(lt(dbl, diff_value__change(&d.values[DIFF_WALL]), 0.51));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/*
 * One compile as kbuild runs it, its cc1 cc1_ms long: make (the root, a
 * runner) -> sh -c (a wrapper) -> gcc (the driver) -> cc1, then as.
 */
static void wrapped_compile_build(struct synth_build *b, __u32 base, __u64 cc1_ms)
{
	synth_build__start(b, base, "/w");
	synth_build__proc(b, base + 1, base, "/bin/sh", ARGV("sh", "-c", "gcc -c a.c -o a.o"), 10, 40 + cc1_ms, 1);
	synth_build__proc(b, base + 2, base + 1, "/usr/bin/gcc", ARGV("gcc", "-c", "a.c", "-o", "a.o"), 11,
			  39 + cc1_ms, 2);
	synth_build__proc(b, base + 3, base + 2, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
			  ARGV("cc1", "-quiet", "a.c", "-o", "/tmp/ccA.s"), 12, 12 + cc1_ms, cc1_ms - 10);
	synth_build__proc(b, base + 4, base + 2, "/usr/bin/as", ARGV("as", "-o", "a.o", "/tmp/ccA.s"), 13 + cc1_ms,
			  38 + cc1_ms, 10);
	synth_build__finish(b, 60 + cc1_ms);
}

/*
 * The step tables name the work, as the audit's top lists do: the cc1 that
 * took 1 s longer, not also its make, sh -c and gcc, which only waited for it.
 */
Test(diff, step_tables_name_the_work_not_its_runner_wrapper_or_driver)
{
	struct synth_build o, n;
	struct diff d;
	char *name;

	wrapped_compile_build(&o, 100, 300);
	wrapped_compile_build(&n, 200, 1300);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, o.m->nr_procs));
	/* Each of make, sh, gcc and cc1 took 1 s longer: past the wall's floor. */
	for (size_t i = 0; i < 4; i++)
		cr_assert(diff__above_noise(diff__proc_wall_ns(&o.m->procs[i]),
					    diff__proc_wall_ns(&n.m->procs[d.match.old_to_new[i]]), true));
	cr_assert(eq(sz, d.nr_top_wall, 1));
	name = proc_display_name(n.m, &n.m->procs[d.top_wall[0].new_proc]);
	cr_assert(eq(str, name, "cc1 a.c"));
	free(name);
	cr_assert(eq(u64, d.top_wall[0].new_ns - d.top_wall[0].old_ns, 1000 * SB_MS));
	cr_assert(eq(sz, d.nr_top_cpu, 1));
	cr_assert(eq(sz, d.top_cpu[0].new_proc, d.top_wall[0].new_proc));
	/* The whole build's wall is the Build table's. */
	cr_assert(lt(dbl, 0.99, diff_value__change(&d.values[DIFF_WALL])));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(proc_match, repeats_pair_in_start_order)
{
	struct synth_build o, n;
	struct diff d;

	/* The same command twice (a generator run twice); the k-th with the k-th. */
	synth_build__start(&o, 100, "/w");
	synth_build__proc(&o, 101, 100, "/usr/bin/gen", ARGV("gen", "x"), 10, 20, 5);
	synth_build__proc(&o, 102, 100, "/usr/bin/gen", ARGV("gen", "x"), 30, 40, 5);
	synth_build__finish(&o, 50);
	synth_build__start(&n, 300, "/w");
	synth_build__proc(&n, 301, 300, "/usr/bin/gen", ARGV("gen", "x"), 10, 20, 5);
	synth_build__proc(&n, 302, 300, "/usr/bin/gen", ARGV("gen", "x"), 30, 40, 5);
	synth_build__finish(&n, 50);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, 3));
	for (size_t i = 0; i < 3; i++)
		cr_assert(eq(u32, n.m->procs[d.match.old_to_new[i]].pid - 300, o.m->procs[i].pid - 100));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(diff, new_and_gone_processes_grouped_by_program)
{
	struct synth_build o, n;
	struct diff d;

	synth_build__start(&o, 100, "/w");
	compile(&o, 110, "a.c", "/tmp/ccA.s", 10, 100, 90);
	synth_build__proc(&o, 120, 100, "/usr/bin/strip", ARGV("strip", "prog"), 200, 210, 5);
	synth_build__finish(&o, 300);
	synth_build__start(&n, 100, "/w");
	compile(&n, 110, "a.c", "/tmp/ccB.s", 10, 100, 90);
	compile(&n, 120, "x.c", "/tmp/ccC.s", 10, 100, 90);
	compile(&n, 130, "y.c", "/tmp/ccD.s", 150, 100, 90);
	synth_build__finish(&n, 300);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, 4)); /* make and a.c's three */
	cr_assert(eq(sz, d.nr_only_old_procs, 1));
	cr_assert(eq(str, (char *)d.only_old[0].program, "strip"));
	cr_assert(eq(sz, d.nr_only_new_procs, 6));
	cr_assert(eq(sz, d.nr_only_new, 3));
	for (size_t k = 0; k < 3; k++)
		cr_assert(eq(sz, d.only_new[k].count, 2));
	/* strip is gone: 0 processes in the new build. */
	for (size_t k = 0; k < d.nr_programs; k++)
		if (!strcmp(d.programs[k].name, "strip"))
			cr_assert(eq(sz, d.programs[k].new_procs, 0));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(proc_match, changed_flags_match_by_name)
{
	struct synth_build o, n;
	struct diff d;

	synth_build__start(&o, 100, "/w");
	synth_build__proc(&o, 101, 100, "/usr/bin/cc", ARGV("cc", "-O2", "-c", "a.c"), 10, 100, 80);
	synth_build__finish(&o, 200);
	synth_build__start(&n, 100, "/w");
	synth_build__proc(&n, 101, 100, "/usr/bin/cc", ARGV("cc", "-O3", "-c", "a.c"), 10, 100, 80);
	synth_build__finish(&n, 200);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, 2));
	cr_assert(eq(sz, d.match.matched_by_name, 1));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(diff, noise_floor)
{
	cr_assert(not(diff__above_noise(2 * SB_MS, 3 * SB_MS, false)));	/* +50 %, but 1 ms */
	cr_assert(not(diff__above_noise(10000 * SB_MS, 10150 * SB_MS, false))); /* 150 ms, but 1.5 % */
	cr_assert(diff__above_noise(300 * SB_MS, 800 * SB_MS, false));
	cr_assert(diff__above_noise(800 * SB_MS, 300 * SB_MS, false));
	cr_assert(diff__above_noise(0, 100 * SB_MS, false));
	/* Wall time: a busy machine's waits for a CPU are not news. */
	cr_assert(not(diff__above_noise(580 * SB_MS, 434 * SB_MS, true)));
	cr_assert(not(diff__above_noise(400 * SB_MS, 600 * SB_MS, true))); /* 200 ms */
	cr_assert(not(diff__above_noise(2000 * SB_MS, 2400 * SB_MS, true))); /* 20 % */
	cr_assert(diff__above_noise(600 * SB_MS, 1100 * SB_MS, true));
}

static void expect_parse_error(const char *text, const char *part)
{
	struct fail_if c;
	char err[256] = "";

	cr_assert(eq(int, fail_if__parse(&c, text, err, sizeof(err)), -EINVAL), "%s parsed", text);
	cr_assert(not(eq(ptr, strstr(err, part), NULL)), "%s: '%s' lacks '%s'", text, err, part);
	cr_assert(eq(ptr, strchr(err, '\n'), NULL));
}

Test(fail_if, parses_the_documented_grammar)
{
	struct fail_if c;
	char err[256];

	cr_assert(eq(int, fail_if__parse(&c, "wall>+10%", err, sizeof(err)), 0));
	cr_assert(eq(int, c.figure, FAIL_IF_METRIC));
	cr_assert(eq(int, c.metric, DIFF_WALL));
	cr_assert(eq(chr, c.op, '>'));
	cr_assert(eq(dbl, c.limit, 10));
	cr_assert(c.relative);
	cr_assert(eq(int, fail_if__parse(&c, "cpu<-500ms", err, sizeof(err)), 0));
	cr_assert(eq(chr, c.op, '<'));
	cr_assert(eq(dbl, c.limit, -0.5));
	cr_assert(not(c.relative));
	cr_assert(eq(int, fail_if__parse(&c, "program:cc1.cpu>+20%", err, sizeof(err)), 0));
	cr_assert(eq(int, c.figure, FAIL_IF_PROGRAM_CPU));
	cr_assert(eq(str, c.program, "cc1"));
	cr_assert(eq(int, fail_if__parse(&c, "program:x86_64-linux-gnu-g++.procs>5", err, sizeof(err)), 0));
	cr_assert(eq(int, c.figure, FAIL_IF_PROGRAM_PROCS));
	cr_assert(eq(str, c.program, "x86_64-linux-gnu-g++"));
	cr_assert(eq(int, fail_if__parse(&c, "parallelism<-0.5", err, sizeof(err)), 0));
	cr_assert(eq(int, fail_if__parse(&c, "wall>2s", err, sizeof(err)), 0));
	cr_assert(eq(dbl, c.limit, 2));
}

Test(fail_if, rejects_bad_expressions_with_a_reason)
{
	expect_parse_error("wall", "no '>' or '<'");
	expect_parse_error("wal>+10%", "unknown figure 'wal'");
	expect_parse_error("wall>=10%", "alone");
	expect_parse_error("wall>", "no limit");
	expect_parse_error("wall>ten", "not a number");
	expect_parse_error("wall>+10%%", "unexpected");
	expect_parse_error("wall>+10 %", "unexpected");
	expect_parse_error("processes>2s", "not a time");
	expect_parse_error("program:cc1>+1%", "program:NAME.cpu");
	expect_parse_error("program:cc1.wall>+1%", ".cpu or .procs");
	expect_parse_error("wall>nan", "not a number");
}

Test(fail_if, evaluates_against_the_diff)
{
	struct synth_build o, n;
	struct diff_value v;
	struct fail_if c;
	struct diff d;
	char err[256];

	demo_build(&o, 100, "/w", "AbC", 0);
	demo_build(&n, 200, "/w", "Def", 500);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	/* wall 0.6 s -> 1.1 s: +83 % */
	fail_if__parse(&c, "wall>+50%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 1));
	cr_assert(eq(dbl, v.old_v, 0.6));
	fail_if__parse(&c, "wall>+90%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	fail_if__parse(&c, "wall>+0.4s", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 1));
	fail_if__parse(&c, "wall<-1%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	fail_if__parse(&c, "program:cc1.cpu>+0.45s", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 1));
	fail_if__parse(&c, "program:as.cpu>+1%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	/* A program neither build ran: 0 -> 0, no change. */
	fail_if__parse(&c, "program:rustc.cpu>+0%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	/* Recorded at --sched=off: parallelism is not known. */
	fail_if__parse(&c, "parallelism<-10%", err, sizeof(err));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), -ENODATA));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(diff_report, json_and_text_say_the_same)
{
	struct synth_build o, n;
	struct json_object *j, *f, *steps;
	struct diff d;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	demo_build(&o, 100, "/w", "AbC", 0);
	demo_build(&n, 200, "/w", "Def", 500);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	j = diff_json__new(&d);
	cr_assert(not(eq(ptr, j, NULL)));
	cr_assert(json_object_object_get_ex(j, "figures", &f));
	cr_assert(json_object_object_get_ex(f, "wall", &f));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(f, "old")), 0.6));
	cr_assert(json_object_object_get_ex(j, "figures", &f));
	cr_assert(json_object_is_type(json_object_object_get(f, "parallelism"), json_type_null));
	cr_assert(json_object_object_get_ex(j, "steps_by_cpu", &steps));
	cr_assert(eq(sz, json_object_array_length(steps), 1));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(
				  json_object_array_get_idx(steps, 0), "name")), "cc1 b.c"));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(json_object_array_get_idx(steps, 0),
									 "new_ms")) -
				  json_object_get_double(json_object_object_get(json_object_array_get_idx(steps, 0),
										 "old_ms")),
		     500));
	json_object_put(j);

	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	cr_assert(not(eq(ptr, strstr(text, "cc1 b.c"), NULL)));
	cr_assert(not(eq(ptr, strstr(text, "+0.500 s"), NULL)));
	free(text);
	mem = open_memstream(&text, &len);
	diff_report__markdown(mem, &d);
	fclose(mem);
	cr_assert(not(eq(ptr, strstr(text, "| cc1 b.c |"), NULL)));
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/*
 * json-c compiles json_tokener.c twice, for the shared and the static
 * library; both got slower (slow_ms), at -j (jobs) from the root's argv.
 */
static void twice_build(struct synth_build *b, __u32 base, const char *const argv[], __u64 slow_ms)
{
	static const char *const objs[] = { "CMakeFiles/json-c.dir/json_tokener.c.o",
					    "CMakeFiles/json-c-static.dir/json_tokener.c.o" };
	__u64 i;

	synth_build__start_cmd(b, base, "/w/bld", "/usr/bin/make", argv);
	for (i = 0; i < 2; i++) {
		__u32 cc = base + 10 + 10 * (__u32)i;
		__u64 from = 10 + 400 * i;

		synth_build__proc(b, cc, base, "/usr/bin/cc", ARGV("cc", "-c", "../json_tokener.c", "-o", objs[i]),
				  from, from + 320 + slow_ms, 2);
		synth_build__proc(b, cc + 1, cc, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
				  ARGV("cc1", "-quiet", "../json_tokener.c", "-o", "/tmp/ccT.s"), from + 1,
				  from + 301 + slow_ms, 290 + slow_ms);
	}
	synth_build__finish(b, 900 + 2 * slow_ms);
}

/* Issue 26, item 8: two steps of one name are two rows a person can tell apart; a changed -j has its row. */
Test(diff_report, steps_of_one_name_apart_and_a_changed_jobs_row)
{
	struct synth_build o, n;
	struct json_object *j, *jobs, *side;
	struct diff d;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *mem;

	twice_build(&o, 100, ARGV("make", "-j2"), 0);
	twice_build(&n, 200, ARGV("make", "-j4"), 500);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(sz, d.match.matched, o.m->nr_procs));
	cr_assert(d.jobs_changed);
	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	cr_assert(not(eq(ptr, strstr(text, "cc1 json_tokener.c [json-c]"), NULL)),
		  "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "cc1 json_tokener.c [json-c-static]"),
			 NULL)),
		  "%s", text);
	line = strstr(text, "jobs (-j)");
	cr_assert(not(eq(ptr, line, NULL)), "%s", text);
	cr_assert(eq(int, strncmp(line, "jobs (-j)", 9), 0));
	cr_assert(not(eq(ptr, strstr(line, " 2 "), NULL)), "%s", line);
	cr_assert(not(eq(ptr, strstr(line, " 4 "), NULL)), "%s", line);
	cr_assert(not(eq(ptr, strstr(line, "changed\n"), NULL)), "%s", line);
	free(text);

	j = diff_json__new(&d);
	cr_assert(json_object_object_get_ex(j, "jobs", &jobs));
	cr_assert(json_object_get_boolean(json_object_object_get(jobs, "changed")));
	cr_assert(json_object_object_get_ex(jobs, "old", &side));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(side, "requested")), 2));
	cr_assert(json_object_object_get_ex(jobs, "new", &side));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(side, "requested")), 4));
	json_object_put(j);
	diff__free(&d);
	synth_build__free(&n);

	/* The same -j: "=". */
	twice_build(&n, 300, ARGV("make", "-j2"), 0);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(not(d.jobs_changed));
	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	line = strstr(text, "jobs (-j)");
	cr_assert(not(eq(ptr, line, NULL)));
	cr_assert(not(eq(ptr, strstr(line, " =\n"), NULL)), "%s", line);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* The line of text that contains what, from its start; fails without one. */
static const char *line_with(const char *text, const char *what)
{
	const char *at = strstr(text, what);

	cr_assert(not(eq(ptr, (void *)at, NULL)), "no '%s' in:\n%s", what, text);
	while (at > text && at[-1] != '\n')
		at--;
	return at;
}

/* Where, in line, the first cell after the name (at 2) that reads cell ends: its column. */
static size_t cell_end(const char *line, const char *name_end, const char *cell)
{
	const char *at = strstr(name_end, cell);

	cr_assert(not(eq(ptr, (void *)at, NULL)), "no '%s' in: %.120s", cell, line);
	return (size_t)(at - line) + strlen(cell);
}

/* A program of a 60-character name: its row's figures stand under the header's, as a short name's do. */
Test(diff_report, a_long_name_keeps_the_columns_in_line)
{
	static const char long_name[] = "a-generator-whose-name-runs-on-past-the-first-column-60-char";
	char path[128], cpu[DIFF_FMT_BUF];
	struct synth_build o, n;
	const char *header, *long_row, *short_row;
	char *text = NULL;
	size_t len = 0, header_end;
	struct diff d;
	FILE *mem;

	cr_assert(eq(sz, strlen(long_name), 60));
	snprintf(path, sizeof(path), "/usr/bin/%s", long_name);
	synth_build__start(&o, 100, "/w");
	synth_build__proc(&o, 110, 100, path, ARGV(long_name, "x"), 10, 200, 100);
	synth_build__proc(&o, 120, 100, "/usr/bin/strip", ARGV("strip", "x"), 200, 300, 50);
	synth_build__finish(&o, 400);
	synth_build__start(&n, 100, "/w");
	synth_build__proc(&n, 110, 100, path, ARGV(long_name, "x"), 10, 500, 400);
	synth_build__proc(&n, 120, 100, "/usr/bin/strip", ARGV("strip", "x"), 500, 700, 150);
	synth_build__finish(&n, 800);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	header = line_with(text, "  program ");
	long_row = line_with(header, long_name);
	short_row = line_with(header, "  strip ");
	header_end = cell_end(header, header + 2, "old CPU");
	cr_assert(eq(sz, cell_end(long_row, long_row + 2 + 60, diff_fmt_ns(cpu, 100 * SB_MS)), header_end), "%s",
		  text);
	cr_assert(eq(sz, cell_end(short_row, short_row + 2 + 5, diff_fmt_ns(cpu, 50 * SB_MS)), header_end), "%s",
		  text);
	cr_assert(eq(sz, cell_end(header, header + 2, "new CPU"), header_end + 1 + 12), "%s", text);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

Test(diff_svg, both_strips_and_paired_bars_in_well_formed_svg)
{
	struct synth_build o, n;
	const char *problem;
	size_t len = 0, elements, bars = 0;
	char *svg = NULL, *at;
	struct diff d;
	FILE *mem;

	demo_build(&o, 100, "/w", "AbC", 0);
	demo_build(&n, 200, "/w", "Def", 500);
	o.side.name = "old<&>.bbl"; /* escaped, not markup */
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	mem = open_memstream(&svg, &len);
	cr_assert(eq(int, diff_svg__write(mem, &d), 0));
	fclose(mem);
	problem = xml_check(svg, &elements);
	cr_assert(eq(ptr, (void *)problem, NULL), "%s", problem);
	cr_assert(not(eq(ptr, strstr(svg, "old&lt;&amp;&gt;.bbl"), NULL)));
	/* --sched=off: each strip says it has no CPU data. */
	at = strstr(svg, "no CPU data");
	cr_assert(not(eq(ptr, at, NULL)));
	cr_assert(not(eq(ptr, strstr(at + 1, "no CPU data"), NULL)));
	/* One old and one new bar per program, cc1 first. */
	for (at = svg; (at = strstr(at, "<title>old: ")); at++)
		bars++;
	cr_assert(eq(sz, bars, d.nr_programs < DIFF_SVG_PROGRAMS ? d.nr_programs : DIFF_SVG_PROGRAMS));
	cr_assert(lt(ptr, strstr(svg, ">cc1</text>"), strstr(svg, ">as</text>")));
	free(svg);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* The axis' tick labels in the text from at up to end (NULL: its end), in the order drawn. */
static size_t count_ticks(const char *at, const char *end, char *last, size_t size)
{
	size_t n = 0;

	while ((at = strstr(at, "class=\"t\">")) && (!end || at < end)) {
		at += strlen("class=\"t\">");
		snprintf(last, size, "%.*s", (int)strcspn(at, "<"), at);
		n++;
	}
	return n;
}

/* diff --html: both timelines on the longer build's scale, and each caption says so. */
Test(diff_html, both_timelines_on_the_longer_builds_scale)
{
	struct synth_build o, n;
	char *page = NULL, *old_side, *new_side, old_last[32] = "", new_last[32] = "";
	size_t len = 0, old_ticks, new_ticks;
	struct diff d;
	FILE *mem;

	demo_build(&o, 100, "/w", "AbC", 0);	/* 0.6 s */
	demo_build(&n, 200, "/w", "Def", 500);	/* 1.1 s */
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(eq(u64, diff__longer_wall_ns(&d), 1100 * SB_MS));
	mem = open_memstream(&page, &len);
	cr_assert(eq(int, diff_html__write(mem, &d), 0));
	cr_assert(eq(int, fclose(mem), 0));
	old_side = strstr(page, "<div class=\"bb-side\">");
	cr_assert(not(eq(ptr, old_side, NULL)));
	new_side = strstr(old_side + 1, "<div class=\"bb-side\">");
	cr_assert(not(eq(ptr, new_side, NULL)));
	/* One scale: the same ticks to the same last second (the old build's own 0.6 s drew other ticks). */
	old_ticks = count_ticks(old_side, new_side, old_last, sizeof(old_last));
	new_ticks = count_ticks(new_side, NULL, new_last, sizeof(new_last));
	cr_assert(ge(sz, old_ticks, 2));
	cr_assert(eq(sz, old_ticks, new_ticks));
	cr_assert(eq(str, old_last, new_last));
	cr_assert(eq(str, old_last, "1.1 s"));
	cr_assert(not(eq(ptr, strstr(old_side, "wall (new, 1.10 s)"), NULL)), "%s", old_side);
	cr_assert(not(eq(ptr, strstr(old_side, "this build (0.60 s) ends 55 % of the way across"), NULL)));
	cr_assert(not(eq(ptr, strstr(new_side, "this build (1.10 s) ends 100 % of the way across"), NULL)));
	assert_page_runs_only_its_script(page);
	free(page);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* "ccache gcc -c src" at from_ms; hit: nothing under it, else gcc, cc1 and as compile (pid..pid+3). */
static void ccache_compile(struct synth_build *b, __u32 pid, const char *src, __u64 from, bool hit)
{
	synth_build__proc(b, pid, b->root_pid, "/usr/bin/ccache", ARGV("ccache", "gcc", "-c", src), from,
			  from + (hit ? 10 : 400), 3);
	if (hit)
		return;
	synth_build__proc(b, pid + 1, pid, "/usr/bin/gcc", ARGV("gcc", "-c", src), from + 5, from + 395, 2);
	synth_build__proc(b, pid + 2, pid + 1, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
			  ARGV("cc1", "-quiet", src, "-o", "/tmp/ccX.s"), from + 6, from + 380, 350);
	synth_build__proc(b, pid + 3, pid + 1, "/usr/bin/as", ARGV("as", "-o", "x.o", "/tmp/ccX.s"), from + 381,
			  from + 394, 10);
}

/* Issue 30 item 4: a hit in the new build saved what its step's miss cost in the base. */
Test(diff, a_cache_hit_saved_what_its_steps_miss_cost_in_the_base)
{
	struct synth_build o, n;
	struct json_object *j, *cache;
	struct diff d;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	synth_build__start(&o, 100, "/w");
	ccache_compile(&o, 110, "a.c", 10, false); /* 3 + 2 + 350 + 10 ms CPU, 400 ms */
	ccache_compile(&o, 120, "b.c", 420, false);
	synth_build__finish(&o, 900);
	synth_build__start(&n, 200, "/w");
	ccache_compile(&n, 210, "a.c", 10, true); /* 3 ms CPU, 10 ms */
	ccache_compile(&n, 220, "b.c", 30, false);
	ccache_compile(&n, 230, "c.c", 440, true); /* a hit the base did not run */
	synth_build__finish(&n, 500);
	cr_assert(eq(sz, o.a.cache.nr_misses, 2));
	cr_assert(eq(sz, n.a.cache.nr_hits_direct, 2));
	cr_assert(eq(sz, n.a.cache.nr_saved, 0)); /* the new log alone has no miss of a.c */
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(d.cache.known);
	cr_assert(eq(sz, d.cache.nr_hits, 2));
	cr_assert(eq(sz, d.cache.nr_saved, 1));
	cr_assert(eq(u64, d.cache.saved_cpu_ns, (365 - 3) * SB_MS));
	cr_assert(eq(u64, d.cache.saved_wall_ns, (400 - 10) * SB_MS));

	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	cr_assert(not(eq(ptr, strstr(text, "1 of the new build's 2 hits missed in the old build; against those misses "
					  "the hits saved 0.362 s CPU and 0.390 s wall"), NULL)), "%s", text);
	free(text);
	j = diff_json__new(&d);
	cr_assert(json_object_object_get_ex(j, "compiler_cache", &cache));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(cache, "saved_against_old_hits")), 1));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(cache, "saved_against_old_cpu_ms")), 362));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(json_object_object_get(cache, "new"), "hits")),
		     2));
	json_object_put(j);
	diff__free(&d);

	/* The other way round: the new build's misses save nothing, and no cache at all has no section. */
	cr_assert(eq(int, diff__compute(&d, &n.side, &o.side), 0));
	cr_assert(eq(sz, d.cache.nr_saved, 0));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
	demo_build(&o, 100, "/w", "AbC", 0);
	demo_build(&n, 200, "/w", "Def", 0);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(not(d.cache.known));
	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	cr_assert(eq(ptr, strstr(text, "Compiler cache"), NULL), "%s", text);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/*
 * A step whose name the model shortened ("cc1 …/deep/x.c"): the text writes
 * the mark as "...", as the report's text does, not as "\xe2\x80\xa6", and
 * its figures stand under the header's.  A C1 control in a name from the
 * build (U+0085, valid UTF-8) stays escaped.
 */
Test(diff_report, a_shortened_name_reads_dots_and_keeps_the_columns)
{
	static const char deep[] = "src/a-rather-long-directory/and-a-deeper-one/below/x.c";
	static const char c1[] = "n\xc2\x85l.c";
	struct synth_build o, n;
	const char *header, *deep_row, *c1_row;
	char *text = NULL, cpu[DIFF_FMT_BUF];
	size_t len = 0, header_end;
	struct diff d;
	FILE *mem;
	int i;

	for (i = 0; i < 2; i++) {
		struct synth_build *b = i ? &n : &o;
		__u64 slow = i ? 500 : 0;

		synth_build__start(b, 100 + 100 * i, "/w");
		compile(b, 110 + 100 * i, deep, "/tmp/ccA.s", 10, 300 + slow, 290 + slow);
		compile(b, 120 + 100 * i, c1, "/tmp/ccB.s", 10, 300 + slow, 290 + slow);
		synth_build__finish(b, 1000 + slow);
	}
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	mem = open_memstream(&text, &len);
	diff_report__text(mem, &d);
	fclose(mem);
	cr_assert(eq(ptr, strstr(text, "\\xe2"), NULL), "%s", text);
	deep_row = line_with(text, "  cc1 .../");
	c1_row = line_with(text, "  cc1 n\\xc2\\x85l.c ");
	header = line_with(text, "  step ");
	cr_assert(deep_row > header && c1_row > header, "%s", text);
	header_end = cell_end(header, header + 2, "old");
	cr_assert(eq(sz, cell_end(deep_row, strstr(deep_row, ".c ") + 2, diff_fmt_ns(cpu, 290 * SB_MS)),
		     header_end),
		  "%s", text);
	cr_assert(eq(sz, cell_end(c1_row, strstr(c1_row, ".c ") + 2, diff_fmt_ns(cpu, 290 * SB_MS)), header_end),
		  "%s", text);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}
