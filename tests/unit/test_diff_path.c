// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf diff: the two builds' critical paths (build graph) and what
 * moved onto or off them, from synthetic builds whose paths are known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "diff/diff.h"
#include "diff/diff_json.h"
#include "diff/diff_report.h"
#include "audit/audit_whatif.h"
#include "model/proc_name.h"
#include "lib/synth_build.h"

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* One compile: cc -c SRC -o OBJ over [10, 10 + ms), writing OBJ (inode ino) at its end. */
static void compile(struct synth_build *b, __u32 pid, const char *src, const char *obj, __u64 ino, __u64 ms,
		    bool with_files)
{
	synth_build__proc(b, pid, b->root_pid, "/usr/bin/cc", ARGV("cc", "-c", src, "-o", obj), 10, 10 + ms, ms - 5);
	if (with_files)
		synth_build__file(b, pid, 10 + ms - 1, ino, true, obj);
}

/*
 * make -j3 runs three compiles at once, then the link, which reads the
 * three objects: the slowest compile is on the critical path.  b_ms and
 * c_ms: how long b.c and c.c take (a.c 100 ms).  Without files: no graph.
 */
static void three_objects(struct synth_build *b, __u32 base, __u64 b_ms, __u64 c_ms, bool with_files)
{
	__u64 link_at = 10 + (b_ms > c_ms ? b_ms : c_ms) + 10;

	synth_build__start(b, base, "/w");
	compile(b, base + 1, "a.c", "a.o", 1, 100, with_files);
	compile(b, base + 2, "b.c", "b.o", 2, b_ms, with_files);
	compile(b, base + 3, "c.c", "c.o", 3, c_ms, with_files);
	synth_build__proc(b, base + 4, base, "/usr/bin/ld", ARGV("ld", "-o", "prog", "a.o", "b.o", "c.o"), link_at,
			  link_at + 100, 90);
	if (with_files) {
		synth_build__file(b, base + 4, link_at + 1, 1, false, "a.o");
		synth_build__file(b, base + 4, link_at + 2, 2, false, "b.o");
		synth_build__file(b, base + 4, link_at + 3, 3, false, "c.o");
		synth_build__file(b, base + 4, link_at + 90, 4, true, "prog");
	}
	synth_build__finish(b, link_at + 110);
}

static void expect_step(const struct synth_build *b, long proc, const char *want)
{
	char *name;

	cr_assert(ge(long, proc, 0));
	name = proc_display_name(b->m, &b->m->procs[proc]);
	cr_assert(eq(str, name, (char *)want));
	free(name);
}

/* The report written to a string by write(out, d). */
static char *report_text(void (*write)(FILE *, const struct diff *), const struct diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(not(eq(ptr, f, NULL)));
	write(f, d);
	cr_assert(eq(int, fclose(f), 0));
	return buf;
}

static void assert_contains(const char *text, const char *want)
{
	cr_assert(not(eq(ptr, strstr(text, want), NULL)), "no '%s' in:\n%s", want, text);
}

/* Every line of text fits 100 columns (a long path wraps). */
static void assert_fits(const char *text)
{
	const char *line, *nl;

	for (line = text; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		cr_assert(le(long, nl - line, 100), "too wide: %.*s", (int)(nl - line), line);
		if (!*nl)
			break;
	}
}

