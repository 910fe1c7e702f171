// SPDX-License-Identifier: GPL-2.0
/*
 * --attach: the pick of the attached tree from a task snapshot, and the
 * reconstruction of a trace that starts with processes already running.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/model.h"
#include "record/attach.h"
#include "thread_sched.h"
#include "lib/synth.h"

#define MS 1000000ull

static struct bb_task_seen task(__u32 tid, __u32 tgid, __u32 ppid, __u32 state, __u64 sum_exec)
{
	struct bb_task_seen t = { .tid = tid, .tgid = tgid, .ppid = ppid, .state = state, .sum_exec_ns = sum_exec };

	t.start_ns = tid * MS;
	snprintf(t.comm, sizeof(t.comm), "t%u", tid);
	return t;
}

static const struct attach_proc *proc_of(const struct attach_proc *procs, size_t n, __u32 tgid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (procs[i].tgid == tgid)
			return &procs[i];
	return NULL;
}

Test(attach_tree, threads_are_summed_into_their_live_process)
{
	/* Out of order as the iterator may hand them; 40 is a zombie, 51's
	 * leader is gone from the snapshot, 60 has a dead thread. */
	struct bb_task_seen tasks[] = {
		task(31, 30, 1, 1, 5), task(30, 30, 1, 1, 10), task(40, 40, 30, BB_TASK_DEAD, 7),
		task(52, 51, 30, 1, 3), task(60, 60, 30, 0, 1), task(61, 60, 30, BB_TASK_DEAD, 100),
	};
	struct attach_proc *procs;
	const struct attach_proc *p;
	size_t n;

	cr_assert(eq(int, attach_tree__procs(tasks, 6, &procs, &n), 0));
	cr_assert(eq(sz, n, 2));
	cr_assert(eq(u32, procs[0].tgid, 30)); /* sorted by tgid */
	p = proc_of(procs, n, 30);
	cr_assert(eq(u32, p->nr_threads, 2));
	cr_assert(eq(u64, p->sum_exec_ns, 15));
	cr_assert(eq(u64, p->start_ns, 30 * MS)); /* the leader's */
	cr_assert(eq(str, (char *)p->comm, "t30"));
	p = proc_of(procs, n, 60);
	cr_assert(eq(u32, p->nr_threads, 1));
	cr_assert(eq(u64, p->sum_exec_ns, 1));
	cr_assert_null(proc_of(procs, n, 40));
	cr_assert_null(proc_of(procs, n, 51));
	free(procs);
}

Test(attach_tree, descendants_come_after_their_parents)
{
	/* 10 -> 20 -> 40, 10 -> 30; 50 is outside; 20 forked 40 with a
	 * lower slot in the snapshot than itself. */
	struct bb_task_seen tasks[] = {
		task(40, 40, 20, 1, 0), task(50, 50, 1, 1, 0), task(20, 20, 10, 1, 0),
		task(10, 10, 5, 1, 0), task(30, 30, 10, 1, 0), task(5, 5, 1, 1, 0),
	};
	struct attach_proc *procs;
	size_t n, k, i, order[6], pos[100] = {};

	cr_assert(eq(int, attach_tree__procs(tasks, 6, &procs, &n), 0));
	k = attach_tree__descendants(procs, n, 10, 0, order);
	cr_assert(eq(sz, k, 4));
	for (i = 0; i < k; i++)
		pos[procs[order[i]].tgid] = i + 1;
	cr_assert(eq(sz, pos[10], 1));
	cr_assert(pos[20] > pos[10] && pos[30] > pos[10] && pos[40] > pos[20]);
	cr_assert(eq(sz, pos[50], 0));
	cr_assert(eq(sz, pos[5], 0)); /* the root's parent is not its descendant */
	free(procs);
}

Test(attach_tree, buildbpf_and_its_subtree_are_left_out)
{
	struct bb_task_seen tasks[] = {
		task(10, 10, 1, 1, 0), task(20, 20, 10, 1, 0), task(21, 21, 20, 1, 0), task(30, 30, 10, 1, 0),
	};
	struct attach_proc *procs;
	size_t n, order[4];

	cr_assert(eq(int, attach_tree__procs(tasks, 4, &procs, &n), 0));
	cr_assert(eq(sz, attach_tree__descendants(procs, n, 10, 20, order), 2));
	cr_assert(eq(u32, procs[order[1]].tgid, 30));
	/* Attached to buildbpf itself: nothing. */
	cr_assert(eq(sz, attach_tree__descendants(procs, n, 20, 20, order), 0));
	/* A root no longer in the snapshot: nothing. */
	cr_assert(eq(sz, attach_tree__descendants(procs, n, 99, 0, order), 0));
	free(procs);
}

static const struct proc_instance *find_proc(const struct model *m, __u32 pid)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].pid == pid)
			return &m->procs[i];
	return NULL;
}

