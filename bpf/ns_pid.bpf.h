/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process's pid as its own PID namespace numbers it: for the fork and
 * exec records (proc_events.bpf.c) and the task iterator (task_iter.bpf.c).
 * Include after vmlinux.h and bpf_core_read.h.
 */
#ifndef BUILDBPF_NS_PID_BPF_H
#define BUILDBPF_NS_PID_BPF_H

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

#endif /* BUILDBPF_NS_PID_BPF_H */
