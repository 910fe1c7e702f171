// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: `buildbpf diff` on real recordings of a small C build, with
 * known answers: one compile made slower on purpose is named first, with
 * the right sign and size, and every process is matched; the same build
 * recorded twice shows nothing above the noise floor.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/xml_check.h"

TestSuite(diff, .init = integration_setup, .fini = integration_teardown, .timeout = 300);

/*
 * Three compiles and a link in dir (relative to the run's), the source
 * slow ('b': b.c, 'c': c.c, 0: none) slowed by bb_append_slow_source().
 * The compiles name their sources by absolute path: two trees differ in
 * every argv until the build directory is normalised.
 */
static void write_project(const char *dir, char slow)
{
	char name[256], text[1024];

	snprintf(name, sizeof(name), "%s", bb_path(&run, dir));
	mkdir(name, 0755);
	snprintf(name, sizeof(name), "%s/Makefile", dir);
	bb_write_file(&run, name,
		      "prog: a.o b.o c.o\n\tcc -o $@ a.o b.o c.o\n"
		      "%.o: %.c\n\tcc -O2 -c -o $@ $(CURDIR)/$<\n");
	snprintf(name, sizeof(name), "%s/a.c", dir);
	bb_write_file(&run, name, "int a(void) { return 1; }\n");
	snprintf(name, sizeof(name), "%s/b.c", dir);
	snprintf(text, sizeof(text), "int b(void) { return 2; }\n");
	if (slow == 'b')
		bb_append_slow_source(text, sizeof(text), "slow");
	bb_write_file(&run, name, text);
	snprintf(name, sizeof(name), "%s/c.c", dir);
	snprintf(text, sizeof(text), "int a(void), b(void);\nint main(void) { return a() + b() - 3; }\n");
	if (slow == 'c')
		bb_append_slow_source(text, sizeof(text), "slow");
	bb_write_file(&run, name, text);
}

/* Records `make -B -jJOBS` in dir (of the run) into log (in the run's directory). */
static void record_jobs(const char *dir, const char *log, const char *jobs)
{
	char log_path[256];

	snprintf(log_path, sizeof(log_path), "%s", bb_path(&run, log));
	bb_run_in(&run, (const char *[]){ "record", "--deps=on", "-o", log_path, "--", "make", "-s", "-B", jobs, "-C", dir, NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "record failed: %s", run.err);
}

static void record(const char *dir, const char *log)
{
	record_jobs(dir, log, "-j2");
}

static struct json_object *load_json(const char *name)
{
	struct json_object *j = json_object_from_file(bb_path(&run, name));

	cr_assert(not(eq(ptr, j, NULL)), "%s is not JSON", name);
	return j;
}

static struct json_object *field(struct json_object *o, const char *key)
{
	struct json_object *v;

	cr_assert(json_object_object_get_ex(o, key, &v), "no field %s", key);
	return v;
}

Test(diff, slowed_compile_is_named_first_and_every_process_matches)
{
	struct json_object *d, *steps, *top;
	double change_ms;
	size_t elements;
	char *text;

	write_project("p", 0);
	record("p", "old.bbl");
	write_project("p", 'b');
	record("p", "new.bbl");
	bb_run_in(&run, (const char *[]){ "diff", "old.bbl", "new.bbl", "--json", "d.json", "--markdown", "d.md", "--svg", "d.svg",
					  "--fail-if", "program:cc1.cpu>+20%", "--fail-if", "processes>0", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 1), "the gate should fail on cc1: %s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "buildbpf: failed: program:cc1.cpu>+20%"), NULL)), "%s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "failed: processes>0"), NULL), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "cc1 b.c"), NULL)), "%s", run.err);

	d = load_json("d.json");
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_old_count")), 0), "%s", run.err);
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_new_count")), 0), "%s", run.err);
	cr_assert(ge(int, json_object_get_int(field(d, "matched")), 10)); /* make, 3x (cc, cc1, as), cc, collect2, ld */
	steps = field(d, "steps_by_cpu");
	cr_assert(ge(sz, json_object_array_length(steps), 1));
	top = json_object_array_get_idx(steps, 0);
	cr_assert(eq(str, (char *)json_object_get_string(field(top, "name")), "cc1 b.c"), "%s", run.err);
	change_ms = json_object_get_double(field(top, "new_ms")) - json_object_get_double(field(top, "old_ms"));
	/* ~0.5 s here; generous for a slower or a busier machine. */
	cr_assert(lt(dbl, 200, change_ms), "cc1 b.c changed by %.0f ms", change_ms);
	cr_assert(lt(dbl, change_ms, 5000), "cc1 b.c changed by %.0f ms", change_ms);
	json_object_put(d);
	text = bb_file_text(bb_path(&run, "d.md"), NULL);
	cr_assert(not(eq(ptr, strstr(text, "| cc1 b.c |"), NULL)), "%s", text);
	free(text);
	text = bb_file_text(bb_path(&run, "d.svg"), NULL);
	cr_assert(eq(ptr, (void *)xml_check(text, &elements), NULL));
	free(text);
}

