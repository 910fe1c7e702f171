// SPDX-License-Identifier: GPL-2.0
/*
 * File dependencies of the traced build (--deps=on): which process wrote a
 * file and which later read it, keyed by the file's identity (device and
 * inode), so that a writer -> reader edge can be drawn in user space.
 *
 * Two ways to hook the kernel, one chosen at start-up (record/deps_probe.c):
 *  - fentry/fexit on the kernel functions every open and rename goes
 *    through (do_filp_open, do_renameat2): they run on opens and renames
 *    only, so a process outside the build pays one `tracked` lookup per
 *    open and nothing on any other syscall;
 *  - where the kernel refuses those, one program on the raw sys_exit
 *    tracepoint (tp_btf): it fires on every syscall of the machine and puts
 *    every task on the syscall tracepoint path while attached, so it first
 *    compares the syscall number and returns for anything but the open and
 *    rename families; the opened file is then reached through the fd table.
 *
 * What is recorded, for the build's processes only:
 *  - every open of a regular file for writing (O_WRONLY, O_RDWR; O_CREAT
 *    and O_TRUNC imply one of them in practice): a record, and the inode
 *    goes into `written_files`;
 *  - an open for reading of an inode in `written_files`: a record.  Files
 *    the build only reads (system headers) produce none;
 *  - a successful rename: a record with both paths as the process passed
 *    them (user space matches the old path);
 *  - per process, the count of all files opened and opened for writing,
 *    sent once when the process ends (sched_process_exit of its last
 *    thread).
 * Nothing of a process the user may not read (hidden.bpf.h), whichever way
 * is hooked: each program that starts a record checks it first.
 * Not seen: writes through an fd opened before the build or inherited
 * from outside it, mmap of a file opened earlier, renames onto a path by
 * other syscalls (link + unlink); with the syscall tracepoint also 32-bit
 * compat syscalls and io_uring opens, which fentry sees.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <asm-generic/errno-base.h>
#include "maps.bpf.h"
#include "emit.bpf.h"
#include "thread_exit.bpf.h"
#include "hidden.bpf.h"
#include "task_file.bpf.h"

char LICENSE[] SEC("license") __weak = "GPL";

/* The Makefile refuses other architectures before it gets here. */
#ifndef __TARGET_ARCH_x86
#error "file_events.bpf.c knows only x86-64's syscall numbers and their register (orig_ax)"
#endif

/* x86-64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl). */
#define NR_open 2
#define NR_rename 82
#define NR_creat 85
#define NR_openat 257
#define NR_renameat 264
#define NR_renameat2 316
#define NR_openat2 437

/* The kernel's FMODE_WRITE and FMODE_PATH (O_PATH: no I/O at all). */
#define BB_FMODE_WRITE 0x2
#define BB_FMODE_PATH 0x4000
/* An exec's open: __FMODE_EXEC in f_flags up to 6.1 at least (no O_ flag
 * has that bit), FMODE_EXEC in f_mode where later kernels keep it. */
#define BB_FMODE_EXEC 0x20

/* Identity of a file: an inode of a file system. */
struct file_key {
	__u64 ino;
	__u32 dev;
	__u32 __pad;
};

/* Regular files the build opened for writing: value unused (presence). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, struct file_key);
	__type(value, __u8);
} written_files SEC(".maps");

/* Files opened per process of the build, keyed by tgid (struct bb_file_counts). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, __u32);
	__type(value, struct bb_file_counts);
} file_counts SEC(".maps");

/* The struct file behind fd in the current task's fd table; NULL if none. */
static __always_inline struct file *current_file(long fd)
{
	return task_file(bpf_get_current_task_btf(), fd);
}

static __always_inline void count_open(__u32 tgid, bool write)
{
	struct bb_file_counts *c = bpf_map_lookup_elem(&file_counts, &tgid), zero = {};

	if (!c) {
		/* A full map loses this process's counts: say so. */
		if (bpf_map_update_elem(&file_counts, &tgid, &zero, BPF_NOEXIST) == -E2BIG)
			count_drop();
		c = bpf_map_lookup_elem(&file_counts, &tgid);
		if (!c)
			return;
	}
	__sync_fetch_and_add(&c->opened, 1);
	if (write)
		__sync_fetch_and_add(&c->written, 1);
}

