/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the memory programs checkpoint an image's peak RSS
 * (bpf/mem_events.bpf.c), and which of them load: from what the kernel
 * offers (capture.c probes it, preflight__probe_mem()), pure, so it is
 * unit-tested from tables.
 */
#ifndef BUILDBPF_RECORD_MEM_PROBE_H
#define BUILDBPF_RECORD_MEM_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "mem_hook.h"

/* The kernel functions the fentry checkpoints hook: the mm is still current's at their entry. */
#define MEM_HOOK_EXIT_FUNC "do_exit"	      /* every task's exit, before exit_mm() */
#define MEM_HOOK_EXEC_FUNC "begin_new_exec" /* an exec's point of no return, before exec_mmap() */

/* What the kernel offers for the checkpoints. */
struct mem_probe {
	bool prepare_exec_tp; /* sched_prepare_exec (6.10): sees the mm an exec replaces */
	bool exit_tp_first;   /* sched_process_exit fires before exit_mm() (6.16) */
	/* 0: an fentry program loads on each function the tracepoints above
	 * leave to fentry; else the first -errno (EPERM: fentry refused;
	 * ENOENT: no such function).  Not probed (-EAGAIN) where both
	 * tracepoints exist. */
	int fentry_err;
};

/* The functions fentry is needed on: MEM_HOOK_EXIT_FUNC, MEM_HOOK_EXEC_FUNC or none of them, NULL-ended. */
void mem_hook__fentry_funcs(bool prepare_exec_tp, bool exit_tp_first, const char *funcs[3]);

/* The hook: the tracepoints where both exist, else fentry where it loaded, else the raw syscall entry. */
enum mem_hook mem_hook__choose(const struct mem_probe *p);

/* Which memory checkpoint programs load for the hook. */
struct mem_progs {
	bool prepare_exec; /* tp_btf/sched_prepare_exec */
	bool fentry_exit;  /* fentry/do_exit */
	bool fentry_exec;  /* fentry/begin_new_exec */
	bool sys_enter;	   /* tp_btf/sys_enter: every syscall of the machine */
};
struct mem_progs mem_hook__progs(enum mem_hook hook, const struct mem_probe *p);

/*
 * --version's line (no newline): the hook, and why not fentry where the
 * syscall entry is the one.  may_probe false (a user who may not load
 * BPF): unknown.
 */
void mem_hook__describe(char *buf, size_t len, enum mem_hook hook, const struct mem_probe *p, bool may_probe);

#endif /* BUILDBPF_RECORD_MEM_PROBE_H */
