// SPDX-License-Identifier: GPL-2.0
/*
 * The race finder from synthetic records (no root): each kind found with its
 * file, steps and times, and each thing that is no race left alone.  make
 * (pid 100) runs the jobs in /src; a job is a child of the runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "diff/diff.h"
#include "diff/diff_json.h"
#include "diff/fail_if.h"
#include "graph/graph_run.h"
#include "graph/races.h"
#include "lib/synth.h"
#include "lib/json_fields.h"
#include "lib/synth_build.h"
#include "lib/written_trace.h"
#include "report/audit_answers.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "report/chrome_trace.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define DEV 8
#define ROOT 100

struct fixture {
	struct model *m;
	struct file_log *fl;
	struct graph_run g;
	struct races r; /* a view of g.races: graph_run__compute() finds them */
};

/* A file use: pid opened path (inode ino) at `at` ms. */
struct use {
	__u64 at;
	__u32 pid;
	__u64 ino;
	bool write;
	const char *path;
};

/* A process: pid, child of parent, runs argv[0] during [start, end] ms. */
struct step {
	__u32 pid, parent;
	const char *argv[4];
	__u64 start, end;
};

static void begin(struct fixture *f, const char *runner)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(ROOT, 0);
	f->fl = file_log__new();
	cr_assert(f->m && f->fl);
	cr_assert(eq(int, model__set_cwd(f->m, "/src"), 0));
	synth_exec(f->m, 1, ROOT, 1, runner, (const char *[]){ runner, "-j8", NULL });
}

static void steps(struct fixture *f, const struct step *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		synth_fork(f->m, s[i].start * MS, s[i].parent, s[i].pid, s[i].pid, false);
		synth_exec(f->m, s[i].start * MS + 1, s[i].pid, s[i].parent, s[i].argv[0], s[i].argv);
		synth_exit(f->m, s[i].end * MS, s[i].pid, s[i].pid, true, 0);
	}
}

static void uses(struct fixture *f, const struct use *u, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		synth_file_open(f->fl, u[i].at * MS, u[i].pid, DEV, u[i].ino, u[i].write, u[i].path);
}

#define STEPS(f, s) steps(f, s, sizeof(s) / sizeof(s[0]))
#define USES(f, u) uses(f, u, sizeof(u) / sizeof(u[0]))

static void find(struct fixture *f, __u64 end_ms)
{
	enum graph_step failed;

	synth_exit(f->m, end_ms * MS, ROOT, ROOT, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
	file_log__finish(f->fl);
	cr_assert(eq(int, with_slots__graph_run(&f->g, f->m, f->fl, NULL, &failed), 0));
	f->r = f->g.races;
}

static void end(struct fixture *f)
{
	graph_run__free(&f->g);
	file_log__free(f->fl);
	model__free(f->m);
}

static __u32 pid_of(const struct fixture *f, size_t proc)
{
	return f->m->procs[proc].pid;
}

/* gen (job A) writes out.h; cat (job B), started while gen still ran, reads it later. */
Test(races, read_while_being_written_names_the_file_the_steps_and_the_times)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/bin/gen", "out.h", NULL }, 2, 500 },
		{ 102, ROOT, { "/bin/cat", "out.h", NULL }, 3, 1200 },
	};
	static const struct use u[] = { { 400, 101, 7, true, "src/out.h" }, { 1100, 102, 7, false, "src/out.h" },
					{ 1101, 102, 7, false, "src/out.h" } };
	struct fixture f;
	const struct race *x;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 1300);
	cr_assert(eq(sz, f.r.nr, 1), "one race, however often it was read");
	x = &f.r.items[0];
	cr_assert(eq(int, x->kind, RACE_READ_WHILE_WRITTEN));
	cr_assert(eq(str, x->file, "out.h"));
	cr_assert(eq(u32, pid_of(&f, x->writer_step), 101));
	cr_assert(eq(u32, pid_of(&f, x->other_step), 102));
	cr_assert(eq(u32, pid_of(&f, x->writer_proc), 101));
	cr_assert(eq(u64, x->write_ns, 400 * MS));
	cr_assert(eq(u64, x->other_ns, 1100 * MS));
	cr_assert_not(x->by_rename);
	cr_assert(eq(str, x->advice, "`cat out.h` needs `out.h` from `gen out.h`: add `out.h` as a prerequisite of its "
				     "target"));
	end(&f);
}

