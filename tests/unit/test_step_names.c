/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steps a person can tell apart (model/step_names.h, issue 26 item 6): a
 * name shared by two steps gets what tells them apart; a program nothing
 * names is named by what it wrote; probes and forks keep their names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/synth.h"
#include "model/file_log.h"
#include "model/model.h"
#include "model/proc_name.h"
#include "model/step_names.h"
#include "util/utf8.h"

#define ROOT 100
#define BUILD_DIR "/src/json-c/build"

/* A build run from BUILD_DIR: the root (pid ROOT) runs root_argv; its children are added with child(). */
static struct model *build_new(const char *const *root_argv)
{
	struct model *m = model__new(ROOT, 0);

	cr_assert(not(eq(ptr, m, NULL)));
	cr_assert(eq(int, model__set_cwd(m, BUILD_DIR), 0));
	synth_exec(m, 10, ROOT, 1, root_argv[0], root_argv);
	return m;
}

/* Process pid, a child of parent, runs argv from ts to ts + 100. */
static void child(struct model *m, __u64 ts, __u32 parent, __u32 pid, const char *const *argv)
{
	synth_fork(m, ts, parent, pid, pid, false);
	synth_exec(m, ts + 1, pid, parent, argv[0], argv);
	synth_exit(m, ts + 100, pid, pid, true, 0);
}

/* The step name of pid, in a model finished with the file records files (or NULL). */
static const char *step_of(const struct step_names *n, const struct model *m, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(m, pid);

	cr_assert(not(eq(ptr, (void *)p, NULL)), "no process %u", pid);
	return step_names__of(n, p - m->procs);
}

/* The root exits and the model is finished, as the replay does it. */
static void finish(struct model *m)
{
	synth_exit(m, 100000, ROOT, ROOT, true, 0);
	cr_assert(eq(int, model__finish(m, 100000), 0));
}

static struct step_names *names_of(struct model *m, const struct file_log *files)
{
	struct step_names *n;

	finish(m);
	n = step_names__new(m, files);
	cr_assert(not(eq(ptr, n, NULL)));
	return n;
}

static void expect_step(const struct step_names *n, const struct model *m, __u32 pid, const char *want)
{
	const char *name = step_of(n, m, pid);
	char *again;

	cr_assert(not(eq(ptr, (void *)name, NULL)));
	cr_assert(eq(str, (char *)name, (char *)want), "process %u", pid);
	again = utf8_sanitize(name, strlen(name));
	cr_assert(eq(str, again, (char *)name), "valid UTF-8");
	cr_assert(le(sz, strlen(name), 80));
	free(again);
}

/* Every process's name by itself is proc_image_name()'s, told apart or not: what diff matches by. */
static void expect_images(const struct step_names *n, const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		char *own = proc_image_name(m, &m->procs[i]);

		cr_assert(not(eq(ptr, own, NULL)));
		cr_assert(eq(str, (char *)step_names__image_of(n, i), own), "process %u", m->procs[i].pid);
		free(own);
	}
	cr_assert(eq(ptr, (void *)step_names__image_of(n, m->nr_procs), NULL));
}

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * json-c builds json_tokener.c twice, for the shared and the static
 * library: ninja's sh -c (first_pid + 5), cc, its cc1 (+1) and as (+2).
 */
static void compile_twice(struct model *m, __u32 first_pid)
{
	static const char *const dirs[] = { "CMakeFiles/json-c.dir", "CMakeFiles/json-c-static.dir" };
	size_t i;

	for (i = 0; i < 2; i++) {
		__u32 cc = first_pid + 10 * (__u32)i;
		char obj[128], dumpdir[128], script[256];

		snprintf(obj, sizeof(obj), "%s/json_tokener.c.o", dirs[i]);
		snprintf(dumpdir, sizeof(dumpdir), "%s/", dirs[i]);
		snprintf(script, sizeof(script), "cd %s && /usr/bin/cc -O2 -o %s -c /src/json-c/json_tokener.c",
			 BUILD_DIR, obj);
		child(m, 1000 * (i + 1) - 5, ROOT, cc + 5, ARGV("/bin/sh", "-c", script));
		child(m, 1000 * (i + 1), cc + 5, cc,
		      ARGV("/usr/bin/cc", "-O2", "-o", obj, "-c", "/src/json-c/json_tokener.c"));
		child(m, 1000 * (i + 1) + 10, cc, cc + 1,
		      ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "/src/json-c/json_tokener.c", "-dumpdir",
			   dumpdir, "-dumpbase", "json_tokener.c.c", "-o", "/tmp/ccGkDSUC.s"));
		child(m, 1000 * (i + 1) + 20, cc, cc + 2, ARGV("as", "--64", "-o", obj, "/tmp/ccGkDSUC.s"));
	}
}

