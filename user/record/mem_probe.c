// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "record/mem_probe.h"

void mem_hook__fentry_funcs(bool prepare_exec_tp, bool exit_tp_first, const char *funcs[3])
{
	int n = 0;

	if (!exit_tp_first)
		funcs[n++] = MEM_HOOK_EXIT_FUNC;
	if (!prepare_exec_tp)
		funcs[n++] = MEM_HOOK_EXEC_FUNC;
	funcs[n] = NULL;
}

enum mem_hook mem_hook__choose(const struct mem_probe *p)
{
	if (p->prepare_exec_tp && p->exit_tp_first)
		return MEM_HOOK_TRACEPOINT;
	return p->fentry_err ? MEM_HOOK_SYSCALL : MEM_HOOK_FENTRY;
}

struct mem_progs mem_hook__progs(enum mem_hook hook, const struct mem_probe *p)
{
	bool fentry = hook == MEM_HOOK_FENTRY;

	/* The syscall entry takes both checkpoints; sched_prepare_exec is
	 * cheap and kept wherever it exists. */
	return (struct mem_progs){
		.prepare_exec = p->prepare_exec_tp,
		.fentry_exit = fentry && !p->exit_tp_first,
		.fentry_exec = fentry && !p->prepare_exec_tp,
		.sys_enter = hook == MEM_HOOK_SYSCALL,
	};
}

void mem_hook__describe(char *buf, size_t len, enum mem_hook hook, const struct mem_probe *p, bool may_probe)
{
	const char *funcs[3];

	mem_hook__fentry_funcs(p->prepare_exec_tp, p->exit_tp_first, funcs);
	if (!may_probe)
		snprintf(buf, len, "memory checkpoints: unknown (probing needs root or CAP_BPF)");
	else if (hook == MEM_HOOK_TRACEPOINT)
		snprintf(buf, len, "memory checkpoints: tracepoints (sched_prepare_exec, sched_process_exit)");
	else if (hook == MEM_HOOK_FENTRY)
		snprintf(buf, len, "memory checkpoints: fentry (%s%s%s)%s", funcs[0], funcs[1] ? ", " : "",
			 funcs[1] ? funcs[1] : "", p->prepare_exec_tp ? " and sched_prepare_exec" : "");
	else if (p->fentry_err == -ENOENT || p->fentry_err == -ESRCH)
		snprintf(buf, len, "memory checkpoints: syscall entry (the kernel's BTF lacks %s%s%s): every syscall of "
				   "the machine pays while a build is traced", funcs[0], funcs[1] ? " or " : "",
			 funcs[1] ? funcs[1] : "");
	else
		snprintf(buf, len, "memory checkpoints: syscall entry (the kernel refuses fentry: %s): every syscall of "
				   "the machine pays while a build is traced", strerror(-p->fentry_err));
}
