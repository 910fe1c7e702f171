// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "record/core_btf.h"
#include "util/array_grow.h"
#include "util/sorted_search.h"
#include "util/text_cmp.h"
#include "util/write_all.h"

/* The kinds a CO-RE relocation looks candidates up by name among (libbpf's bpf_core_find_cands()). */
static bool named_kind(__u32 kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION || kind == BTF_KIND_ENUM ||
	       kind == BTF_KIND_ENUM64 || kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_FWD;
}

/* A name less its ___flavour suffix, as libbpf matches them. */
static size_t essential_len(const char *name)
{
	const char *flavour = strstr(name, "___");

	return flavour ? (size_t)(flavour - name) : strlen(name);
}

/* The object's type names by their essential part, sorted for a binary search. */
struct name {
	const char *s;
	size_t len;
};

struct names {
	struct name *v;
	size_t nr, cap;
};

static int cmp_names(const void *a, const void *b)
{
	const struct name *x = a, *y = b;

	return text_cmp(x->s, x->len, y->s, y->len);
}

struct name_in {
	const struct names *n;
	struct name sought;
};

static bool name_below(const void *key, size_t i)
{
	const struct name_in *k = key;

	return text_cmp(k->n->v[i].s, k->n->v[i].len, k->sought.s, k->sought.len) < 0;
}

static bool names_have(const struct names *n, const char *name, size_t len)
{
	struct name_in key = { n, { name, len } };
	size_t i = sorted_first_not_before(0, n->nr, name_below, &key);

	return i < n->nr && !text_cmp(n->v[i].s, n->v[i].len, name, len);
}

/* The kernel's BTF, walked once: where each type id starts. */
struct kernel_types {
	const struct btf_header *h;
	const char *types, *strs;
	__u32 *off; /* off[id], id 1..nr-1 */
	__u32 nr;   /* ids 0..nr-1 (0: void) */
};

static int index_types(const struct kernel_btf *kb, struct kernel_types *kt)
{
	size_t cap = 0, off = 0;
	__u32 id = 1;

	kt->h = kernel_btf__header(kb);
	if (!kt->h)
		return -EINVAL;
	kt->types = kb->data + kt->h->hdr_len + kt->h->type_off;
	kt->strs = kb->data + kt->h->hdr_len + kt->h->str_off;
	kt->off = NULL;
	while (off + sizeof(struct btf_type) <= kt->h->type_len) {
		long extra = kernel_btf__type_extra((const struct btf_type *)(kt->types + off));

		if (extra < 0 || off + sizeof(struct btf_type) + extra > kt->h->type_len)
			return -EINVAL;
		if (array_grow((void **)&kt->off, &cap, id + 1, sizeof(*kt->off)))
			return -ENOMEM;
		kt->off[id++] = off;
		off += sizeof(struct btf_type) + extra;
	}
	kt->nr = id;
	return 0;
}

static const struct btf_type *type_at(const struct kernel_types *kt, __u32 id)
{
	return (const struct btf_type *)(kt->types + kt->off[id]);
}

static const char *str_at(const struct kernel_types *kt, __u32 off)
{
	return off < kt->h->str_len ? kt->strs + off : "";
}

/*
 * The type ids t refers to, into refs (room for 1 + vlen * 2): what a
 * kept type needs kept too.  A pointer's target is left out: CO-RE takes
 * any two pointers for compatible, and each step of a chain of pointers
 * is a relocation of its own, against the pointed-to type by name.
 */
static size_t type_refs(const struct btf_type *t, __u32 *refs)
{
	__u32 kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);
	size_t n = 0;

	switch (kind) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (__u32 i = 0; i < vlen; i++)
			refs[n++] = ((const struct btf_member *)(t + 1))[i].type;
		break;
	case BTF_KIND_ARRAY:
		refs[n++] = ((const struct btf_array *)(t + 1))->type;
		refs[n++] = ((const struct btf_array *)(t + 1))->index_type;
		break;
	case BTF_KIND_FUNC_PROTO:
		refs[n++] = t->type;
		for (__u32 i = 0; i < vlen; i++)
			refs[n++] = ((const struct btf_param *)(t + 1))[i].type;
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		refs[n++] = t->type;
		break;
	default: /* INT, ENUM, ENUM64, FWD, FLOAT: leaves; PTR: see above */
		break;
	}
	return n;
}

/* Marks id and everything it refers to (new_id[id] = 1 for now). */
static int mark(const struct kernel_types *kt, __u32 id, __u32 *new_id)
{
	__u32 *stack = NULL, *refs = NULL;
	size_t nr = 0, cap = 0, refs_cap = 0;
	int err = 0;

	if (new_id[id])
		return 0;
	new_id[id] = 1;
	if (array_grow((void **)&stack, &cap, 1, sizeof(*stack)))
		return -ENOMEM;
	stack[nr++] = id;
	while (nr) {
		const struct btf_type *t = type_at(kt, stack[--nr]);
		size_t n;

		if (array_grow((void **)&refs, &refs_cap, 1 + 2 * (size_t)BTF_INFO_VLEN(t->info), sizeof(*refs))) {
			err = -ENOMEM;
			break;
		}
		n = type_refs(t, refs);
		for (size_t i = 0; i < n; i++) {
			if (refs[i] >= kt->nr) {
				err = -EINVAL;
				goto out;
			}
			if (!refs[i] || new_id[refs[i]])
				continue;
			new_id[refs[i]] = 1;
			if (array_grow((void **)&stack, &cap, nr + 1, sizeof(*stack))) {
				err = -ENOMEM;
				goto out;
			}
			stack[nr++] = refs[i];
		}
	}
out:
	free(stack);
	free(refs);
	return err;
}

