/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the memory programs (bpf/mem_events.bpf.c) take an image's peak RSS
 * before its address space goes: chosen by probing at start-up
 * (record/mem_probe.h), written into the event log, read by the audit.
 * Its own header, so that the log format and the report need nothing of
 * the recorder.
 */
#ifndef BUILDBPF_MEM_HOOK_H
#define BUILDBPF_MEM_HOOK_H

#include <string.h>

enum mem_hook {
	MEM_HOOK_UNKNOWN = 0, /* a recording made before the hook was kept */
	/* sched_prepare_exec (6.10) and the sched_process_exit that fires
	 * before exit_mm() (6.16): tracepoints of execs and exits only */
	MEM_HOOK_TRACEPOINT = 1,
	/* fentry on do_exit and, before 6.10, begin_new_exec: only exits
	 * and execs of the machine pay */
	MEM_HOOK_FENTRY = 2,
	/* the raw sys_enter tracepoint: every syscall of every task of the
	 * machine takes the tracepoint path while it is attached */
	MEM_HOOK_SYSCALL = 3,
};

/* The hook's name in INFO, the audit and on --version; NULL for UNKNOWN. */
static inline const char *mem_hook_name(enum mem_hook h)
{
	static const char *const names[] = { NULL, "tracepoint", "fentry", "syscall" };

	return h >= MEM_HOOK_TRACEPOINT && h <= MEM_HOOK_SYSCALL ? names[h] : NULL;
}

/* The hook a name of mem_hook_name() stands for; UNKNOWN for any other text. */
static inline enum mem_hook mem_hook_parse(const char *name)
{
	enum mem_hook h = MEM_HOOK_SYSCALL;

	while (h != MEM_HOOK_UNKNOWN && strcmp(name, mem_hook_name(h)))
		h--;
	return h;
}

#endif /* BUILDBPF_MEM_HOOK_H */
