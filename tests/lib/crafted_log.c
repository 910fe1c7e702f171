// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "events.h"
#include "log/event_log.h"
#include "lib/big_build.h"
#include "lib/crafted_log.h"

#define START 1000000000ull
#define ROOT 100
#define FIRST_PID 1000
/* The --follow daemon of CRAFTED_DAEMON_WAITS. */
#define DAEMON 50
#define US 1000ull
/* The working directory of CRAFTED_LONG_CWD, in bytes. */
#define LONG_CWD_BYTES (200 << 10)

static const char *const names[CRAFTED_NR] = {
	[CRAFTED_CD_CHAIN] = "cd_chain",
	[CRAFTED_LONG_DIRS] = "long_dirs",
	[CRAFTED_LONG_CWD] = "long_cwd",
	[CRAFTED_BIG_BUILD] = "big_build",
	[CRAFTED_FORK_CHAINS] = "fork_chains",
	[CRAFTED_RENAMES] = "renames",
	[CRAFTED_EXEC_LOOKBACK] = "exec_lookback",
	[CRAFTED_WIDE_READERS] = "wide_readers",
	[CRAFTED_SEQUENTIAL_JOBS] = "sequential_jobs",
	[CRAFTED_PARALLEL_JOBS] = "parallel_jobs",
	[CRAFTED_PROGRAMS] = "programs",
	[CRAFTED_DAEMON_WAITS] = "daemon_waits",
	[CRAFTED_RUN_QUEUE] = "run_queue",
};

const char *crafted__name(enum crafted_case c)
{
	return c < CRAFTED_NR ? names[c] : "?";
}

static void header(struct bb_event_header *hdr, __u32 type, __u64 ts, __u32 tgid)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->ts_ns = ts;
	hdr->type = type;
	hdr->pid = hdr->tgid = tgid;
}

static int fork_rec(struct event_log_writer *w, __u64 ts, __u32 parent, __u32 child)
{
	struct bb_fork_event e = {};

	header(&e.hdr, BB_EV_FORK, ts, child);
	e.parent_pid = e.parent_tgid = parent;
	e.ns_tgid = child;
	memcpy(e.comm, "sh", 2);
	return event_log_writer__add(w, &e, sizeof(e));
}

/* argv: NULL-terminated. */
static int exec_rec(struct event_log_writer *w, __u64 ts, __u32 tgid, const char *file, const char *const *argv)
{
	size_t name_len = strlen(file), args_len = 0, i, len;
	struct bb_exec_event *e;
	char *p;
	int err;

	for (i = 0; argv[i]; i++)
		args_len += strlen(argv[i]) + 1;
	len = sizeof(*e) + name_len + args_len;
	e = calloc(1, len);
	if (!e)
		return -ENOMEM;
	header(&e->hdr, BB_EV_EXEC, ts, tgid);
	e->ppid = ROOT;
	e->old_tid = e->ns_tgid = tgid;
	e->filename_len = name_len;
	e->args_len = e->args_full_len = args_len;
	memcpy(e->comm, "x", 1);
	memcpy(e->data, file, name_len);
	for (p = e->data + name_len, i = 0; argv[i]; p += strlen(argv[i]) + 1, i++)
		memcpy(p, argv[i], strlen(argv[i]) + 1);
	err = event_log_writer__add(w, e, len);
	free(e);
	return err;
}

static int exit_rec(struct event_log_writer *w, __u64 ts, __u32 tgid)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tgid);
	e.flags = BB_EXIT_GROUP_DEAD;
	e.utime_ns = e.sum_exec_ns = 1000;
	return event_log_writer__add(w, &e, sizeof(e));
}

/* An open of (7, ino) at path "a/b/c" (from its file system's root). */
static int open_rec(struct event_log_writer *w, __u64 ts, __u32 tgid, __u64 ino, bool write, const char *path)
{
	struct bb_file_event e = {};
	const char *end = path + strlen(path), *start;

	header(&e.hdr, BB_EV_FILE_OPEN, ts, tgid);
	e.ino = ino;
	e.dev = 7;
	e.flags = (write ? BB_FILE_WRITE : 0) | BB_FILE_PATH_COMPLETE;
	/* names[] leaf first */
	while (end > path && e.nr_names < BB_FILE_NAMES) {
		start = end;
		while (start > path && start[-1] != '/')
			start--;
		snprintf(e.names[e.nr_names++], BB_FILE_NAME_LEN, "%.*s", (int)(end - start), start);
		end = start > path ? start - 1 : start;
	}
	return event_log_writer__add(w, &e, sizeof(e));
}

