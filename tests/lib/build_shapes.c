// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log/event_log.h"
#include "events.h"
#include "lib/build_shapes.h"

#define US 1000ull
#define MS (1000 * US)
#define START (1000 * MS)
#define ROOT 1000
#define DEV 2049
/* Compiles a long job stands beside, or links read, per lane: -j8 */
#define LANES 8
#define OBJS_PER_LINK 64
#define JOBS_PER_MAKE 8

static const char *const names[SHAPE_NR] = {
	[SHAPE_LONG_BESIDE_J1] = "long_beside_j1", [SHAPE_LONG_BESIDE_J2] = "long_beside_j2",
	[SHAPE_LONG_BESIDE_J8] = "long_beside_j8", [SHAPE_ALL_AT_ONCE] = "all_at_once",
	[SHAPE_JOBSERVER] = "jobserver",	   [SHAPE_NINJA_LINKS] = "ninja_links",
	[SHAPE_DEEP_MAKES] = "deep_makes",	   [SHAPE_CARGO_PIPELINE] = "cargo_pipeline",
	[SHAPE_KERNEL] = "kernel",
};

const char *build_shape__name(enum build_shape s)
{
	return s < SHAPE_NR ? names[s] : "?";
}

enum build_shape build_shape__lookup(const char *name)
{
	int s;

	for (s = 0; s < SHAPE_NR; s++)
		if (!strcmp(name, names[s]))
			break;
	return s;
}

/* A record waiting for its time: the shapes are written job by job, the log in time order. */
struct timed_rec {
	__u64 ts, seq;
	void *rec;
	size_t len;
};

struct shape_gen {
	struct timed_rec *recs;
	size_t nr, cap;
	__u32 next_pid;
	__u64 ino;
	struct build_shape_opts o;
	/* Per pid from ROOT: true when the process mostly waits (a shell, a
	 * make, a compiler driver, sleep), false when it computes. */
	bool *waits;
	size_t nr_waits;
	int err;
};

static void add(struct shape_gen *g, const void *rec, size_t len)
{
	void *copy = malloc(len);

	if (g->nr == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		struct timed_rec *r = realloc(g->recs, cap * sizeof(*r));

		if (r) {
			g->recs = r;
			g->cap = cap;
		}
	}
	if (!copy || g->nr == g->cap) {
		free(copy);
		g->err = -ENOMEM;
		return;
	}
	memcpy(copy, rec, len);
	g->recs[g->nr] = (struct timed_rec){ ((const struct bb_event_header *)rec)->ts_ns, g->nr, copy, len };
	g->nr++;
}

static void header(struct bb_event_header *h, __u32 type, __u64 ts, __u32 pid)
{
	memset(h, 0, sizeof(*h));
	h->ts_ns = ts;
	h->type = type;
	h->pid = h->tgid = pid;
}

static void cut_comm(char comm[BB_COMM_LEN], const char *name)
{
	memset(comm, 0, BB_COMM_LEN);
	strncpy(comm, name, BB_COMM_LEN - 1);
}

/* How long the machine's memory is sampled apart (--mem-period's default). */
#define MEM_PERIOD (100 * MS)

/* Compile k's own extra time under a seed (splitmix64 of seed and k): 0 with none. */
static __u64 own_time(const struct shape_gen *g, size_t k)
{
	__u64 x = g->o.seed + (k + 1) * 0x9e3779b97f4a7c15ull;

	if (!g->o.seed)
		return 0;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (x ^ (x >> 31)) % 200 * US;
}

/* pid's image at ts: the copy it was forked with (at its exec) or its last (at its exit), with its peak. */
static void mem_image(struct shape_gen *g, __u64 ts, __u32 pid, bool exited)
{
	struct bb_mem_image_event mi = {};

	if (!g->o.memory)
		return;
	header(&mi.hdr, BB_EV_MEM_IMAGE, ts, pid);
	mi.image = exited;
	mi.flags = exited ? BB_MEM_IMAGE_EXITED : 0;
	/* A forked copy is its parent's few pages; a program's own, a spread. */
	mi.peak_rss_kb = exited ? 2048 + pid * 7919ull % 60000 : 1024;
	add(g, &mi, sizeof(mi));
}

