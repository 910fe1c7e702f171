/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which way the file-dependency programs hook the kernel, and whether
 * --deps is on when the command line does not say: from the probe's result
 * (capture.c runs it), pure, so it is unit-tested from tables.
 */
#ifndef BUILDBPF_RECORD_DEPS_PROBE_H
#define BUILDBPF_RECORD_DEPS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "deps_hook.h"

/* --deps as given. */
enum deps_choice {
	DEPS_DEFAULT = 0, /* not given: on where the hook costs the machine nothing */
	DEPS_ON,
	DEPS_OFF,
};

/* The kernel functions the fentry programs hook, the probe's first. */
#define DEPS_HOOK_OPEN_FUNC "do_filp_open"
#define DEPS_HOOK_RENAME_FUNC "do_renameat2"

/*
 * The hook from the fentry probe's result: 0 (an fexit program on
 * DEPS_HOOK_OPEN_FUNC loaded) is fentry; any -errno (refused, EPERM; no
 * such function, ENOENT; a BTF this reader cannot walk, EINVAL) the
 * syscall tracepoint.
 */
enum deps_hook deps_hook__choose(int probe_err);

/*
 * Whether file dependencies are recorded: as given, else only with fentry
 * (the syscall tracepoint slows every syscall of the machine, docs/overhead.md).
 */
bool deps_hook__on(enum deps_choice given, enum deps_hook hook);

/*
 * --version's line (no newline): the hook, why not fentry (probe_err, or
 * -EPERM from a user who may not load BPF: unknown), and the default.
 */
void deps_hook__describe(char *buf, size_t len, enum deps_hook hook, int probe_err, bool may_probe);

#endif /* BUILDBPF_RECORD_DEPS_PROBE_H */
