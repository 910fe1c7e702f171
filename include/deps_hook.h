/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the file-dependency programs hook the kernel (bpf/file_events.bpf.c):
 * chosen by probing at start-up (record/deps_probe.h), written into the
 * event log, read by the audit.  Its own header, so that the log format
 * and the report need nothing of the recorder.
 */
#ifndef BUILDBPF_DEPS_HOOK_H
#define BUILDBPF_DEPS_HOOK_H

#include <stddef.h>
#include <string.h>

enum deps_hook {
	DEPS_HOOK_UNKNOWN = 0, /* a recording made before the hook was kept */
	/* fentry/fexit on the kernel's open and rename functions: only opens
	 * and renames pay, and a process outside the build one lookup each */
	DEPS_HOOK_FENTRY = 1,
	/* the raw sys_exit tracepoint: every syscall of every task of the
	 * machine takes the tracepoint path while it is attached */
	DEPS_HOOK_SYSCALL = 2,
};

/*
 * What the syscall hook costs the rest of the machine, measured: an
 * unrelated syscall-heavy program (perf bench sched pipe) beside a traced
 * build ran this much slower with --deps=on (1.017x without; docs/overhead.md).
 */
#define DEPS_HOOK_SYSCALL_COST "1.08x"

/* The hook's name in INFO and on --version: "fentry", "syscall"; NULL for UNKNOWN. */
static inline const char *deps_hook_name(enum deps_hook h)
{
	return h == DEPS_HOOK_FENTRY ? "fentry" : h == DEPS_HOOK_SYSCALL ? "syscall" : NULL;
}

/* The hook a name of deps_hook_name() stands for; UNKNOWN for any other text. */
static inline enum deps_hook deps_hook_parse(const char *name)
{
	for (enum deps_hook h = DEPS_HOOK_FENTRY; h <= DEPS_HOOK_SYSCALL; h++)
		if (!strcmp(name, deps_hook_name(h)))
			return h;
	return DEPS_HOOK_UNKNOWN;
}

#endif /* BUILDBPF_DEPS_HOOK_H */
