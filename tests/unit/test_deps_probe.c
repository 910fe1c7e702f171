// SPDX-License-Identifier: GPL-2.0
/* The file-dependency hook and the --deps default, from the fentry probe's result. */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/deps_probe.h"

Test(deps_probe, a_loaded_fexit_program_means_fentry)
{
	cr_assert(eq(int, deps_hook__choose(0), DEPS_HOOK_FENTRY));
}

Test(deps_probe, any_refusal_falls_back_to_the_syscall_tracepoint)
{
	const int refusals[] = { -EPERM, -ENOENT, -EINVAL, -ESRCH, -ENOTSUP, -E2BIG, -EACCES };

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		cr_assert(eq(int, deps_hook__choose(refusals[i]), DEPS_HOOK_SYSCALL), "errno %d", -refusals[i]);
}

Test(deps_probe, deps_default_on_only_where_fentry_is_in_use)
{
	cr_assert(deps_hook__on(DEPS_DEFAULT, DEPS_HOOK_FENTRY));
	cr_assert_not(deps_hook__on(DEPS_DEFAULT, DEPS_HOOK_SYSCALL));
}

Test(deps_probe, deps_as_given_whatever_the_hook)
{
	cr_assert(deps_hook__on(DEPS_ON, DEPS_HOOK_SYSCALL));
	cr_assert(deps_hook__on(DEPS_ON, DEPS_HOOK_FENTRY));
	cr_assert_not(deps_hook__on(DEPS_OFF, DEPS_HOOK_FENTRY));
	cr_assert_not(deps_hook__on(DEPS_OFF, DEPS_HOOK_SYSCALL));
}

static const char *described(int probe_err, bool may_probe)
{
	static char line[256];

	deps_hook__describe(line, sizeof(line), deps_hook__choose(probe_err), probe_err, may_probe);
	return line;
}

Test(deps_probe, version_line_names_the_hook_and_the_default)
{
	cr_assert(eq(str, (char *)described(0, true),
		     "file dependencies: fentry (do_filp_open, do_renameat2): --deps on by default"));
	cr_assert(eq(str, (char *)described(-EPERM, true),
		     "file dependencies: syscall tracepoint (the kernel refuses fentry: Operation not permitted): "
		     "--deps off by default, every syscall of the machine would pay"));
	cr_assert(eq(str, (char *)described(-ENOENT, true),
		     "file dependencies: syscall tracepoint (the kernel's BTF has no do_filp_open): --deps off by "
		     "default, every syscall of the machine would pay"));
}

Test(deps_probe, version_line_without_privilege_says_it_could_not_tell)
{
	cr_assert(eq(str, (char *)described(-EPERM, false),
		     "file dependencies: unknown (probing needs root or CAP_BPF): --deps on by default where fentry "
		     "loads"));
}

Test(deps_probe, hook_names_round_trip_and_unknown_names_stay_unknown)
{
	cr_assert(eq(int, deps_hook_parse(deps_hook_name(DEPS_HOOK_FENTRY)), DEPS_HOOK_FENTRY));
	cr_assert(eq(int, deps_hook_parse(deps_hook_name(DEPS_HOOK_SYSCALL)), DEPS_HOOK_SYSCALL));
	cr_assert(eq(int, deps_hook_parse("kprobe"), DEPS_HOOK_UNKNOWN));
	cr_assert_null(deps_hook_name(DEPS_HOOK_UNKNOWN));
}
