// SPDX-License-Identifier: GPL-2.0
/* Reconstruction from synthetic event sequences. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/image_args.h"
#include "model/model.h"
#include "model/proc_index.h"
#include "lib/synth.h"

#define MS 1000000ull

static const struct proc_instance *find_proc(const struct model *m, __u32 pid, size_t nth)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].pid == pid && nth-- == 0)
			return &m->procs[i];
	return NULL;
}

Test(model, tree_of_a_small_build)
{
	struct model *m = model__new(100, 10 * MS);
	const char *make_argv[] = { "make", "-j2", NULL };
	const char *cc_argv[] = { "cc", "-c", "foo.c", NULL };
	const struct proc_instance *make, *sh, *cc;

	synth_exec(m, 11 * MS, 100, 1, "/usr/bin/make", make_argv);
	synth_fork(m, 12 * MS, 100, 101, 101, false);
	synth_exec(m, 13 * MS, 101, 100, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "cc -c foo.c", NULL });
	synth_fork(m, 14 * MS, 101, 102, 102, false);
	synth_exec(m, 15 * MS, 102, 101, "/usr/bin/cc", cc_argv);
	synth_exit(m, 20 * MS, 102, 102, true, 0);
	synth_exit(m, 21 * MS, 101, 101, true, 0);
	synth_exit(m, 22 * MS, 100, 100, true, 2 << 8);
	cr_assert(eq(int, model__finish(m, 22 * MS), 0));

	cr_assert(eq(sz, m->nr_procs, 3));
	make = find_proc(m, 100, 0);
	sh = find_proc(m, 101, 0);
	cc = find_proc(m, 102, 0);
	cr_assert(make && sh && cc);
	cr_assert(eq(long, (long)m->root, (long)make->id));
	cr_assert(eq(long, make->parent, -1));
	cr_assert(eq(long, sh->parent, (long)make->id));
	cr_assert(eq(long, cc->parent, (long)sh->id));
	cr_assert(eq(u64, make->start_ns, 10 * MS));
	cr_assert(not(make->forked));
	cr_assert(eq(u64, cc->start_ns, 14 * MS));
	cr_assert(eq(u64, cc->end_ns, 20 * MS));
	cr_assert(cc->exited && !cc->unfinished);
	cr_assert(eq(u32, make->exit_status, 2 << 8));
	cr_assert(eq(sz, cc->nr_execs, 1));
	cr_assert(eq(str, cc->execs[0].filename, "/usr/bin/cc"));
	cr_assert(eq(sz, cc->execs[0].argc, 3));
	cr_assert(eq(str, cc->execs[0].argv[2], "foo.c"));
	cr_assert(eq(u64, cc->execs[0].end_ns, 20 * MS));
	cr_assert(eq(str, (char *)make->comm, "make"));
	cr_assert(eq(sz, m->stats.orphan_events, 0));
	model__free(m);
}

/* make forks two shells, the second forks cc: the index lists each one's children. */
Test(model, children_index_lists_each_process_children)
{
	struct model *m = model__new(100, 10 * MS);
	const struct proc_instance *make, *sh1, *sh2, *cc;
	__u32 *off = NULL, *kids = NULL;

	synth_exec(m, 11 * MS, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	synth_fork(m, 12 * MS, 100, 101, 101, false);
	synth_fork(m, 13 * MS, 100, 102, 102, false);
	synth_fork(m, 14 * MS, 102, 103, 103, false);
	synth_exit(m, 15 * MS, 101, 101, true, 0);
	synth_exit(m, 16 * MS, 103, 103, true, 0);
	synth_exit(m, 17 * MS, 102, 102, true, 0);
	synth_exit(m, 18 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 18 * MS), 0));
	make = find_proc(m, 100, 0);
	sh1 = find_proc(m, 101, 0);
	sh2 = find_proc(m, 102, 0);
	cc = find_proc(m, 103, 0);
	cr_assert(make && sh1 && sh2 && cc);

	cr_assert(eq(int, model__index_children(m, &off, &kids), 0));
	cr_assert(eq(sz, off[make->id + 1] - off[make->id], 2));
	cr_assert(eq(sz, kids[off[make->id]], sh1->id));
	cr_assert(eq(sz, kids[off[make->id] + 1], sh2->id));
	cr_assert(eq(sz, off[sh1->id + 1] - off[sh1->id], 0));
	cr_assert(eq(sz, off[sh2->id + 1] - off[sh2->id], 1));
	cr_assert(eq(sz, kids[off[sh2->id]], cc->id));
	cr_assert(eq(sz, off[m->nr_procs], 3), "every process but the root is someone's child");
	free(off);
	free(kids);
	model__free(m);
}