Test(step_names, two_compiles_of_one_file_told_apart_by_their_object)
{
	struct model *m = build_new(ARGV("ninja", "-j2"));
	struct step_names *n;

	compile_twice(m, 200);
	n = names_of(m, NULL);
	/* cc1 writes a temporary: the target of the object its driver makes tells the two apart. */
	expect_step(n, m, 201, "cc1 json_tokener.c [json-c]");
	expect_step(n, m, 211, "cc1 json_tokener.c [json-c-static]");
	/* The driver makes it itself. */
	expect_step(n, m, 200, "cc json_tokener.c [json-c]");
	expect_step(n, m, 210, "cc json_tokener.c [json-c-static]");
	/* ninja's wrapper, by what the step it runs makes. */
	expect_step(n, m, 205, "sh -c cc json_tokener.c [json-c]");
	expect_step(n, m, 215, "sh -c cc json_tokener.c [json-c-static]");
	/* Already apart: unchanged. */
	expect_step(n, m, 202, "as -o CMakeFiles/json-c.dir/json_tokener.c.o");
	expect_step(n, m, ROOT, "ninja");
	cr_assert(eq(str, (char *)step_names__image_of(n, synth_proc_of(m, 211) - m->procs), "cc1 json_tokener.c"));
	expect_images(n, m);
	step_names__free(n);
	model__free(m);
}

Test(step_names, a_unique_name_is_left_alone)
{
	struct model *m = build_new(ARGV("ninja"));
	struct step_names *n;

	child(m, 1000, ROOT, 200, ARGV("/usr/bin/cc", "-o", "CMakeFiles/json-c.dir/arraylist.c.o", "-c", "../arraylist.c"));
	child(m, 1010, 200, 201,
	      ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "../arraylist.c", "-o", "/tmp/ccA.s"));
	n = names_of(m, NULL);
	expect_step(n, m, 200, "cc arraylist.c");
	expect_step(n, m, 201, "cc1 arraylist.c");
	step_names__free(n);
	model__free(m);
}

/* What the reports show is the step name; two builds match by the image's own (diff). */
Test(step_names, the_reports_name_read_the_table)
{
	struct model *m = build_new(ARGV("ninja"));
	char *shown, *own;

	compile_twice(m, 200);
	finish(m);
	cr_assert(eq(int, step_names__attach(m, NULL), 0));
	shown = proc_display_name(m, synth_proc_of(m, 211));
	own = proc_image_name(m, synth_proc_of(m, 211));
	cr_assert(eq(str, shown, "cc1 json_tokener.c [json-c-static]"));
	cr_assert(eq(str, own, "cc1 json_tokener.c"));
	free(shown);
	free(own);
	model__free(m);
}

Test(step_names, an_unknown_program_named_by_what_it_wrote)
{
	struct model *m = build_new(ARGV("make"));
	struct file_log *files = file_log__new();
	struct step_names *n;

	child(m, 1000, ROOT, 200, ARGV("./gen", "--tables"));
	child(m, 2000, ROOT, 201, ARGV("./gen", "--tables"));
	child(m, 3000, ROOT, 202, ARGV("./gen", "--other"));
	/* A temporary first: passed over for what the build keeps. */
	synth_file_open(files, 1050, 200, 1, 1, true, "tmp/gen.XXXX");
	synth_file_open(files, 1060, 200, 1, 2, true, "src/json-c/build/include/tables.h");
	synth_file_open(files, 2050, 201, 1, 3, true, "src/json-c/build/include/more.h");
	/* Only read: not what it made. */
	synth_file_open(files, 3050, 202, 1, 2, false, "src/json-c/build/include/tables.h");
	file_log__finish(files);
	n = names_of(m, files);
	expect_step(n, m, 200, "gen > include/tables.h");
	expect_step(n, m, 201, "gen > include/more.h");
	expect_step(n, m, 202, "gen");
	step_names__free(n);
	file_log__free(files);
	model__free(m);

	/* Without file records, the same build's two gens stay alike: nothing tells them apart. */
	m = build_new(ARGV("make"));
	child(m, 1000, ROOT, 200, ARGV("./gen"));
	child(m, 2000, ROOT, 201, ARGV("./gen"));
	n = names_of(m, NULL);
	expect_step(n, m, 200, "gen");
	expect_step(n, m, 201, "gen");
	step_names__free(n);
	model__free(m);
}