/* The file's path as its dentries spell it, leaf first, into e->names. */
static __always_inline void fill_names(struct bb_file_event *e, struct dentry *d)
{
	int i;

	e->nr_names = 0;
	for (i = 0; i < BB_FILE_NAMES; i++) {
		struct dentry *parent = BPF_CORE_READ(d, d_parent);
		const unsigned char *name = BPF_CORE_READ(d, d_name.name);

		if (!parent || parent == d) {
			/* d is its file system's root, spelt "/": not a name. */
			e->flags |= BB_FILE_PATH_COMPLETE;
			return;
		}
		if (bpf_probe_read_kernel_str(e->names[i], BB_FILE_NAME_LEN, name) < 0)
			e->names[i][0] = 0;
		e->nr_names = i + 1;
		d = parent;
	}
	if (BPF_CORE_READ(d, d_parent) == d)
		e->flags |= BB_FILE_PATH_COMPLETE;
}

/* A build process opened f (any way: the syscall's fd, or the file do_filp_open returned). */
static __always_inline void on_open(__u32 pid, __u32 tgid, struct file *f)
{
	struct file_key key = {};
	struct bb_file_event *e;
	struct inode *inode;
	unsigned int mode;
	bool write;

	if (!f)
		return;
	mode = BPF_CORE_READ(f, f_mode);
	inode = BPF_CORE_READ(f, f_inode);
	/* An exec opens its image through do_filp_open too; the syscall hook
	 * never sees that, and user space matches an exec by its file name. */
	if ((mode & (BB_FMODE_PATH | BB_FMODE_EXEC)) || (BPF_CORE_READ(f, f_flags) & BB_FMODE_EXEC))
		return;
	write = mode & BB_FMODE_WRITE;
	count_open(tgid, write);
	/* /dev/null, ttys, pipes: written by every shell, no dependency. */
	if ((BPF_CORE_READ(inode, i_mode) & BB_S_IFMT) != BB_S_IFREG)
		return;
	key.ino = BPF_CORE_READ(inode, i_ino);
	key.dev = BPF_CORE_READ(inode, i_sb, s_dev);
	if (write) {
		__u8 one = 1;

		if (bpf_map_update_elem(&written_files, &key, &one, BPF_ANY))
			count_drop(); /* full: its readers will be missing */
	} else if (!bpf_map_lookup_elem(&written_files, &key)) {
		return;
	}

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_FILE_OPEN, pid, tgid, bpf_ktime_get_ns());
	e->ino = key.ino;
	e->dev = key.dev;
	e->flags = write ? BB_FILE_WRITE : 0;
	e->__pad = 0;
	fill_names(e, BPF_CORE_READ(f, f_path.dentry));
	bpf_ringbuf_submit(e, wakeup_flag());
}

/* Success of rename(old, new) or rename{at,at2}(olddfd, old, newdfd, new, ...). */
static __always_inline void on_rename(__u32 pid, __u32 tgid, const void *old_path, const void *new_path)
{
	struct bb_file_rename_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_FILE_RENAME, pid, tgid, bpf_ktime_get_ns());
	/* The syscall has just read them: they are resident. */
	if (bpf_probe_read_user_str(e->old_path, sizeof(e->old_path), old_path) < 0)
		e->old_path[0] = 0;
	if (bpf_probe_read_user_str(e->new_path, sizeof(e->new_path), new_path) < 0)
		e->new_path[0] = 0;
	bpf_ringbuf_submit(e, wakeup_flag());
}

SEC("tp_btf/sys_exit")
int BPF_PROG(handle_file_sys_exit, struct pt_regs *regs, long ret)
{
	long nr = regs->orig_ax; /* a tp_btf argument: read directly */
	struct bb_proc_acct *acct;
	__u64 id;
	__u32 tgid;

	switch (nr) {
	case NR_open:
	case NR_creat:
	case NR_openat:
	case NR_openat2:
	case NR_rename:
	case NR_renameat:
	case NR_renameat2:
		break;
	default:
		return 0;
	}
	if (ret < 0)
		return 0;
	id = bpf_get_current_pid_tgid();
	tgid = id >> 32;
	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct)
		return 0;
	/* A process the user may not read keeps its files to itself, its
	 * counts too (/proc/PID/fd needs the same access). */
	if (mark_hidden(acct, bpf_get_current_task_btf()))
		return 0;

	/* The arguments are still in the saved user registers, read by the
	 * architecture's syscall convention (libbpf's *_CORE_SYSCALL). */
	switch (nr) {
	case NR_rename:
		on_rename((__u32)id, tgid, (void *)PT_REGS_PARM1_CORE_SYSCALL(regs),
			  (void *)PT_REGS_PARM2_CORE_SYSCALL(regs));
		break;
	case NR_renameat:
	case NR_renameat2:
		on_rename((__u32)id, tgid, (void *)PT_REGS_PARM2_CORE_SYSCALL(regs),
			  (void *)PT_REGS_PARM4_CORE_SYSCALL(regs));
		break;
	default:
		on_open((__u32)id, tgid, current_file(ret));
	}
	return 0;
}

