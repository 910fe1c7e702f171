// SPDX-License-Identifier: GPL-2.0
/*
 * Which children of make are later lines of a recipe (graph/recipe_lines.h),
 * from synthetic process trees (no root): automake's `mv -f x.Tpo x.Po`
 * and kbuild's check script are lines of their object's recipe, and so is
 * gnulib's sed into x.h-t; under -j2 a line follows its own recipe's
 * line, not the child that ended last; make's $(shell)s that all name
 * /dev/null, and two recipes that each begin with `mkdir -p .deps`, are not.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/job_slots.h"
#include "lib/synth.h"

#define US 1000ull
#define MS 1000000ull
#define MAKE 100

struct fixture {
	struct model *m;
	struct job_slots s;
};

static void begin(struct fixture *f)
{
	f->m = model__new(MAKE, 0);
	cr_assert_not_null(f->m);
	synth_exec(f->m, 1 * MS, MAKE, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
}

/* A recipe line (or a $(shell)): make's shell running cmd during [start, end] (ns). */
static void line(struct fixture *f, __u32 pid, const char *cmd, __u64 start, __u64 end)
{
	synth_fork(f->m, start, MAKE, pid, pid, false);
	synth_exec(f->m, start + 1000, pid, MAKE, "/bin/sh", (const char *[]){ "/bin/sh", "-c", cmd, NULL });
	synth_exit(f->m, end, pid, pid, true, 0);
}

static void compute(struct fixture *f, __u64 end_ns)
{
	synth_exit(f->m, end_ns, MAKE, MAKE, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ns), 0));
	cr_assert(eq(int, job_slots__init(&f->s, f->m, NULL, 0), 0));
}

static void end(struct fixture *f)
{
	job_slots__free(&f->s);
	model__free(f->m);
}

/* The pid of the line before pid's, 0: none (a first line). */
static __u32 line_before(const struct fixture *f, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(f->m, pid);
	long before;

	cr_assert_not_null(p, "no process %u", pid);
	before = f->s.line_before[p->id];
	return before >= 0 ? f->m->procs[before].pid : 0;
}

/* make -j1, automake's compile rule: the `mv` names a new file, x.Po, of the stem of the x.Tpo both name. */
Test(job_slots, automakes_mv_line_is_a_later_line_of_its_compile)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "gcc -MT lib/a.o -MD -MP -MF lib/.deps/a.Tpo -c -o lib/a.o lib/a.c", 2 * MS, 300 * MS);
	line(&f, 102, "mv -f lib/.deps/a.Tpo lib/.deps/a.Po", 300 * MS + 100 * US, 301 * MS);
	line(&f, 103, "gcc -MT lib/b.o -MD -MP -MF lib/.deps/b.Tpo -c -o lib/b.o lib/b.c", 301 * MS + 200 * US,
	     600 * MS);
	line(&f, 104, "mv -f lib/.deps/b.Tpo lib/.deps/b.Po", 600 * MS + 100 * US, 601 * MS);
	compute(&f, 602 * MS);

	cr_assert(eq(u32, line_before(&f, 102), 101));
	cr_assert(eq(u32, line_before(&f, 103), 0), "b.o's compile names b.o first: a recipe of its own");
	cr_assert(eq(u32, line_before(&f, 104), 103));
	end(&f);
}

/* kbuild: a later line runs a script no line ran before; the tool a line runs is not a file it names. */
Test(job_slots, a_tool_no_line_ran_before_does_not_start_a_recipe)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "set -e; trap 'rm -f mm/a.o' HUP; gcc -c -o mm/a.o mm/a.c", 2 * MS, 300 * MS);
	line(&f, 102, "set -e; trap 'rm -f mm/a.o' HUP; /src/scripts/check-local-export mm/a.o", 300 * MS + 100 * US,
	     301 * MS);
	compute(&f, 302 * MS);

	cr_assert(eq(u32, line_before(&f, 102), 101));
	end(&f);
}

/*
 * make -j2 on a busy machine: a.o's first line ends, then b.o's; make
 * reaps b.o's first and forks its next line, then a.o's.  Each next line
 * follows its own recipe's line, not the child that ended last.
 */