Test(attach_model, found_processes_start_the_trace_marked)
{
	struct model *m = model__new(100, 50 * MS);
	const struct proc_instance *root, *child, *grandchild, *fresh;

	synth_found(m, 50 * MS, 100, 1, 10 * MS, "/bin/sh", (const char *[]){ "sh", "-c", "loop", NULL });
	synth_found(m, 50 * MS, 101, 100, 40 * MS, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	synth_found(m, 50 * MS, 102, 101, 45 * MS, "/usr/bin/cc", (const char *[]){ "cc", "-c", "a.c", NULL });
	synth_fork(m, 60 * MS, 100, 103, 103, false);
	synth_exec(m, 61 * MS, 103, 100, "/bin/sleep", (const char *[]){ "sleep", "1", NULL });
	synth_exit(m, 70 * MS, 102, 102, true, 0);
	cr_assert(eq(int, model__finish(m, 80 * MS), 0));

	cr_assert(eq(sz, m->nr_procs, 4));
	root = find_proc(m, 100);
	child = find_proc(m, 101);
	grandchild = find_proc(m, 102);
	fresh = find_proc(m, 103);
	cr_assert(eq(long, (long)m->root, (long)root->id));
	cr_assert(root->found && child->found && grandchild->found && !fresh->found);
	cr_assert(eq(u64, root->start_ns, 50 * MS));
	cr_assert(eq(u64, root->ran_before_ns, 40 * MS));
	cr_assert(eq(u64, grandchild->ran_before_ns, 5 * MS));
	cr_assert(eq(long, child->parent, (long)root->id));
	cr_assert(eq(long, grandchild->parent, (long)child->id));
	cr_assert(eq(long, fresh->parent, (long)root->id));
	cr_assert(not(root->forked));
	cr_assert(fresh->forked);
	cr_assert(eq(sz, child->nr_execs, 1));
	cr_assert(eq(str, child->execs[0].filename, "/usr/bin/make"));
	cr_assert(eq(str, child->execs[0].argv[1], "-j2"));
	cr_assert(eq(u64, child->execs[0].start_ns, 50 * MS));
	cr_assert(grandchild->exited && !grandchild->unfinished);
	cr_assert(root->unfinished && child->unfinished);
	cr_assert(eq(sz, m->stats.orphan_events, 0));
	cr_assert(eq(sz, m->stats.pid_reuses, 0));
	model__free(m);
}

Test(attach_model, a_fork_seen_and_found_is_one_process)
{
	struct model *m = model__new(100, 50 * MS);
	const struct proc_instance *p;

	/* Listed by the snapshot before the fork tracepoint stamped it. */
	synth_found(m, 50 * MS, 100, 1, 10 * MS, "/bin/sh", (const char *[]){ "sh", NULL });
	synth_found(m, 50 * MS, 101, 100, 50 * MS, "/bin/sh", (const char *[]){ "sh", NULL });
	synth_fork(m, 51 * MS, 100, 101, 101, false);
	/* Caught at its fork, then listed again: the fork's instance stays. */
	synth_fork(m, 52 * MS, 100, 102, 102, false);
	synth_found(m, 52 * MS, 102, 100, 52 * MS, "/bin/sh", (const char *[]){ "sh", NULL });
	cr_assert(eq(int, model__finish(m, 80 * MS), 0));
	cr_assert(eq(sz, m->nr_procs, 3));
	cr_assert(eq(sz, m->stats.pid_reuses, 0));
	p = find_proc(m, 101);
	cr_assert(p->found);
	p = find_proc(m, 102);
	cr_assert(p->forked && !p->found);
	cr_assert(eq(sz, p->nr_execs, 0));
	model__free(m);
}

Test(attach_model, a_found_record_longer_than_it_says_is_refused)
{
	struct model *m = model__new(100, 50 * MS);
	struct bb_proc_found_event e = { .hdr = { .ts_ns = 50 * MS, .type = BB_EV_PROC_FOUND, .pid = 100, .tgid = 100 },
					  .filename_len = 8 };

	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), -EINVAL));
	cr_assert(eq(sz, m->stats.malformed, 1));
	model__free(m);
}

Test(attach_tree, a_cgroup_selects_its_processes_parents_first)
{
	/* In the cgroup: 20 and its child 30, and 50 (parent 1 outside);
	 * 40, a child of 30, was moved out before the start: not picked. */
	struct bb_task_seen tasks[] = {
		task(30, 30, 20, 1, 0), task(50, 50, 1, 1, 0), task(40, 40, 30, 1, 0),
		task(20, 20, 10, 1, 0), task(10, 10, 1, 1, 0),
	};
	struct attach_proc *procs;
	size_t n, k, i, order[5], pos[100] = {};

	tasks[0].flags = tasks[1].flags = tasks[3].flags = BB_TASK_SEEN_IN_CGROUP;
	cr_assert(eq(int, attach_tree__procs(tasks, 5, &procs, &n), 0));
	k = attach_tree__descendants(procs, n, 0, 0, order);
	cr_assert(eq(sz, k, 3));
	for (i = 0; i < k; i++)
		pos[procs[order[i]].tgid] = i + 1;
	cr_assert(pos[20] && pos[30] > pos[20] && pos[50]);
	cr_assert(eq(sz, pos[10] + pos[40], 0));
	free(procs);
}

Test(attach_model, a_cgroup_trace_has_no_root)
{
	struct model *m = model__new(0, 50 * MS);

	synth_found(m, 50 * MS, 20, 10, 40 * MS, "/bin/sh", (const char *[]){ "sh", NULL });
	synth_fork(m, 60 * MS, 20, 21, 21, false);
	cr_assert(eq(int, model__finish(m, 80 * MS), 0));
	cr_assert(eq(long, m->root, -1));
	cr_assert(eq(sz, m->nr_procs, 2));
	cr_assert(eq(long, find_proc(m, 21)->parent, (long)find_proc(m, 20)->id));
	cr_assert(eq(long, find_proc(m, 20)->parent, -1));
	/* Both are the found process's work. */
	cr_assert(eq(ptr, (void *)proc_top(m, find_proc(m, 21)), (void *)find_proc(m, 20)));
	cr_assert(eq(ptr, (void *)proc_top(m, find_proc(m, 20)), (void *)find_proc(m, 20)));
	model__free(m);
}
