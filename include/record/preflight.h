/* SPDX-License-Identifier: GPL-2.0 */
/* Checks made before anything runs: privileges, kernel, BTF. */
#ifndef BUILDBPF_PREFLIGHT_H
#define BUILDBPF_PREFLIGHT_H

#include <stdio.h>
#include "record/kernel_btf.h"
#include "record/mem_probe.h"

/* 0 when BPF tracing can work here, else -1 with one line and a hint printed. */
int preflight__check(void);

/*
 * Whether the kernel loads an fexit program on DEPS_HOOK_OPEN_FUNC
 * (record/deps_probe.h): 0, or -errno (EPERM where the kernel refuses
 * fentry; ENOENT where its BTF lacks the function).  Loaded, not attached:
 * detaching an fentry program waits for an RCU-tasks grace period.
 */
int preflight__probe_fentry(const struct kernel_btf *kb);

/*
 * What the kernel offers the memory checkpoints (record/mem_probe.h): its
 * tracepoints, found in kb, and where they are not both there, whether an
 * fentry program loads on each function left to fentry (loaded, not
 * attached, as above).
 */
void preflight__probe_mem(const struct kernel_btf *kb, struct mem_probe *p);

/* --version's kernel lines: the running kernel's features, probed. */
void preflight__print_features(FILE *out);

#endif /* BUILDBPF_PREFLIGHT_H */