Test(races, a_declared_dependency_is_no_race)
{
	/* cat started after gen's job ended: make waited for it. */
	static const struct step s[] = {
		{ 101, ROOT, { "/bin/gen", NULL }, 2, 500 },
		{ 102, ROOT, { "/bin/cat", NULL }, 501, 1200 },
	};
	static const struct use u[] = { { 400, 101, 7, true, "src/out.h" }, { 600, 102, 7, false, "src/out.h" } };
	struct fixture f;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 1300);
	cr_assert(eq(sz, f.r.nr, 0));
	cr_assert(eq(sz, f.g.data.nr_edges, 1), "the edge is there, and declared");
	end(&f);
}

/* The only race found, of that kind. */
static const struct race *one_race(const struct fixture *f, enum race_kind kind)
{
	cr_assert(eq(sz, f->r.nr, 1));
	cr_assert(eq(int, f->r.items[0].kind, kind));
	return &f->r.items[0];
}

/*
 * gen1 wrote out.h early (the kernel records later reads of it); cat reads
 * it; gen2, running beside cat, rewrites it afterwards.
 */
static const struct step rewrite_steps[] = {
	{ 103, ROOT, { "/bin/gen1", NULL }, 1, 100 },
	{ 102, ROOT, { "/bin/cat", NULL }, 200, 1000 },
	{ 101, ROOT, { "/bin/gen2", NULL }, 250, 900 },
};

Test(races, read_before_written_needs_a_write_earlier_in_the_build)
{
	static const struct use u[] = { { 50, 103, 7, true, "src/out.h" },
					{ 300, 102, 7, false, "src/out.h" },
					{ 800, 101, 7, true, "src/out.h" } };
	struct fixture f;
	const struct race *x;

	begin(&f, "/usr/bin/make");
	STEPS(&f, rewrite_steps);
	USES(&f, u);
	find(&f, 1100);
	x = one_race(&f, RACE_READ_BEFORE_WRITTEN);
	cr_assert(eq(str, x->file, "out.h"));
	cr_assert(eq(u32, pid_of(&f, x->writer_step), 101));
	cr_assert(eq(u32, pid_of(&f, x->other_step), 102));
	cr_assert(eq(u64, x->write_ns, 800 * MS));
	cr_assert(eq(u64, x->other_ns, 300 * MS));
	end(&f);
}

/* As above, but gen2 writes out.h.tmp and renames it onto out.h (from a subdirectory's view). */
Test(races, read_before_replaced_by_a_rename)
{
	static const struct use u[] = { { 50, 103, 7, true, "src/inc/out.h" },
					{ 300, 102, 7, false, "src/inc/out.h" },
					{ 700, 101, 8, true, "src/inc/out.h.tmp" } };
	struct fixture f;
	const struct race *x;

	begin(&f, "/usr/bin/make");
	STEPS(&f, rewrite_steps);
	USES(&f, u);
	synth_file_rename(f.fl, 800 * MS, 101, "../inc/out.h.tmp", "./../inc/out.h");
	find(&f, 1100);
	x = one_race(&f, RACE_READ_BEFORE_WRITTEN);
	cr_assert(eq(str, x->file, "inc/out.h"));
	cr_assert(x->by_rename);
	cr_assert(eq(u64, x->write_ns, 800 * MS));
	cr_assert(eq(sz, f.r.renames_unresolved, 0));
	end(&f);
}

/*
 * rustc a renames its .rmeta into place at 200 ms and generates code on
 * until 1000 ms; rustc b, started at 300 ms, reads it.  cargo started b on
 * that file (it pipelines): its own order, no race.  make waits for a
 * recipe's end, so there the same is a race.
 */
static void pipelined(struct fixture *f, const char *runner)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/usr/bin/rustc", "--crate-name", "a", NULL }, 2, 1000 },
		{ 102, ROOT, { "/usr/bin/rustc", "--crate-name", "b", NULL }, 300, 1200 },
	};
	static const struct use u[] = { { 100, 101, 8, true, "src/t/liba.rmeta.tmp" },
					{ 310, 102, 8, false, "src/t/liba.rmeta" } };

	begin(f, runner);
	STEPS(f, s);
	USES(f, u);
	synth_file_rename(f->fl, 200 * MS, 101, "t/liba.rmeta.tmp", "t/liba.rmeta");
	find(f, 1300);
}

