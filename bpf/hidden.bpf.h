/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel would not show the user the trace is for: the kernel's
 * own rule for /proc/PID/io and a process's memory (ptrace read access,
 * __ptrace_may_access()): the user's uid is its real, effective and saved
 * uid, the user's gid its real, effective and saved gid, and its mm is
 * dumpable (SUID_DUMP_USER), unless the reader has CAP_SYS_PTRACE, which a
 * user's buildbpf has not.  A setuid or setgid program the build runs, and
 * one that made itself undumpable, fail it: their I/O, memory and files
 * are left out (BB_HIDDEN_*), sticky from the first program that sees the
 * reason, since the counters carry what was done while hidden.
 *
 * Checked where the programs run in the process anyway: its exec, its file
 * opens and renames (on fentry/fexit and the syscall tracepoint alike), the
 * memory checkpoints (its exit_group or fatal signal, from 6.16 its exit)
 * and its last switch-out (credentials only: the mm is gone by then).
 * Include after maps.bpf.h.
 */
#ifndef BUILDBPF_HIDDEN_BPF_H
#define BUILDBPF_HIDDEN_BPF_H

/* Set by user space: the user the trace is for (root's hides nothing). */
const volatile bool hide_unreadable __weak = false;
const volatile __u32 viewer_uid __weak = 0;
const volatile __u32 viewer_gid __weak = 0;

/* The kernel's MMF_DUMPABLE_MASK bits of mm->flags and SUID_DUMP_USER. */
#define BB_MMF_DUMPABLE_MASK 0x3ul
#define BB_SUID_DUMP_USER 1ul

/* mm->flags was an unsigned long before it became mm_flags_t (6.18). */
struct mm_struct___flags_ulong {
	unsigned long flags;
} __attribute__((preserve_access_index));

static __always_inline unsigned long mm_flags_word(struct mm_struct *mm)
{
	unsigned long flags = 0;

	if (bpf_core_field_exists(mm->flags.__mm_flags))
		bpf_core_read(&flags, sizeof(flags), &mm->flags.__mm_flags[0]);
	else
		bpf_core_read(&flags, sizeof(flags), &((struct mm_struct___flags_ulong *)mm)->flags);
	return flags;
}

/* Why the user may not read task now (BB_HIDDEN_*); 0: they may. */
static __always_inline __u32 unreadable_reasons(struct task_struct *task)
{
	const struct cred *cred;
	struct mm_struct *mm;
	__u32 why = 0;

	if (!hide_unreadable)
		return 0;
	cred = BPF_CORE_READ(task, real_cred);
	if (BPF_CORE_READ(cred, uid.val) != viewer_uid || BPF_CORE_READ(cred, euid.val) != viewer_uid ||
	    BPF_CORE_READ(cred, suid.val) != viewer_uid || BPF_CORE_READ(cred, gid.val) != viewer_gid ||
	    BPF_CORE_READ(cred, egid.val) != viewer_gid || BPF_CORE_READ(cred, sgid.val) != viewer_gid)
		why |= BB_HIDDEN_CREDS;
	/* No mm (an exiting task past exit_mm()): the kernel checks none. */
	mm = BPF_CORE_READ(task, mm);
	if (mm && (mm_flags_word(mm) & BB_MMF_DUMPABLE_MASK) != BB_SUID_DUMP_USER)
		why |= BB_HIDDEN_NOT_DUMPABLE;
	return why;
}

/*
 * Adds task's reasons to its process's entry; returns every reason the
 * process has had.  Not atomic (an atomic OR needs BPF v3): two threads
 * adding different reasons at once may keep one, never none.
 */
static __always_inline __u32 mark_hidden(struct bb_proc_acct *acct, struct task_struct *task)
{
	__u32 why;

	/* buildbpf's fork waiting to exec the command inherited its
	 * undumpable mm; the command's exec (handle_exec) ends that. */
	if (acct->launching)
		return 0;
	why = unreadable_reasons(task);

	if (why & ~acct->hidden)
		acct->hidden |= why;
	return acct->hidden | why;
}

#endif /* BUILDBPF_HIDDEN_BPF_H */