/*
 * The fentry way.  Every open (open, openat, openat2, creat, io_uring's)
 * returns its file from do_filp_open: an error pointer when it failed.
 */
SEC("fexit/do_filp_open")
int BPF_PROG(handle_file_open_fexit, int dfd, struct filename *pathname, const struct open_flags *op,
	     struct file *ret)
{
	struct bb_proc_acct *acct;
	__u64 id;
	__u32 tgid;

	if ((unsigned long)ret >= (unsigned long)-4095 || !ret)
		return 0;
	id = bpf_get_current_pid_tgid();
	tgid = id >> 32;
	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct || mark_hidden(acct, bpf_get_current_task_btf()))
		return 0;
	on_open((__u32)id, tgid, ret);
	return 0;
}

/*
 * A build thread's rename in flight, keyed by tid: do_renameat2 frees the
 * names before it returns, so they are copied on entry and sent on a
 * successful return.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct bb_file_rename_event);
} renames_in_flight SEC(".maps");

/* Where a rename's record is built: larger than the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bb_file_rename_event);
} rename_scratch SEC(".maps");

SEC("fentry/do_renameat2")
int BPF_PROG(handle_file_rename_enter, int olddfd, struct filename *from, int newdfd, struct filename *to)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = id, zero = 0;
	struct bb_file_rename_event *e;
	struct bb_proc_acct *acct;

	/* Hidden: nothing goes in flight, so the exit has nothing to send. */
	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!acct || mark_hidden(acct, bpf_get_current_task_btf()))
		return 0;
	e = bpf_map_lookup_elem(&rename_scratch, &zero);
	if (!e)
		return 0;
	fill_header(&e->hdr, BB_EV_FILE_RENAME, tid, tgid, 0);
	/* The kernel's copies of the paths the process passed (an error
	 * pointer, when getname() failed, reads as nothing). */
	if (bpf_probe_read_kernel_str(e->old_path, sizeof(e->old_path), BPF_CORE_READ(from, name)) < 0)
		e->old_path[0] = 0;
	if (bpf_probe_read_kernel_str(e->new_path, sizeof(e->new_path), BPF_CORE_READ(to, name)) < 0)
		e->new_path[0] = 0;
	if (bpf_map_update_elem(&renames_in_flight, &tid, e, BPF_ANY))
		count_drop();
	return 0;
}

SEC("fexit/do_renameat2")
int BPF_PROG(handle_file_rename_exit, int olddfd, struct filename *from, int newdfd, struct filename *to,
	     unsigned int flags, int ret)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct bb_file_rename_event *e = bpf_map_lookup_elem(&renames_in_flight, &tid);

	if (!e)
		return 0;
	if (!ret) {
		e->hdr.ts_ns = bpf_ktime_get_ns();
		if (bpf_ringbuf_output(&events, e, sizeof(*e), wakeup_flag()))
			count_drop();
	}
	bpf_map_delete_elem(&renames_in_flight, &tid);
	return 0;
}

/* start_wake.bpf.c's: a thread's last wakeup goes with it. */
extern int start_wake_forget(__u32 tid);

/*
 * --deps's one program at a thread's exit: its last wakeup goes, and a
 * process's counters leave with its last thread (take_process_entry()).
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(handle_deps_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct bb_file_counts_event *e;
	struct bb_file_counts last;
	struct bb_proc_acct *acct;

	start_wake_forget(BPF_CORE_READ(p, pid));
	if (!take_process_entry(&file_counts, p, tgid, &last, sizeof(last)))
		return 0;
	acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (acct && acct->hidden)
		return 0;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return 0;
	}
	fill_header(&e->hdr, BB_EV_FILE_COUNTS, BPF_CORE_READ(p, pid), tgid, bpf_ktime_get_ns());
	e->counts = last;
	bpf_ringbuf_submit(e, wakeup_flag());
	return 0;
}