/* One at a time: a child forked the nanosecond the one before it ended counts; one alive beside another does not. */
Test(model, children_one_at_a_time_when_ends_touch_not_when_they_overlap)
{
	struct model *m = model__new(100, 10 * MS);
	const struct proc_instance *sh, *first, *second, *leaf;
	__u32 *off = NULL, *kids = NULL;

	synth_exec(m, 11 * MS, 100, 1, "/bin/sh", (const char *[]){ "sh", NULL });
	synth_fork(m, 12 * MS, 100, 101, 101, false);
	synth_exit(m, 14 * MS, 101, 101, true, 0);
	synth_fork(m, 14 * MS, 100, 102, 102, false);
	synth_fork(m, 15 * MS, 102, 103, 103, false);
	synth_fork(m, 16 * MS, 102, 104, 104, false);
	synth_exit(m, 17 * MS, 103, 103, true, 0);
	synth_exit(m, 18 * MS, 104, 104, true, 0);
	synth_exit(m, 19 * MS, 102, 102, true, 0);
	synth_exit(m, 20 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 20 * MS), 0));
	sh = find_proc(m, 100, 0);
	first = find_proc(m, 101, 0);
	second = find_proc(m, 102, 0);
	leaf = find_proc(m, 103, 0);
	cr_assert(sh && first && second && leaf);
	cr_assert(eq(u64, second->start_ns, first->end_ns), "the fixture's ends touch");
	cr_assert(eq(int, model__index_children(m, &off, &kids), 0));
	cr_assert(model__children_one_at_a_time(m, off, kids, sh->id), "touching ends are one at a time");
	cr_assert(not(model__children_one_at_a_time(m, off, kids, second->id)), "103 and 104 were alive at once");
	cr_assert(model__children_one_at_a_time(m, off, kids, leaf->id), "no child: nothing ran at once");
	free(off);
	free(kids);
	model__free(m);
}

/* A process's program: its last image's basename, its comm before any exec. */
Test(model, program_is_the_last_images_basename)
{
	struct model *m = model__new(100, 10 * MS);
	const struct proc_instance *make, *child;

	synth_exec(m, 11 * MS, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	synth_fork(m, 12 * MS, 100, 101, 101, false);
	synth_exit(m, 13 * MS, 101, 101, true, 0);
	synth_exit(m, 14 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 14 * MS), 0));
	make = find_proc(m, 100, 0);
	child = find_proc(m, 101, 0);
	cr_assert(make && child);
	cr_assert(eq(str, (char *)proc_program(make), "make"));
	cr_assert(eq(str, (char *)proc_program(child), (char *)child->comm), "no exec: its comm");
	model__free(m);
}

Test(model, comm_is_the_name_at_the_last_exec)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *cc1, *fork_only;

	synth_exec(m, 1 * MS, 100, 1, "/usr/bin/gcc", (const char *[]){ "gcc", "-c", "x.c", NULL });
	/* The forks inherit the comm "forked" (synth_fork); one execs cc1. */
	synth_fork(m, 2 * MS, 100, 101, 101, false);
	synth_exec(m, 3 * MS, 101, 100, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", (const char *[]){ "cc1", "x.c", NULL });
	synth_fork(m, 4 * MS, 100, 102, 102, false);
	synth_exit(m, 5 * MS, 101, 101, true, 0);
	synth_exit(m, 6 * MS, 102, 102, true, 0);
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));

	cc1 = find_proc(m, 101, 0);
	fork_only = find_proc(m, 102, 0);
	cr_assert(cc1 && fork_only);
	cr_assert(eq(str, (char *)cc1->comm, "cc1"));
	cr_assert(eq(str, (char *)fork_only->comm, "forked"));
	cr_assert(eq(str, (char *)find_proc(m, 100, 0)->comm, "gcc"));
	model__free(m);
}

