// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/proc_match.h"
#include "model/proc_name.h"
#include "model/step_names.h"
#include "util/run_beside.h"
#include "audit/audit.h"

/* FNV-1a, 64 bits: identities are compared as hashes, so that a deep
 * parent chain costs one word per process, not a string per level. */
#define HASH_SEED 0xcbf29ce484222325ull
#define HASH_PRIME 0x100000001b3ull

static __u64 hash_bytes(__u64 h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= HASH_PRIME;
	}
	/* A separator, so that ("ab", "c") and ("a", "bc") differ. */
	h ^= 0xff;
	return h * HASH_PRIME;
}

struct text {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void text_put(struct text *t, const char *s, size_t n)
{
	char *grown;

	if (t->failed)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;

		grown = realloc(t->buf, cap);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->buf = grown;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A temporary file's path starts here: /tmp/ or /var/tmp/ at a token start. */
static size_t tmp_prefix(const char *s)
{
	if (!strncmp(s, "/tmp/", 5))
		return 5;
	if (!strncmp(s, "/var/tmp/", 9))
		return 9;
	return 0;
}

/*
 * The path at s (its directory part n bytes long) names a file right in
 * the temporary directory, as gcc's /tmp/ccAbC123.s: no further '/', and
 * not the build directory or one above it.
 */
static bool is_temp_file(const char *s, size_t n, const char *cwd)
{
	size_t len = strcspn(s, " ,:");

	if (memchr(s + n, '/', len - n) || len == n)
		return false;
	return !cwd || strncmp(cwd, s, len) || (cwd[len] != '/' && cwd[len]);
}

/* v in decimal at s (room for 11 bytes), NUL-terminated: its length. */
static size_t decimal(char *s, __u32 v)
{
	char digits[10];
	size_t n = 0, len;

	do
		digits[n++] = '0' + v % 10;
	while (v /= 10);
	for (len = 0; n; len++)
		s[len] = digits[--n];
	s[len] = '\0';
	return len;
}

/* What is volatile in one process's arguments: made once per process, not per argument. */
struct volatile_parts {
	const char *cwd;
	size_t cwd_len;
	__u32 pid, ppid;
	char pid_s[16], ppid_s[16];
	size_t pid_len, ppid_len;
};

static void volatile_parts__init(struct volatile_parts *v, const char *cwd, __u32 pid, __u32 ppid)
{
	v->cwd = cwd;
	v->cwd_len = cwd ? strlen(cwd) : 0;
	/* "/" as the build directory would rewrite every path: left alone. */
	if (v->cwd_len == 1)
		v->cwd_len = 0;
	v->pid = pid;
	v->ppid = ppid;
	v->pid_len = decimal(v->pid_s, pid);
	v->ppid_len = decimal(v->ppid_s, ppid);
}

/* arg without its volatile parts, appended to t (proc_match__normalise_arg()). */
static void normalise(struct text *t, const char *arg, const struct volatile_parts *v)
{
	const char *s = arg, *cwd = v->cwd;
	size_t cwd_len = v->cwd_len;

	text_put(t, "", 0);
	while (*s) {
		bool token_start = s == arg || s[-1] == ' ' || s[-1] == '=' || s[-1] == ',' || s[-1] == ':';
		size_t n;

		/* Temporary names first: the build may run in /tmp itself. */
		if (token_start && (n = tmp_prefix(s)) && is_temp_file(s, n, cwd)) {
			const char *end = s + strcspn(s, " ,:"), *dot = memrchr(s + n, '.', end - s - n);

			text_put(t, "/tmp/<tmp>", 10);
			if (dot)
				text_put(t, dot, end - dot);
			s = end;
			continue;
		}
		if (cwd_len && !strncmp(s, cwd, cwd_len) && (s[cwd_len] == '/' || !s[cwd_len])) {
			text_put(t, ".", 1);
			s += cwd_len;
			continue;
		}
		if (is_digit(*s) && (s == arg || !is_digit(s[-1]))) {
			n = 1;
			while (is_digit(s[n]))
				n++;
			if ((v->pid && n == v->pid_len && !strncmp(s, v->pid_s, n)) ||
			    (v->ppid && n == v->ppid_len && !strncmp(s, v->ppid_s, n)))
				text_put(t, "<pid>", 5);
			else
				text_put(t, s, n);
			s += n;
			continue;
		}
		/* No rule starts before the next digit, '/' or start of the build directory: copied at once. */
		n = 1;
		while (s[n] && !is_digit(s[n]) && s[n] != '/' && !(cwd_len && s[n] == cwd[0]))
			n++;
		text_put(t, s, n);
		s += n;
	}
}

char *proc_match__normalise_arg(const char *arg, const char *cwd, __u32 pid, __u32 ppid)
{
	struct volatile_parts v;
	struct text t = {};

	volatile_parts__init(&v, cwd, pid, ppid);
	normalise(&t, arg, &v);
	if (t.failed) {
		free(t.buf);
		return NULL;
	}
	return t.buf;
}

/* One process's identity: the hash of its chain of step names, and of its argv. */
struct proc_key {
	__u64 chain;
	__u64 argv;
	__u64 start_off; /* since its build's start: repeats pair in this order */
	size_t proc;
	bool taken;
};

/* arg normalised for v, hashed onto h: t is the buffer, reused.  0 or -ENOMEM. */
static int hash_arg(__u64 *h, struct text *t, const char *arg, const struct volatile_parts *v)
{
	t->len = 0;
	normalise(t, arg, v);
	if (t->failed)
		return -ENOMEM;
	*h = hash_bytes(*h, t->buf, t->len);
	return 0;
}

/*
 * The name of m->procs[i] by itself, normalised like an argument: what
 * tells it apart from a step of the same name in its own build
 * (model/step_names.h) may be what only one of the two builds has.  The
 * replay named it so already; a model made without names, here.  0 or
 * -ENOMEM.
 */
static int name_hash(const struct model *m, size_t i, struct text *t, const struct volatile_parts *v, __u64 *h)
{
	const char *named = m->names ? step_names__image_of(m->names, i) : NULL;
	char *made = named ? NULL : proc_image_name(m, &m->procs[i]);
	int err;

	if (!named && !made)
		return -ENOMEM;
	*h = HASH_SEED;
	err = hash_arg(h, t, named ? named : made, v);
	free(made);
	return err;
}

static int argv_hash(const struct proc_instance *p, struct text *t, const struct volatile_parts *v, __u64 *h)
{
	const struct exec_image *img;
	size_t i;
	int err = 0;

	*h = HASH_SEED;
	if (!p->nr_execs)
		return 0;
	img = &p->execs[p->nr_execs - 1];
	for (i = 0; !err && i < img->argc; i++)
		err = hash_arg(h, t, img->argv[i], v);
	return err;
}

/*
 * keys[i] for every process of m.  A parent starts before its children
 * (procs are in start order), so its chain is known when a child needs it.
 * Paths are normalised against the build directory (after make -C), the
 * one two builds in different trees differ in.
 */
static int make_keys(const struct model *m, struct proc_key **out)
{
	struct proc_key *keys = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*keys));
	char *build_dir = proc_name__build_dir(m);
	struct text t = {};
	size_t i;
	int err = -ENOMEM;

