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

char LICENSE[] SEC("license") __weak = "GPL";

/* Set by user space before load (rodata: the verifier prunes dead branches). */
const volatile __u32 args_max = BB_ARGS_MAX_DEFAULT;
/* Kernel page size in KiB: signal->maxrss counts pages. */
const volatile __u32 page_size_kb = 4;
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

/* The kernel's MAX_PID_NS_LEVEL: PID namespaces nest at most this deep. */
#define MAX_PID_NS_LEVEL 32

/*
 * task's process id as its own (innermost) PID namespace numbers it: what
 * getpid() returns there.  The leader's struct pid is the process's; it
 * holds one struct upid per namespace level, numbers[0] the global pid and
 * numbers[level] the innermost.  numbers[] is a flexible array sized by
 * level: the index is bounded to the kernel's own limit, and the element's
 * address is computed from the running kernel's offset of numbers and size
 * of struct upid (both CO-RE relocated: upid shrank in 4.15, struct pid
 * keeps changing), not from vmlinux.h's.
 */
static __always_inline __u32 tgid_ns_pid(struct task_struct *task)
{
	struct pid *pid = BPF_CORE_READ(task, group_leader, thread_pid);
	unsigned int level = BPF_CORE_READ(pid, level);
	struct upid *upid;

	if (!pid || level >= MAX_PID_NS_LEVEL)
		return 0;
	level &= MAX_PID_NS_LEVEL - 1;
	upid = (void *)pid + bpf_core_field_offset(struct pid, numbers) + level * bpf_core_type_size(struct upid);
	return BPF_CORE_READ(upid, nr);
}

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
	if (!acct)
		return 0;
	if (is_thread) {
		__sync_fetch_and_add(&acct->nr_threads, 1);
	} else if (bpf_map_update_elem(&tracked, &child_tgid, &zero, BPF_ANY)) {
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
 * A thread other than the leader exec'd: the kernel gave it the leader's
 * tid (de_thread), so its scheduler state moves to the new key.  The old
 * leader's own state went with its exit, before this.
 */
static __always_inline void move_thread(__u32 old_tid, __u32 new_tid)
{
	struct bb_thread *t = bpf_map_lookup_elem(&threads, &old_tid);
	struct bb_thread copy;

	if (!t)
		return;
	copy = *t;
	bpf_map_update_elem(&threads, &new_tid, &copy, BPF_ANY);
	bpf_map_delete_elem(&threads, &old_tid);
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
	struct bb_exec_event *e;
	struct exec_buf *buf;
	const char *filename;
	long n;

	if (!bpf_map_lookup_elem(&tracked, &tgid))
		return 0;
	buf = bpf_map_lookup_elem(&exec_scratch, &cpu);
	if (!buf)
		return 0;
	e = (void *)buf->bytes;
	fill_header(&e->hdr, BB_EV_EXEC, BPF_CORE_READ(p, pid), tgid, ts);
	e->ppid = BPF_CORE_READ(p, real_parent, tgid);
	e->old_tid = old_pid;
	e->flags = 0;
	e->ns_tgid = tgid_ns_pid(p);
	e->__pad = 0;
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
		move_thread(old_pid, e->hdr.pid);
	return 0;
}

/*
 * The exit code the parent's wait() will see: a group exit (exit_group(),
 * a fatal signal) records it in the signal struct; otherwise it is the
 * leader's own exit_code.
 */
#define SIGNAL_GROUP_EXIT_FLAG 0x00000004

static __always_inline __u32 group_exit_status(struct task_struct *task)
{
	struct signal_struct *sig = BPF_CORE_READ(task, signal);

	if (BPF_CORE_READ(sig, flags) & SIGNAL_GROUP_EXIT_FLAG)
		return BPF_CORE_READ(sig, group_exit_code);
	return BPF_CORE_READ(task, group_leader, exit_code);
}

static __always_inline void add_sched(struct bb_sched_acct *to, const struct bb_sched_acct *from)
{
	__sync_fetch_and_add(&to->on_cpu_ns, from->on_cpu_ns);
	__sync_fetch_and_add(&to->runq_ns, from->runq_ns);
	__sync_fetch_and_add(&to->blocked_ns, from->blocked_ns);
	__sync_fetch_and_add(&to->sleep_ns, from->sleep_ns);
	__sync_fetch_and_add(&to->nr_voluntary, from->nr_voluntary);
	__sync_fetch_and_add(&to->nr_involuntary, from->nr_involuntary);
	__sync_fetch_and_add(&to->nr_migrations, from->nr_migrations);
}

/*
 * The exiting thread's scheduler state ends here: its last on-CPU interval
 * is emitted now (the switch away from the dead task will find no state),
 * and its totals join the process's.
 */
static __always_inline void exit_thread_sched(__u32 tid, struct bb_proc_acct *acct, struct bb_sched_acct *own,
					      __u64 ts)
{
	struct bb_thread *t = bpf_map_lookup_elem(&threads, &tid);
	__u64 start;

	if (!t)
		return;
	start = t->state_ts;
	if (thread_close_state(t, ts))
		emit_cpu_slice(t, tid, BB_SLICE_EXITED, start, ts);
	*own = t->acct;
	add_sched(&acct->sched, &t->acct);
	bpf_map_delete_elem(&threads, &tid);
}

static __always_inline int handle_exit_common(struct task_struct *task, bool group_dead, __u64 ts)
{
	__u32 tgid = BPF_CORE_READ(task, tgid), tid = BPF_CORE_READ(task, pid);
	struct bb_sched_acct own_sched = {};
	__u64 utime, stime, sum_exec;
	struct bb_proc_acct *acct;
	struct bb_exit_event *e;

	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct)
		return 0;

	utime = BPF_CORE_READ(task, utime);
	stime = BPF_CORE_READ(task, stime);
	sum_exec = BPF_CORE_READ(task, se.sum_exec_runtime);
	__sync_fetch_and_add(&acct->utime_ns, utime);
	__sync_fetch_and_add(&acct->stime_ns, stime);
	__sync_fetch_and_add(&acct->sum_exec_ns, sum_exec);
	if (sched_enabled)
		exit_thread_sched(tid, acct, &own_sched, ts);

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		goto out;
	}
	fill_header(&e->hdr, BB_EV_EXIT, tid, tgid, ts);
	e->flags = group_dead ? BB_EXIT_GROUP_DEAD : 0;
	e->__pad = 0;
	BPF_CORE_READ_STR_INTO(&e->comm, task, comm);
	if (group_dead) {
		e->utime_ns = acct->utime_ns;
		e->stime_ns = acct->stime_ns;
		e->sum_exec_ns = acct->sum_exec_ns;
		e->sched = acct->sched;
		e->nr_threads = acct->nr_threads;
		e->exit_status = group_exit_status(task);
	} else {
		e->utime_ns = utime;
		e->stime_ns = stime;
		e->sum_exec_ns = sum_exec;
		e->sched = own_sched;
		e->nr_threads = 0;
		e->exit_status = BPF_CORE_READ(task, exit_code);
	}
	/* signal->maxrss is in pages; the running mm's peak is folded in
	 * before this tracepoint on every kernel we load on. */
	e->maxrss_kb = BPF_CORE_READ(task, signal, maxrss) * page_size_kb;
	bpf_ringbuf_submit(e, wakeup_flag());
out:
	if (group_dead)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(handle_exit, struct task_struct *task)
{
	__u64 ts = bpf_ktime_get_ns();
	bool group_dead;

	/*
	 * Recent kernels pass group_dead (the same change gave the event its
	 * own record type with that field, which CO-RE can probe); older ones
	 * decrement signal->live before this tracepoint, so live == 0 means
	 * the last thread.  The probe resolves to a constant at load time and
	 * the verifier never walks the dead branch, so the third context
	 * argument is not touched on kernels that lack it.
	 */
	if (bpf_core_field_exists(struct trace_event_raw_sched_process_exit, group_dead))
		group_dead = (bool)ctx[1];
	else
		group_dead = BPF_CORE_READ(task, signal, live.counter) == 0;
	return handle_exit_common(task, group_dead, ts);
}