Test(races, a_rmeta_cargo_pipelined_is_no_race_but_the_same_under_make_is)
{
	struct fixture f;
	const struct race *x;

	pipelined(&f, "/usr/bin/cargo");
	cr_assert(eq(sz, f.g.jobs.nr_jobs, 2));
	cr_assert(eq(sz, f.r.nr, 0), "%s", f.r.nr ? f.r.items[0].advice : "");
	end(&f);

	pipelined(&f, "/usr/bin/make");
	x = one_race(&f, RACE_READ_WHILE_WRITTEN);
	cr_assert(eq(str, x->file, "t/liba.rmeta"));
	cr_assert(x->by_rename);
	end(&f);
}

Test(races, written_twice_by_concurrent_jobs_but_not_by_ordered_ones)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/bin/gen1", NULL }, 1, 500 },
		{ 102, ROOT, { "/bin/gen2", NULL }, 50, 600 },
		{ 103, ROOT, { "/bin/gen3", NULL }, 700, 800 }, /* after both */
	};
	static const struct use u[] = { { 100, 101, 7, true, "src/out.h" },
					{ 400, 102, 7, true, "src/out.h" },
					{ 750, 103, 7, true, "src/out.h" } };
	struct fixture f;
	const struct race *x;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 900);
	x = one_race(&f, RACE_WRITTEN_TWICE);
	cr_assert(eq(u32, pid_of(&f, x->writer_step), 101));
	cr_assert(eq(u32, pid_of(&f, x->other_step), 102));
	cr_assert(eq(u64, x->write_ns, 100 * MS));
	cr_assert(eq(u64, x->other_ns, 400 * MS));
	cr_assert(eq(str, x->advice, "`gen1` and `gen2` both write `out.h`: let one target write it, or order the two"));
	end(&f);
}

/*
 * Two concurrent jobs only read what make wrote before them, and each
 * keeps a temporary file of its own, the second under the first's freed
 * inode: nothing is a race.
 */
Test(races, files_only_read_and_a_jobs_own_temporaries_are_no_race)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/bin/sh", "-c", "cc -c a.c", NULL }, 2, 500 },
		{ 201, 101, { "/usr/lib/cc1", "a.c", NULL }, 3, 200 },
		{ 202, 101, { "/usr/bin/as", NULL }, 201, 490 },
		{ 102, ROOT, { "/bin/sh", "-c", "cc -c b.c", NULL }, 3, 600 },
		{ 203, 102, { "/usr/lib/cc1", "b.c", NULL }, 4, 300 },
		{ 204, 102, { "/usr/bin/as", NULL }, 301, 590 },
	};
	static const struct use u[] = {
		{ 1, ROOT, 5, true, "src/config.h" },	{ 10, 201, 5, false, "src/config.h" },
		{ 11, 203, 5, false, "src/config.h" },	{ 150, 201, 9, true, "tmp/cc1.s" },
		{ 250, 202, 9, false, "tmp/cc1.s" },	{ 320, 204, 9, true, "tmp/cc2.s" },
		{ 350, 204, 9, false, "tmp/cc2.s" },	{ 480, 202, 10, true, "src/a.o" },
		{ 580, 204, 11, true, "src/b.o" },
	};
	struct fixture f;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 700);
	cr_assert(eq(sz, f.g.jobs.nr_jobs, 2));
	cr_assert(eq(sz, f.r.nr, 0));
	end(&f);
}

/*
 * ninja's bookkeeping: each compile writes its .d file, ninja reads and
 * deletes it, the next one reuses the inode; ninja writes .ninja_log and
 * .ninja_deps.
 */
Test(races, a_runners_bookkeeping_is_no_race)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/usr/bin/cc", "-c", "a.c", NULL }, 2, 500 },
		{ 102, ROOT, { "/usr/bin/cc", "-c", "b.c", NULL }, 3, 600 },
	};
	static const struct use u[] = {
		{ 400, 101, 7, true, "src/a.o.d" },	 { 501, ROOT, 7, false, "src/a.o.d" },
		{ 502, ROOT, 8, true, "src/.ninja_log" }, { 503, ROOT, 9, true, "src/.ninja_deps" },
		{ 550, 102, 7, true, "src/b.o.d" },
		{ 601, ROOT, 7, false, "src/b.o.d" },	 { 602, ROOT, 8, true, "src/.ninja_log" },
	};
	struct fixture f;

	begin(&f, "/usr/bin/ninja");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 700);
	cr_assert(eq(sz, f.g.jobs.nr_jobs, 2));
	cr_assert(eq(sz, f.r.nr, 0));
	end(&f);
}