	*out = keys;
	if (!keys || !build_dir)
		goto cleanup;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		__u64 name, parent_chain = HASH_SEED;

		/* A root is named by its program alone: the command's own
		 * arguments name the build directory (make -C DIR), which is
		 * what two builds in different trees differ in. */
		if (p->parent < 0) {
			const char *program = proc_program(p);

			name = hash_bytes(HASH_SEED, program, strlen(program));
		} else {
			struct volatile_parts v;

			volatile_parts__init(&v, build_dir, p->pid, p->ppid);
			if (name_hash(m, i, &t, &v, &name) || argv_hash(p, &t, &v, &keys[i].argv))
				goto cleanup;
		}
		if (p->parent >= 0 && (size_t)p->parent < i)
			parent_chain = keys[p->parent].chain;
		keys[i].chain = (parent_chain ^ name) * HASH_PRIME;
		keys[i].start_off = p->start_ns > m->start_ns ? p->start_ns - m->start_ns : 0;
		keys[i].proc = i;
	}
	err = 0;
cleanup:
	free(t.buf);
	free(build_dir);
	return err;
}

static int cmp_u64(__u64 a, __u64 b)
{
	return a < b ? -1 : a > b;
}

static int cmp_full(const void *x, const void *y)
{
	const struct proc_key *a = x, *b = y;

	return cmp_u64(a->chain, b->chain) ?: cmp_u64(a->argv, b->argv) ?: cmp_u64(a->start_off, b->start_off)
							?: cmp_u64(a->proc, b->proc);
}

