// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "synth.h"

static void header(struct bb_event_header *hdr, __u32 type, __u64 ts, __u32 pid, __u32 tgid)
{
	hdr->ts_ns = ts;
	hdr->type = type;
	hdr->cpu = 0;
	hdr->pid = pid;
	hdr->tgid = tgid;
}

static void fork_record(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 child_tid,
			bool thread, __u32 ns_tgid)
{
	struct bb_fork_event e = {};

	header(&e.hdr, BB_EV_FORK, ts, child_tid, child_tgid);
	e.parent_pid = parent_tgid;
	e.parent_tgid = parent_tgid;
	e.flags = thread ? BB_FORK_THREAD : 0;
	e.ns_tgid = ns_tgid;
	strncpy(e.comm, "forked", sizeof(e.comm));
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

void synth_fork(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 child_tid, bool thread)
{
	fork_record(m, ts, parent_tgid, child_tgid, child_tid, thread, child_tgid);
}

void synth_fork_ns(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 ns_tgid)
{
	fork_record(m, ts, parent_tgid, child_tgid, child_tgid, false, ns_tgid);
}

static void exec_record(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u32 ns_tgid, const char *filename,
			const char *args, size_t args_len, __u32 flags)
{
	size_t name_len = strlen(filename), len = sizeof(struct bb_exec_event) + name_len + args_len;
	struct bb_exec_event *e = calloc(1, len);
	const char *base = strrchr(filename, '/');

	cr_assert_not_null(e);
	header(&e->hdr, BB_EV_EXEC, ts, tgid, tgid);
	e->ppid = ppid;
	e->old_tid = tgid;
	e->flags = flags;
	e->ns_tgid = ns_tgid;
	e->filename_len = name_len;
	e->args_len = args_len;
	e->args_full_len = args_len;
	strncpy(e->comm, base ? base + 1 : filename, sizeof(e->comm) - 1);
	memcpy(e->data, filename, name_len);
	memcpy(e->data + name_len, args, args_len);
	cr_assert_eq(model__add_event(m, e, len), 0);
	free(e);
}

void synth_exec_raw(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *args,
		    size_t args_len, __u32 flags)
{
	exec_record(m, ts, tgid, ppid, tgid, filename, args, args_len, flags);
}

/* argv (NULL-terminated) as the kernel's NUL-separated area; its length. */
static size_t pack_argv(const char *const argv[], char *args, size_t size)
{
	size_t len = 0, n;

	for (; argv && *argv; argv++) {
		n = strlen(*argv) + 1;
		cr_assert_lt(len + n, size);
		memcpy(args + len, *argv, n);
		len += n;
	}
	return len;
}

void synth_captured_sh(struct model *m, __u64 start, __u64 end, __u32 parent, __u32 pid, const char *cmd)
{
	char args[4096];

	synth_fork(m, start, parent, pid, pid, false);
	exec_record(m, start + 1000, pid, parent, pid, "/bin/sh", args,
		    pack_argv((const char *[]){ "/bin/sh", "-c", cmd, NULL }, args, sizeof(args)),
		    BB_EXEC_OUTPUT_CAPTURED);
	synth_exit(m, end, pid, pid, true, 0);
}

void synth_exec_ns(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u32 ns_tgid, const char *filename,
		   const char *const argv[])
{
	char args[4096];

	exec_record(m, ts, tgid, ppid, ns_tgid, filename, args, pack_argv(argv, args, sizeof(args)), 0);
}

void synth_exec(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *const argv[])
{
	synth_exec_ns(m, ts, tgid, ppid, tgid, filename, argv);
}

void synth_exit(struct model *m, __u64 ts, __u32 tgid, __u32 tid, bool group_dead, __u32 status)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tid, tgid);
	e.flags = group_dead ? BB_EXIT_GROUP_DEAD : 0;
	e.exit_status = status;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