Test(job_slots, a_line_follows_its_own_recipe_when_another_ended_in_between)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "set -e; trap 'rm -f mm/a.o' HUP; gcc -c -o mm/a.o mm/a.c", 2 * MS, 100 * MS);
	line(&f, 201, "set -e; trap 'rm -f mm/b.o' HUP; gcc -c -o mm/b.o mm/b.c", 3 * MS, 101 * MS);
	line(&f, 202, "set -e; trap 'rm -f mm/b.o' HUP; ", 108 * MS, 109 * MS);
	line(&f, 102, "set -e; trap 'rm -f mm/a.o' HUP; ", 110 * MS, 111 * MS);
	compute(&f, 112 * MS);

	cr_assert(eq(u32, line_before(&f, 202), 201));
	cr_assert(eq(u32, line_before(&f, 102), 101), "b.o's line ended last, but names b.o");
	end(&f);
}

/* make's $(shell)s while it reads the makefile: each names /dev/null, which every command may name. */
Test(job_slots, a_device_every_command_names_does_not_join_two_commands)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "getconf LFS_CFLAGS 2>/dev/null", 2 * MS, 3 * MS);
	line(&f, 102, "getconf LFS_LDFLAGS 2>/dev/null", 3 * MS + 100 * US, 4 * MS);
	compute(&f, 5 * MS);

	cr_assert(eq(u32, line_before(&f, 102), 0));
	end(&f);
}

/*
 * automake's am--depfiles: each .Po's recipe begins with `mkdir -p .deps`.
 * make forks a recipe's next line as soon as it reaps the line before, so
 * once it has forked a first line since a child ended, that child's recipe
 * is over: the second `mkdir` begins a recipe of its own.
 */
Test(job_slots, a_child_ended_before_make_began_another_recipe_has_no_more_lines)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "mkdir -p .deps", 2 * MS, 3 * MS);
	line(&f, 102, "echo '# dummy' >.deps/a.Po-t && mv -f .deps/a.Po-t .deps/a.Po", 3 * MS + 100 * US, 4 * MS);
	line(&f, 103, "mkdir -p .deps", 4 * MS + 100 * US, 5 * MS);
	compute(&f, 6 * MS);

	cr_assert(eq(u32, line_before(&f, 103), 0));
	end(&f);
}

/*
 * gnulib's generated header: `echo GEN lib/x.h; mkdir -p lib`, then sed
 * writes lib/x.h-t from ./lib/x.in.h, then `mv lib/x.h-t lib/x.h`.  The
 * sed line names only a temporary file named for the target: the same
 * recipe.  The next header's first line names a target of its own.
 */
Test(job_slots, a_temporary_file_named_for_the_target_joins_its_recipe)
{
	struct fixture f;

	begin(&f);
	line(&f, 101, "echo \"  GEN     \" lib/x.h;mkdir -p 'lib'", 2 * MS, 3 * MS);
	line(&f, 102, "sed -e 1h -e 's|@''GUARD''@|GL|g' ./lib/x.in.h > lib/x.h-t", 3 * MS + 100 * US, 9 * MS);
	line(&f, 103, "mv lib/x.h-t lib/x.h", 9 * MS + 100 * US, 10 * MS);
	line(&f, 104, "echo \"  GEN     \" lib/y.h;mkdir -p 'lib'", 10 * MS + 200 * US, 11 * MS);
	compute(&f, 12 * MS);

	cr_assert(eq(u32, line_before(&f, 102), 101));
	cr_assert(eq(u32, line_before(&f, 103), 102));
	cr_assert(eq(u32, line_before(&f, 104), 0), "lib/y.h's recipe");
	end(&f);
}

/*
 * kbuild's exported KERNELRELEASE = $(shell cat include/config/kernel.release):
 * make runs the cat between a recipe's lines, each time it builds a line's
 * environment.  The call is make's own work: it holds no slot (the pool's
 * peak stays the one recipe) and is no line, so the recipe's second line
 * follows its first, over the call.
 */