/* The machine's memory every MEM_PERIOD from START to end. */
static void mem_samples(struct shape_gen *g, __u64 end)
{
	__u64 ts;

	for (ts = START + MEM_PERIOD; g->o.memory && ts < end; ts += MEM_PERIOD) {
		struct bb_mem_sample_event s = {};

		header(&s.hdr, BB_EV_MEM_SAMPLE, ts, 0);
		s.nr_procs = 3 * LANES + 2;
		s.total_kb = s.nr_procs * 20000ull;
		s.ram_kb = 16ull << 20;
		add(g, &s, sizeof(s));
	}
}

/* Whether the program at path mostly waits for its children (or sleeps): its CPU is little of its life. */
static bool program_waits(const char *path)
{
	static const char *const waiters[] = { "/sh", "/make", "/gcc", "/sleep", "/cargo", "/ninja" };
	size_t i, len = strlen(path);

	for (i = 0; i < sizeof(waiters) / sizeof(waiters[0]); i++)
		if (len >= strlen(waiters[i]) && !strcmp(path + len - strlen(waiters[i]), waiters[i]))
			return true;
	return false;
}

static void note_waits(struct shape_gen *g, __u32 pid, const char *path)
{
	size_t i = pid - ROOT;

	if (i >= g->nr_waits) {
		size_t n = 2 * i + 1024;
		bool *w = realloc(g->waits, n * sizeof(*w));

		if (!w) {
			g->err = -ENOMEM;
			return;
		}
		memset(w + g->nr_waits, 0, (n - g->nr_waits) * sizeof(*w));
		g->waits = w;
		g->nr_waits = n;
	}
	g->waits[i] = program_waits(path);
}

/* pid's exec at ts of its argv, words split at spaces; the first word's base name is its comm. */
static void exec_argv(struct shape_gen *g, __u64 ts, __u32 pid, __u32 parent, const char *path, const char *argv)
{
	struct {
		struct bb_exec_event e;
		char data[256];
	} x = {};
	size_t flen = strlen(path), alen = strlen(argv) + 1, i;
	const char *base = strrchr(path, '/');

	if (flen + alen > sizeof(x.data)) {
		g->err = -EINVAL;
		return;
	}
	note_waits(g, pid, path);
	header(&x.e.hdr, BB_EV_EXEC, ts, pid);
	x.e.ppid = parent;
	x.e.old_tid = x.e.ns_tgid = pid;
	x.e.filename_len = flen;
	x.e.args_len = x.e.args_full_len = alen;
	cut_comm(x.e.comm, base ? base + 1 : path);
	memcpy(x.e.data, path, flen);
	memcpy(x.e.data + flen, argv, alen);
	for (i = flen; i < flen + alen; i++)
		x.e.data[i] = x.e.data[i] == ' ' ? '\0' : x.e.data[i];
	add(g, &x, sizeof(x.e) + flen + alen);
}

/*
 * A process parent (comm parent_comm) forked at ts, woken for it by
 * waker's exit (0: by nothing traced), that exec'd path with argv (printf
 * format, words split at spaces).  Its pid.
 */
