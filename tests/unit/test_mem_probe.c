// SPDX-License-Identifier: GPL-2.0
/* Where the memory programs checkpoint, and which of them load, from what the kernel offers. */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/mem_probe.h"

/* Debian's kernels: 6.1 has neither tracepoint, 6.12 sched_prepare_exec only; 6.16 and later both. */
static const struct mem_probe k6_1 = { .fentry_err = 0 };
static const struct mem_probe k6_12 = { .prepare_exec_tp = true, .fentry_err = 0 };
static const struct mem_probe k6_16 = { .prepare_exec_tp = true, .exit_tp_first = true, .fentry_err = -EAGAIN };

Test(mem_probe, fentry_is_needed_only_where_a_tracepoint_is_missing)
{
	const char *funcs[3];

	mem_hook__fentry_funcs(false, false, funcs);
	cr_assert(eq(str, (char *)funcs[0], "do_exit"));
	cr_assert(eq(str, (char *)funcs[1], "begin_new_exec"));
	cr_assert_null(funcs[2]);
	mem_hook__fentry_funcs(true, false, funcs);
	cr_assert(eq(str, (char *)funcs[0], "do_exit"));
	cr_assert_null(funcs[1]);
	mem_hook__fentry_funcs(true, true, funcs);
	cr_assert_null(funcs[0]);
}

Test(mem_probe, both_tracepoints_need_neither_fentry_nor_the_syscall_entry)
{
	struct mem_progs p = mem_hook__progs(mem_hook__choose(&k6_16), &k6_16);

	cr_assert(eq(int, mem_hook__choose(&k6_16), MEM_HOOK_TRACEPOINT));
	cr_assert(p.prepare_exec);
	cr_assert_not(p.fentry_exit || p.fentry_exec || p.sys_enter);
}

Test(mem_probe, where_fentry_loads_no_syscall_pays)
{
	struct mem_progs p = mem_hook__progs(mem_hook__choose(&k6_1), &k6_1);

	cr_assert(eq(int, mem_hook__choose(&k6_1), MEM_HOOK_FENTRY));
	cr_assert(p.fentry_exit && p.fentry_exec);
	cr_assert_not(p.prepare_exec || p.sys_enter);
	/* 6.12: the exec's checkpoint is the tracepoint's, the exit's fentry's. */
	p = mem_hook__progs(mem_hook__choose(&k6_12), &k6_12);
	cr_assert(eq(int, mem_hook__choose(&k6_12), MEM_HOOK_FENTRY));
	cr_assert(p.prepare_exec && p.fentry_exit);
	cr_assert_not(p.fentry_exec || p.sys_enter);
}

Test(mem_probe, any_refusal_falls_back_to_the_syscall_entry)
{
	const int refusals[] = { -EPERM, -ENOENT, -EINVAL, -ESRCH, -ENOTSUP, -E2BIG, -EACCES };

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		struct mem_probe k = k6_12;
		struct mem_progs p;

		k.fentry_err = refusals[i];
		cr_assert(eq(int, mem_hook__choose(&k), MEM_HOOK_SYSCALL), "errno %d", -refusals[i]);
		p = mem_hook__progs(MEM_HOOK_SYSCALL, &k);
		cr_assert(p.sys_enter && p.prepare_exec);
		cr_assert_not(p.fentry_exit || p.fentry_exec);
	}
}

static const char *described(const struct mem_probe *p, bool may_probe)
{
	static char line[256];

	mem_hook__describe(line, sizeof(line), mem_hook__choose(p), p, may_probe);
	return line;
}

Test(mem_probe, version_line_names_the_hook_and_why_not_fentry)
{
	struct mem_probe refused = k6_1, missing = k6_12;

	refused.fentry_err = -EPERM;
	missing.fentry_err = -ENOENT;
	cr_assert(eq(str, (char *)described(&k6_16, true),
		     "memory checkpoints: tracepoints (sched_prepare_exec, sched_process_exit)"));
	cr_assert(eq(str, (char *)described(&k6_1, true), "memory checkpoints: fentry (do_exit, begin_new_exec)"));
	cr_assert(eq(str, (char *)described(&k6_12, true),
		     "memory checkpoints: fentry (do_exit) and sched_prepare_exec"));
	cr_assert(eq(str, (char *)described(&refused, true),
		     "memory checkpoints: syscall entry (the kernel refuses fentry: Operation not permitted): every "
		     "syscall of the machine pays while a build is traced"));
	cr_assert(eq(str, (char *)described(&missing, true),
		     "memory checkpoints: syscall entry (the kernel's BTF lacks do_exit): every syscall of the machine "
		     "pays while a build is traced"));
	cr_assert(eq(str, (char *)described(&k6_1, false), "memory checkpoints: unknown (probing needs root or CAP_BPF)"));
}

Test(mem_probe, hook_names_round_trip)
{
	for (enum mem_hook h = MEM_HOOK_TRACEPOINT; h <= MEM_HOOK_SYSCALL; h++)
		cr_assert(eq(int, mem_hook_parse(mem_hook_name(h)), h));
	cr_assert(eq(int, mem_hook_parse("kprobe"), MEM_HOOK_UNKNOWN));
	cr_assert_null(mem_hook_name(MEM_HOOK_UNKNOWN));
}
