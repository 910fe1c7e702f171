/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What buildbpf needs of the kernel (docs/requirements.md), and the one
 * line that says what a kernel lacks.  Pure, so it is unit-tested from
 * tables; preflight.c probes the running kernel.
 */
#ifndef BUILDBPF_KERNEL_REQS_H
#define BUILDBPF_KERNEL_REQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The oldest kernel with everything: the last to arrive, in 6.1, was hash
 * maps that allocate safely in any context (tracepoints included). */
#define KERNEL_REQS_MIN "Linux 6.1"

struct kernel_features {
	const char *release; /* uname -r */
	bool btf;	     /* /sys/kernel/btf/vmlinux is readable */
	/* Probe results, libbpf's convention: 1 supported, 0 not, <0 the probe
	 * itself failed (then the load says what went wrong, not this check). */
	int tp_btf;   /* BPF_PROG_TYPE_TRACING programs (tp_btf, 5.5) */
	int ringbuf;  /* BPF_MAP_TYPE_RINGBUF (5.8) */
	int task_btf; /* the bpf_get_current_task_btf() helper (5.11) */
	/* Hash maps without preallocation take their elements from the BPF
	 * memory allocator (bpf_mem_alloc, 6.1), safe in any context.  Before,
	 * kmalloc from a tracepoint could deadlock or corrupt the allocator. */
	int mem_alloc;
};

/*
 * 0 when nothing buildbpf needs is known to be missing; else -1 with the
 * line (no "buildbpf: " prefix, no newline) in buf, naming everything that
 * is missing at once.
 */
int kernel_reqs__check(const struct kernel_features *f, char *buf, size_t len);

/*
 * The kernel's part of --version, one line each: its release, then every
 * feature buildbpf needs as "yes", "no" or why the probe could not tell.
 */
void kernel_reqs__print(FILE *out, const struct kernel_features *f);

#endif /* BUILDBPF_KERNEL_REQS_H */