void synth_exit_acct(struct model *m, __u64 ts, __u32 tgid, __u32 status, __u64 utime, __u64 stime, __u64 sum_exec,
		     __u64 maxrss_kb)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tgid, tgid);
	e.flags = BB_EXIT_GROUP_DEAD;
	e.exit_status = status;
	e.utime_ns = utime;
	e.stime_ns = stime;
	e.sum_exec_ns = sum_exec;
	e.maxrss_kb = maxrss_kb;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

void synth_exit_sched(struct model *m, __u64 ts, __u32 tgid, __u64 on_cpu_ns, __u64 runq_ns, __u64 blocked_ns)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tgid, tgid);
	e.flags = BB_EXIT_GROUP_DEAD;
	e.sum_exec_ns = e.utime_ns = on_cpu_ns;
	e.sched.on_cpu_ns = on_cpu_ns;
	e.sched.runq_ns = runq_ns;
	e.sched.blocked_ns = blocked_ns;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

void synth_exit_hidden(struct model *m, __u64 ts, __u32 tgid, __u32 hidden)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tgid, tgid);
	e.flags = BB_EXIT_GROUP_DEAD;
	e.hidden = hidden;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

const struct proc_instance *synth_proc_of(const struct model *m, __u32 pid)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].pid == pid)
			return &m->procs[i];
	return NULL;
}

void synth_mem_image(struct model *m, __u64 ts, __u32 tgid, __u32 image, __u64 peak_rss_kb, __u32 flags)
{
	struct bb_mem_image_event e = {};

	header(&e.hdr, BB_EV_MEM_IMAGE, ts, tgid, tgid);
	e.image = image;
	e.peak_rss_kb = peak_rss_kb;
	e.flags = flags;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

void synth_proc_io(struct model *m, __u64 ts, __u32 tgid, const struct bb_io_acct *io, __u32 flags)
{
	struct bb_proc_io_event e = {};

	header(&e.hdr, BB_EV_PROC_IO, ts, tgid, tgid);
	e.io = *io;
	e.flags = flags;
	e.nr_threads = 1;
	cr_assert_eq(model__add_event(m, &e, sizeof(e)), 0);
}

struct bb_cpu_slice_event synth_cpu_slice_event(__u32 cpu, __u32 tid, __u32 tgid, __u64 start, __u64 end,
						__u64 wait_ns)
{
	struct bb_cpu_slice_event e = {};

	header(&e.hdr, BB_EV_CPU_SLICE, end, tid, tgid);
	e.hdr.cpu = cpu;
	e.start_ns = start;
	e.wait_ns = wait_ns;
	return e;
}

void synth_cpu_slice(struct sched_model *s, __u32 cpu, __u32 tid, __u32 tgid, __u64 start, __u64 end,
		     __u64 wait_ns)
{
	struct bb_cpu_slice_event e = synth_cpu_slice_event(cpu, tid, tgid, start, end, wait_ns);

	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e)), 0));
}

void synth_cpu_idle(struct sched_model *s, __u32 cpu, __u64 start, __u64 end)
{
	struct bb_cpu_idle_event e = {};

	header(&e.hdr, BB_EV_CPU_IDLE, end, 0, 0);
	e.hdr.cpu = cpu;
	e.start_ns = start;
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e)), 0));
}

struct bb_file_event synth_file_event(__u64 ts, __u32 tgid, __u32 dev, __u64 ino, bool write, const char *path)
{
	struct bb_file_event e;
	char copy[BB_FILE_NAMES * BB_FILE_NAME_LEN], *names[BB_FILE_NAMES + 1], *save = NULL, *tok;
	size_t n = 0, i;

