// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: races planted in real make and ninja builds, recorded with
 * --deps=on, found with the right file and steps; the same build with the
 * dependency declared has none.  Job B waits for the file A writes (it polls
 * with `test`, which opens nothing) instead of sleeping a fixed time, so the
 * race "works" however busy the machine is; A's job is still running when B's
 * starts because A sleeps 1 s first.  The ninja oracle: `ninja -t missingdeps`
 * on a generated header a compile uses without an order-only dependency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(races, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

/* B's wait, a script so that B's step name stays short: `test` opens nothing. */
#define WAIT_FOR(f) "sh ./w " f "; "

static void write_wait_script(void)
{
	bb_write_file(&run, "w", "while ! test -s \"$1\"; do sleep 0.05; done\n");
}

static const char *const no_makeflags[] = { "MAKEFLAGS=", NULL };

/* The summary's races, after a build that exited `status`. */
static struct json_object *races_of(int status, struct json_object **summary)
{
	cr_assert(eq(int, run.status, status), "stderr: %s", run.err);
	*summary = bb_load_summary(&run, "s.json");
	return need_field(*summary, "races");
}

static bool contains(struct json_object *o, const char *key, const char *part)
{
	return strstr(json_object_get_string(need_field(o, key)), part) != NULL;
}

static void record(const char *const cmd[])
{
	const char *args[16] = { "-f", "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--" };
	size_t n = 7, i;

	for (i = 0; cmd[i]; i++)
		args[n++] = cmd[i];
	args[n] = NULL;
	bb_run_in(&run, args, no_makeflags);
}

/* The trace's race marks on file: instant events named "race: FILE". */
static size_t race_marks(const char *file)
{
	struct json_object *trace = bb_load_trace(bb_path(&run, "t.json")), *events = trace_events(trace);
	char name[64];
	size_t i, n = 0;

	snprintf(name, sizeof(name), "race: %s", file);
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		n += str_field_is(ev, "ph", "i") && str_field_is(ev, "name", name);
	}
	json_object_put(trace);
	return n;
}

static void read_while_written_at(const char *jobs)
{
	struct json_object *summary, *races, *x;

	write_wait_script();
	bb_write_file(&run, "Makefile",
		      "all: out.h b.txt\n"
		      "out.h:\n\tsleep 1; echo '#define X 1' > out.h\n"
		      "b.txt:\n\t" WAIT_FOR("out.h") "cat out.h > b.txt\n");
	record((const char *[]){ "make", jobs, NULL });
	races = races_of(0, &summary);
	cr_assert(eq(sz, json_object_array_length(races), 1), "%s: %s", jobs, run.err);
	x = json_object_array_get_idx(races, 0);
	cr_assert(str_field_is(x, "kind", "read_while_written"));
	cr_assert(str_field_is(x, "file", "out.h"));
	cr_assert(contains(need_field(x, "writer"), "name", "> out.h"), "%s", json_object_to_json_string(x));
	cr_assert(contains(need_field(x, "other"), "name", "cat out.h"), "%s", json_object_to_json_string(x));
	cr_assert(strstr(run.err, "races? 1 undeclared dependency: out.h read while being written") != NULL, "%s",
		  run.err);
	cr_assert(eq(sz, race_marks("out.h"), 1));
	json_object_put(summary);
}

Test(races, make_read_while_written_at_j2)
{
	read_while_written_at("-j2");
}

Test(races, make_read_while_written_at_j8)
{
	read_while_written_at("-j8");
}

/* The same build with b.txt's dependency declared: make runs them in turn, nothing to report. */
Test(races, make_with_the_dependency_declared_has_none)
{
	struct json_object *summary, *races;

	bb_write_file(&run, "Makefile",
		      "all: out.h b.txt\n"
		      "out.h:\n\tsleep 1; echo '#define X 1' > out.h\n"
		      "b.txt: out.h\n\tcat out.h > b.txt\n");
	record((const char *[]){ "make", "-j8", NULL });
	races = races_of(0, &summary);
	cr_assert(eq(sz, json_object_array_length(races), 0), "%s", run.err);
	/* The answer, in the summary's rows: by default it may give its line to the outside-wait note. */
	cr_assert(strstr(json_object_to_json_string(summary), "none seen among 2 jobs") != NULL, "%s",
		  json_object_to_json_string(summary));
	cr_assert(strstr(run.err, "races? ") == NULL || strstr(run.err, "races? none seen among 2 jobs") != NULL, "%s",
		  run.err);
	json_object_put(summary);
}

/*
 * Recursive make: the race is between jobs of two sub-makes; B waits for
 * A's file.  Where B runs first on a clean tree its read fails, and a
 * failed open is not recorded: the build fails, no race is named.
 */
