// SPDX-License-Identifier: GPL-2.0
/*
 * make's $(shell) calls (model/shell_call.h), from synthetic records (no
 * root): make's child whose output make read is one, with its subtree;
 * make's recipe (its output make's own) is not, nor ninja's child (ninja
 * reads every job's output), nor a shell's $(...) inside a recipe.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/shell_call.h"
#include "lib/synth.h"

#define MS 1000000ull

static size_t idx(const struct model *m, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(m, pid);

	cr_assert_not_null(p, "no process %u", pid);
	return p->id;
}

/* A child of parent that ran /bin/sh -c cmd, its output parent's own, during [start, end] (ns). */
static void recipe(struct model *m, __u32 parent, __u32 pid, const char *cmd, __u64 start, __u64 end)
{
	synth_fork(m, start, parent, pid, pid, false);
	synth_exec(m, start + 1000, pid, parent, "/bin/sh", (const char *[]){ "/bin/sh", "-c", cmd, NULL });
	synth_exit(m, end, pid, pid, true, 0);
}

Test(shell_call, makes_child_whose_output_make_read_is_a_call_its_recipe_is_not)
{
	struct model *m = model__new(100, 0);

	cr_assert_not_null(m);
	synth_exec(m, 1 * MS, 100, 1, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	synth_captured_sh(m, 2 * MS, 3 * MS, 100, 101, "cat include/config/kernel.release");
	recipe(m, 100, 102, "gcc -c -o a.o a.c", 4 * MS, 50 * MS);
	/* The recipe's own $(...): its shell reads it, not make. */
	synth_captured_sh(m, 5 * MS, 6 * MS, 102, 103, "uname -r");
	synth_exit(m, 100 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 100 * MS), 0));
	cr_assert(shell_call__is(m, idx(m, 101)));
	cr_assert(not(shell_call__is(m, idx(m, 102))));
	cr_assert(not(shell_call__is(m, idx(m, 103))), "a shell's $(...) is its own business");
	cr_assert(not(shell_call__is(m, idx(m, 100))), "the command has no traced parent");
	cr_assert(not(shell_call__is(m, m->nr_procs)), "out of range");
	cr_assert(eq(sz, shell_call__count(m), 1));
	model__free(m);
}

Test(shell_call, ninjas_captured_children_are_its_jobs)
{
	struct model *m = model__new(200, 0);

	cr_assert_not_null(m);
	synth_exec(m, 1 * MS, 200, 1, "/usr/bin/ninja", (const char *[]){ "ninja", NULL });
	synth_captured_sh(m, 2 * MS, 30 * MS, 200, 201, "gcc -c -o a.o a.c");
	synth_exit(m, 40 * MS, 200, 200, true, 0);
	cr_assert(eq(int, model__finish(m, 40 * MS), 0));
	cr_assert(not(shell_call__is(m, idx(m, 201))));
	cr_assert(eq(sz, shell_call__count(m), 0));
	model__free(m);
}
