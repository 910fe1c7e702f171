// SPDX-License-Identifier: GPL-2.0
/*
 * --attach's pick of a process tree from a task snapshot: pure, so that the
 * unit tests drive it with synthetic snapshots.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "record/attach.h"
#include "thread_sched.h"

static int cmp_task_tgid(const void *a, const void *b)
{
	const struct bb_task_seen *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	/* The leader (tid == tgid) first within its process. */
	return (x->tid != x->tgid) - (y->tid != y->tgid);
}

int attach_tree__procs(const struct bb_task_seen *tasks, size_t nr, struct attach_proc **out, size_t *nr_out)
{
	struct bb_task_seen *sorted = malloc((nr ? nr : 1) * sizeof(*sorted));
	struct attach_proc *procs = calloc(nr ? nr : 1, sizeof(*procs));
	size_t i, n = 0;

	*out = NULL;
	*nr_out = 0;
	if (!sorted || !procs) {
		free(sorted);
		free(procs);
		return -ENOMEM;
	}
	memcpy(sorted, tasks, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), cmp_task_tgid);
	for (i = 0; i < nr; i++) {
		const struct bb_task_seen *t = &sorted[i];
		struct attach_proc *p = n ? &procs[n - 1] : NULL;

		if (!p || p->tgid != t->tgid) {
			/* A process is known by its leader: without it (gone
			 * since the snapshot began) it is not one we can name. */
			if (t->tid != t->tgid)
				continue;
			p = &procs[n++];
			p->tgid = t->tgid;
			p->ppid = t->ppid;
			p->ns_tgid = t->ns_tgid;
			p->start_ns = t->start_ns;
			p->start_boottime_ns = t->start_boottime_ns;
			memcpy(p->comm, t->comm, sizeof(p->comm));
		}
		if (t->state & BB_TASK_DEAD)
			continue;
		p->in_cgroup |= !!(t->flags & BB_TASK_SEEN_IN_CGROUP);
		p->nr_threads++;
		p->utime_ns += t->utime_ns;
		p->stime_ns += t->stime_ns;
		p->sum_exec_ns += t->sum_exec_ns;
	}
	/* Drop the processes with no live thread left (zombies). */
	for (i = 0, *nr_out = 0; i < n; i++)
		if (procs[i].nr_threads)
			procs[(*nr_out)++] = procs[i];
	free(sorted);
	*out = procs;
	return 0;
}

static int cmp_proc_tgid(const void *key, const void *elem)
{
	__u32 tgid = *(const __u32 *)key, other = ((const struct attach_proc *)elem)->tgid;

	return tgid < other ? -1 : tgid > other;
}

/* Whether procs (sorted by tgid) hold tgid in the target cgroup. */
static bool proc_in_cgroup(const struct attach_proc *procs, size_t nr, __u32 tgid)
{
	const struct attach_proc *p = bsearch(&tgid, procs, nr, sizeof(*procs), cmp_proc_tgid);

	return p && p->in_cgroup;
}

size_t attach_tree__descendants(const struct attach_proc *procs, size_t nr, __u32 root, __u32 skip, size_t *order)
{
	size_t head = 0, n = 0, i;

	/* The tops: root, or the cgroup's processes whose parent is not in it. */
	for (i = 0; i < nr; i++)
		if (procs[i].tgid != skip &&
		    (root ? procs[i].tgid == root
			  : procs[i].in_cgroup && !proc_in_cgroup(procs, nr, procs[i].ppid)))
			order[n++] = i;
	/* Breadth first: every process appears after its parent.  A pid is
	 * in the snapshot once, so the walk cannot loop. */
	while (head < n) {
		__u32 parent = procs[order[head++]].tgid;

		for (i = 0; i < nr && n < nr; i++)
			if (procs[i].ppid == parent && procs[i].tgid != skip && procs[i].tgid != parent &&
			    (root || procs[i].in_cgroup))
				order[n++] = i;
	}
	return n;
}