Test(races, recursive_make_and_a_race_that_failed)
{
	struct json_object *summary, *races, *x;

	bb_write_file(&run, "Makefile", "all: gen use\ngen use:\n\t$(MAKE) -C $@\n.PHONY: all gen use\n");
	cr_assert(eq(int, mkdir(bb_path(&run, "gen"), 0755), 0));
	cr_assert(eq(int, mkdir(bb_path(&run, "use"), 0755), 0));
	bb_write_file(&run, "gen/Makefile", "out.h:\n\tsleep 1; echo '#define X 1' > out.h\n");
	bb_write_file(&run, "use/w", "while ! test -s \"$1\"; do sleep 0.05; done\n");
	bb_write_file(&run, "use/Makefile", "b.txt:\n\t" WAIT_FOR("../gen/out.h") "cat ../gen/out.h > b.txt\n");
	record((const char *[]){ "make", "-s", "-j2", NULL });
	races = races_of(0, &summary);
	cr_assert(eq(sz, json_object_array_length(races), 1), "%s", run.err);
	x = json_object_array_get_idx(races, 0);
	cr_assert(str_field_is(x, "file", "gen/out.h"), "%s", json_object_to_json_string(x));
	cr_assert(str_field_is(x, "kind", "read_while_written"));
	json_object_put(summary);

	bb_write_file(&run, "use/Makefile", "b.txt:\n\tcat ../gen/out.h > b.txt\n");
	unlink(bb_path(&run, "gen/out.h"));
	unlink(bb_path(&run, "use/b.txt"));
	record((const char *[]){ "make", "-s", "-j2", NULL });
	races = races_of(2, &summary);
	cr_assert(eq(sz, json_object_array_length(races), 0), "%s", run.err);
	json_object_put(summary);
}

Test(races, ninja_written_twice)
{
	struct json_object *summary, *races, *x;

	bb_write_file(&run, "build.ninja",
		      "rule app\n  command = sleep 0.5; echo $out >> shared.txt; touch $out\n"
		      "build x: app\nbuild y: app\n");
	record((const char *[]){ "ninja", "-j8", NULL });
	races = races_of(0, &summary);
	cr_assert(eq(sz, json_object_array_length(races), 1), "%s", run.err);
	x = json_object_array_get_idx(races, 0);
	cr_assert(str_field_is(x, "kind", "written_twice"));
	cr_assert(str_field_is(x, "file", "shared.txt"));
	json_object_put(summary);
}

/* `ninja -t missingdeps` in run.dir: its output. */
static char *missingdeps(void)
{
	char cmd[256], *out;
	FILE *p;
	size_t len = 0;

	snprintf(cmd, sizeof(cmd), "cd '%s' && ninja -t missingdeps 2>&1", run.dir);
	p = popen(cmd, "r");
	cr_assert(not(eq(ptr, p, NULL)));
	out = calloc(1, 65536);
	cr_assert(not(eq(ptr, out, NULL)));
	len = fread(out, 1, 65535, p);
	out[len] = 0;
	pclose(p);
	return out;
}

/* The oracle: what ninja's own missingdeps finds, buildbpf finds, with the same file and steps. */
Test(races, ninja_missingdeps_agrees)
{
	struct json_object *summary, *races, *x;
	char *oracle;

	write_wait_script();
	bb_write_file(&run, "a.c", "#include \"gen.h\"\nint a(void) { return GEN; }\n");
	bb_write_file(&run, "b.c", "int b(void) { return 2; }\n");
	bb_write_file(&run, "build.ninja",
		      "rule gen\n  command = sleep 1; printf '#define GEN 42\\n' > $out\n"
		      "rule cc\n  command = " WAIT_FOR("gen.h") "cc -MD -MF $out.d -c $in -o $out\n"
		      "  deps = gcc\n  depfile = $out.d\n"
		      "build gen.h: gen\nbuild a.o: cc a.c\nbuild b.o: cc b.c\n");
	record((const char *[]){ "ninja", "-j4", NULL });
	races = races_of(0, &summary);
	oracle = missingdeps();
	cr_assert(strstr(oracle, "Missing dep: a.o uses gen.h (generated by gen)") != NULL, "%s", oracle);
	cr_assert(eq(sz, json_object_array_length(races), 1), "%s", run.err);
	x = json_object_array_get_idx(races, 0);
	cr_assert(str_field_is(x, "kind", "read_while_written"));
	cr_assert(str_field_is(x, "file", "gen.h"));
	cr_assert(contains(need_field(x, "writer"), "name", "> gen.h"), "%s", json_object_to_json_string(x));
	cr_assert(contains(need_field(x, "other"), "name", "-o a.o"), "%s", json_object_to_json_string(x));
	free(oracle);
	json_object_put(summary);
}
