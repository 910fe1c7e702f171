// SPDX-License-Identifier: GPL-2.0
/* The CO-RE BTF: the kernel types a local BTF can name, with what they embed, and nothing else. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/core_btf.h"

/*
 * A kernel: struct task_struct { struct inner in; struct far *p; int x; },
 * struct inner { long a; }, struct far { int z; }, struct unrelated { int u; },
 * typedef int atomic_long_t.
 */
static struct btf *kernel(void)
{
	struct btf *k = btf__new_empty();
	int i32, i64, inner, far, ptr, task;

	cr_assert(not(eq(ptr, k, NULL)));
	i32 = btf__add_int(k, "int", 4, BTF_INT_SIGNED);
	i64 = btf__add_int(k, "long", 8, BTF_INT_SIGNED);
	btf__add_struct(k, "unrelated", 4);
	btf__add_field(k, "u", i32, 0, 0);
	inner = btf__add_struct(k, "inner", 8);
	btf__add_field(k, "a", i64, 0, 0);
	far = btf__add_struct(k, "far", 4);
	btf__add_field(k, "z", i32, 0, 0);
	ptr = btf__add_ptr(k, far);
	task = btf__add_struct(k, "task_struct", 24);
	btf__add_field(k, "in", inner, 0, 0);
	btf__add_field(k, "p", ptr, 64, 0);
	btf__add_field(k, "x", i32, 128, 0);
	cr_assert(eq(int, btf__add_typedef(k, "atomic_long_t", i32), task + 1));
	return k;
}

/* What core_btf__write() makes of kernel k for local l, parsed back. */
static struct btf *core_of(struct btf *k, struct btf *l, int *err)
{
	__u32 size;
	const void *raw = btf__raw_data(k, &size);
	struct kernel_btf kb = { .data = (char *)raw, .len = size };
	FILE *f = tmpfile();
	static char out[1 << 16];
	size_t n;

	cr_assert(not(eq(ptr, f, NULL)));
	*err = core_btf__write(&kb, l, fileno(f));
	rewind(f);
	n = fread(out, 1, sizeof(out), f);
	fclose(f);
	return *err ? NULL : btf__new(out, n);
}

Test(core_btf, a_flavoured_local_type_keeps_the_kernels_with_what_it_embeds)
{
	struct btf *k = kernel(), *l = btf__new_empty(), *c;
	const struct btf_type *t, *m;
	int id, err, i32;

	i32 = btf__add_int(l, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(l, "task_struct___pre_6_2", 4);
	btf__add_field(l, "x", i32, 0, 0);
	c = core_of(k, l, &err);
	cr_assert(eq(int, err, 0));
	cr_assert(not(eq(ptr, c, NULL)));
	id = btf__find_by_name_kind(c, "task_struct", BTF_KIND_STRUCT);
	cr_assert(id > 0, "task_struct is kept");
	t = btf__type_by_id(c, id);
	cr_assert(eq(u32, btf_vlen(t), 3));
	/* Embedded: kept whole.  Pointed to: not kept, the pointer is to void. */
	m = btf__type_by_id(c, btf_members(t)[0].type);
	cr_assert(eq(str, (char *)btf__name_by_offset(c, m->name_off), "inner"));
	cr_assert(eq(str, (char *)btf__name_by_offset(c, btf__type_by_id(c, btf_members(m)[0].type)->name_off),
		     "long"));
	m = btf__type_by_id(c, btf_members(t)[1].type);
	cr_assert(btf_is_ptr(m));
	cr_assert(eq(u32, m->type, 0));
	cr_assert(eq(str, (char *)btf__name_by_offset(c, btf_members(t)[2].name_off), "x"));
	cr_assert(eq(int, btf__find_by_name_kind(c, "far", BTF_KIND_STRUCT), -ENOENT));
	cr_assert(eq(int, btf__find_by_name_kind(c, "unrelated", BTF_KIND_STRUCT), -ENOENT));
	cr_assert(eq(int, btf__find_by_name_kind(c, "atomic_long_t", BTF_KIND_TYPEDEF), -ENOENT));
	btf__free(c);
	btf__free(l);
	btf__free(k);
}

Test(core_btf, a_typedef_is_kept_with_its_target_and_nothing_unnamed_locally)
{
	struct btf *k = kernel(), *l = btf__new_empty(), *c;
	int id, err;

	btf__add_typedef(l, "atomic_long_t", btf__add_int(l, "int", 4, BTF_INT_SIGNED));
	c = core_of(k, l, &err);
	cr_assert(eq(int, err, 0));
	cr_assert(not(eq(ptr, c, NULL)));
	id = btf__find_by_name_kind(c, "atomic_long_t", BTF_KIND_TYPEDEF);
	cr_assert(id > 0, "atomic_long_t is kept");
	cr_assert(btf_is_int(btf__type_by_id(c, btf__type_by_id(c, id)->type)));
	/* Only the typedef and its int: no struct of the kernel is named locally. */
	cr_assert(eq(u32, btf__type_cnt(c), 3));
	btf__free(c);
	btf__free(l);
	btf__free(k);
}

Test(core_btf, a_kernel_btf_it_cannot_walk_is_refused)
{
	struct btf *l = btf__new_empty();
	struct kernel_btf none = { .data = NULL };
	char junk[64] = "not BTF";
	struct kernel_btf bad = { .data = junk, .len = sizeof(junk) };

	cr_assert(eq(int, core_btf__write(&none, l, -1), -EINVAL));
	cr_assert(eq(int, core_btf__write(&bad, l, -1), -EINVAL));
	btf__free(l);
}
