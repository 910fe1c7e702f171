// SPDX-License-Identifier: GPL-2.0
/*
 * --cgroup: a process moved into the target cgroup (or below it) while
 * tracing joins the build there: it is tracked from then on and announced
 * with a BB_EV_PROC_FOUND record.  A tracked process moved out stays
 * tracked, with its descendants: what a job started is the job's work,
 * wherever it moves, and a slice cut off mid-life would end in nothing.
 * Loaded only with --cgroup.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "maps.bpf.h"
#include "emit.bpf.h"
#include "thread_exit.bpf.h"
#include "ns_pid.bpf.h"
#include "cgroup_filter.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

/*
 * Fires once per moved thread, after the move (its css_set is the new
 * one).  A process moved whole comes thread by thread: the first makes it
 * tracked, each adds its own scheduler state.
 */
SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(handle_cgroup_attach, struct cgroup *dst_cgrp, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	__u64 ts = bpf_ktime_get_ns();
	__u32 tgid = BPF_CORE_READ(task, tgid), tid = BPF_CORE_READ(task, pid);
	struct bb_proc_found_event *e;
	struct bb_proc_acct acct = {};
	struct bb_thread thread;
	int nr_threads;

	if (!task_in_target_cgroup(task))
		return 0;
	/* Its scheduler state, from now (harmless with --sched=off: no
	 * program reads it then). */
	thread_init(&thread, tgid, task_state(task) == BB_TASK_RUNNING ? BB_THREAD_RUNNABLE : BB_THREAD_SLEEPING, ts);
	bpf_map_update_elem(&threads, &tid, &thread, BPF_NOEXIST);
	if (bpf_map_lookup_elem(&tracked, &tgid))
		return 0;
	/* Its last thread ends it: every live thread counts.  Its CPU times
	 * are its whole life's (the threads' own are not summed here). */
	nr_threads = BPF_CORE_READ(task, signal, nr_threads);
	acct.nr_threads = nr_threads > 0 ? nr_threads - 1 : 0;
	if (bpf_map_update_elem(&tracked, &tgid, &acct, BPF_NOEXIST))
		return 0; /* another of its threads won */

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return 0;
	}
	fill_header(&e->hdr, BB_EV_PROC_FOUND, tgid, tgid, ts);
	e->start_ns = BPF_CORE_READ(task, group_leader, start_time);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->ns_tgid = tgid_ns_pid(task);
	e->flags = 0;
	e->filename_len = 0;
	e->args_len = 0;
	e->args_full_len = 0;
	e->nr_threads = nr_threads;
	e->__pad = 0;
	BPF_CORE_READ_STR_INTO(&e->comm, task, group_leader, comm);
	bpf_ringbuf_submit(e, wakeup_flag());
	return 0;
}