static int rename_rec(struct event_log_writer *w, __u64 ts, __u32 tgid, const char *old_path, const char *new_path)
{
	struct bb_file_rename_event e = {};

	header(&e.hdr, BB_EV_FILE_RENAME, ts, tgid);
	snprintf(e.old_path, sizeof(e.old_path), "%s", old_path);
	snprintf(e.new_path, sizeof(e.new_path), "%s", new_path);
	return event_log_writer__add(w, &e, sizeof(e));
}

/* child's fork by parent at ts; its parent last woken at wake_ns by waker, exiting when exit. */
static int wake_rec(struct event_log_writer *w, __u64 ts, __u32 parent, __u32 child, __u64 wake_ns, __u32 waker,
		    bool exit)
{
	struct bb_start_wake_event e = {};

	header(&e.hdr, BB_EV_START_WAKE, ts, child);
	e.parent_pid = e.parent_tgid = parent;
	e.wake_ns = wake_ns;
	e.waker_pid = e.waker_tgid = waker;
	e.flags = BB_WAKE_SEEN;
	if (exit) {
		e.flags |= BB_WAKE_EXIT_SEEN | BB_WAKE_WAKER_EXITING;
		e.exit_wake_ns = wake_ns;
		e.exit_waker_pid = e.exit_waker_tgid = waker;
	}
	return event_log_writer__add(w, &e, sizeof(e));
}

#define TRY(x)                          \
	do {                            \
		if ((err = (x)))        \
			return err;     \
	} while (0)

static int cd_chain(struct event_log_writer *w, size_t n, size_t dir_len, __u64 *t)
{
	const char *argv[] = { "sh", "-c", NULL, NULL };
	char *script = malloc(dir_len + 16);
	size_t i;
	int err = 0;

	if (!script)
		return -ENOMEM;
	memcpy(script, "cd ", 3);
	memset(script + 3, 'd', dir_len);
	strcpy(script + 3 + dir_len, " && true");
	argv[2] = script;
	for (i = 0; !err && i < n; i++)
		err = exec_rec(w, *t += US, ROOT, "/bin/sh", argv);
	free(script);
	return err;
}

static int long_cwd(struct event_log_writer *w, size_t n, __u64 *t)
{
	static const char *const argv[] = { "cc", "-c", "src/f.c", "-o", "f.o", NULL };
	__u32 pid;
	int err;

	for (pid = FIRST_PID; pid < FIRST_PID + n; pid++) {
		TRY(fork_rec(w, *t += US, ROOT, pid));
		TRY(exec_rec(w, *t += US, pid, "/usr/bin/cc", argv));
		TRY(exit_rec(w, *t += US, pid));
	}
	return 0;
}

/*
 * A chain of n processes under ROOT, each forking the next, from pid:
 * the last writes ino, or each reads it; then all exit, deepest first.
 */
static int chain(struct event_log_writer *w, size_t n, __u32 pid, bool write, __u64 *t)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		__u32 parent = i ? pid + i - 1 : ROOT;

		TRY(fork_rec(w, *t += US, parent, pid + i));
		TRY(wake_rec(w, *t, parent, pid + i, *t - US / 2, 0, false));
		if (!write)
			TRY(open_rec(w, *t += US, pid + i, 7, false, "out/gen.h"));
	}
	if (write)
		TRY(open_rec(w, *t += US, pid + n - 1, 7, true, "out/gen.h"));
	for (i = n; i-- > 0;)
		TRY(exit_rec(w, *t += US, pid + i));
	return 0;
}

static int renames(struct event_log_writer *w, size_t n, __u64 *t)
{
	char path[64];
	size_t i;
	int err;

	TRY(fork_rec(w, *t += US, ROOT, FIRST_PID));
	/* Every write ends like the renamed path but for its top directory. */
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "w%zu/b/c/d/e/f.o", i);
		TRY(open_rec(w, *t += US, FIRST_PID, 1000 + i, true, path));
	}
	for (i = 0; i < n; i++)
		TRY(open_rec(w, *t += US, FIRST_PID, 1000 + i, false, "w/b/c/d/e/f.o"));
	for (i = 0; i < n; i++)
		TRY(rename_rec(w, *t += US, FIRST_PID, "r/b/c/d/e/f.o", "r/b/c/d/e/g.o"));
	return exit_rec(w, *t += US, FIRST_PID);
}

static int exec_lookback(struct event_log_writer *w, size_t n, __u64 *t)
{
	static const char *const argv[] = { "tool", NULL };
	char path[64];
	size_t i;
	int err;

	TRY(fork_rec(w, *t += US, ROOT, FIRST_PID));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "w%zu/bin/tool", i);
		TRY(open_rec(w, *t += US, FIRST_PID, 1000 + i, true, path));
	}
	for (i = 0; i < n; i++)
		TRY(open_rec(w, *t += US, FIRST_PID, 1000 + i, false, "w/bin/tool"));
	for (i = 0; i < n; i++)
		TRY(exec_rec(w, *t += US, FIRST_PID, "/usr/bin/tool", argv));
	return exit_rec(w, *t += US, FIRST_PID);
}