/*
 * The bookkeeping of the real builds checked (docs/races.md): automake's
 * compile rule is two recipe lines, two jobs one after the other (the
 * compile writes .deps/a.Tpo, `mv` renames it onto .deps/a.Po, which only
 * the sub-make reads); kbuild's compile job writes .a.o.d, its fixdep reads
 * it and writes .a.o.cmd, which only make reads.  Two such rules ran side by
 * side at -j2: no race.
 */
Test(races, automake_and_kbuild_bookkeeping_is_no_race)
{
	static const struct step s[] = {
		{ 110, ROOT, { "/usr/bin/make", "all-am", NULL }, 1, 900 },
		{ 101, 110, { "/usr/bin/gcc", "-MF", ".deps/a.Tpo", NULL }, 2, 300 },
		{ 102, 110, { "/bin/sh", "-c", "cc -c b.c; fixdep .b.o.d", NULL }, 3, 400 },
		{ 103, 110, { "/bin/mv", ".deps/a.Tpo", ".deps/a.Po" }, 301, 320 },
		{ 201, 102, { "/usr/bin/fixdep", ".b.o.d", NULL }, 350, 390 },
	};
	static const struct use u[] = {
		{ 200, 101, 7, true, "src/.deps/a.Tpo" }, { 250, 102, 8, true, "src/.b.o.d" },
		{ 360, 201, 8, false, "src/.b.o.d" },	  { 370, 201, 9, true, "src/.b.o.cmd" },
		{ 400, 110, 7, false, "src/.deps/a.Po" }, { 401, 110, 9, false, "src/.b.o.cmd" },
	};
	struct fixture f;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	synth_file_rename(f.fl, 310 * MS, 103, ".deps/a.Tpo", ".deps/a.Po");
	find(&f, 1000);
	cr_assert(eq(sz, f.g.jobs.nr_jobs, 3));
	cr_assert(eq(sz, f.r.renames_unresolved, 0));
	cr_assert(eq(sz, f.r.nr, 0));
	end(&f);
}

/* Recursive make: the jobs of two sub-makes race; the sub-makes themselves are no steps. */
Test(races, jobs_of_two_sub_makes_race_as_any_two_jobs)
{
	static const struct step s[] = {
		{ 110, ROOT, { "/usr/bin/make", "-C", "gen", NULL }, 1, 600 },
		{ 111, ROOT, { "/usr/bin/make", "-C", "use", NULL }, 2, 1300 },
		{ 101, 110, { "/bin/gen", "out.h", NULL }, 5, 500 },
		{ 102, 111, { "/bin/cat", "../gen/out.h", NULL }, 6, 1200 },
	};
	static const struct use u[] = { { 400, 101, 7, true, "src/gen/out.h" },
					{ 1100, 102, 7, false, "src/gen/out.h" } };
	struct fixture f;

	begin(&f, "/usr/bin/make");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 1400);
	cr_assert(eq(sz, f.r.nr, 1));
	cr_assert(eq(int, f.r.items[0].kind, RACE_READ_WHILE_WRITTEN));
	cr_assert(eq(str, f.r.items[0].file, "gen/out.h"));
	cr_assert(eq(u32, pid_of(&f, f.r.items[0].writer_step), 101));
	cr_assert(eq(u32, pid_of(&f, f.r.items[0].other_step), 102));
	end(&f);
}

/* Without a runner there are no jobs, so no races: a script's steps are in its own order. */
Test(races, no_runner_no_jobs_no_races)
{
	static const struct step s[] = {
		{ 101, ROOT, { "/bin/gen", NULL }, 2, 500 },
		{ 102, ROOT, { "/bin/cat", NULL }, 3, 1200 },
	};
	static const struct use u[] = { { 400, 101, 7, true, "src/out.h" }, { 1100, 102, 7, false, "src/out.h" } };
	struct fixture f;

	begin(&f, "/bin/sh");
	STEPS(&f, s);
	USES(&f, u);
	find(&f, 1300);
	cr_assert(eq(sz, f.g.jobs.nr_jobs, 0));
	cr_assert(eq(sz, f.r.nr, 0));
	end(&f);
}

