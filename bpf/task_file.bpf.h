/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task's open files: the struct file behind one of its fds, and whether
 * its standard output goes to a pipe its parent reads.  Include after
 * vmlinux.h and bpf_core_read.h.
 */
#ifndef BUILDBPF_TASK_FILE_BPF_H
#define BUILDBPF_TASK_FILE_BPF_H

/* The kernel's S_IFMT and the file types of it read here. */
#define BB_S_IFMT 00170000
#define BB_S_IFREG 0100000
#define BB_S_IFIFO 0010000

/*
 * The struct file behind fd in task's fd table; NULL if none (or the task
 * has no files left: exit_files()).  The way there is read through the
 * BTF-typed task pointer as plain loads, which the verifier checks against
 * the running kernel's BTF and libbpf relocates like CO-RE reads (a load
 * through a NULL pointer reads 0): BPF_CORE_READ would be a helper call per
 * field.  The file pointer itself comes from a helper, so what is read
 * through it stays BPF_CORE_READ.
 */
static __always_inline struct file *task_file(struct task_struct *task, long fd)
{
	struct fdtable *fdt = task->files->fdt;
	struct file *f = NULL;

	if (fd < 0 || !fdt || fd >= fdt->max_fds)
		return NULL;
	/* An element of a runtime-sized array: its address is a number to
	 * the verifier, so this one read stays a helper call. */
	bpf_probe_read_kernel(&f, sizeof(f), &fdt->fd[fd]);
	return f;
}

/*
 * BB_EXEC_OUTPUT_CAPTURED: task's fd 1 is a pipe, and not the file its
 * parent's fd 1 is (another inode: the two ends of one pipe share theirs).
 * The parent made that pipe for it and reads it: make's $(shell ...), a
 * shell's $(...), ninja.  Read at exec, after the child's dup2() onto fd 1
 * and the close-on-exec closes; a parent with no fd 1 counts as another.
 */
static __always_inline bool output_captured(struct task_struct *task)
{
	struct file *out = task_file(task, 1), *parent_out;
	struct inode *inode;

	if (!out)
		return false;
	inode = BPF_CORE_READ(out, f_inode);
	if ((BPF_CORE_READ(inode, i_mode) & BB_S_IFMT) != BB_S_IFIFO)
		return false;
	parent_out = task_file(task->real_parent, 1);
	return !parent_out || BPF_CORE_READ(parent_out, f_inode) != inode;
}

#endif /* BUILDBPF_TASK_FILE_BPF_H */