/*
 * The wall time of a build of 0.1-0.2 s is the machine's, not the build's:
 * beside other work it moved by +64 % between two recordings.  So the gate
 * is on what the build itself decides (its processes, its compiles, its
 * races), and a step listed by its wall time must be above the noise floor
 * the diff says it applied, not absent.
 */
Test(diff, same_build_twice_in_two_trees_is_not_news)
{
	struct json_object *d, *floor, *steps;
	double min_ms, percent;
	size_t i;

	write_project("x", 0);
	write_project("y", 0);
	/* The first run warms the page cache, so that neither recording pays for it. */
	record("x", "warm.bbl");
	record("x", "old.bbl");
	record("y", "new.bbl");
	bb_run_in(&run, (const char *[]){ "diff", "old.bbl", "new.bbl", "--json", "-", "--fail-if", "processes>0",
					  "--fail-if", "processes<0", "--fail-if", "program:cc1.procs>0", "--fail-if",
					  "race>0", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	d = json_tokener_parse(run.out);
	cr_assert(not(eq(ptr, d, NULL)));
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_old_count")), 0), "%s", run.err);
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_new_count")), 0), "%s", run.err);
	cr_assert(eq(int, json_object_get_int(field(d, "matched_by_name")), 0), "%s", run.err);
	cr_assert(eq(sz, json_object_array_length(field(d, "steps_by_cpu")), 0), "%s", run.err);
	floor = field(d, "noise_floor");
	min_ms = json_object_get_double(field(floor, "wall_min_ms"));
	percent = json_object_get_double(field(floor, "wall_percent"));
	steps = field(d, "steps_by_wall");
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		double old_ms = json_object_get_double(field(s, "old_ms"));
		double change = fabs(json_object_get_double(field(s, "new_ms")) - old_ms);

		cr_assert(ge(dbl, change, min_ms), "%s: %.1f ms below the floor", json_object_to_json_string(s), change);
		cr_assert(ge(dbl, change * 100, percent * old_ms), "%s: %.1f ms below the floor",
			  json_object_to_json_string(s), change);
	}
	json_object_put(d);
}

/* The count of program in a JSON list of {program, count}; 0 when absent. */
static int only_count(struct json_object *list, const char *program)
{
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++) {
		struct json_object *g = json_object_array_get_idx(list, i);

		if (!strcmp(json_object_get_string(field(g, "program")), program))
			return json_object_get_int(field(g, "count"));
	}
	return 0;
}