Test(model, exec_chain_gives_one_image_each)
{
	struct model *m = model__new(100, 0);

	synth_exec(m, 1 * MS, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "exec env gcc x.c", NULL });
	synth_exec(m, 2 * MS, 100, 1, "/usr/bin/env", (const char *[]){ "env", "gcc", "x.c", NULL });
	synth_exec(m, 3 * MS, 100, 1, "/usr/bin/gcc", (const char *[]){ "gcc", "x.c", NULL });
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));

	cr_assert(eq(sz, m->nr_procs, 1));
	cr_assert(eq(sz, m->procs[0].nr_execs, 3));
	cr_assert(eq(u64, m->procs[0].execs[0].start_ns, 1 * MS));
	cr_assert(eq(u64, m->procs[0].execs[0].end_ns, 2 * MS));
	cr_assert(eq(u64, m->procs[0].execs[1].end_ns, 3 * MS));
	cr_assert(eq(u64, m->procs[0].execs[2].end_ns, 9 * MS));
	cr_assert(eq(str, proc_image_at(&m->procs[0], 2500000)->filename, "/usr/bin/env"));
	cr_assert(eq(ptr, (void *)proc_image_at(&m->procs[0], 0), NULL));
	model__free(m);
}

/* The model keeps what each image runs; its answer is the one worked out afresh, and a view of other words works its own out. */
Test(model, each_image_keeps_its_tool)
{
	struct model *m = model__new(100, 0);
	struct exec_image fresh, script;
	size_t k;

	synth_exec(m, 1 * MS, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "exec clang -cc1 x.c", NULL });
	synth_exec(m, 2 * MS, 100, 1, "/usr/bin/clang", (const char *[]){ "clang", "-cc1", "x.c", NULL });
	synth_exec(m, 3 * MS, 100, 1, "/usr/bin/make", (const char *[]){ "make", "-j4", NULL });
	/* "#!/usr/bin/make -f": the kernel runs make on the script. */
	synth_exec(m, 4 * MS, 100, 1, "debian/rules", (const char *[]){ "/usr/bin/make", "-f", "debian/rules", NULL });
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));
	cr_assert(eq(sz, m->procs[0].nr_execs, 4));
	for (k = 0; k < 4; k++) {
		cr_assert(ne(int, m->procs[0].execs[k].tool_kept, 0), "image %zu kept", k);
		fresh = m->procs[0].execs[k];
		fresh.tool_kept = 0;
		cr_assert(eq(int, image_tool(&m->procs[0].execs[k]), image_tool(&fresh)), "image %zu", k);
	}
	cr_assert(eq(int, image_tool(&m->procs[0].execs[1]), TOOL_CC_PROPER), "clang -cc1 by its words");
	cr_assert(eq(int, image_tool(&m->procs[0].execs[3]), TOOL_MAKE));
	cr_assert(image_script_run(&m->procs[0].execs[3], &script));
	cr_assert(eq(int, image_tool(&script), TOOL_OTHER), "the script, not its interpreter");
	model__free(m);
}

Test(model, process_ends_with_its_last_thread_not_its_leader)
{
	struct model *m = model__new(100, 0);

	synth_fork(m, 1 * MS, 100, 200, 200, false);
	synth_fork(m, 2 * MS, 200, 200, 201, true);
	synth_fork(m, 3 * MS, 200, 200, 202, true);
	synth_exit(m, 4 * MS, 200, 200, false, 0); /* the leader: pthread_exit */
	synth_exit(m, 5 * MS, 200, 201, false, 0);
	synth_exit(m, 8 * MS, 200, 202, true, 0);
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));

	const struct proc_instance *p = find_proc(m, 200, 0);
	cr_assert(p != NULL);
	cr_assert(eq(u64, p->end_ns, 8 * MS));
	cr_assert(p->exited);
	cr_assert(eq(u32, p->nr_threads, 2));
	cr_assert(eq(sz, m->nr_procs, 2));
	model__free(m);
}