/*
 * Renames whose target is worked out from a file system mounted elsewhere
 * (the kernel spells /tmp's files from its own root), and one that cannot
 * be (one path absolute, one relative): counted, not guessed.
 */
Test(races, rename_targets_across_a_mount_and_unresolved_ones)
{
	static const struct use u[] = { { 50, 103, 7, true, "x" },
					{ 300, 102, 7, false, "x" },
					{ 700, 101, 8, true, "x.tmp" },
					{ 710, 101, 9, true, "y.tmp" } };
	struct fixture f;

	begin(&f, "/usr/bin/make");
	STEPS(&f, rewrite_steps);
	USES(&f, u);
	synth_file_rename(f.fl, 800 * MS, 101, "/tmp/x.tmp", "/tmp/x");
	synth_file_rename(f.fl, 810 * MS, 101, "y.tmp", "/tmp/y");
	find(&f, 1100);
	cr_assert(eq(sz, f.r.nr, 1));
	cr_assert(eq(str, f.r.items[0].file, "/x"));
	cr_assert(f.r.items[0].by_rename);
	cr_assert(eq(sz, f.r.renames_unresolved, 1));
	end(&f);
}

/* The audit says it in one line, then what to declare; the JSON lists it. */
static char *audit_text(const struct synth_build *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	audit_report__print(out, &b->a, b->m, true); /* what to declare is -v's */
	fclose(out);
	return text;
}

static void planted(struct synth_build *b, __u64 reader_start_ms)
{
	synth_build__start(b, 100, "/w");
	synth_build__proc(b, 101, 100, "/usr/bin/gen", (const char *const[]){ "gen", "out.h", NULL }, 10, 200, 5);
	synth_build__proc(b, 102, 100, "/bin/cat", (const char *const[]){ "cat", "out.h", NULL }, reader_start_ms,
			  1200, 5);
	synth_build__file(b, 101, 150, 7, true, "w/out.h");
	synth_build__file(b, 102, 1100, 7, false, "w/out.h");
	synth_build__finish(b, 1300);
}

/* The audit's JSON as a reader gets it: printed, then parsed (its races are made as they are printed). */
static struct json_object *audit_json_read(const struct synth_build *b)
{
	struct json_object *o = audit_json__new(&b->a, b->m), *read;

	cr_assert(not(eq(ptr, o, NULL)));
	read = json_tokener_parse(json_object_to_json_string(o));
	json_object_put(o);
	cr_assert(not(eq(ptr, read, NULL)));
	return read;
}

Test(races, the_audit_line_and_the_json_array)
{
	struct synth_build b;
	struct json_object *o, *arr, *x;
	char *text;

	planted(&b, 20);
	text = audit_text(&b);
	cr_assert(strstr(text, "buildbpf: races? 1 undeclared dependency: out.h read while being written\n") != NULL, "%s", text);
	cr_assert(strstr(text, "`cat out.h` needs `out.h` from `gen out.h`") != NULL, "%s", text);
	free(text);
	o = audit_json_read(&b);
	arr = json_object_object_get(o, "races");
	cr_assert(eq(sz, json_object_array_length(arr), 1));
	x = json_object_array_get_idx(arr, 0);
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(x, "kind")), "read_while_written"));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(x, "file")), "out.h"));
	cr_assert(eq(int, json_object_get_int(json_object_object_get(json_object_object_get(x, "other"), "pid")), 102));
	json_object_put(o);
	synth_build__free(&b);

	planted(&b, 201); /* cat's job after gen's: declared */
	text = audit_text(&b);
	cr_assert(strstr(text, "buildbpf: races? none seen among 2 jobs\n") != NULL, "%s", text);
	free(text);
	o = audit_json_read(&b);
	cr_assert(eq(sz, json_object_array_length(json_object_object_get(o, "races")), 0));
	json_object_put(o);
	synth_build__free(&b);
}

/* The brief answers in max_lines lines, as the default report prints them. */
static char *brief_text(const struct synth_build *b, size_t max_lines)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	audit_answers__print_brief(out, &b->a, b->m, max_lines);
	fclose(out);
	return text;
}