static int wide_readers(struct event_log_writer *w, size_t n, __u64 *t)
{
	__u32 pid;
	int err;

	TRY(fork_rec(w, *t += US, ROOT, FIRST_PID));
	TRY(open_rec(w, *t += US, FIRST_PID, 7, true, "out/gen.h"));
	TRY(exit_rec(w, *t += US, FIRST_PID));
	for (pid = FIRST_PID + 1; pid <= FIRST_PID + n; pid++) {
		TRY(fork_rec(w, *t += US, ROOT, pid));
		TRY(open_rec(w, *t += US, pid, 7, false, "out/gen.h"));
		TRY(exit_rec(w, *t += US, pid));
	}
	return 0;
}

/*
 * Jobs of one parent, width alive at once: job i starts right after job
 * i - width ends, woken by its exit.  width 1 is a shell running its
 * commands one after another.
 */
static int jobs(struct event_log_writer *w, size_t n, size_t width, __u64 *t)
{
	static const char *const argv[] = { "sh", "-c", "cc -c f.c", NULL };
	__u32 parent = FIRST_PID, pid;
	__u64 *end = calloc(n ? n : 1, sizeof(*end)), start;
	size_t i;
	int err = 0;

	if (!end)
		return -ENOMEM;
	err = fork_rec(w, *t += US, ROOT, parent);
	err = err ?: exec_rec(w, *t += US, parent, "/bin/sh", argv);
	for (i = 0; !err && i < n; i++) {
		pid = parent + 1 + i;
		start = i < width ? *t + (i + 1) * US : end[i - width] + 10 * US;
		end[i] = start + 4 * width * US;
		err = fork_rec(w, start, parent, pid);
		err = err ?: i < width ? wake_rec(w, start, parent, pid, start - US, 0, false) :
					 wake_rec(w, start, parent, pid, end[i - width], pid - width, true);
		err = err ?: exit_rec(w, end[i], pid);
	}
	if (!err && n) {
		*t = end[n - 1] + US;
		err = exit_rec(w, *t, parent);
	}
	free(end);
	return err;
}

static int programs(struct event_log_writer *w, size_t n, __u64 *t)
{
	char path[64];
	const char *argv[] = { path + strlen("/usr/bin/"), NULL };
	__u32 pid;
	int err;

	for (pid = FIRST_PID; pid < FIRST_PID + n; pid++) {
		snprintf(path, sizeof(path), "/usr/bin/p%u", pid);
		TRY(fork_rec(w, *t += US, ROOT, pid));
		TRY(exec_rec(w, *t += US, pid, path, argv));
		TRY(exit_rec(w, *t += US, pid));
	}
	return 0;
}

/* DAEMON, running before the trace, found at ts. */
static int found_rec(struct event_log_writer *w, __u64 ts)
{
	static const char data[] = "/usr/sbin/distccd" "distccd";
	struct {
		struct bb_proc_found_event e;
		char data[sizeof(data)];
	} rec = {};

	header(&rec.e.hdr, BB_EV_PROC_FOUND, ts, DAEMON);
	rec.e.start_ns = ts - 1000 * US;
	rec.e.ppid = 1;
	rec.e.ns_tgid = DAEMON;
	rec.e.filename_len = strlen("/usr/sbin/distccd");
	rec.e.args_len = rec.e.args_full_len = sizeof(data) - rec.e.filename_len;
	rec.e.nr_threads = 1;
	memcpy(rec.e.comm, "distccd", 7);
	memcpy(rec.data, data, sizeof(data));
	return event_log_writer__add(w, &rec, sizeof(rec.e) + sizeof(data));
}

/* n processes of the command wait throughout, while the daemon runs n jobs one after another. */
static int daemon_waits(struct event_log_writer *w, size_t n, __u64 *t)
{
	__u64 from = *t;
	__u32 i;
	int err;

	TRY(found_rec(w, START));
	for (i = 0; i < n; i++)
		TRY(fork_rec(w, from + i + 1, ROOT, FIRST_PID + i));
	for (i = 0; i < n; i++) {
		TRY(fork_rec(w, *t += 10 * US, DAEMON, FIRST_PID + n + i));
		TRY(exit_rec(w, *t += US, FIRST_PID + n + i));
	}
	for (i = 0; i < n; i++)
		TRY(exit_rec(w, *t += 1, FIRST_PID + i));
	return 0;
}

