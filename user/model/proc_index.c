// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_index.h"
#include "util/sorted_search.h"

static int by_pid_start(const void *a, const void *b)
{
	const struct proc_index_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

#define PID_RADIX_BITS 11
#define PID_RADIX_BINS (1u << PID_RADIX_BITS)

/* Whether keys[0, nr), in pid order, are in (pid, start, proc) order. */
static bool starts_in_order(const struct proc_index_key *keys, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (keys[i].pid == keys[i - 1].pid && by_pid_start(&keys[i - 1], &keys[i]) > 0)
			return false;
	return true;
}

/*
 * Sorts x->keys, made in the model's order, by (pid, start, proc).  The
 * model keeps its processes by start, so a stable radix sort by pid alone
 * gives that order; should a model break it, qsort does.  0 or -ENOMEM.
 */
static int sort_keys(struct proc_index *x)
{
	struct proc_index_key *from = x->keys, *to = malloc((x->nr ? x->nr : 1) * sizeof(*to)), *t;
	size_t *count = malloc(PID_RADIX_BINS * sizeof(*count)), i;
	unsigned shift;

	if (!to || !count) {
		free(to);
		free(count);
		return -ENOMEM;
	}
	for (shift = 0; shift < 32; shift += PID_RADIX_BITS) {
		size_t sum = 0, c;

		memset(count, 0, PID_RADIX_BINS * sizeof(*count));
		for (i = 0; i < x->nr; i++)
			count[(from[i].pid >> shift) & (PID_RADIX_BINS - 1)]++;
		for (i = 0; i < PID_RADIX_BINS; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < x->nr; i++)
			to[count[(from[i].pid >> shift) & (PID_RADIX_BINS - 1)]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	x->keys = from;
	free(to);
	free(count);
	if (!starts_in_order(x->keys, x->nr))
		qsort(x->keys, x->nr, sizeof(*x->keys), by_pid_start);
	return 0;
}

struct proc_index *proc_index__new(const struct model *m)
{
	struct proc_index *x = calloc(1, sizeof(*x));
	size_t i;

	if (!x)
		return NULL;
	x->keys = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*x->keys));
	if (!x->keys) {
		free(x);
		return NULL;
	}
	x->nr = m->nr_procs;
	for (i = 0; i < x->nr; i++)
		x->keys[i] = (struct proc_index_key){ .start_ns = m->procs[i].start_ns, .pid = m->procs[i].pid, .proc = i };
	if (sort_keys(x)) {
		proc_index__free(x);
		return NULL;
	}
	return x;
}

struct pid_at {
	const struct proc_index *x;
	__u32 pid;
	__u64 ts;
};

/* Whether key i is at or before (pid, ts). */
static bool key_at_most(const void *key, size_t i)
{
	const struct pid_at *at = key;
	const struct proc_index_key *k = &at->x->keys[i];

	return k->pid < at->pid || (k->pid == at->pid && k->start_ns <= at->ts);
}

/* The first key after (pid, ts). */
static size_t first_after(const struct proc_index *x, __u32 pid, __u64 ts)
{
	struct pid_at at = { x, pid, ts };

	return sorted_first_not_before(0, x->nr, key_at_most, &at);
}

long proc_index__started(const struct proc_index *x, __u32 pid, __u64 ts)
{
	size_t hi = first_after(x, pid, ts);

	return hi > 0 && x->keys[hi - 1].pid == pid ? (long)x->keys[hi - 1].proc : -1;
}

long proc_index__at(const struct proc_index *x, __u32 pid, __u64 ts)
{
	size_t hi = first_after(x, pid, ts);

	if (hi > 0 && x->keys[hi - 1].pid == pid)
		return (long)x->keys[hi - 1].proc;
	if (hi < x->nr && x->keys[hi].pid == pid)
		return (long)x->keys[hi].proc;
	return -1;
}

long proc_index__nearest(const struct proc_index *x, __u32 pid, __u64 ts)
{
	size_t hi = first_after(x, pid, ts);
	bool before = hi > 0 && x->keys[hi - 1].pid == pid, after = hi < x->nr && x->keys[hi].pid == pid;

	if (before && after)
		return (long)x->keys[ts - x->keys[hi - 1].start_ns <= x->keys[hi].start_ns - ts ? hi - 1 : hi].proc;
	return before ? (long)x->keys[hi - 1].proc : after ? (long)x->keys[hi].proc : -1;
}

void proc_index__free(struct proc_index *x)
{
	if (!x)
		return;
	free(x->keys);
	free(x);
}

const struct proc_index *proc_index__of(const struct model *m, struct proc_index **own)
{
	*own = m->pids ? NULL : proc_index__new(m);
	return m->pids ? m->pids : *own;
}