Test(model, pid_reuse_makes_a_new_instance)
{
	struct model *m = model__new(100, 0);

	synth_fork(m, 1 * MS, 100, 300, 300, false);
	synth_exec(m, 2 * MS, 300, 100, "/bin/a", (const char *[]){ "a", NULL });
	synth_exit(m, 3 * MS, 300, 300, true, 0);
	synth_fork(m, 4 * MS, 100, 300, 300, false);
	synth_exec(m, 5 * MS, 300, 100, "/bin/b", (const char *[]){ "b", NULL });
	synth_exit(m, 6 * MS, 300, 300, true, 1 << 8);
	/* and once more without the exit: a dropped record */
	synth_fork(m, 7 * MS, 100, 301, 301, false);
	synth_fork(m, 8 * MS, 100, 301, 301, false);
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));

	const struct proc_instance *a = find_proc(m, 300, 0), *b = find_proc(m, 300, 1);
	cr_assert(a && b && a != b);
	cr_assert(eq(str, a->execs[0].filename, "/bin/a"));
	cr_assert(eq(str, b->execs[0].filename, "/bin/b"));
	cr_assert(eq(u64, a->end_ns, 3 * MS));
	cr_assert(eq(u64, b->start_ns, 4 * MS));
	cr_assert(eq(u32, b->exit_status, 1 << 8));
	cr_assert(eq(long, a->parent, b->parent));

	const struct proc_instance *c = find_proc(m, 301, 0), *d = find_proc(m, 301, 1);
	cr_assert(c && d);
	cr_assert(c->unfinished);
	cr_assert(eq(u64, c->end_ns, 8 * MS));
	cr_assert(eq(sz, m->stats.pid_reuses, 1));
	model__free(m);
}

/* The same records in any arrival order give the same model. */
Test(model, out_of_order_records_are_sorted_by_timestamp)
{
	struct model *in_order = model__new(100, 0), *shuffled = model__new(100, 0);
	const char *argv[] = { "cc", "x.c", NULL };

	synth_fork(in_order, 1 * MS, 100, 101, 101, false);
	synth_exec(in_order, 2 * MS, 101, 100, "/usr/bin/cc", argv);
	synth_exit(in_order, 3 * MS, 101, 101, true, 0);
	synth_exit(in_order, 4 * MS, 100, 100, true, 0);

	/* An exit reserved by one CPU before another CPU's earlier fork. */
	synth_exec(shuffled, 2 * MS, 101, 100, "/usr/bin/cc", argv);
	synth_exit(shuffled, 3 * MS, 101, 101, true, 0);
	synth_fork(shuffled, 1 * MS, 100, 101, 101, false);
	synth_exit(shuffled, 4 * MS, 100, 100, true, 0);

	cr_assert(eq(int, model__finish(in_order, 4 * MS), 0));
	cr_assert(eq(int, model__finish(shuffled, 4 * MS), 0));
	cr_assert(eq(sz, in_order->nr_procs, shuffled->nr_procs));
	cr_assert(eq(sz, shuffled->stats.reordered, 1));
	for (size_t i = 0; i < in_order->nr_procs; i++) {
		cr_assert(eq(u32, in_order->procs[i].pid, shuffled->procs[i].pid));
		cr_assert(eq(u64, in_order->procs[i].start_ns, shuffled->procs[i].start_ns));
		cr_assert(eq(u64, in_order->procs[i].end_ns, shuffled->procs[i].end_ns));
		cr_assert(eq(long, in_order->procs[i].parent, shuffled->procs[i].parent));
		cr_assert(eq(sz, in_order->procs[i].nr_execs, shuffled->procs[i].nr_execs));
	}
	cr_assert(eq(sz, shuffled->stats.orphan_events, 0));
	model__free(in_order);
	model__free(shuffled);
}

Test(model, still_running_at_the_end_is_unfinished)
{
	struct model *m = model__new(100, 5 * MS);

	synth_fork(m, 6 * MS, 100, 101, 101, false);
	synth_exec(m, 7 * MS, 101, 100, "/bin/sleep", (const char *[]){ "sleep", "100", NULL });
	synth_exit(m, 8 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 8 * MS), 0));

	const struct proc_instance *sleeper = find_proc(m, 101, 0);
	cr_assert(sleeper->unfinished && !sleeper->exited);
	cr_assert(eq(u64, sleeper->end_ns, 8 * MS));
	cr_assert(eq(u64, sleeper->execs[0].end_ns, 8 * MS));
	cr_assert(eq(u64, m->end_ns, 8 * MS));
	cr_assert(not(m->procs[m->root].unfinished));
	model__free(m);
}