Test(diff, two_more_compiles_are_new_and_a_removed_step_is_gone)
{
	struct json_object *d, *only_new, *only_old;

	write_project("p", 0);
	/* The old build also stamps a file, the new one does not; the new one compiles d.c and e.c too. */
	bb_write_file(&run, "p/Makefile",
		      "all: prog stamp\nstamp:\n\ttouch stamp\n"
		      "prog: a.o b.o c.o\n\tcc -o $@ a.o b.o c.o\n"
		      "%.o: %.c\n\tcc -O2 -c -o $@ $<\n");
	record("p", "old.bbl");
	bb_write_file(&run, "p/d.c", "int d(void) { return 4; }\n");
	bb_write_file(&run, "p/e.c", "int e(void) { return 5; }\n");
	bb_write_file(&run, "p/Makefile",
		      "all: prog\n"
		      "prog: a.o b.o c.o d.o e.o\n\tcc -o $@ a.o b.o c.o d.o e.o\n"
		      "%.o: %.c\n\tcc -O2 -c -o $@ $<\n");
	record("p", "new.bbl");
	bb_run_in(&run, (const char *[]){ "diff", "old.bbl", "new.bbl", "--json", "-", "--fail-if",
					  "program:cc1.procs>+1", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 1), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "failed: program:cc1.procs>+1 (3 -> 5, +2 (+67 %))"), NULL)), "%s",
		  run.err);
	d = json_tokener_parse(run.out);
	cr_assert(not(eq(ptr, d, NULL)));
	only_new = field(d, "only_in_new");
	only_old = field(d, "only_in_old");
	/* Each new compile is a cc driver, its cc1 and its as. */
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_new_count")), 6), "%s", run.err);
	cr_assert(eq(int, only_count(only_new, "cc1"), 2), "%s", run.err);
	cr_assert(eq(int, only_count(only_new, "cc"), 2), "%s", run.err);
	cr_assert(eq(int, only_count(only_new, "as"), 2), "%s", run.err);
	cr_assert(eq(int, json_object_get_int(field(d, "only_in_old_count")), 1), "%s", run.err);
	cr_assert(eq(int, only_count(only_old, "touch"), 1), "%s", run.err);
	json_object_put(d);
}

Test(diff, unreadable_input_and_bad_gate_are_usage_errors)
{
	char killed[PATH_MAX], other[PATH_MAX];

	/* A log cut short compares up to its last record, said; unrelated builds share their root only. */
	cr_assert(not(eq(ptr, realpath("tests/fixtures/killed.bbl", killed), NULL)), "run from the repository");
	cr_assert(not(eq(ptr, realpath("tests/fixtures/sh-children.bbl", other), NULL)));
	bb_run_in(&run, (const char *[]){ "diff", killed, other, NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "cut short"), NULL)), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "only in old: "), NULL)), "%s", run.err);
	/* A trace is not a recording. */
	bb_write_file(&run, "trace.json", "{\"traceEvents\": []}\n");
	bb_run_in(&run, (const char *[]){ "diff", "trace.json", killed, NULL }, NULL);
	cr_assert(eq(int, run.status, 2), "%s", run.err);
	cr_assert(eq(str, run.err, "buildbpf: 'trace.json': not a buildbpf recording (no BUILDBPF header)\n"));
	bb_write_file(&run, "junk.bbl", "not a recording\n");
	bb_run_in(&run, (const char *[]){ "diff", "junk.bbl", "junk.bbl", NULL }, NULL);
	cr_assert(eq(int, run.status, 2), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "buildbpf: 'junk.bbl': not a buildbpf recording"), NULL)), "%s",
		  run.err);
	bb_run_in(&run, (const char *[]){ "diff", "a.bbl", "b.bbl", "--fail-if", "wal>+1%", NULL }, NULL);
	cr_assert(eq(int, run.status, 2), "%s", run.err);
	cr_assert(eq(str, run.err, "buildbpf: diff: --fail-if 'wal>+1%': unknown figure 'wal' (expected wall, cpu, "
				   "utilisation, parallelism, peak, lost, processes, lost_events, race or program:NAME.cpu/.procs) "
				   "(see buildbpf(1), FAIL-IF)\n"));
}

/* Whether a JSON list of steps ({name, ...}) names step. */
static bool lists_step(struct json_object *list, const char *step)
{
	size_t i;

	for (i = 0; i < json_object_array_length(list); i++)
		if (!strcmp(json_object_get_string(field(json_object_array_get_idx(list, i), "name")), step))
			return true;
	return false;
}

