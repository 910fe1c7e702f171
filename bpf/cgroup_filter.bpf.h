/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --cgroup: whether a task's cgroup v2 is the target cgroup or one below
 * it.  The target is known by its id (the kernfs node id, the directory's
 * inode number) and its level (depth below the root cgroup); a cgroup's
 * ancestor at that level is the target exactly when the task is inside.
 * Ids are only unique within one hierarchy: the task's default-hierarchy
 * (v2) cgroup is the one looked at, also on hybrid systems.  Include after
 * vmlinux.h and bpf_core_read.h.
 */
#ifndef BUILDBPF_CGROUP_FILTER_BPF_H
#define BUILDBPF_CGROUP_FILTER_BPF_H

/* Set by user space: the target's id, 0 without --cgroup (the verifier
 * then prunes every use), and its level. */
const volatile __u64 target_cgroup_id __weak = 0;
const volatile __u32 target_cgroup_level __weak = 0;

/* The kernel's limit on cgroup nesting is far below this. */
#define BB_CGROUP_MAX_LEVEL 1024

static __always_inline bool task_in_target_cgroup(struct task_struct *task)
{
	struct cgroup *cgrp, *ancestor = NULL;
	int level;

	if (!target_cgroup_id)
		return false;
	cgrp = BPF_CORE_READ(task, cgroups, dfl_cgrp);
	if (!cgrp)
		return false;
	level = BPF_CORE_READ(cgrp, level);
	if (level < (int)target_cgroup_level || target_cgroup_level >= BB_CGROUP_MAX_LEVEL)
		return false;
	/* ancestors[] is a flexible array: its element's address from the
	 * running kernel's offset, as tgid_ns_pid() does for upid. */
	if (bpf_probe_read_kernel(&ancestor, sizeof(ancestor),
				  (void *)cgrp + bpf_core_field_offset(struct cgroup, ancestors) +
					  target_cgroup_level * sizeof(ancestor)))
		return false;
	return ancestor && BPF_CORE_READ(ancestor, kn, id) == target_cgroup_id;
}

#endif /* BUILDBPF_CGROUP_FILTER_BPF_H */
