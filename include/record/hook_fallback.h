/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which hook gives way when the kernel refuses buildbpf's programs after the
 * probes said fentry loads: an fentry program can still fail to attach (a
 * kernel function takes BPF_MAX_TRAMP_LINKS programs at most, 38 on
 * x86-64, and other tools may hold them).  capture.c retries with the
 * syscall hook this names; pure, so the order is unit-tested.
 */
#ifndef BUILDBPF_RECORD_HOOK_FALLBACK_H
#define BUILDBPF_RECORD_HOOK_FALLBACK_H

#include <stdbool.h>
#include "mem_hook.h"

/* Whose program the kernel refused. */
enum hook_refused {
	HOOK_REFUSED_UNKNOWN, /* at load: libbpf does not say which program */
	HOOK_REFUSED_MEM,     /* a memory checkpoint's fentry program, at attach */
	HOOK_REFUSED_DEPS,    /* a file-dependency fentry program, at attach */
	HOOK_REFUSED_OTHER,   /* one no other hook replaces (a tracepoint's) */
};

enum hook_fallback {
	HOOK_FALLBACK_NONE, /* nothing to give up: the failure stands */
	HOOK_FALLBACK_MEM,  /* the memory checkpoints to the syscall entry */
	HOOK_FALLBACK_DEPS, /* the file dependencies to the syscall tracepoint */
};

/*
 * The hook that gives way, with mem the memory checkpoints' hook and
 * deps_fentry whether fentry file-dependency programs are in use: the
 * refused program's own, so that a full trampoline on one function costs
 * no other hook its fentry; not knowing which, the memory checkpoints'
 * first (the newer), then the file dependencies'.
 */
enum hook_fallback hook_fallback__next(enum hook_refused refused, enum mem_hook mem, bool deps_fentry);

#endif /* BUILDBPF_RECORD_HOOK_FALLBACK_H */
