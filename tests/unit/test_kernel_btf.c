// SPDX-License-Identifier: GPL-2.0
/* Finding a kernel function's BTF id (an fentry program's attach_btf_id) in raw BTF, built here by hand. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/btf.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/kernel_btf.h"

/* "\0int\0do_filp_open\0x\0open\0": name offsets 1, 5, 18, 20. */
static const char strings[] = "\0int\0do_filp_open\0x\0open";

struct tiny_btf {
	struct btf_header hdr;
	/* [1] INT "int" */
	struct btf_type int_t;
	__u32 int_enc;
	/* [2] FUNC_PROTO int (int x) */
	struct btf_type proto;
	struct btf_param param;
	/* [3] STRUCT "open" { int x; } */
	struct btf_type st;
	struct btf_member member;
	/* [4] FUNC "do_filp_open" */
	struct btf_type func;
	char str[sizeof(strings)];
};

static struct tiny_btf tiny(void)
{
	struct tiny_btf b = {
		.hdr = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(struct btf_header) },
		.int_t = { .name_off = 1, .info = BTF_KIND_INT << 24, .size = 4 },
		.int_enc = 32,
		.proto = { .info = BTF_KIND_FUNC_PROTO << 24 | 1, .type = 1 },
		.param = { .name_off = 18, .type = 1 },
		.st = { .name_off = 20, .info = BTF_KIND_STRUCT << 24 | 1, .size = 4 },
		.member = { .name_off = 18, .type = 1 },
		.func = { .name_off = 5, .info = BTF_KIND_FUNC << 24, .type = 2 },
	};

	b.hdr.type_off = 0;
	b.hdr.type_len = offsetof(struct tiny_btf, str) - sizeof(struct btf_header);
	b.hdr.str_off = b.hdr.type_len;
	b.hdr.str_len = sizeof(strings);
	memcpy(b.str, strings, sizeof(strings));
	return b;
}

Test(kernel_btf, a_function_is_found_by_name_past_other_kinds)
{
	struct tiny_btf b = tiny();
	struct kernel_btf kb = { .data = (char *)&b, .len = sizeof(b) };

	cr_assert(eq(int, kernel_btf__func_id(&kb, "do_filp_open"), 4));
}

Test(kernel_btf, a_name_that_is_no_function_or_a_suffix_is_not_found)
{
	struct tiny_btf b = tiny();
	struct kernel_btf kb = { .data = (char *)&b, .len = sizeof(b) };

	cr_assert(eq(int, kernel_btf__func_id(&kb, "open"), -ENOENT)); /* a struct's name */
	cr_assert(eq(int, kernel_btf__func_id(&kb, "filp_open"), -ENOENT)); /* inside another name */
	cr_assert(eq(int, kernel_btf__func_id(&kb, "do_renameat2"), -ENOENT));
}

Test(kernel_btf, unreadable_unknown_kinds_and_bad_headers_find_nothing)
{
	struct tiny_btf b = tiny();
	struct kernel_btf kb = { .data = (char *)&b, .len = sizeof(b) }, none = { .data = NULL };

	cr_assert(eq(int, kernel_btf__func_id(&none, "do_filp_open"), -ENOENT));
	b.st.info = 31u << 24 | 1; /* a kind this reader cannot size */
	cr_assert(eq(int, kernel_btf__func_id(&kb, "do_filp_open"), -EINVAL));
	b = tiny();
	b.hdr.str_len = 4096; /* past the end */
	cr_assert(eq(int, kernel_btf__func_id(&kb, "do_filp_open"), -EINVAL));
	b = tiny();
	b.hdr.magic = 0;
	cr_assert(eq(int, kernel_btf__func_id(&kb, "do_filp_open"), -EINVAL));
}

/* The running kernel's BTF, mapped (6.16+) or read: all of it, a BTF header first, nothing left after release. */
Test(kernel_btf, the_running_kernels_btf_is_had_whole_and_released)
{
	struct kernel_btf kb;
	struct stat st;

	if (stat("/sys/kernel/btf/vmlinux", &st))
		cr_skip_test("this kernel has no /sys/kernel/btf/vmlinux");
	cr_assert(eq(int, kernel_btf__read(&kb), 0));
	cr_assert(eq(sz, kb.len, (size_t)st.st_size));
	cr_assert(eq(u16, ((const struct btf_header *)kb.data)->magic, BTF_MAGIC));
	cr_assert(kernel_btf__func_id(&kb, "do_exit") > 0, "do_exit has no BTF id");
	kernel_btf__release(&kb);
	cr_assert(eq(ptr, kb.data, NULL));
	cr_assert(eq(sz, kb.len, 0));
	cr_assert(not(kb.mapped));
}