static __u32 spawn(struct shape_gen *g, __u64 ts, __u32 parent, const char *parent_comm, __u32 waker,
		   const char *path, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static __u32 spawn(struct shape_gen *g, __u64 ts, __u32 parent, const char *parent_comm, __u32 waker,
		   const char *path, const char *fmt, ...)
{
	struct bb_fork_event f;
	struct bb_start_wake_event w = {};
	__u32 pid = g->next_pid++;
	char argv[200];
	va_list ap;

	header(&f.hdr, BB_EV_FORK, ts, pid);
	f.parent_pid = f.parent_tgid = parent;
	f.flags = 0;
	f.ns_tgid = pid;
	cut_comm(f.comm, parent_comm);
	add(g, &f, sizeof(f));
	header(&w.hdr, BB_EV_START_WAKE, ts, pid);
	w.parent_pid = w.parent_tgid = parent;
	w.wake_ns = w.exit_wake_ns = ts - 10 * US;
	w.waker_pid = w.waker_tgid = w.exit_waker_pid = w.exit_waker_tgid = waker;
	w.flags = BB_WAKE_SEEN | (waker ? BB_WAKE_EXIT_SEEN | BB_WAKE_WAKER_EXITING : 0);
	add(g, &w, sizeof(w));
	va_start(ap, fmt);
	vsnprintf(argv, sizeof(argv), fmt, ap);
	va_end(ap);
	mem_image(g, ts + 1 * US, pid, false);
	exec_argv(g, ts + 1 * US, pid, parent, path, argv);
	return pid;
}

/*
 * pid's exit at ts, having run on a CPU since it started at start: 9/10
 * of the time when it computes, 1/50 when it waits (as a real build's
 * CPU adds up: no more CPUs busy than its computing processes).
 */
static void finish(struct shape_gen *g, __u32 pid, __u64 start, __u64 ts)
{
	struct bb_exit_event x = {};
	bool waits = pid - ROOT < g->nr_waits && g->waits[pid - ROOT];

	mem_image(g, ts, pid, true);
	header(&x.hdr, BB_EV_EXIT, ts, pid);
	x.sum_exec_ns = waits ? (ts - start) / 50 : (ts - start) / 10 * 9;
	x.utime_ns = x.sum_exec_ns / 10 * 9;
	x.stime_ns = x.sum_exec_ns - x.utime_ns;
	x.flags = BB_EXIT_GROUP_DEAD;
	x.nr_threads = 1;
	add(g, &x, sizeof(x));
}

/* An open by pid at ts of file ino at path ("a/b/c", from its file system's root). */
static void open_file(struct shape_gen *g, __u32 pid, __u64 ts, __u64 ino, bool write, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void open_file(struct shape_gen *g, __u32 pid, __u64 ts, __u64 ino, bool write, const char *fmt, ...)
{
	struct bb_file_event fe = {};
	char path[128], *slash;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	header(&fe.hdr, BB_EV_FILE_OPEN, ts, pid);
	fe.ino = ino;
	fe.dev = DEV;
	fe.flags = (write ? BB_FILE_WRITE : 0) | BB_FILE_PATH_COMPLETE;
	while (fe.nr_names < BB_FILE_NAMES) { /* leaf first */
		const char *name;

		slash = strrchr(path, '/');
		name = slash ? slash + 1 : path;
		memcpy(fe.names[fe.nr_names++], name, strnlen(name, BB_FILE_NAME_LEN - 1));
		if (!slash)
			break;
		*slash = '\0';
	}
	add(g, &fe, sizeof(fe));
}

/* Compile k under runner (comm runner_comm) from start, woken by waker, writing object ino: sh -c cc.  Its end. */
static __u64 compile(struct shape_gen *g, __u32 runner, const char *runner_comm, __u32 waker, size_t k, __u64 start,
		     __u32 *pid)
{
	__u64 end = start + 200 * US + (k * 37 % 100) * US;
	__u32 sh = spawn(g, start, runner, runner_comm, waker, "/bin/sh", "sh -c cc -c f%zu.c -o f%zu.o", k, k);

	open_file(g, sh, end - 50 * US, 100 + k, true, "b/f%zu.o", k);
	finish(g, sh, start, end);
	*pid = sh;
	return end;
}

/* A link by runner at start of the objects first .. first + n, long: its end. */
static __u64 link_objs(struct shape_gen *g, __u32 runner, const char *runner_comm, __u32 waker, size_t first,
		       size_t n, __u64 start, __u64 lasts, __u64 out_ino)
{
	__u32 sh = spawn(g, start, runner, runner_comm, waker, "/bin/sh", "sh -c ld -o out%llu f%zu.o ...",
			 (unsigned long long)out_ino, first);
	size_t i;

	for (i = 0; i < n; i++)
		open_file(g, sh, start + 10 * US + i, 100 + first + i, false, "b/f%zu.o", first + i);
	open_file(g, sh, start + lasts - 50 * US, out_ino, true, "b/out%llu", (unsigned long long)out_ino);
	finish(g, sh, start, start + lasts);
	return start + lasts;
}

/* make -jK: a long job throughout, n compiles in the K - 1 slots left (one at -j1), then a link. */
static __u64 long_beside(struct shape_gen *g, size_t n, size_t k, __u64 t)
{
	size_t lanes = k > 1 ? k - 1 : 1, i;
	__u64 free[LANES] = {}, end = t;
	__u32 last[LANES] = {}, pid;
	__u32 sleeper = spawn(g, t + 10 * US, ROOT, "make", 0, "/bin/sleep", "sleep 6");

	for (i = 0; i < lanes; i++)
		free[i] = t + 20 * US + i * US;
	for (i = 0; i < n; i++) {
		size_t lane = i % lanes;

		free[lane] = compile(g, ROOT, "make", last[lane], i, free[lane] + 10 * US, &pid);
		last[lane] = pid;
		end = free[lane] > end ? free[lane] : end;
	}
	finish(g, sleeper, t + 10 * US, end + 1 * MS);
	return link_objs(g, ROOT, "make", sleeper, 0, n, end + 1 * MS + 10 * US, 5 * MS, 1);
}

/* make -j: n jobs forked one after another, all running at once, ending in another order. */
static __u64 all_at_once(struct shape_gen *g, size_t n, __u64 t)
{
	__u64 end = t, ends_from = t + 2 * n * US + 1 * MS;
	size_t i;

	for (i = 0; i < n; i++) {
		__u64 start = t + 2 * i * US + 10 * US, stop = ends_from + (i * 7919 % n) * 2 * US;
		__u32 sh = spawn(g, start, ROOT, "make", 0, "/bin/sh", "sh -c cc -c f%zu.c -o f%zu.o", i, i);

		open_file(g, sh, stop - 1 * US, 100 + i, true, "b/f%zu.o", i);
		finish(g, sh, start, stop);
		end = stop > end ? stop : end;
	}
	return link_objs(g, ROOT, "make", 0, 0, n, end + 100 * US, 5 * MS, 1);
}

/* make -j8 running n / 8 sub-makes of one pool, eight at once, each its compiles one after another. */
static __u64 jobserver(struct shape_gen *g, size_t n, __u64 t)
{
	size_t makes = n / JOBS_PER_MAKE ? n / JOBS_PER_MAKE : 1, i, k;
	__u64 free[LANES], end = t;
	__u32 last[LANES] = {}, pid;

	for (i = 0; i < LANES; i++)
		free[i] = t + 20 * US + i * US;
	for (i = 0; i < makes; i++) {
		size_t lane = i % LANES;
		__u64 start = free[lane] + 10 * US, at = start + 300 * US;
		__u32 waker = 0;
		__u32 mk = spawn(g, start, ROOT, "make", last[lane], "/usr/bin/make", "make -C d%zu", i);

		for (k = 0; k < JOBS_PER_MAKE; k++) {
			at = compile(g, mk, "make", waker, i * JOBS_PER_MAKE + k, at + 10 * US, &pid);
			waker = pid;
		}
		finish(g, mk, start, at + 100 * US);
		free[lane] = at + 100 * US;
		last[lane] = mk;
		end = free[lane] > end ? free[lane] : end;
	}
	return end;
}

/* ninja -j8: n compiles eight at once; then, eight at once, a long link per 64 objects; then one of them all. */
static __u64 ninja_links(struct shape_gen *g, size_t n, __u64 t)
{
	size_t links = (n + OBJS_PER_LINK - 1) / OBJS_PER_LINK, i;
	__u64 free[LANES], end = t;
	__u32 last[LANES] = {}, pid;
	__u32 top;

	for (i = 0; i < LANES; i++)
		free[i] = t + 20 * US + i * US;
	for (i = 0; i < n; i++) {
		size_t lane = i % LANES;

		free[lane] = compile(g, ROOT, "ninja", last[lane], i, free[lane] + 10 * US, &pid);
		last[lane] = pid;
		end = free[lane] > end ? free[lane] : end;
	}
	for (i = 0; i < LANES; i++)
		free[i] = end + 10 * US + i * US;
	for (i = 0; i < links; i++) {
		size_t lane = i % LANES, first = i * OBJS_PER_LINK;
		__u64 objs = n - first < OBJS_PER_LINK ? n - first : OBJS_PER_LINK;

		free[lane] = link_objs(g, ROOT, "ninja", last[lane], first, objs, free[lane] + 10 * US,
				       50 * MS + (i % 7) * MS, 1000000 + i);
		last[lane] = g->next_pid - 1;
		end = free[lane] > end ? free[lane] : end;
	}
	top = spawn(g, end + 10 * US, ROOT, "ninja", last[0], "/bin/sh", "sh -c ld -o chrome lib*.a");
	for (i = 0; i < links; i++)
		open_file(g, top, end + 20 * US + i, 1000000 + i, false, "b/out%zu", 1000000 + i);
	finish(g, top, end + 10 * US, end + 200 * MS);
	return end + 200 * MS;
}

/* A make running a compile, then a make that does the same: n / 2 makes deep, each ending after the next. */
static __u64 deep_makes(struct shape_gen *g, size_t n, __u64 t)
{
	size_t depth = n / 2 ? n / 2 : 1, d;
	__u64 *start = malloc(depth * sizeof(*start)), at = t, end;
	__u32 mk = ROOT, first = g->next_pid, pid;

	if (!start) {
		g->err = -ENOMEM;
		return t;
	}
	for (d = 0; d < depth; d++) {
		at = compile(g, mk, "make", 0, d, at + 10 * US, &pid);
		start[d] = at + 20 * US;
		mk = spawn(g, start[d], mk, "make", pid, "/usr/bin/make", "make -C d%zu", d);
		at = start[d] + 100 * US;
	}
	end = at + 100 * US;
	/* Each make ends after the one it ran: the pids alternate compile, make. */
	for (d = depth; d-- > 0; end += 50 * US)
		finish(g, first + 2 * (__u32)d + 1, start[d], end);
	free(start);
	return end;
}

/* cargo: crate i's rustc starts when crate i - 1 wrote its metadata (and reads it), and ends later. */
static __u64 cargo_pipeline(struct shape_gen *g, size_t n, __u64 t)
{
	__u64 meta = t + 10 * US, end = t;
	size_t i;

	for (i = 0; i < n; i++) {
		__u64 start = meta + 20 * US, stop = start + 1 * MS + (i * 37 % 100) * US;
		__u32 rustc = spawn(g, start, ROOT, "cargo", 0, "/usr/bin/rustc",
				    "rustc --crate-name c%zu --edition=2021 src/lib.rs --emit=dep-info,metadata,link", i);

		if (i)
			open_file(g, rustc, start + 50 * US, 2 * i - 1, false, "t/libc%zu.rmeta", i - 1);
		meta = start + 300 * US;
		open_file(g, rustc, meta, 2 * i + 1, true, "t/libc%zu.rmeta", i);
		open_file(g, rustc, stop - 10 * US, 2 * i + 2, true, "t/libc%zu.rlib", i);
		finish(g, rustc, start, stop);
		end = stop > end ? stop : end;
	}
	return end;
}

/*
 * Kbuild's compile k in directory dir under its make, from start: sh -c
 * gcc, gcc running cc1 (the assembly to a temporary file) then as (the
 * object).  Its end; *pid the shell's.
 */
static __u64 kbuild_compile(struct shape_gen *g, __u32 mk, __u32 waker, size_t dir, size_t k, __u64 start,
			    __u32 *pid)
{
	__u64 end = start + 400 * US + (k * 37 % 100) * US + own_time(g, k), mid = start + 250 * US;
	__u32 sh = spawn(g, start, mk, "make", waker, "/bin/sh", "sh -c gcc -O2 -c -o d%zu/f%zu.o d%zu/f%zu.c", dir,
			 k, dir, k);
	__u32 gcc = spawn(g, start + 20 * US, sh, "sh", 0, "/usr/bin/gcc", "gcc -O2 -c -o d%zu/f%zu.o d%zu/f%zu.c",
			  dir, k, dir, k);
	__u32 cc1 = spawn(g, start + 40 * US, gcc, "gcc", 0, "/usr/lib/gcc/cc1", "cc1 -quiet d%zu/f%zu.c -o /tmp/cc%zu.s",
			  dir, k, k);
	__u32 as;

	open_file(g, cc1, mid - 10 * US, 3 * k + 1, true, "tmp/cc%zu.s", k);
	finish(g, cc1, start + 40 * US, mid);
	as = spawn(g, mid + 10 * US, gcc, "gcc", cc1, "/usr/bin/as", "as -o d%zu/f%zu.o /tmp/cc%zu.s", dir, k, k);
	open_file(g, as, mid + 20 * US, 3 * k + 1, false, "tmp/cc%zu.s", k);
	open_file(g, as, end - 40 * US, 3 * k + 2, true, "b/d%zu/f%zu.o", dir, k);
	finish(g, as, mid + 10 * US, end - 30 * US);
	finish(g, gcc, start + 20 * US, end - 20 * US);
	finish(g, sh, start, end);
	*pid = sh;
	return end;
}

/* Directory dir's make (kbuild's Makefile.build) under runner from start, its 16 compiles from at, then ar. */
static __u64 kbuild_dir(struct shape_gen *g, __u32 runner, const char *runner_comm, __u32 waker, size_t n,
			size_t dir, __u64 start, __u64 at, __u32 *sh)
{
	__u32 mk, ar, pid;
	size_t k;

	*sh = spawn(g, start, runner, runner_comm, waker, "/bin/sh", "sh -c make -f ./scripts/Makefile.build obj=d%zu",
		    dir);
	mk = spawn(g, start + 20 * US, *sh, "sh", 0, "/usr/bin/make", "make -f ./scripts/Makefile.build obj=d%zu", dir);
	waker = 0;
	at = at > start + 200 * US ? at : start + 200 * US;
	/* Every eighth directory has the next below it, built first. */
	if (dir % 8 == 7 && 16 * (dir + 1) < n) {
		at = kbuild_dir(g, mk, "make", 0, n, dir + 1, at, at + 10 * US, &waker);
		at += 10 * US;
	}
	for (k = 16 * dir; k < 16 * dir + 16 && k < n; k++) {
		at = kbuild_compile(g, mk, waker, dir, k, at + 10 * US, &pid);
		waker = pid;
	}
	ar = spawn(g, at + 10 * US, mk, "make", waker, "/usr/bin/ar", "ar cDPrST d%zu/built-in.a", dir);
	for (k = 16 * dir; k < 16 * dir + 16 && k < n; k++)
		open_file(g, ar, at + 20 * US + k % 16, 3 * k + 2, false, "b/d%zu/f%zu.o", dir, k);
	open_file(g, ar, at + 60 * US, 3 * n + 3 + dir, true, "b/d%zu/built-in.a", dir);
	finish(g, ar, at + 10 * US, at + 80 * US);
	finish(g, mk, start + 20 * US, at + 100 * US);
	finish(g, *sh, start, at + 110 * US);
	return at + 110 * US;
}

/*
 * A kernel: make -j8 running sh -c make -f scripts/Makefile.build per
 * directory of 16 compiles (eight directories at once, one pool of
 * slots), each compile five processes, then ar of the directory's
 * objects; every eighth directory runs the next below it; then a link of
 * every archive.
 */
static __u64 kernel(struct shape_gen *g, size_t n, __u64 t)
{
	size_t dirs = (n + 15) / 16, i;
	__u64 free[LANES], end = t;
	__u32 last[LANES] = {}, link;

	for (i = 0; i < LANES; i++)
		free[i] = t + 20 * US + i * US;
	for (i = 0; i < dirs; i += i % 8 == 7 && i + 1 < dirs ? 2 : 1) {
		size_t lane = i % LANES;

		free[lane] = kbuild_dir(g, ROOT, "make", last[lane], n, i, free[lane] + 10 * US, 0, &last[lane]);
		end = free[lane] > end ? free[lane] : end;
	}
	link = spawn(g, end + 10 * US, ROOT, "make", 0, "/bin/sh", "sh -c ld -o vmlinux --whole-archive built-in.a");
	for (i = 0; i < dirs; i++)
		open_file(g, link, end + 20 * US + i, 3 * n + 3 + i, false, "b/d%zu/built-in.a", i);
	finish(g, link, end + 10 * US, end + 20 * MS);
	return end + 20 * MS;
}

/* The root's command line per shape: what it is, and its slots. */
static const char *root_argv(enum build_shape s)
{
	switch (s) {
	case SHAPE_LONG_BESIDE_J1:
		return "make -j1";
	case SHAPE_LONG_BESIDE_J2:
		return "make -j2";
	case SHAPE_ALL_AT_ONCE:
		return "make -j";
	case SHAPE_DEEP_MAKES:
		return "make";
	case SHAPE_NINJA_LINKS:
		return "ninja -j8";
	case SHAPE_CARGO_PIPELINE:
		return "cargo build --release";
	default:
		return "make -j8";
	}
}

static __u64 write_shape(struct shape_gen *g, enum build_shape s, size_t n, __u64 t)
{
	switch (s) {
	case SHAPE_LONG_BESIDE_J1:
		return long_beside(g, n, 1, t);
	case SHAPE_LONG_BESIDE_J2:
		return long_beside(g, n, 2, t);
	case SHAPE_LONG_BESIDE_J8:
		return long_beside(g, n, 8, t);
	case SHAPE_ALL_AT_ONCE:
		return all_at_once(g, n, t);
	case SHAPE_JOBSERVER:
		return jobserver(g, n, t);
	case SHAPE_NINJA_LINKS:
		return ninja_links(g, n, t);
	case SHAPE_DEEP_MAKES:
		return deep_makes(g, n, t);
	case SHAPE_KERNEL:
		return kernel(g, n, t);
	default:
		return cargo_pipeline(g, n, t);
	}
}

static int by_time(const void *a, const void *b)
{
	const struct timed_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The root's exec, the shape, the root's exit, sorted by time into w. */
static int write_sorted(struct shape_gen *g, struct event_log_writer *w, enum build_shape s, size_t n, __u64 *end)
{
	const char *argv = root_argv(s);
	char path[32];
	size_t i;
	int err = 0;

	snprintf(path, sizeof(path), "/usr/bin/%.*s", (int)strcspn(argv, " "), argv);
	exec_argv(g, START + 1, ROOT, 1, path, argv);
	*end = write_shape(g, s, n, START + 1 * MS) + 1 * MS;
	finish(g, ROOT, START, *end);
	mem_samples(g, *end);
	qsort(g->recs, g->nr, sizeof(*g->recs), by_time);
	for (i = 0; i < g->nr && !err; i++)
		err = event_log_writer__add(w, g->recs[i].rec, g->recs[i].len);
	return g->err ?: err;
}

int build_shape__write(enum build_shape s, size_t n, const struct build_shape_opts *o, int fd, __u64 *records)
{
	char words[64], *cmd[8];
	struct event_log_info info = {
		.buildbpf_version = "shapes", .kernel_release = "synthetic", .user = "builder", .online_cpus = 8,
		.possible_cpus = 8, .page_size = 4096, .start_ns = START, .root_pid = ROOT, .args_max = 16384,
		.ringbuf_bytes = 1 << 24, .sched = SCHED_OFF, .sched_resolution_ns = 10 * MS, .deps = true,
		.online_cpu_list = "0-7", .cwd = "/b", .cmd_argv = cmd,
	};
	struct shape_gen g = { .next_pid = ROOT + 1, .o = o ? *o : (struct build_shape_opts){} };
	struct bbl_trailer trailer = { .flags = BBL_EXITED };
	struct event_log_writer *w = NULL;
	size_t i;
	int err;

	if (s >= SHAPE_NR || !n)
		return -EINVAL;
	/* The command is the root's, as the recording's header says it. */
	snprintf(words, sizeof(words), "%s", root_argv(s));
	for (char *rest, *at = strtok_r(words, " ", &rest); at && info.cmd_argc < 7; at = strtok_r(NULL, " ", &rest))
		cmd[info.cmd_argc++] = at;
	cmd[info.cmd_argc] = NULL;
	if (g.o.memory)
		info.mem_period_ns = MEM_PERIOD;
	err = event_log_writer__open(&w, fd, &info);
	err = err ?: write_sorted(&g, w, s, n, &trailer.end_ns);
	trailer.exit_ns = trailer.end_ns;
	err = err ?: event_log_writer__finish(w, &trailer, false);
	if (records)
		*records = w ? event_log_writer__events(w) : 0;
	event_log_writer__free(w);
	for (i = 0; i < g.nr; i++)
		free(g.recs[i].rec);
	free(g.recs);
	free(g.waits);
	return err;
}