Test(model, malformed_records_are_rejected_and_counted)
{
	struct model *m = model__new(100, 0);
	struct bb_exec_event e = {};
	struct bb_event_header unknown = { .ts_ns = 1, .type = 99 };

	e.hdr.type = BB_EV_EXEC;
	e.filename_len = 1000; /* claims more than the record holds */
	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), -EINVAL));
	cr_assert(eq(int, model__add_event(m, &unknown, sizeof(unknown)), -EINVAL));
	cr_assert(eq(int, model__add_event(m, &e, 10), -EINVAL));
	cr_assert(eq(sz, m->stats.malformed, 3));
	cr_assert(eq(sz, m->stats.events, 0));
	cr_assert(eq(int, model__finish(m, 1), 0));
	cr_assert(eq(int, model__finish(m, 1), -EINVAL));
	model__free(m);
}

Test(model, cut_argv_keeps_the_partial_last_argument)
{
	struct model *m = model__new(100, 0);
	static const char args[] = "gcc\0-c\0very-long-na"; /* no final NUL: cut */

	synth_exec_raw(m, 1 * MS, 100, 1, "/usr/bin/gcc", args, sizeof(args) - 1, BB_EXEC_ARGS_TRUNCATED);
	cr_assert(eq(int, model__finish(m, 2 * MS), 0));
	const struct exec_image *img = &m->procs[0].execs[0];
	cr_assert(eq(sz, img->argc, 3));
	cr_assert(eq(str, img->argv[2], "very-long-na"));
	cr_assert(img->flags & BB_EXEC_ARGS_TRUNCATED);
	model__free(m);
}

Test(model, empty_argv_has_no_arguments)
{
	struct model *m = model__new(100, 0);

	synth_exec_raw(m, 1 * MS, 100, 1, "/bin/x", "", 0, BB_EXEC_ARGS_UNREADABLE);
	cr_assert(eq(int, model__finish(m, 2 * MS), 0));
	cr_assert(eq(sz, m->procs[0].execs[0].argc, 0));
	model__free(m);
}

Test(model, cpu_time_is_split_like_getrusage)
{
	struct model *m = model__new(100, 0);

	/* ticks say 3:1 user:system; the precise runtime is 8 ms */
	synth_exit_acct(m, 9 * MS, 100, 0, 3 * MS, 1 * MS, 8 * MS, 2048);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));
	cr_assert(eq(u64, m->procs[0].utime_ns, 6 * MS));
	cr_assert(eq(u64, m->procs[0].stime_ns, 2 * MS));
	cr_assert(eq(u64, m->procs[0].maxrss_kb, 2048));
	model__free(m);
}

Test(model, exec_without_a_seen_fork_starts_an_instance)
{
	struct model *m = model__new(100, 0);

	synth_exec(m, 2 * MS, 150, 100, "/bin/true", (const char *[]){ "true", NULL });
	synth_exit(m, 3 * MS, 150, 150, true, 0);
	synth_exit(m, 4 * MS, 999, 999, true, 0); /* never seen at all */
	cr_assert(eq(int, model__finish(m, 4 * MS), 0));
	const struct proc_instance *p = find_proc(m, 150, 0);
	cr_assert(p != NULL);
	cr_assert(not(p->forked));
	cr_assert(p->fork_record_lost);
	cr_assert(not(m->procs[m->root].fork_record_lost), "the command's fork is never traced, not lost");
	cr_assert(eq(long, p->parent, m->root));
	cr_assert(eq(sz, m->stats.orphan_events, 2));
	model__free(m);
}

Test(model, records_before_the_launch_are_ignored)
{
	struct model *m = model__new(100, 10 * MS);

	synth_fork(m, 5 * MS, 100, 101, 101, false);
	cr_assert(eq(int, model__finish(m, 20 * MS), 0));
	cr_assert(eq(sz, m->nr_procs, 1));
	model__free(m);
}