Test(step_names, the_directory_tells_apart_what_nothing_else_does)
{
	struct model *m = build_new(ARGV("make"));
	struct step_names *n;

	child(m, 1000, ROOT, 200, ARGV("make", "-C", "lib"));
	child(m, 1010, 200, 201, ARGV("ranlib"));
	child(m, 2000, ROOT, 202, ARGV("make", "-C", "tests"));
	child(m, 2010, 202, 203, ARGV("ranlib"));
	n = names_of(m, NULL);
	expect_step(n, m, 201, "ranlib in lib");
	expect_step(n, m, 203, "ranlib in tests");
	step_names__free(n);
	model__free(m);
}

Test(step_names, probes_forks_and_repeats_keep_their_names)
{
	struct model *m = build_new(ARGV("sh", "./configure"));
	struct file_log *files = file_log__new();
	struct step_names *n;
	__u32 pid;

	for (pid = 200; pid < 206; pid += 3) {
		child(m, 10 * pid, ROOT, pid, ARGV("gcc", "-o", "conftest", "-O2", "conftest.c"));
		child(m, 10 * pid + 10, pid, pid + 1,
		      ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "conftest.c", "-o", "/tmp/ccB.s"));
		child(m, 10 * pid + 20, ROOT, pid + 2, ARGV("rm", "-f", "conftest.err", "conftest.c"));
	}
	synth_fork(m, 5000, ROOT, 300, 300, false);
	synth_fork(m, 5100, ROOT, 301, 301, false);
	synth_fork(m, 5200, ROOT, 302, 302, false);
	synth_file_open(files, 5250, 302, 1, 9, true, "src/json-c/build/conftest.out");
	file_log__finish(files);
	n = names_of(m, files);
	expect_step(n, m, 200, "gcc conftest.c (probe)");
	expect_step(n, m, 201, "cc1 conftest.c (probe)");
	expect_step(n, m, 204, "cc1 conftest.c (probe)");
	/* The same command in the same place: nothing to tell apart. */
	expect_step(n, m, 202, "rm conftest.c");
	expect_step(n, m, 205, "rm conftest.c");
	expect_step(n, m, 300, "forked (fork)");
	expect_step(n, m, 301, "forked (fork)");
	/* A fork that wrote a file is told apart by it. */
	expect_step(n, m, 302, "forked (fork) > conftest.out");
	expect_images(n, m);
	step_names__free(n);
	file_log__free(files);
	model__free(m);
}

Test(step_names, what_tells_apart_stays_whole_within_80_bytes)
{
	struct model *m = build_new(ARGV("ninja"));
	const char *a, *b;
	struct step_names *n;

	child(m, 1000, ROOT, 200,
	      ARGV("cc", "-o", "CMakeFiles/a_rather_long_target_name_for_the_library.dir/src/x.c.o", "-c",
		   "../src/some/deeply/nested/directory/of/sources/x.c"));
	child(m, 1010, 200, 201,
	      ARGV("cc1", "-quiet", "../src/some/deeply/nested/directory/of/sources/x.c", "-o", "/tmp/ccC.s"));
	child(m, 2000, ROOT, 202,
	      ARGV("cc", "-o", "CMakeFiles/b_rather_long_target_name_for_the_library.dir/src/x.c.o", "-c",
		   "../src/some/deeply/nested/directory/of/sources/x.c"));
	child(m, 2010, 202, 203,
	      ARGV("cc1", "-quiet", "../src/some/deeply/nested/directory/of/sources/x.c", "-o", "/tmp/ccD.s"));
	n = names_of(m, NULL);
	a = step_of(n, m, 201);
	b = step_of(n, m, 203);
	/* The source's leading directories give way: its file name and the tag stay whole. */
	expect_step(n, m, 201, "cc1 …/directory/of/sources/x.c [a_rather_long_target_name_for_the_library]");
	cr_assert(not(eq(str, (char *)a, (char *)b)));
	cr_assert(not(eq(ptr, strstr(b, "/x.c [b_rather_long_target_name_for_the_library]"), NULL)), "%s", b);
	/* Cut to make room in the step's name, whole by itself. */
	expect_images(n, m);
	step_names__free(n);
	model__free(m);
}
