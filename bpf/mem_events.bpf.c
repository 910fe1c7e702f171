// SPDX-License-Identifier: GPL-2.0
/*
 * Memory of the traced build: the peak resident set of each program image
 * (struct bb_mem_image_event).
 *
 * signal->maxrss, what wait4() and getrusage() report, is a process's peak
 * over all its address spaces: the copy of the parent it was forked with,
 * and each image an exec loaded.  A small tool forked from a large process
 * inherits the large peak.  The kernel keeps each mm's own high-water mark
 * (hiwater_rss, brought up to date lazily: the peak is max(hiwater_rss,
 * RSS now)); read it while the mm still exists, at checkpoints:
 *
 *  - sched_prepare_exec (6.10+), or before it the entry of execve and
 *    execveat: the image about to be replaced.  At sched_process_exec the
 *    old mm is already gone (exec_mmap() put it);
 *  - the entry of exit_group/exit and each signal delivered (a fatal one
 *    ends the process from get_signal(), mm intact): the last image.  On
 *    6.1 and 6.12 sched_process_exit fires after exit_mm() (tsk->mm NULL);
 *    from 6.16 it fires before, and is a checkpoint itself.
 *
 * Before those tracepoints, the same points are the entry of do_exit()
 * (every task's exit: exit_group, exit and a fatal signal alike, before
 * exit_mm()) and of begin_new_exec() (an exec's point of no return, before
 * exec_mmap()), hooked with fentry where the kernel allows it.  The raw
 * syscall entry, the last resort, costs every syscall of the machine a
 * detour while attached: user space (record/mem_probe.h) picks the
 * checkpoints, and attaches it only where neither tracepoints nor fentry
 * will do.
 *
 * The image's record is emitted where the image ends: at sched_process_exec
 * for the replaced one, at the process's group-dead sched_process_exit for
 * the last one.
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

char LICENSE[] SEC("license") __weak = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, __u32);
	__type(value, struct bb_mem_proc);
} mem_images SEC(".maps");

/* The kernel's mm counter indexes (enum in mm_types_task.h, stable since 4.5). */
#define BB_MM_FILEPAGES 0
#define BB_MM_ANONPAGES 1
#define BB_MM_SHMEMPAGES 3

/*
 * Before 6.2 the mm's counters were atomics, with each task caching its own
 * page-fault deltas (SPLIT_RSS_COUNTING, folded in every 64 faults); from
 * 6.2 they are per-CPU counters whose central count is what get_mm_rss()
 * reads.
 */
struct mm_rss_stat___pre_6_2 {
	atomic_long_t count[4];
} __attribute__((preserve_access_index));

struct mm_struct___pre_6_2 {
	struct mm_rss_stat___pre_6_2 rss_stat;
} __attribute__((preserve_access_index));

struct task_rss_stat___pre_6_2 {
	int events;
	int count[4];
} __attribute__((preserve_access_index));

struct task_struct___pre_6_2 {
	struct task_rss_stat___pre_6_2 rss_stat;
} __attribute__((preserve_access_index));

static __always_inline __s64 counter_pages(struct task_struct *task, struct mm_struct *mm, int member)
{
	__s64 pages = 0;

	if (bpf_core_type_exists(struct mm_rss_stat___pre_6_2)) {
		struct mm_struct___pre_6_2 *old_mm = (void *)mm;
		struct task_struct___pre_6_2 *old_task = (void *)task;
		int cached = 0;

		bpf_core_read(&pages, sizeof(pages), &old_mm->rss_stat.count[member].counter);
		/* task is current and runs on mm: its unfolded deltas count too. */
		if (bpf_core_field_exists(old_task->rss_stat))
			bpf_core_read(&cached, sizeof(cached), &old_task->rss_stat.count[member]);
		pages += cached;
	} else {
		bpf_core_read(&pages, sizeof(pages), &mm->rss_stat[member].count);
	}
	return pages > 0 ? pages : 0;
}

static __always_inline __u64 mm_rss_pages(struct task_struct *task, struct mm_struct *mm)
{
	return counter_pages(task, mm, BB_MM_FILEPAGES) + counter_pages(task, mm, BB_MM_ANONPAGES) +
	       counter_pages(task, mm, BB_MM_SHMEMPAGES);
}

/* The kernel's own setmax_mm_hiwater_rss(): max(hiwater_rss, get_mm_rss()). */
static __always_inline __u64 mm_peak_pages(struct task_struct *task, struct mm_struct *mm)
{
	__u64 hiwater = BPF_CORE_READ(mm, hiwater_rss);
	__u64 rss = mm_rss_pages(task, mm);

	return rss > hiwater ? rss : hiwater;
}

/*
 * The tracked process's image state, created on first use; NULL if
 * untracked.  *acct: its `tracked` entry.
 */
static __always_inline struct bb_mem_proc *image_state(__u32 tgid, struct bb_proc_acct **acct)
{
	struct bb_mem_proc *s, zero = {};
	long err;

	*acct = bpf_map_lookup_elem(&tracked, &tgid);
	if (!*acct)
		return NULL;
	s = bpf_map_lookup_elem(&mem_images, &tgid);
	if (s)
		return s;
	err = bpf_map_update_elem(&mem_images, &tgid, &zero, BPF_NOEXIST);
	/* -EEXIST: another thread of the process made it first. */
	if (err && err != -EEXIST)
		count_drop();
	return bpf_map_lookup_elem(&mem_images, &tgid);
}

