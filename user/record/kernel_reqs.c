// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "record/kernel_reqs.h"

int kernel_reqs__check(const struct kernel_features *f, char *buf, size_t len)
{
	const char *missing[5];
	size_t n = 0, i, used;

	if (!f->btf)
		missing[n++] = "BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF=y)";
	if (f->tp_btf == 0)
		missing[n++] = "tp_btf programs (Linux 5.5)";
	if (f->ringbuf == 0)
		missing[n++] = "the BPF ring buffer (Linux 5.8)";
	if (f->task_btf == 0)
		missing[n++] = "bpf_get_current_task_btf() (Linux 5.11)";
	if (f->mem_alloc == 0)
		missing[n++] = "the BPF memory allocator for hash maps (Linux 6.1)";
	if (!n)
		return 0;
	used = snprintf(buf, len, "kernel %s lacks ", f->release ? f->release : "(unknown)");
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", missing[i]);
	if (used < len)
		snprintf(buf + used, len - used, ": buildbpf needs " KERNEL_REQS_MIN " or later with BTF");
	return -1;
}

/* A probe result (libbpf's convention) as --version shows it. */
static void print_probe(FILE *out, const char *name, int result, const char *needs)
{
	if (result > 0)
		fprintf(out, "%s: yes\n", name);
	else if (result == 0)
		fprintf(out, "%s: no (%s)\n", name, needs);
	else
		fprintf(out, "%s: unknown (probe failed: %s%s)\n", name, strerror(-result),
			result == -EPERM ? "; probing needs root or CAP_BPF" : "");
}

void kernel_reqs__print(FILE *out, const struct kernel_features *f)
{
	fprintf(out, "kernel: %s\n", f->release ? f->release : "unknown");
	print_probe(out, "tp_btf", f->tp_btf, "Linux 5.5");
	print_probe(out, "ring buffer", f->ringbuf, "Linux 5.8");
	print_probe(out, "bpf_get_current_task_btf", f->task_btf, "Linux 5.11");
	print_probe(out, "BPF memory allocator", f->mem_alloc, "Linux 6.1");
	fprintf(out, "BTF: %s\n", f->btf ? "yes" : "no (no /sys/kernel/btf/vmlinux; CONFIG_DEBUG_INFO_BTF=y)");
}