/* Growing output sections. */
struct buf {
	char *data;
	size_t len, cap;
};

static int buf_add(struct buf *b, const void *p, size_t n)
{
	if (array_grow((void **)&b->data, &b->cap, b->len + n, 1))
		return -ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

/* The string's offset in the new string section (a copy per use: BTF allows repeats). */
static int add_str(struct buf *strs, const struct kernel_types *kt, __u32 *name_off)
{
	const char *s = str_at(kt, *name_off);
	size_t at = strs->len;

	if (!*s) {
		*name_off = 0;
		return 0;
	}
	if (buf_add(strs, s, strlen(s) + 1))
		return -ENOMEM;
	*name_off = at;
	return 0;
}

/* Copies type id (already marked) into types/strs, its ids renumbered by new_id. */
static int emit(const struct kernel_types *kt, __u32 id, const __u32 *new_id, struct buf *types, struct buf *strs)
{
	const struct btf_type *src = type_at(kt, id);
	__u32 kind = BTF_INFO_KIND(src->info), vlen = BTF_INFO_VLEN(src->info);
	size_t at = types->len, size = sizeof(*src) + kernel_btf__type_extra(src);
	struct btf_type *t;
	int err;

	if (buf_add(types, src, size))
		return -ENOMEM;
	t = (struct btf_type *)(types->data + at);
	if ((err = add_str(strs, kt, &t->name_off)))
		return err;
	switch (kind) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (__u32 i = 0; i < vlen; i++) {
			struct btf_member *m = (struct btf_member *)(t + 1) + i;

			m->type = new_id[m->type];
			if ((err = add_str(strs, kt, &m->name_off)))
				return err;
		}
		break;
	case BTF_KIND_ENUM:
		for (__u32 i = 0; i < vlen; i++)
			if ((err = add_str(strs, kt, &((struct btf_enum *)(t + 1))[i].name_off)))
				return err;
		break;
	case BTF_KIND_ENUM64:
		for (__u32 i = 0; i < vlen; i++)
			if ((err = add_str(strs, kt, &((struct btf_enum64 *)(t + 1))[i].name_off)))
				return err;
		break;
	case BTF_KIND_ARRAY: {
		struct btf_array *a = (struct btf_array *)(t + 1);

		a->type = new_id[a->type];
		a->index_type = new_id[a->index_type];
		break;
	}
	case BTF_KIND_FUNC_PROTO:
		t->type = new_id[t->type];
		for (__u32 i = 0; i < vlen; i++) {
			struct btf_param *p = (struct btf_param *)(t + 1) + i;

			p->type = new_id[p->type];
			if ((err = add_str(strs, kt, &p->name_off)))
				return err;
		}
		break;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		/* A pointer to a type not kept points to void (0). */
		t->type = new_id[t->type];
		break;
	default:
		break;
	}
	return 0;
}

int core_btf__write(const struct kernel_btf *kb, const struct btf *local, int fd)
{
	struct kernel_types kt = {};
	struct names names = {};
	struct buf types = {}, strs = {};
	__u32 *new_id = NULL, next = 1, n_local = btf__type_cnt(local);
	int err;

	err = index_types(kb, &kt);
	if (err)
		goto out;
	for (__u32 id = 1; id < n_local; id++) {
		const struct btf_type *t = btf__type_by_id(local, id);
		const char *name = btf__name_by_offset(local, t->name_off);

		if (!named_kind(BTF_INFO_KIND(t->info)) || !name || !*name)
			continue;
		if (array_grow((void **)&names.v, &names.cap, names.nr + 1, sizeof(*names.v))) {
			err = -ENOMEM;
			goto out;
		}
		names.v[names.nr++] = (struct name){ name, essential_len(name) };
	}
	qsort(names.v, names.nr, sizeof(*names.v), cmp_names);
	new_id = calloc(kt.nr, sizeof(*new_id));
	if (!new_id) {
		err = -ENOMEM;
		goto out;
	}
	/* Every kernel type a local one could take for a candidate, and what it embeds. */
	for (__u32 id = 1; id < kt.nr && !err; id++) {
		const struct btf_type *t = type_at(&kt, id);
		const char *name = str_at(&kt, t->name_off);

		if (named_kind(BTF_INFO_KIND(t->info)) && *name && names_have(&names, name, essential_len(name)))
			err = mark(&kt, id, new_id);
	}
	if (err)
		goto out;
	/* Kept types keep their order: ids are renumbered densely from 1. */
	for (__u32 id = 1; id < kt.nr; id++)
		if (new_id[id])
			new_id[id] = next++;
	if (buf_add(&strs, "", 1)) {
		err = -ENOMEM;
		goto out;
	}
	for (__u32 id = 1; id < kt.nr && !err; id++)
		if (new_id[id])
			err = emit(&kt, id, new_id, &types, &strs);
	if (!err) {
		struct btf_header h = {
			.magic = BTF_MAGIC,
			.version = BTF_VERSION,
			.hdr_len = sizeof(h),
			.type_off = 0,
			.type_len = types.len,
			.str_off = types.len,
			.str_len = strs.len,
		};

		err = write_all(fd, &h, sizeof(h)) ?: write_all(fd, types.data, types.len) ?:
							 write_all(fd, strs.data, strs.len);
	}
out:
	free(kt.off);
	free(names.v);
	free(new_id);
	free(types.data);
	free(strs.data);
	return err;
}
