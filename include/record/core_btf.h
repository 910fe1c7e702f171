/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's types a BPF object's CO-RE relocations can name, as a BTF of
 * their own.  libbpf looks up every relocated type by name in the whole
 * kernel BTF (~130,000 types on 6.18), about 1 ms per type, 23 ms with
 * --deps=on; handed this one instead (btf_custom_path), it searches a few
 * hundred.
 */
#ifndef BUILDBPF_CORE_BTF_H
#define BUILDBPF_CORE_BTF_H

#include "record/kernel_btf.h"

struct btf;

/*
 * Writes to fd a raw BTF of every type of kb whose name, less any
 * ___flavour, is the name of a struct, union, enum, typedef or forward
 * declaration of local (libbpf's candidates for it: the same set), with
 * every type those embed.  A pointer's target is not kept (it points to
 * void): CO-RE takes any two pointers as compatible, and reading through
 * one is a relocation of its own against the target by name.  0, or
 * -errno (-EINVAL: kb is unreadable or holds a kind this reader cannot size).
 */
int core_btf__write(const struct kernel_btf *kb, const struct btf *local, int fd);

#endif /* BUILDBPF_CORE_BTF_H */
