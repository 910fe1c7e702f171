// SPDX-License-Identifier: GPL-2.0
/* Which hook gives way when the kernel refuses buildbpf's programs (record/hook_fallback.h). */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/hook_fallback.h"

Test(hook_fallback, an_attach_refused_gives_up_only_that_programs_hook)
{
	/* A full trampoline on do_filp_open keeps the memory checkpoints on fentry. */
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_DEPS, MEM_HOOK_FENTRY, true), HOOK_FALLBACK_DEPS));
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_MEM, MEM_HOOK_FENTRY, true), HOOK_FALLBACK_MEM));
	/* ... and one on do_exit keeps the file dependencies there. */
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_MEM, MEM_HOOK_FENTRY, false), HOOK_FALLBACK_MEM));
}

Test(hook_fallback, a_hook_already_given_up_leaves_nothing_to_give)
{
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_MEM, MEM_HOOK_SYSCALL, true), HOOK_FALLBACK_NONE));
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_MEM, MEM_HOOK_TRACEPOINT, true), HOOK_FALLBACK_NONE));
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_DEPS, MEM_HOOK_FENTRY, false), HOOK_FALLBACK_NONE));
	/* A tracepoint's program has no other hook: the failure stands. */
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_OTHER, MEM_HOOK_FENTRY, true), HOOK_FALLBACK_NONE));
}

/* A load refused names no program: every fentry hook gives way, the memory checkpoints' first, one at a time. */
Test(hook_fallback, a_load_refused_gives_up_memory_then_file_dependencies)
{
	enum mem_hook mem = MEM_HOOK_FENTRY;
	bool deps_fentry = true;
	enum hook_fallback order[3];
	int n = 0;

	while (n < 3 && (order[n] = hook_fallback__next(HOOK_REFUSED_UNKNOWN, mem, deps_fentry)) != HOOK_FALLBACK_NONE) {
		if (order[n] == HOOK_FALLBACK_MEM)
			mem = MEM_HOOK_SYSCALL;
		else
			deps_fentry = false;
		n++;
	}
	cr_assert(eq(int, n, 2));
	cr_assert(eq(int, order[0], HOOK_FALLBACK_MEM));
	cr_assert(eq(int, order[1], HOOK_FALLBACK_DEPS));
	/* Where the memory checkpoints are tracepoints, the file dependencies give way at once. */
	cr_assert(eq(int, hook_fallback__next(HOOK_REFUSED_UNKNOWN, MEM_HOOK_TRACEPOINT, true), HOOK_FALLBACK_DEPS));
}
