// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "record/deps_probe.h"

enum deps_hook deps_hook__choose(int probe_err)
{
	return probe_err ? DEPS_HOOK_SYSCALL : DEPS_HOOK_FENTRY;
}

bool deps_hook__on(enum deps_choice given, enum deps_hook hook)
{
	if (given != DEPS_DEFAULT)
		return given == DEPS_ON;
	return hook == DEPS_HOOK_FENTRY;
}

/* Why the fentry probe failed, in words. */
static const char *refusal(int probe_err)
{
	switch (probe_err) {
	case -ENOENT:
	case -ESRCH:
		return "the kernel's BTF has no " DEPS_HOOK_OPEN_FUNC;
	case -EINVAL:
		return "the kernel's BTF could not be searched";
	default:
		return NULL;
	}
}

void deps_hook__describe(char *buf, size_t len, enum deps_hook hook, int probe_err, bool may_probe)
{
	const char *why = refusal(probe_err);

	if (!may_probe) {
		snprintf(buf, len, "file dependencies: unknown (probing needs root or CAP_BPF): --deps on by default "
				   "where fentry loads");
	} else if (hook == DEPS_HOOK_FENTRY) {
		snprintf(buf, len, "file dependencies: fentry (" DEPS_HOOK_OPEN_FUNC ", " DEPS_HOOK_RENAME_FUNC
				   "): --deps on by default");
	} else if (why) {
		snprintf(buf, len, "file dependencies: syscall tracepoint (%s): --deps off by default, every syscall "
				   "of the machine would pay", why);
	} else {
		snprintf(buf, len, "file dependencies: syscall tracepoint (the kernel refuses fentry: %s): --deps off "
				   "by default, every syscall of the machine would pay", strerror(-probe_err));
	}
}