/* The known answer: the slow step changes from c.o to b.o. */
Test(diff_path, slow_step_moves_from_c_to_b)
{
	struct synth_build o, n;
	struct diff d;

	three_objects(&o, 100, 200, 1000, true);
	three_objects(&n, 500, 1000, 200, true);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(d.path.known);
	cr_assert(eq(sz, d.match.matched, o.m->nr_procs));
	cr_assert(eq(sz, d.path.nr_moved_off, 1));
	cr_assert(eq(sz, d.path.nr_moved_on, 1));
	expect_step(&o, d.path.moved_off[0].old_proc, "cc c.c");
	expect_step(&n, d.path.moved_on[0].new_proc, "cc b.c");
	/* Both matched: c.c still ran in the new build, b.c in the old, off the path. */
	expect_step(&n, d.path.moved_off[0].new_proc, "cc c.c");
	expect_step(&o, d.path.moved_on[0].old_proc, "cc b.c");
	/* c.c held the old path from its start (10 ms, when make forked it) to its end. */
	cr_assert(eq(u64, d.path.moved_off[0].old_ns, 1000 * SB_MS));
	cr_assert(eq(u64, d.path.moved_off[0].new_ns, 0));
	cr_assert(eq(u64, d.path.moved_on[0].new_ns, 1000 * SB_MS));
	cr_assert(eq(u64, d.path.moved_on[0].old_ns, 0));
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* The same build twice: nothing moves. */
Test(diff_path, same_build_moves_nothing)
{
	struct synth_build o, n;
	struct diff d;
	char *text;

	three_objects(&o, 100, 200, 1000, true);
	three_objects(&n, 500, 200, 1000, true);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(d.path.known);
	cr_assert(eq(sz, d.path.nr_moved_on, 0));
	cr_assert(eq(sz, d.path.nr_moved_off, 0));
	text = report_text(diff_report__text, &d);
	assert_contains(text, "the same steps hold both paths");
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* Text, Markdown and JSON name the paths and the moved steps alike. */
Test(diff_path, reports_say_what_moved)
{
	struct json_object *j, *cp, *v, *step;
	struct synth_build o, n;
	struct diff d;
	char *text, *md;

	three_objects(&o, 100, 200, 1000, true);
	three_objects(&n, 500, 1000, 200, true);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));

	text = report_text(diff_report__text, &d);
	assert_contains(text, "Critical path (build graph)");
	assert_contains(text, "cc c.c 1.000 s -> ld");
	assert_contains(text, "cc b.c 1.000 s -> ld");
	assert_contains(text, "  cc c.c");
	assert_contains(text, " off\n");
	assert_contains(text, " on\n");
	md = report_text(diff_report__markdown, &d);
	assert_contains(md, "**Critical path (build graph)**");
	assert_contains(md, "| cc c.c | 1.000 s | - | off |");
	assert_contains(md, "| cc b.c | - | 1.000 s | on |");

	j = diff_json__new(&d);
	cr_assert(not(eq(ptr, j, NULL)));
	cr_assert(json_object_object_get_ex(j, "critical_path", &cp));
	cr_assert(json_object_object_get_ex(cp, "moved_off", &v));
	cr_assert(eq(sz, json_object_array_length(v), 1));
	step = json_object_array_get_idx(v, 0);
	cr_assert(json_object_object_get_ex(step, "name", &v));
	cr_assert(eq(str, (char *)json_object_get_string(v), "cc c.c"));
	cr_assert(json_object_object_get_ex(step, "old_ms", &v));
	cr_assert(eq(dbl, json_object_get_double(v), 1000.0));
	cr_assert(json_object_object_get_ex(cp, "moved_on", &v));
	step = json_object_array_get_idx(v, 0);
	cr_assert(json_object_object_get_ex(step, "name", &v));
	cr_assert(eq(str, (char *)json_object_get_string(v), "cc b.c"));
	cr_assert(json_object_object_get_ex(cp, "new", &v));
	cr_assert(json_object_object_get_ex(v, "steps", &v));
	cr_assert(le(sz, 2, json_object_array_length(v)));
	json_object_put(j);
	free(text);
	free(md);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/*
 * make's own parts of the path (before it forks the compiles, after the
 * link) are entries but no steps: diff counts the steps as the report's
 * "N steps" does, and its JSON labels each entry.
 */
Test(diff_path, a_path_counts_the_steps_the_report_counts)
{
	struct json_object *j, *v;
	struct synth_build o, n;
	struct diff d;
	char *text, want[64];
	size_t i, steps = 0;

	three_objects(&o, 100, 200, 1000, true);
	three_objects(&n, 500, 1000, 200, true);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(n.a.nr_chain > audit_whatif__nr_steps(&n.a), "make's parts are on the path");
	text = report_text(diff_report__text, &d);
	snprintf(want, sizeof(want), "  new: %zu steps, ", audit_whatif__nr_steps(&n.a));
	assert_contains(text, want);
	j = diff_json__new(&d);
	cr_assert(not(eq(ptr, j, NULL)));
	cr_assert(json_object_object_get_ex(j, "critical_path", &v) && json_object_object_get_ex(v, "new", &v) &&
		  json_object_object_get_ex(v, "steps", &v));
	cr_assert(eq(sz, json_object_array_length(v), n.a.nr_chain));
	for (i = 0; i < json_object_array_length(v); i++) {
		struct json_object *step;

		cr_assert(json_object_object_get_ex(json_object_array_get_idx(v, i), "step", &step));
		steps += json_object_get_boolean(step);
	}
	cr_assert(eq(sz, steps, audit_whatif__nr_steps(&n.a)));
	json_object_put(j);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* A step only the new build ran, on its path: moved on, with no old process. */
Test(diff_path, a_new_step_on_the_path_is_only_in_new)
{
	struct synth_build o, n;
	struct diff d;
	char *text;

	three_objects(&o, 100, 200, 300, true);
	synth_build__start(&n, 500, "/w");
	compile(&n, 501, "a.c", "a.o", 1, 100, true);
	compile(&n, 502, "b.c", "b.o", 2, 200, true);
	compile(&n, 503, "c.c", "c.o", 3, 300, true);
	/* A new generated source read by d.c's compile, the longest chain now. */
	synth_build__proc(&n, 505, 500, "/usr/bin/python3", ARGV("python3", "gen.py"), 10, 400, 380);
	synth_build__file(&n, 505, 399, 6, true, "gen.c");
	synth_build__proc(&n, 506, 500, "/usr/bin/cc", ARGV("cc", "-c", "gen.c", "-o", "gen.o"), 401, 600, 190);
	synth_build__file(&n, 506, 402, 6, false, "gen.c");
	synth_build__file(&n, 506, 599, 7, true, "gen.o");
	synth_build__proc(&n, 504, 500, "/usr/bin/ld", ARGV("ld", "-o", "prog", "a.o", "b.o", "c.o", "gen.o"), 610, 710,
			  90);
	synth_build__file(&n, 504, 611, 1, false, "a.o");
	synth_build__file(&n, 504, 612, 2, false, "b.o");
	synth_build__file(&n, 504, 613, 3, false, "c.o");
	synth_build__file(&n, 504, 614, 7, false, "gen.o");
	synth_build__finish(&n, 720);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert(d.path.known);
	cr_assert(eq(sz, d.path.nr_moved_off, 1));
	expect_step(&o, d.path.moved_off[0].old_proc, "cc c.c");
	cr_assert(eq(sz, d.path.nr_moved_on, 2));
	expect_step(&n, d.path.moved_on[0].new_proc, "python3 gen.py");
	expect_step(&n, d.path.moved_on[1].new_proc, "cc gen.c");
	cr_assert(eq(long, d.path.moved_on[0].old_proc, -1));
	cr_assert(eq(long, d.path.moved_on[1].old_proc, -1));
	text = report_text(diff_report__text, &d);
	assert_contains(text, "on (only in new)");
	/* The new path: make, python3 gen.py, cc gen.c, ld, make: wrapped before an arrow. */
	assert_contains(text, "\n       -> ");
	assert_fits(text);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* Without a build graph on one side the paths are not compared, and the reports say why. */
Test(diff_path, not_compared_without_a_graph)
{
	struct json_object *j, *cp;
	struct synth_build o, n;
	struct diff d;
	char *text;

	three_objects(&o, 100, 200, 1000, false);
	three_objects(&n, 500, 1000, 200, true);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	cr_assert_not(d.path.known);
	cr_assert(eq(sz, d.path.nr_moved_on + d.path.nr_moved_off, 0));
	text = report_text(diff_report__text, &d);
	assert_contains(text, "not compared: the old build has no build graph");
	j = diff_json__new(&d);
	cr_assert(json_object_object_get_ex(j, "critical_path", &cp));
	cr_assert(eq(ptr, cp, NULL));
	json_object_put(j);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}

/* Neither side with a graph: one negative, "neither build has a build graph". */
Test(diff_path, neither_side_with_a_graph_says_it_once)
{
	struct synth_build o, n;
	struct diff d;
	char *text;

	three_objects(&o, 100, 200, 1000, false);
	three_objects(&n, 500, 1000, 200, false);
	cr_assert(eq(int, diff__compute(&d, &o.side, &n.side), 0));
	text = report_text(diff_report__text, &d);
	assert_contains(text, "not compared: neither build has a build graph (");
	cr_assert(strstr(text, "has no") == NULL, "%s", text);
	free(text);
	diff__free(&d);
	synth_build__free(&o);
	synth_build__free(&n);
}