Test(job_slots, makes_shell_call_holds_no_slot_and_is_no_line)
{
	struct fixture f;
	size_t pool;

	begin(&f);
	line(&f, 101, "gcc -c -o kernel/a.o kernel/a.c", 2 * MS, 300 * MS);
	synth_captured_sh(f.m, 100 * MS, 101 * MS, MAKE, 102, "cat include/config/kernel.release");
	synth_captured_sh(f.m, 300 * MS + 100 * US, 300 * MS + 600 * US, MAKE, 103,
			  "cat include/config/kernel.release");
	line(&f, 104, "objtool check kernel/a.o", 300 * MS + 800 * US, 310 * MS);
	compute(&f, 311 * MS);

	pool = f.s.pool[synth_proc_of(f.m, MAKE)->id];
	cr_assert(eq(sz, job_slots__limit(&f.s, pool), 1), "make held one slot at most: its recipe's");
	cr_assert(eq(sz, job_slots__held(&f.s, pool, 100 * MS + 500 * US), 1));
	cr_assert(eq(sz, job_slots__held(&f.s, pool, 300 * MS + 300 * US), 0), "between the lines, only the call ran");
	cr_assert(eq(u32, line_before(&f, 104), 101), "the call between the lines is none of them");
	cr_assert(eq(u32, line_before(&f, 103), 0));
	end(&f);
}

/*
 * cargo's and go's pools hold the jobs the tool was asked for, wherever it
 * took that from (model/tool_jobs.h), as the audit says it: one chain of
 * jobs (peak 1) does not make -j1 of a cargo asked for more, and an `env`
 * before cargo sets what it inherits.
 */
Test(job_slots, cargos_and_gos_pools_hold_the_jobs_asked_wherever_asked)
{
	static const struct {
		const char *const argv[6];
		struct jobs_env env;
		long limit;
	} cases[] = {
		{ { "cargo", "build" }, { .cargo_build_jobs = "1" }, 1 },
		{ { "cargo", "build" }, { .cargo_build_jobs = "3" }, 3 },
		{ { "cargo", "build", "-j2" }, { .cargo_build_jobs = "1" }, 2 },
		{ { "cargo", "build" }, { .cargo_config_jobs = "5", .cargo_config_file = "/w/.cargo/config.toml" }, 5 },
		{ { "cargo", "build" }, {}, 4 },
		{ { "env", "CARGO_BUILD_JOBS=1", "cargo", "build" }, {}, 1 },
		{ { "go", "build", "." }, { .goflags = "-p=1" }, 1 },
		{ { "go", "build", "." }, { .goflags = "-mod=mod -p=3" }, 3 },
		{ { "go", "build", "." }, {}, 4 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *argv = cases[i].argv;
		bool wrapped = !strcmp(argv[0], "env");
		const char *tool = wrapped ? argv[2] : argv[0];
		char path[32];
		struct fixture f;
		size_t root;

		f.m = model__new(MAKE, 0);
		cr_assert_not_null(f.m);
		if (wrapped)
			synth_exec(f.m, 1 * MS, MAKE, 1, "/usr/bin/env", argv);
		snprintf(path, sizeof(path), "/usr/bin/%s", tool);
		synth_exec(f.m, 1 * MS + 100 * US, MAKE, 1, path, wrapped ? argv + 2 : argv);
		line(&f, 101, "true", 2 * MS, 3 * MS);
		synth_exit(f.m, 4 * MS, MAKE, MAKE, true, 0);
		cr_assert(eq(int, model__finish(f.m, 4 * MS), 0));
		cr_assert(eq(int, job_slots__init(&f.s, f.m, &cases[i].env, 4), 0));
		root = synth_proc_of(f.m, MAKE)->id;
		cr_assert(eq(long, f.s.limit[f.s.pool[root]], cases[i].limit), "case %zu", i);
		cr_assert(eq(sz, job_slots__limit(&f.s, f.s.pool[root]), (size_t)cases[i].limit), "case %zu", i);
		end(&f);
	}
}
