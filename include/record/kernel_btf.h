/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names in the running kernel's BTF, found without parsing it: mapping
 * /sys/kernel/btf/vmlinux (5.5 MB on 6.18) costs next to nothing, reading
 * it where it cannot be mapped (before 6.16) about 5 ms of CPU, libbpf's
 * own read and parse at load about 10 ms.
 */
#ifndef BUILDBPF_KERNEL_BTF_H
#define BUILDBPF_KERNEL_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/btf.h>

/* /sys/kernel/btf/vmlinux as read, for the look-ups below: read once, asked many times. */
struct kernel_btf {
	char *data; /* NULL: unreadable, every look-up finds nothing; read-only */
	size_t len;
	bool mapped; /* data is the kernel's own pages, mapped: munmap, not free */
};

/* Reads it.  0, or -errno with kb empty (still safe to ask and release). */
int kernel_btf__read(struct kernel_btf *kb);
void kernel_btf__release(struct kernel_btf *kb);

/*
 * found[i]: whether names[i] is a name of the kernel's BTF (a type, a
 * function, a member: the string section has each, NUL-delimited).
 */
void kernel_btf__find(const struct kernel_btf *kb, const char *const names[], bool found[], size_t nr);

/* kernel_btf__find() on a BTF read for the purpose.  0, or -errno with every found[i] false. */
int kernel_btf__has(const char *const names[], bool found[], size_t nr);

/*
 * The BTF type id of the kernel function name (what an fentry program's
 * attach_btf_id names): > 0; -ENOENT when the BTF has no such function (or
 * was unreadable), -EINVAL when it holds a kind this reader does not know.
 */
int kernel_btf__func_id(const struct kernel_btf *kb, const char *name);

/* kb's header when its sections lie within it, else NULL (unreadable, or not BTF). */
const struct btf_header *kernel_btf__header(const struct kernel_btf *kb);

/* Bytes that follow a type's struct btf_type, by its kind; -1: a kind not known here. */
long kernel_btf__type_extra(const struct btf_type *t);

#endif /* BUILDBPF_KERNEL_BTF_H */