static int cmp_chain(const void *x, const void *y)
{
	const struct proc_key *a = x, *b = y;

	return cmp_u64(a->chain, b->chain) ?: cmp_u64(a->start_off, b->start_off) ?: cmp_u64(a->proc, b->proc);
}

/*
 * Pairs the untaken keys of both sorted arrays whose identity (chain, and
 * argv when with_argv) is equal, k-th with k-th.  Returns the pairs made.
 */
static size_t pair_sorted(struct proc_match *pm, struct proc_key *o, size_t no, struct proc_key *n, size_t nn,
			  bool with_argv)
{
	size_t i = 0, j = 0, made = 0;

	while (i < no && j < nn) {
		int c;

		if (o[i].taken) {
			i++;
			continue;
		}
		if (n[j].taken) {
			j++;
			continue;
		}
		c = cmp_u64(o[i].chain, n[j].chain);
		if (!c && with_argv)
			c = cmp_u64(o[i].argv, n[j].argv);
		if (c) {
			c < 0 ? i++ : j++;
			continue;
		}
		o[i].taken = n[j].taken = true;
		pm->old_to_new[o[i].proc] = (long)n[j].proc;
		pm->new_to_old[n[j].proc] = (long)o[i].proc;
		made++;
		i++;
		j++;
	}
	return made;
}

/* One build's keys, made and sorted on a CPU of its own (util/run_beside.h): the two builds share nothing. */
struct side_keys {
	const struct model *m;
	struct proc_key *keys;
	int err;
};

static void make_sorted_keys(void *arg)
{
	struct side_keys *s = arg;

	s->err = make_keys(s->m, &s->keys);
	if (!s->err)
		qsort(s->keys, s->m->nr_procs, sizeof(*s->keys), cmp_full);
}

static void sort_by_chain(void *arg)
{
	struct side_keys *s = arg;

	qsort(s->keys, s->m->nr_procs, sizeof(*s->keys), cmp_chain);
}

int proc_match__compute(struct proc_match *pm, const struct model *old_m, const struct model *new_m)
{
	struct side_keys o = { .m = old_m }, n = { .m = new_m };
	size_t i;
	int err = -ENOMEM;

	memset(pm, 0, sizeof(*pm));
	pm->old_to_new = malloc((old_m->nr_procs ? old_m->nr_procs : 1) * sizeof(long));
	pm->new_to_old = malloc((new_m->nr_procs ? new_m->nr_procs : 1) * sizeof(long));
	if (!pm->old_to_new || !pm->new_to_old)
		goto cleanup;
	for (i = 0; i < old_m->nr_procs; i++)
		pm->old_to_new[i] = -1;
	for (i = 0; i < new_m->nr_procs; i++)
		pm->new_to_old[i] = -1;
	run_beside(make_sorted_keys, &n, make_sorted_keys, &o);
	if (o.err || n.err)
		goto cleanup;
	pm->matched = pair_sorted(pm, o.keys, old_m->nr_procs, n.keys, new_m->nr_procs, true);
	run_beside(sort_by_chain, &n, sort_by_chain, &o);
	pm->matched_by_name = pair_sorted(pm, o.keys, old_m->nr_procs, n.keys, new_m->nr_procs, false);
	pm->matched += pm->matched_by_name;
	err = 0;
cleanup:
	free(o.keys);
	free(n.keys);
	if (err)
		proc_match__free(pm);
	return err;
}

void proc_match__free(struct proc_match *pm)
{
	if (!pm)
		return;
	free(pm->old_to_new);
	free(pm->new_to_old);
	memset(pm, 0, sizeof(*pm));
}