/*
 * The slow compile changes from c.c to b.c, all three compiles running at
 * once (-j3): c.c's compiler moves off the critical path, b.c's onto it,
 * a.c's is on neither, and the link is on both.
 */
Test(diff, the_slow_step_moves_off_and_onto_the_critical_path)
{
	struct json_object *d, *cp, *on, *off;
	char *text;

	write_project("p", 'c');
	record_jobs("p", "old.bbl", "-j3");
	write_project("p", 'b');
	record_jobs("p", "new.bbl", "-j3");
	bb_run_in(&run, (const char *[]){ "diff", "old.bbl", "new.bbl", "--json", "d.json", "--markdown", "d.md",
					  NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "Critical path (build graph)"), NULL)), "%s", run.err);
	d = load_json("d.json");
	cp = field(d, "critical_path");
	cr_assert(not(eq(ptr, cp, NULL)), "no critical path compared: %s", run.err);
	on = field(cp, "moved_on");
	off = field(cp, "moved_off");
	cr_assert(lists_step(off, "cc1 c.c"), "%s", run.err);
	cr_assert(lists_step(on, "cc1 b.c"), "%s", run.err);
	cr_assert_not(lists_step(off, "cc1 b.c"), "%s", run.err);
	cr_assert_not(lists_step(on, "cc1 c.c"), "%s", run.err);
	cr_assert_not(lists_step(on, "cc1 a.c") || lists_step(off, "cc1 a.c"), "%s", run.err);
	cr_assert(lists_step(field(field(cp, "old"), "steps"), "cc1 c.c"), "%s", run.err);
	cr_assert(lists_step(field(field(cp, "new"), "steps"), "cc1 b.c"), "%s", run.err);
	json_object_put(d);
	text = bb_file_text(bb_path(&run, "d.md"), NULL);
	cr_assert(not(eq(ptr, strstr(text, "| cc1 b.c | - |"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "| off |"), NULL)), "%s", text);
	free(text);
}

/*
 * The reports' files are checked before either log is read, as a build's
 * outputs are before the build: an unwritable --svg (or --json) is one
 * line and exit 2, with no replay, no comparison and no report.
 */
Test(diff, an_unwritable_report_fails_before_the_comparison)
{
	char killed[PATH_MAX], other[PATH_MAX], cmd[PATH_MAX + 64];
	const char *opts[] = { "--svg", "--json", "--markdown" };
	size_t i;

	cr_assert(not(eq(ptr, realpath("tests/fixtures/killed.bbl", killed), NULL)), "run from the repository");
	cr_assert(not(eq(ptr, realpath("tests/fixtures/sh-children.bbl", other), NULL)));
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		bb_run_in(&run, (const char *[]){ "diff", killed, other, opts[i], "no/such/dir/d.out", NULL }, NULL);
		cr_assert(eq(int, run.status, 2), "%s: %s", opts[i], run.err);
		/* Reading the cut-short log would have warned; the report would have followed. */
		cr_assert(eq(int, strncmp(run.err, "buildbpf: cannot create the ", 28), 0), "%s: %s", opts[i], run.err);
		cr_assert(strchr(run.err, '\n') == run.err + strlen(run.err) - 1, "%s: not one line: %s", opts[i],
			  run.err);
		cr_assert(not(eq(ptr, strstr(run.err, "'no/such/dir/d.out': No such file or directory"), NULL)),
			  "%s: %s", opts[i], run.err);
	}
	/* A log that does not exist is found after the outputs, and the report files are removed. */
	bb_run_in(&run, (const char *[]){ "diff", "missing.bbl", other, "--json", "d.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 2), "%s", run.err);
	cr_assert(eq(str, run.err, "buildbpf: cannot open 'missing.bbl': No such file or directory\n"));
	cr_assert(not(eq(int, access(bb_path(&run, "d.json"), F_OK), 0)), "a report was left behind");
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q '^\\.buildbpf-trace'", run.dir);
	cr_assert(eq(int, system(cmd), 256), "a temporary file was left behind");
}