	memset(&e, 0, sizeof(e));
	header(&e.hdr, BB_EV_FILE_OPEN, ts, tgid, tgid);
	e.ino = ino;
	e.dev = dev;
	e.flags = (write ? BB_FILE_WRITE : 0) | BB_FILE_PATH_COMPLETE;
	snprintf(copy, sizeof(copy), "%s", path);
	for (tok = strtok_r(copy, "/", &save); tok && n < BB_FILE_NAMES; tok = strtok_r(NULL, "/", &save))
		names[n++] = tok;
	if (tok)
		e.flags &= ~BB_FILE_PATH_COMPLETE;
	for (i = 0; i < n; i++)
		snprintf(e.names[i], BB_FILE_NAME_LEN, "%s", names[n - 1 - i]);
	e.nr_names = n;
	return e;
}

void synth_file_open(struct file_log *fl, __u64 ts, __u32 tgid, __u32 dev, __u64 ino, bool write, const char *path)
{
	struct bb_file_event e = synth_file_event(ts, tgid, dev, ino, write, path);

	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), 0);
}

void synth_file_rename(struct file_log *fl, __u64 ts, __u32 tgid, const char *old_path, const char *new_path)
{
	struct bb_file_rename_event e;

	memset(&e, 0, sizeof(e));
	header(&e.hdr, BB_EV_FILE_RENAME, ts, tgid, tgid);
	snprintf(e.old_path, sizeof(e.old_path), "%s", old_path);
	snprintf(e.new_path, sizeof(e.new_path), "%s", new_path);
	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), 0);
}

void synth_file_counts(struct file_log *fl, __u64 ts, __u32 tgid, __u32 opened, __u32 written)
{
	struct bb_file_counts_event e;

	memset(&e, 0, sizeof(e));
	header(&e.hdr, BB_EV_FILE_COUNTS, ts, tgid, tgid);
	e.counts.opened = opened;
	e.counts.written = written;
	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), 0);
}

void synth_found(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u64 start_ns, const char *filename,
		 const char *const argv[])
{
	size_t name_len = strlen(filename), args_len, len;
	struct bb_proc_found_event *e;
	char args[4096];

	args_len = pack_argv(argv, args, sizeof(args));
	len = sizeof(*e) + name_len + args_len;
	e = calloc(1, len);
	cr_assert_not_null(e);
	header(&e->hdr, BB_EV_PROC_FOUND, ts, tgid, tgid);
	e->start_ns = start_ns;
	e->ppid = ppid;
	e->ns_tgid = tgid;
	e->filename_len = name_len;
	e->args_len = args_len;
	e->args_full_len = args_len;
	e->nr_threads = 1;
	strncpy(e->comm, "found", sizeof(e->comm) - 1);
	memcpy(e->data, filename, name_len);
	memcpy(e->data + name_len, args, args_len);
	cr_assert_eq(model__add_event(m, e, len), 0);
	free(e);
}

void synth_start_wake(struct start_wakes *w, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns, __u32 waker)
{
	struct bb_start_wake_event e;

	memset(&e, 0, sizeof(e));
	header(&e.hdr, BB_EV_START_WAKE, fork_ns, child, child);
	e.parent_pid = e.parent_tgid = parent;
	if (waker) {
		e.flags = BB_WAKE_SEEN | BB_WAKE_WAKER_EXITING | BB_WAKE_EXIT_SEEN;
		e.wake_ns = e.exit_wake_ns = wake_ns;
		e.waker_pid = e.waker_tgid = e.exit_waker_pid = e.exit_waker_tgid = waker;
	}
	cr_assert_eq(start_wakes__add(w, &e, sizeof(e)), 0);
}

void synth_start_wake_running(struct start_wakes *w, __u32 parent, __u32 child, __u64 fork_ns, __u64 wake_ns,
			      __u32 waker)
{
	struct bb_start_wake_event e;

	memset(&e, 0, sizeof(e));
	header(&e.hdr, BB_EV_START_WAKE, fork_ns, child, child);
	e.parent_pid = e.parent_tgid = parent;
	e.flags = BB_WAKE_SEEN;
	e.wake_ns = wake_ns;
	e.waker_pid = e.waker_tgid = waker;
	cr_assert_eq(start_wakes__add(w, &e, sizeof(e)), 0);
}
