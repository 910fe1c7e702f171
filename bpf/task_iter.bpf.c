// SPDX-License-Identifier: GPL-2.0
/*
 * --attach: every task of the system, once, as a struct bb_task_seen per
 * task written to the iterator's seq file.  User space picks the attached
 * process's descendants from it and seeds the tracked map with them; the
 * kernel's own start times and CPU times are what it needs, which /proc
 * gives only in clock ticks.  Loaded only with --attach and --cgroup.
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

SEC("iter/task")
int list_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct bb_task_seen seen = {};

	if (!task)
		return 0;
	seen.start_ns = BPF_CORE_READ(task, start_time);
	seen.start_boottime_ns = BPF_CORE_READ(task, start_boottime);
	seen.utime_ns = BPF_CORE_READ(task, utime);
	seen.stime_ns = BPF_CORE_READ(task, stime);
	seen.sum_exec_ns = BPF_CORE_READ(task, se.sum_exec_runtime);
	seen.tid = BPF_CORE_READ(task, pid);
	seen.tgid = BPF_CORE_READ(task, tgid);
	seen.ppid = BPF_CORE_READ(task, real_parent, tgid);
	seen.ns_tgid = tgid_ns_pid(task);
	seen.state = task_state(task);
	seen.flags = task_in_target_cgroup(task) ? BB_TASK_SEEN_IN_CGROUP : 0;
	BPF_CORE_READ_STR_INTO(&seen.comm, task, comm);
	bpf_seq_write(ctx->meta->seq, &seen, sizeof(seen));
	return 0;
}