/* unshare --pid --fork sh -c 'cc &': the sh is pid 1 of a new namespace. */
Test(model, namespace_pid_from_fork_kept_through_exec)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *root, *sh, *cc;

	synth_exec(m, 1 * MS, 100, 1, "/usr/bin/unshare", (const char *[]){ "unshare", "--pid", "--fork", NULL });
	synth_fork_ns(m, 2 * MS, 100, 101, 1);
	synth_exec_ns(m, 3 * MS, 101, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "cc &", NULL });
	synth_fork_ns(m, 4 * MS, 101, 102, 2);
	synth_fork(m, 5 * MS, 102, 102, 103, true); /* a thread: not a process's pid */
	synth_exec_ns(m, 6 * MS, 102, 101, 2, "/usr/bin/cc", (const char *[]){ "cc", NULL });
	synth_exit(m, 7 * MS, 102, 102, true, 0);
	synth_exit(m, 8 * MS, 101, 101, true, 0);
	synth_exit(m, 9 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));

	root = find_proc(m, 100, 0);
	sh = find_proc(m, 101, 0);
	cc = find_proc(m, 102, 0);
	cr_assert(root && sh && cc);
	cr_assert(eq(u32, root->ns_pid, 100), "the root's comes from its exec");
	cr_assert(eq(u32, sh->ns_pid, 1));
	cr_assert(eq(u32, sh->pid, 101));
	cr_assert(eq(u32, cc->ns_pid, 2));
	cr_assert(eq(u32, cc->pid, 102));
	cr_assert(eq(u32, cc->nr_threads, 1));
	model__free(m);
}

Test(model, namespace_pid_unknown_until_a_record_has_it)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_fork_ns(m, 1 * MS, 100, 101, 0); /* not read by the kernel */
	synth_fork_ns(m, 2 * MS, 100, 102, 7);
	synth_exec_ns(m, 3 * MS, 102, 100, 0, "/bin/true", (const char *[]){ "true", NULL });
	synth_exec_ns(m, 4 * MS, 103, 100, 9, "/bin/true", (const char *[]){ "true", NULL }); /* fork dropped */
	cr_assert(eq(int, model__finish(m, 5 * MS), 0));

	p = find_proc(m, 101, 0);
	cr_assert(p != NULL);
	cr_assert(eq(u32, p->ns_pid, 0));
	p = find_proc(m, 102, 0);
	cr_assert(p != NULL);
	cr_assert(eq(u32, p->ns_pid, 7), "an exec that could not read it keeps the fork's");
	p = find_proc(m, 103, 0);
	cr_assert(p != NULL);
	cr_assert(eq(u32, p->ns_pid, 9));
	p = find_proc(m, 100, 0);
	cr_assert(p != NULL);
	cr_assert(eq(u32, p->ns_pid, 0), "the root without an exec record");
	model__free(m);
}

/* A pid the kernel reused is two instances: each lookup names the one alive then. */
Test(model, pid_index_lent_after_finish)
{
	struct model *m = model__new(100, 10 * MS);
	const struct proc_index *x;
	struct proc_index *own;

	synth_fork(m, 12 * MS, 100, 200, 200, false);
	synth_exit(m, 13 * MS, 200, 200, true, 0);
	synth_fork(m, 14 * MS, 100, 200, 200, false);
	synth_exit(m, 15 * MS, 200, 200, true, 0);
	cr_assert(eq(int, model__finish(m, 16 * MS), 0));
	cr_assert(eq(sz, m->nr_procs, 3));

	x = proc_index__of(m, &own);
	cr_assert(x == m->pids && own == NULL, "a finished model lends its own index");
	cr_assert(eq(long, proc_index__started(x, 200, 11 * MS), -1));
	cr_assert(eq(long, proc_index__at(x, 200, 11 * MS), 1)); /* none started yet: the first */
	cr_assert(eq(long, proc_index__started(x, 200, 12 * MS), 1));
	cr_assert(eq(long, proc_index__started(x, 200, 14 * MS), 2));
	cr_assert(eq(long, proc_index__started(x, 999, 14 * MS), -1));
	cr_assert(eq(long, proc_index__at(x, 999, 14 * MS), -1));
	model__free(m);
}
