// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>
#include "record/kernel_btf.h"
#include "util/array_grow.h"

/*
 * Since 6.16 the kernel maps its own BTF pages into a read-only private
 * mapping: no copy, where read() hands out 4 KiB a call (about 1,400 calls
 * and a page fault each, ~5 ms of CPU).  0 with kb filled, or -errno.
 */
static int map_btf(int fd, struct kernel_btf *kb)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size <= 0)
		return -EINVAL;
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	kb->data = p;
	kb->len = st.st_size;
	kb->mapped = true;
	return 0;
}

int kernel_btf__read(struct kernel_btf *kb)
{
	size_t cap = 0;
	ssize_t n = 1;
	int err = 0, fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);

	*kb = (struct kernel_btf){};
	if (fd < 0)
		return -errno;
	if (!map_btf(fd, kb)) {
		close(fd);
		return 0;
	}
	while (n > 0) {
		if (kb->len == cap && array_grow((void **)&kb->data, &cap, cap ? cap * 2 : 8 << 20, 1)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, kb->data + kb->len, cap - kb->len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			err = -errno;
		else
			kb->len += n;
	}
	close(fd);
	if (err)
		kernel_btf__release(kb);
	return err;
}

void kernel_btf__release(struct kernel_btf *kb)
{
	if (kb->mapped)
		munmap(kb->data, kb->len);
	else
		free(kb->data);
	*kb = (struct kernel_btf){};
}

void kernel_btf__find(const struct kernel_btf *kb, const char *const names[], bool found[], size_t nr)
{
	char key[128];

	for (size_t i = 0; i < nr; i++) {
		int klen = snprintf(key, sizeof(key), "%c%s%c", 0, names[i], 0);

		found[i] = kb->data && klen < (int)sizeof(key) && memmem(kb->data, kb->len, key, klen);
	}
}

int kernel_btf__has(const char *const names[], bool found[], size_t nr)
{
	struct kernel_btf kb;
	int err = kernel_btf__read(&kb);

	kernel_btf__find(&kb, names, found, nr);
	kernel_btf__release(&kb);
	return err;
}

long kernel_btf__type_extra(const struct btf_type *t)
{
	__u32 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4; /* one 32-bit word: INT's encoding, VAR's linkage, DECL_TAG's component */
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

const struct btf_header *kernel_btf__header(const struct kernel_btf *kb)
{
	const struct btf_header *h = (const struct btf_header *)kb->data;

	if (!kb->data || kb->len < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len < sizeof(*h) ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > kb->len ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > kb->len)
		return NULL;
	return h;
}

int kernel_btf__func_id(const struct kernel_btf *kb, const char *name)
{
	const struct btf_header *h = kernel_btf__header(kb);
	const char *btf = kb->data, *strs, *at;
	size_t off, name_len = strlen(name);
	__u32 id, name_off;

	if (!btf)
		return -ENOENT;
	if (!h)
		return -EINVAL;
	/* The string section holds each name once (BTF is deduplicated). */
	strs = btf + h->hdr_len + h->str_off;
	for (at = strs; (at = memmem(at, h->str_len - (at - strs), name, name_len + 1)); at++)
		if (at == strs || at[-1] == '\0')
			break;
	if (!at)
		return -ENOENT;
	name_off = at - strs;
	/* Type ids count from 1, in the order of the type section. */
	for (off = 0, id = 1; off + sizeof(struct btf_type) <= h->type_len; id++) {
		const struct btf_type *t = (const void *)(btf + h->hdr_len + h->type_off + off);
		long extra = kernel_btf__type_extra(t);

		if (extra < 0)
			return -EINVAL;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off == name_off)
			return id;
		off += sizeof(*t) + extra;
	}
	return -ENOENT;
}
