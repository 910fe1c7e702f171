// SPDX-License-Identifier: GPL-2.0
/* The start-up check of the kernel, from feature tables. */
#include <errno.h>
#include <stdio.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/kernel_reqs.h"

static const char *verdict(struct kernel_features f)
{
	static char line[256];

	line[0] = '\0';
	if (kernel_reqs__check(&f, line, sizeof(line)) == 0)
		return NULL;
	cr_assert(eq(sz, strcspn(line, "\n"), strlen(line)), "one line: %s", line);
	return line;
}

Test(kernel_reqs, everything_there_passes)
{
	cr_assert_null(verdict((struct kernel_features){ "6.1.0-57-amd64", true, 1, 1 }));
}

Test(kernel_reqs, a_failed_probe_is_left_to_the_load)
{
	cr_assert_null(verdict((struct kernel_features){ "6.1.0", true, -1, -22 }));
}

Test(kernel_reqs, no_btf)
{
	cr_assert(eq(str, (char *)verdict((struct kernel_features){ "6.12.0-custom", false, 1, 1 }),
		     "kernel 6.12.0-custom lacks BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF=y): "
		     "buildbpf needs Linux 5.8 or later with BTF"));
}

Test(kernel_reqs, a_5_4_kernel_lacks_the_ring_buffer)
{
	cr_assert(eq(str, (char *)verdict((struct kernel_features){ "5.4.0-150-generic", true, 1, 0 }),
		     "kernel 5.4.0-150-generic lacks the BPF ring buffer (Linux 5.8): "
		     "buildbpf needs Linux 5.8 or later with BTF"));
}

Test(kernel_reqs, everything_missing_is_named_at_once)
{
	cr_assert(eq(str, (char *)verdict((struct kernel_features){ "4.19.0-27-amd64", false, 0, 0 }),
		     "kernel 4.19.0-27-amd64 lacks BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF=y), "
		     "tp_btf programs (Linux 5.5) and the BPF ring buffer (Linux 5.8): "
		     "buildbpf needs Linux 5.8 or later with BTF"));
}

Test(kernel_reqs, a_small_buffer_is_cut_not_overrun)
{
	struct kernel_features f = { "4.19.0-27-amd64", false, 0, 0 };
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
	cr_assert(eq(str, printed((struct kernel_features){ "6.1.0-57-amd64", true, 1, 1 }),
		     "kernel: 6.1.0-57-amd64\ntp_btf: yes\nring buffer: yes\nBTF: yes\n"));
	cr_assert(eq(str, printed((struct kernel_features){ "5.4.0", false, 0, 0 }),
		     "kernel: 5.4.0\ntp_btf: no (Linux 5.5)\nring buffer: no (Linux 5.8)\n"
		     "BTF: no (no /sys/kernel/btf/vmlinux; CONFIG_DEBUG_INFO_BTF=y)\n"));
}

Test(kernel_reqs, version_lines_say_why_a_probe_could_not_tell)
{
	cr_assert(eq(str, printed((struct kernel_features){ NULL, true, -EPERM, -EINVAL }),
		     "kernel: unknown\n"
		     "tp_btf: unknown (probe failed: Operation not permitted; probing needs root or CAP_BPF)\n"
		     "ring buffer: unknown (probe failed: Invalid argument)\nBTF: yes\n"));
}
