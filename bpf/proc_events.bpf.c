// SPDX-License-Identifier: GPL-2.0
/*
 * Process lifecycle of the traced build: fork, exec and exit of every task
 * whose thread group is in the `tracked` map.  Events of any other process
 * return after one map lookup and never reach the ring buffer.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "maps.bpf.h"
#include "emit.bpf.h"
#include "thread_exit.bpf.h"
#include "hidden.bpf.h"
#include "ns_pid.bpf.h"
#include "task_file.bpf.h"
#include "cgroup_filter.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

/* Set by user space before load (rodata: the verifier prunes dead branches). */
const volatile __u32 args_max = BB_ARGS_MAX_DEFAULT;
/* --sched is not off: keep per-thread scheduler state for new threads. */
const volatile bool sched_enabled = false;

/*
 * Exec records can be up to 132 KiB, far beyond the 512-byte stack: they are
 * built in one slot per CPU (tracepoint probes run with preemption disabled,
 * so a slot is never shared by two programs at once) and copied into the
 * ring buffer at their real length.  A plain array indexed by CPU, because a
 * per-CPU array's value is limited to 32 KiB; user space sizes it to the
 * number of possible CPUs.
 */
#define EXEC_BUF_SIZE (sizeof(struct bb_exec_event) + BB_FILENAME_MAX + BB_ARGS_MAX_LIMIT)

struct exec_buf {
	__u8 bytes[EXEC_BUF_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the possible CPUs by user space */
	__type(key, __u32);
	__type(value, struct exec_buf);
} exec_scratch SEC(".maps");

SEC("tp_btf/sched_process_fork")
int BPF_PROG(handle_fork, struct task_struct *parent, struct task_struct *child)
{
	__u64 ts = bpf_ktime_get_ns();
	__u32 parent_tgid = BPF_CORE_READ(parent, tgid);
	__u32 child_tgid = BPF_CORE_READ(child, tgid);
	struct bb_proc_acct *acct, zero = {};
	struct bb_fork_event *e;
	bool is_thread = child_tgid == parent_tgid;

	acct = bpf_map_lookup_elem(&tracked, &parent_tgid);
	if (!acct) {
		/* --cgroup: a process outside the build forked inside the
		 * target cgroup (or into it, CLONE_INTO_CGROUP). */
		if (is_thread || !task_in_target_cgroup(child))
			return 0;
	} else if (is_thread) {
		__sync_fetch_and_add(&acct->nr_threads, 1);
	}
	if (!is_thread && bpf_map_update_elem(&tracked, &child_tgid, &zero, BPF_ANY)) {
		/* Map full: the child's events will be missing; say so. */
		count_drop();
	}
	if (sched_enabled) {
		__u32 child_tid = BPF_CORE_READ(child, pid);
		struct bb_thread thread;

		thread_init(&thread, child_tgid, BB_THREAD_NEW, ts);

		if (bpf_map_update_elem(&threads, &child_tid, &thread, BPF_ANY))
			count_drop();
	}

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return 0;
	}
	fill_header(&e->hdr, BB_EV_FORK, BPF_CORE_READ(child, pid), child_tgid, ts);
	e->parent_pid = BPF_CORE_READ(parent, pid);
	e->parent_tgid = parent_tgid;
	e->flags = is_thread ? BB_FORK_THREAD : 0;
	e->ns_tgid = tgid_ns_pid(child);
	BPF_CORE_READ_STR_INTO(&e->comm, child, comm);
	bpf_ringbuf_submit(e, wakeup_flag());
	return 0;
}

/*
 * A thread other than the leader exec'd: de_thread() swapped its tid with
 * the old leader's (exchange_tids()), so their scheduler states swap keys
 * too.  The old leader is a zombie by now but may not have made its last
 * switch yet: it will, under the tid the exec'ing thread had.
 */
