// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>
#include "record/kernel_btf.h"
#include "util/array_grow.h"

/* /sys/kernel/btf/vmlinux whole: *btf malloc'd, *len its bytes.  0 or -errno. */
static int read_btf(char **btf, size_t *len)
{
	size_t cap = 0;
	ssize_t n = 1;
	int err = 0, fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);

	*btf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	while (n > 0) {
		if (*len == cap && array_grow((void **)btf, &cap, cap ? cap * 2 : 8 << 20, 1)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, *btf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			err = -errno;
		else
			*len += n;
	}
	close(fd);
	if (err) {
		free(*btf);
		*btf = NULL;
	}
	return err;
}

int kernel_btf__has(const char *const names[], bool found[], size_t nr)
{
	size_t len, i;
	char *btf, key[128];
	int err;

	memset(found, 0, nr * sizeof(*found));
	err = read_btf(&btf, &len);
	for (i = 0; !err && i < nr; i++) {
		int klen = snprintf(key, sizeof(key), "%c%s%c", 0, names[i], 0);

		found[i] = klen < (int)sizeof(key) && memmem(btf, len, key, klen);
	}
	free(btf);
	return err;
}

/* Bytes that follow a type's struct btf_type, by its kind; -1: a kind not known here. */
static long type_extra(const struct btf_type *t)
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

int kernel_btf__func_id(const char *name)
{
	const struct btf_header *h;
	const char *strs, *at;
	size_t len, off, name_len = strlen(name);
	__u32 id, name_off;
	char *btf;
	int err = read_btf(&btf, &len);

	if (err)
		return err;
	err = -ENOENT;
	h = (const struct btf_header *)btf;
	if (len < sizeof(*h) || h->magic != BTF_MAGIC || (size_t)h->hdr_len + h->str_off + h->str_len > len ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > len) {
		err = -EINVAL;
		goto out;
	}
	/* The string section holds each name once (BTF is deduplicated). */
	strs = btf + h->hdr_len + h->str_off;
	for (at = strs; (at = memmem(at, h->str_len - (at - strs), name, name_len + 1)); at++)
		if (at == strs || at[-1] == '\0')
			break;
	if (!at)
		goto out;
	name_off = at - strs;
	/* Type ids count from 1, in the order of the type section. */
	for (off = 0, id = 1; off + sizeof(struct btf_type) <= h->type_len; id++) {
		const struct btf_type *t = (const void *)(btf + h->hdr_len + h->type_off + off);
		long extra = type_extra(t);

		if (extra < 0) {
			err = -EINVAL;
			break;
		}
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && t->name_off == name_off) {
			err = id;
			break;
		}
		off += sizeof(*t) + extra;
	}
out:
	free(btf);
	return err;
}