/*
 * A race found is the first thing the short report keeps when its lines run
 * short (a slow machine's notes above it took them); "none seen" is not.
 */
Test(races, a_race_found_keeps_its_line_when_the_room_is_one_line)
{
	struct synth_build b;
	char *text;

	planted(&b, 20);
	text = brief_text(&b, 1);
	cr_assert(strstr(text, "buildbpf: races? 1 undeclared dependency: out.h read while being written") != NULL, "%s",
		  text);
	free(text);
	synth_build__free(&b);

	planted(&b, 201);
	text = brief_text(&b, 1);
	cr_assert(strstr(text, "races?") == NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf: parallel? ") != NULL, "%s", text);
	free(text);
	synth_build__free(&b);
}

/* The trace marks it: an instant event on the reader's lane when it read, what to declare in its args. */
Test(races, the_trace_marks_each_race_where_it_happened)
{
	struct synth_build b;
	struct trace_meta meta = { .graph = NULL };
	struct json_object *trace, *events, *mark = NULL;
	size_t i, marks = 0;

	planted(&b, 20);
	meta.graph = &b.g;
	trace = written_trace(b.m, &meta); /* keeps every trace rule, or fails */
	events = trace_events(trace);
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "i") && str_field_is(ev, "cat", "race")) {
			mark = ev;
			marks++;
		}
	}
	cr_assert(eq(sz, marks, 1));
	cr_assert(str_field_is(mark, "name", "race: out.h"));
	cr_assert(str_field_is(mark, "s", "t"));
	cr_assert(eq(i64, int_field(mark, "ts"), 1100 * 1000 + 1), "at the read, 1 us after the trace's origin");
	cr_assert(str_field_is(need_field(mark, "args"), "kind", "read_while_written"));
	cr_assert(eq(i64, int_field(need_field(mark, "args"), "other_pid"), 102));
	json_object_put(trace);
	synth_build__free(&b);
}

/* diff names the races new in the second build; `--fail-if race>0` holds only then. */
Test(races, diff_and_the_gate_see_races_new_in_the_second_build)
{
	struct synth_build clean, racy;
	struct json_object *j, *arr;
	struct diff_value v;
	struct fail_if c;
	struct diff d;
	char err[256];

	planted(&clean, 201);
	planted(&racy, 20);
	cr_assert(eq(int, fail_if__parse(&c, "race>0", err, sizeof(err)), 0), "%s", err);
	cr_assert(eq(int, diff__compute(&d, &clean.side, &racy.side), 0));
	cr_assert(d.races.known);
	cr_assert(eq(sz, d.races.nr_fresh, 1));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 1));
	cr_assert(eq(dbl, v.new_v, 1.0));
	j = diff_json__new(&d);
	arr = json_object_object_get(j, "races_new");
	cr_assert(eq(sz, json_object_array_length(arr), 1));
	cr_assert(str_field_is(json_object_array_get_idx(arr, 0), "file", "out.h"));
	json_object_put(j);
	diff__free(&d);
	/* The same race in both builds is not new; a fixed one is no failure. */
	cr_assert(eq(int, diff__compute(&d, &racy.side, &racy.side), 0));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	diff__free(&d);
	cr_assert(eq(int, diff__compute(&d, &racy.side, &clean.side), 0));
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), 0));
	diff__free(&d);
	synth_build__free(&clean);
	synth_build__free(&racy);
}

/* Without file dependencies in both builds the gate cannot say. */
Test(races, the_gate_needs_both_builds_recorded_with_deps)
{
	struct synth_build plain, racy;
	struct diff_value v;
	struct fail_if c;
	struct diff d;
	char err[256];

	synth_build__start(&plain, 100, "/w");
	synth_build__proc(&plain, 101, 100, "/usr/bin/gen", (const char *const[]){ "gen", NULL }, 10, 200, 5);
	synth_build__finish(&plain, 300);
	planted(&racy, 20);
	cr_assert(eq(int, fail_if__parse(&c, "race>0", err, sizeof(err)), 0));
	cr_assert(eq(int, diff__compute(&d, &plain.side, &racy.side), 0));
	cr_assert_not(d.races.known);
	cr_assert(eq(int, fail_if__eval(&c, &d, &v), -ENODATA));
	diff__free(&d);
	synth_build__free(&plain);
	synth_build__free(&racy);
}