/* n processes forked one after another, each waiting for a CPU from its fork until its one slice near the end. */
static int run_queue(struct event_log_writer *w, size_t n, __u64 *t)
{
	__u64 from = *t, end = *t + (n + 2) * 10 * US;
	__u32 i;
	int err;

	for (i = 0; i < n; i++) {
		struct bb_cpu_slice_event slice = {};
		__u64 fork_ns = from + (i + 1) * 10 * US, on = end - (n - i) * US;

		TRY(fork_rec(w, fork_ns, ROOT, FIRST_PID + i));
		header(&slice.hdr, BB_EV_CPU_SLICE, on + US / 2, FIRST_PID + i);
		slice.hdr.cpu = i % 2;
		slice.start_ns = on;
		slice.wait_ns = on - fork_ns;
		slice.end_state = BB_SLICE_SLEPT;
		TRY(event_log_writer__add(w, &slice, sizeof(slice)));
		TRY(exit_rec(w, end + i, FIRST_PID + i));
	}
	*t = end + n;
	return 0;
}

static int write_case(struct event_log_writer *w, enum crafted_case c, size_t n, __u64 *t)
{
	switch (c) {
	case CRAFTED_CD_CHAIN:
		return cd_chain(w, n, 1, t);
	case CRAFTED_LONG_DIRS:
		return cd_chain(w, n, 50, t);
	case CRAFTED_LONG_CWD:
		return long_cwd(w, n, t);
	case CRAFTED_FORK_CHAINS: {
		int err = chain(w, n, FIRST_PID, true, t);

		return err ?: chain(w, n, FIRST_PID + n, false, t);
	}
	case CRAFTED_RENAMES:
		return renames(w, n, t);
	case CRAFTED_EXEC_LOOKBACK:
		return exec_lookback(w, n, t);
	case CRAFTED_WIDE_READERS:
		return wide_readers(w, n, t);
	case CRAFTED_SEQUENTIAL_JOBS:
		return jobs(w, n, 1, t);
	case CRAFTED_PARALLEL_JOBS:
		return jobs(w, n, n / 4 ? n / 4 : 1, t);
	case CRAFTED_PROGRAMS:
		return programs(w, n, t);
	case CRAFTED_DAEMON_WAITS:
		return daemon_waits(w, n, t);
	case CRAFTED_RUN_QUEUE:
		return run_queue(w, n, t);
	default:
		return -EINVAL;
	}
}

/* The small crafted recordings: their own INFO, then the case. */
static int write_crafted(enum crafted_case c, size_t n, int fd)
{
	static char *argv[] = { "make", NULL };
	static const char *const make_argv[] = { "make", NULL };
	struct event_log_info info = {
		.buildbpf_version = "9.9.9",
		.kernel_release = "6.18.0-crafted",
		.user = "builder",
		.online_cpus = 2,
		.possible_cpus = 2,
		.page_size = 4096,
		.start_ns = START,
		.root_pid = ROOT,
		.args_max = 16384,
		.ringbuf_bytes = 1 << 24,
		.sched = SCHED_OFF,
		.sched_resolution_ns = 10000000,
		.deps = true,
		.online_cpu_list = "0-1",
		.cwd = "/b",
		.cmd_argv = argv,
		.cmd_argc = 1,
	};
	struct bbl_trailer trailer = { .flags = BBL_EXITED };
	static const pid_t follow[] = { DAEMON };
	struct event_log_writer *w = NULL;
	char *cwd = NULL;
	__u64 t = START + 10;
	int err;

	if (c == CRAFTED_RUN_QUEUE)
		info.sched = SCHED_SUMMARY;
	if (c == CRAFTED_DAEMON_WAITS) {
		info.follow = follow;
		info.nr_follow = 1;
	}
	if (c == CRAFTED_LONG_CWD) {
		size_t i;

		cwd = malloc(LONG_CWD_BYTES + 1);
		if (!cwd)
			return -ENOMEM;
		for (i = 0; i < LONG_CWD_BYTES; i++)
			cwd[i] = i % 8 ? 'a' : '/';
		cwd[LONG_CWD_BYTES] = '\0';
		info.cwd = cwd;
	}
	err = event_log_writer__open(&w, fd, &info);
	err = err ?: exec_rec(w, t, ROOT, "/usr/bin/make", make_argv);
	err = err ?: write_case(w, c, n, &t);
	err = err ?: exit_rec(w, t += US, ROOT);
	trailer.end_ns = trailer.exit_ns = t;
	err = err ?: event_log_writer__finish(w, &trailer, false);
	event_log_writer__free(w);
	free(cwd);
	return err;
}

int crafted__write(enum crafted_case c, size_t n, int fd)
{
	struct big_build b = { .procs = n, .cpus = 8, .sched = SCHED_SUMMARY, .deps = true, .seed = 1 };

	return c == CRAFTED_BIG_BUILD ? big_build__write(&b, fd, NULL) : write_crafted(c, n, fd);
}
