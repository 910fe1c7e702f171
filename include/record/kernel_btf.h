/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names in the running kernel's BTF, found without parsing it: reading
 * /sys/kernel/btf/vmlinux (a few MB, in memory) costs about 2 ms, parsing
 * it, as libbpf does at load, 90 ms.
 */
#ifndef BUILDBPF_KERNEL_BTF_H
#define BUILDBPF_KERNEL_BTF_H

#include <stdbool.h>
#include <stddef.h>

/*
 * found[i]: whether names[i] is a name of the kernel's BTF (a type, a
 * function, a member: the string section has each, NUL-delimited).  0, or
 * -errno when it cannot be read, with every found[i] false.
 */
int kernel_btf__has(const char *const names[], bool found[], size_t nr);

/*
 * The BTF type id of the kernel function name (what an fentry program's
 * attach_btf_id names): > 0; -ENOENT when the BTF has no such function,
 * -EINVAL when it holds a kind this reader does not know, or -errno.
 */
int kernel_btf__func_id(const char *name);

#endif /* BUILDBPF_KERNEL_BTF_H */