/* Folds current's address space into its image's peak, if it is the build's. */
static __always_inline void checkpoint_current(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();
	struct bb_proc_acct *acct;
	struct bb_mem_proc *s;
	struct mm_struct *mm;
	__u64 peak;

	s = image_state(bpf_get_current_pid_tgid() >> 32, &acct);
	if (!s)
		return;
	/* The mm is current's here: a process that made itself undumpable
	 * since its exec is seen at its exit or next exec. */
	mark_hidden(acct, task);
	mm = BPF_CORE_READ(task, mm);
	if (!mm)
		return;
	peak = mm_peak_pages(task, mm);
	/* Two threads racing here read the same mm: either value will do. */
	if (peak > s->peak_pages)
		s->peak_pages = peak;
}

/* hidden: the process's BB_HIDDEN_* reasons; its peak is then left out. */
static __always_inline void emit_image(__u32 pid, __u32 tgid, const struct bb_mem_proc *s, __u32 flags,
				       __u32 hidden, __u64 ts)
{
	struct bb_mem_image_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_MEM_IMAGE, pid, tgid, ts);
	if (hidden)
		flags |= BB_MEM_HIDDEN;
	e->peak_rss_kb = hidden ? 0 : s->peak_pages * page_size_kb;
	e->image = s->image;
	e->flags = flags;
	bpf_ringbuf_submit(e, wakeup_flag());
}

/*
 * The raw syscall entry, not the per-syscall tracepoints: those need
 * tracefs mounted to be found, and cost the same (either puts every task
 * on the traced syscall path).  Numbers of this architecture's native
 * syscalls, set by user space.
 */
const volatile long nr_execve = -1;
const volatile long nr_execveat = -1;
const volatile long nr_exit = -1;
const volatile long nr_exit_group = -1;

/*
 * An mm counter changed (--mem-period not off): the process's resident
 * memory now, which user space sums over the build every period.  Only a
 * process's own changes count: another task's (fork copying into the
 * child's new mm, reclaim) is followed by the owner's own soon enough.
 */
SEC("tp_btf/rss_stat")
int BPF_PROG(mem_rss_stat, struct mm_struct *mm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct bb_proc_acct *acct;
	struct bb_mem_proc *s;
	__u64 rss;

	if (task->mm != mm)
		return 0;
	s = image_state(task->tgid, &acct);
	if (!s)
		return 0;
	/* Summed over the build each period and named among its largest:
	 * a hidden process's counts as 0. */
	if (mark_hidden(acct, task)) {
		s->rss_pages = 0;
		return 0;
	}
	rss = mm_rss_pages(task, mm);
	s->rss_pages = rss;
	if (rss > s->peak_pages)
		s->peak_pages = rss;
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(mem_sys_enter, struct pt_regs *regs, long id)
{
	if (id == nr_execve || id == nr_execveat || id == nr_exit || id == nr_exit_group)
		checkpoint_current();
	return 0;
}

/*
 * fentry, where the kernel has the functions and allows it (6.1, 6.12):
 * the syscall entry's checkpoints, taken only at exits and execs.  Any
 * task's exit of the machine runs it, an untracked one one map lookup.
 */
SEC("fentry/do_exit")
int BPF_PROG(mem_do_exit, long code)
{
	checkpoint_current();
	return 0;
}

/* Only an exec that got this far replaces the image; the mm is the old one until exec_mmap(). */
SEC("fentry/begin_new_exec")
int BPF_PROG(mem_begin_new_exec, struct linux_binprm *bprm)
{
	checkpoint_current();
	return 0;
}

/* Before the point of no return, the old mm still current's (6.10+). */
SEC("tp_btf/sched_prepare_exec")
int BPF_PROG(mem_prepare_exec, struct task_struct *task)
{
	checkpoint_current();
	return 0;
}

SEC("tp_btf/signal_deliver")
int BPF_PROG(mem_signal_deliver, int sig)
{
	checkpoint_current();
	return 0;
}

/* The old image ended at its exec: its peak was taken at execve's entry. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(mem_exec, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct bb_proc_acct *acct;
	struct bb_mem_proc *s = image_state(tgid, &acct);

	if (!s)
		return 0;
	/* Whether proc_events' exec program has marked a setuid image yet
	 * or not: hidden then or at the next image's end, never shown. */
	emit_image(BPF_CORE_READ(p, pid), tgid, s, 0, acct->hidden, bpf_ktime_get_ns());
	s->peak_pages = 0;
	s->image++;
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(mem_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct bb_mem_proc last;
	struct bb_proc_acct *acct;
	__u32 flags = BB_MEM_IMAGE_EXITED;

	checkpoint_current(); /* the mm is still there from 6.16 on */
	if (!take_process_entry(&mem_images, p, tgid, &last, sizeof(last)))
		return 0;
	/* Its last thread's final switch, which removes the entry, is later. */
	acct = bpf_map_lookup_elem(&tracked, &tgid);
	/* mark_oom_victim() sets it before the kill; it stays until the
	 * signal struct is freed. */
	if (BPF_CORE_READ(p, signal, oom_mm))
		flags |= BB_MEM_OOM_KILLED;
	emit_image(BPF_CORE_READ(p, pid), tgid, &last, flags, acct ? acct->hidden : 0, bpf_ktime_get_ns());
	return 0;
}
