/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buildbpf's fallback from fentry to the syscall hooks, on a real refusal:
 * a kernel function's BPF trampoline made full, so that buildbpf's fentry
 * programs on it load (the probes only load) but cannot attach.  The
 * kernel takes at most BPF_MAX_TRAMP_LINKS programs per function (38 on
 * x86-64) and refuses the next with E2BIG.
 */
#ifndef BUILDBPF_TESTS_HOOK_FALLBACK_H
#define BUILDBPF_TESTS_HOOK_FALLBACK_H

#include <stddef.h>

#define BB_TRAMP_FILL_MAX 64 /* above any architecture's limit */

struct bb_trampoline_fill {
	int link_fd[BB_TRAMP_FILL_MAX];
	size_t nr; /* links held: the kernel's limit on this function */
};

/*
 * Attaches return-0 fentry programs (named "bb_tramp_fill") to func until
 * the kernel says E2BIG; the test fails if it never does, or refuses
 * the first for another reason.  Needs root.
 */
void bb_trampoline_fill(struct bb_trampoline_fill *f, const char *func);
/* Detaches them. */
void bb_trampoline_release(struct bb_trampoline_fill *f);
/*
 * buildbpf --version's text (malloc'd), run as root in r's directory; the
 * test is skipped unless it has line (e.g. "memory checkpoints: fentry"):
 * where a hook is not on fentry there is nothing to fall back from.
 */
struct bb_run;
char *bb_require_hook(const struct bb_run *r, const char *line);

/* A run of buildbpf -v --deps=on with one function's trampoline full, and what it must say and hold. */
struct bb_fallback_case {
	const char *func;    /* the kernel function made full */
	const char *warning; /* the one fallback warning, from its start ("the fentry memory checkpoints failed (") */
	const char *mem_hook, *deps_hook; /* what the summary and -v must say after it */
	/* programs loaded while the build runs, by bb_bpf_census_check_run() */
	const char *const *want, *const *unwanted;
	/* the build: sh -c script with $0 tests/workloads/bpf_census.c, which
	 * it runs first into census.txt, and $1 arg1 */
	const char *script, *arg1;
	int status; /* the build's exit status, buildbpf's too */
};
/*
 * Runs the case in run (t.json and s.json are left in run.dir); the test
 * fails unless buildbpf warned once, of that fallback only, said and
 * recorded the hooks, exited with the build's status, held the programs
 * want and none of unwanted, each attached once, and left none behind.
 */
void bb_run_with_full_trampoline(const struct bb_fallback_case *c);

#endif /* BUILDBPF_TESTS_HOOK_FALLBACK_H */