static __always_inline void swap_threads(__u32 old_tid, __u32 new_tid)
{
	struct bb_thread *t = bpf_map_lookup_elem(&threads, &old_tid);
	struct bb_thread *leader = bpf_map_lookup_elem(&threads, &new_tid);
	struct bb_thread exec_copy, leader_copy;

	if (!t)
		return;
	exec_copy = *t;
	if (leader) {
		leader_copy = *leader;
		bpf_map_update_elem(&threads, &old_tid, &leader_copy, BPF_ANY);
	} else {
		bpf_map_delete_elem(&threads, &old_tid);
	}
	bpf_map_update_elem(&threads, &new_tid, &exec_copy, BPF_ANY);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(handle_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u64 ts = bpf_ktime_get_ns();
	__u32 tgid = BPF_CORE_READ(p, tgid);
	__u32 cpu = bpf_get_smp_processor_id(), name_len;
	/* 64-bit: a __u32 size is clamped in one register and zero-extended
	 * again into the helper's argument, which 6.1's verifier sees as
	 * unbounded ("R3 unbounded memory access"). */
	__u64 args_len, full_len, size;
	unsigned long arg_start, arg_end;
	struct bb_proc_acct *acct;
	struct bb_exec_event *e;
	struct exec_buf *buf;
	const char *filename;
	long n;

	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct)
		return 0;
	buf = bpf_map_lookup_elem(&exec_scratch, &cpu);
	if (!buf)
		return 0;
	e = (void *)buf->bytes;
	fill_header(&e->hdr, BB_EV_EXEC, BPF_CORE_READ(p, pid), tgid, ts);
	e->ppid = BPF_CORE_READ(p, real_parent, tgid);
	e->old_tid = old_pid;
	e->flags = output_captured(p) ? BB_EXEC_OUTPUT_CAPTURED : 0;
	e->ns_tgid = tgid_ns_pid(p);
	/* The new credentials and dumpability are in place: a setuid or
	 * setgid image is hidden from here on.  Its argv stays, as
	 * /proc/PID/cmdline shows it to everyone. */
	acct->launching = 0;
	e->hidden = mark_hidden(acct, p);
	BPF_CORE_READ_STR_INTO(&e->comm, p, comm);

	filename = BPF_CORE_READ(bprm, filename);
	/* One byte more than kept: a 4,095-byte name (the longest exec takes)
	 * reads whole, a longer one (execveat's /dev/fd/N/...) reads past it. */
	n = bpf_probe_read_kernel_str(e->data, BB_FILENAME_MAX + 1, filename);
	if (n <= 0)
		n = 1; /* empty name; keep the NUL slot arithmetic uniform */
	name_len = n - 1; /* drop the NUL */
	if (name_len > BB_FILENAME_MAX - 1) {
		name_len = BB_FILENAME_MAX - 1;
		e->flags |= BB_EXEC_FILENAME_TRUNCATED;
	}
	name_len &= BB_FILENAME_MAX - 1;
	e->filename_len = name_len;

	/* argv as the new image sees it: the mm's arg area, NUL-separated. */
	arg_start = BPF_CORE_READ(p, mm, arg_start);
	arg_end = BPF_CORE_READ(p, mm, arg_end);
	full_len = arg_end > arg_start ? arg_end - arg_start : 0;
	e->args_full_len = full_len > 0xffffffffu ? 0xffffffffu : full_len;
	args_len = full_len;
	if (args_len > args_max) {
		args_len = args_max;
		e->flags |= BB_EXEC_ARGS_TRUNCATED;
	}
	if (args_len > BB_ARGS_MAX_LIMIT)
		args_len = BB_ARGS_MAX_LIMIT;
	/* Keep the clamped value in the register the helper call uses, so the
	 * verifier sees its bound (clang may otherwise reuse the unclamped). */
	barrier_var(args_len);
	if (args_len && bpf_probe_read_user(e->data + name_len, args_len, (void *)arg_start)) {
		e->flags |= BB_EXEC_ARGS_UNREADABLE;
		args_len = 0;
	}
	e->args_len = args_len;

	size = sizeof(*e) + name_len + args_len;
	if (size > EXEC_BUF_SIZE)
		size = EXEC_BUF_SIZE;
	if (bpf_ringbuf_output(&events, e, size, wakeup_flag()))
		count_drop();
	if (sched_enabled && (__u32)old_pid != e->hdr.pid)
		swap_threads(old_pid, e->hdr.pid);
	return 0;
}

/*
 * --sched=off: no scheduler state is kept, but a thread's CPU time is only
 * final at its last switch-out, so this one switch program is attached and
 * does nothing else.  At the other levels the scheduler's own switch
 * program handles the last switch (one program per switch, not two).
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(handle_final_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (task_state(prev) & BB_TASK_DEAD)
		thread_final_switch(prev, NULL, bpf_ktime_get_ns());
	return 0;
}
