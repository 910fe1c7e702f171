// SPDX-License-Identifier: GPL-2.0
/* The start-up check of the kernel, from feature tables. */
#include <errno.h>
#include <stdio.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/kernel_reqs.h"

static const char *verdict(struct kernel_features f)
{
	static char line[512];

	line[0] = '\0';
	if (kernel_reqs__check(&f, line, sizeof(line)) == 0)
		return NULL;
	cr_assert(eq(sz, strcspn(line, "\n"), strlen(line)), "one line: %s", line);
	return line;
}

/* Release, BTF, then the probes: tp_btf, ring buffer, task_btf helper, memory allocator. */
#define KERNEL(release, btf, tp_btf, ringbuf, task_btf, mem_alloc) \
	((struct kernel_features){ release, btf, tp_btf, ringbuf, task_btf, mem_alloc })

Test(kernel_reqs, everything_there_passes)
{
	cr_assert_null(verdict(KERNEL("6.1.0-57-amd64", true, 1, 1, 1, 1)));
}

Test(kernel_reqs, a_failed_probe_is_left_to_the_load)
{
	cr_assert_null(verdict(KERNEL("6.1.0", true, -1, -22, -EPERM, -ENOENT)));
}

Test(kernel_reqs, no_btf)
{
	cr_assert(eq(str, (char *)verdict(KERNEL("6.12.0-custom", false, 1, 1, 1, 1)),
		     "kernel 6.12.0-custom lacks BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF=y): "
		     "buildbpf needs Linux 6.1 or later with BTF"));
}

Test(kernel_reqs, a_5_4_kernel_lacks_the_ring_buffer_and_what_came_after)
{
	cr_assert(eq(str, (char *)verdict(KERNEL("5.4.0-150-generic", true, 1, 0, 0, 0)),
		     "kernel 5.4.0-150-generic lacks the BPF ring buffer (Linux 5.8), bpf_get_current_task_btf() "
		     "(Linux 5.11) and the BPF memory allocator for hash maps (Linux 6.1): "
		     "buildbpf needs Linux 6.1 or later with BTF"));
}

Test(kernel_reqs, a_5_10_kernel_lacks_the_task_helper)
{
	cr_assert(eq(str, (char *)verdict(KERNEL("5.10.0-28-amd64", true, 1, 1, 0, 0)),
		     "kernel 5.10.0-28-amd64 lacks bpf_get_current_task_btf() (Linux 5.11) and the BPF memory "
		     "allocator for hash maps (Linux 6.1): buildbpf needs Linux 6.1 or later with BTF"));
}

/* The helper is there, but tracepoints may not yet allocate hash map elements. */
Test(kernel_reqs, a_5_15_kernel_lacks_the_memory_allocator)
{
	cr_assert(eq(str, (char *)verdict(KERNEL("5.15.0-91-generic", true, 1, 1, 1, 0)),
		     "kernel 5.15.0-91-generic lacks the BPF memory allocator for hash maps (Linux 6.1): "
		     "buildbpf needs Linux 6.1 or later with BTF"));
}

Test(kernel_reqs, everything_missing_is_named_at_once)
{
	cr_assert(eq(str, (char *)verdict(KERNEL("4.19.0-27-amd64", false, 0, 0, 0, 0)),
		     "kernel 4.19.0-27-amd64 lacks BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF=y), "
		     "tp_btf programs (Linux 5.5), the BPF ring buffer (Linux 5.8), bpf_get_current_task_btf() "
		     "(Linux 5.11) and the BPF memory allocator for hash maps (Linux 6.1): "
		     "buildbpf needs Linux 6.1 or later with BTF"));
}

Test(kernel_reqs, a_small_buffer_is_cut_not_overrun)
{
	struct kernel_features f = KERNEL("4.19.0-27-amd64", false, 0, 0, 0, 0);
	char line[24 + 1] = { [24] = 'X' };

	cr_assert(eq(int, kernel_reqs__check(&f, line, 24), -1));
	cr_assert(eq(sz, strlen(line), 23));
	cr_assert(eq(chr, line[24], 'X'));
}

/* --version's kernel lines, as a bug report shows them. */
static char *printed(struct kernel_features f)
{
	static char text[1024];
	FILE *out = fmemopen(text, sizeof(text), "w");

	cr_assert_not_null(out);
	kernel_reqs__print(out, &f);
	cr_assert(eq(int, fclose(out), 0));
	return text;
}

Test(kernel_reqs, version_lines_name_every_feature)
{
	cr_assert(eq(str, printed(KERNEL("6.1.0-57-amd64", true, 1, 1, 1, 1)),
		     "kernel: 6.1.0-57-amd64\ntp_btf: yes\nring buffer: yes\nbpf_get_current_task_btf: yes\n"
		     "BPF memory allocator: yes\nBTF: yes\n"));
	cr_assert(eq(str, printed(KERNEL("5.4.0", false, 0, 0, 0, 0)),
		     "kernel: 5.4.0\ntp_btf: no (Linux 5.5)\nring buffer: no (Linux 5.8)\n"
		     "bpf_get_current_task_btf: no (Linux 5.11)\nBPF memory allocator: no (Linux 6.1)\n"
		     "BTF: no (no /sys/kernel/btf/vmlinux; CONFIG_DEBUG_INFO_BTF=y)\n"));
}

Test(kernel_reqs, version_lines_say_why_a_probe_could_not_tell)
{
	cr_assert(eq(str, printed(KERNEL(NULL, true, -EPERM, -EINVAL, -EPERM, -ENOENT)),
		     "kernel: unknown\n"
		     "tp_btf: unknown (probe failed: Operation not permitted; probing needs root or CAP_BPF)\n"
		     "ring buffer: unknown (probe failed: Invalid argument)\n"
		     "bpf_get_current_task_btf: unknown (probe failed: Operation not permitted; probing needs root or "
		     "CAP_BPF)\n"
		     "BPF memory allocator: unknown (probe failed: No such file or directory)\nBTF: yes\n"));
}
