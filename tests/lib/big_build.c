// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log/event_log.h"
#include "events.h"
#include "lib/big_build.h"

#define US 1000ull
#define MS 1000000ull
#define START (1000 * MS)
#define ROOT_PID 1000
#define DIR_JOBS 512   /* compiles per directory, each directory one sub-make */
#define LINK_EVERY 64  /* compiles per link, which reads their objects */
#define SLICE_NS (4 * MS) /* a long-running process is preempted this often */
#define SAMPLE_NS (100 * MS) /* --mem-period */
#define DEV 2049

/* A record waiting for its time: jobs overlap, the log is in time order. */
struct pending {
	__u64 ts, seq;
	void *rec;
	size_t len;
};

struct gen {
	const struct big_build *b;
	struct event_log_writer *w;
	struct pending *heap;
	size_t nr, cap;
	__u64 seq, rnd, ino;
	__u32 next_pid;
	size_t procs;
	int err;
};

static __u64 rnd(struct gen *g, __u64 below)
{
	g->rnd ^= g->rnd << 13;
	g->rnd ^= g->rnd >> 7;
	g->rnd ^= g->rnd << 17;
	return g->rnd % below;
}

static bool before(const struct pending *a, const struct pending *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/* Queues a copy of rec, whose header says when it happened. */
static void push(struct gen *g, const void *rec, size_t len)
{
	struct pending p = { ((const struct bb_event_header *)rec)->ts_ns, g->seq++, malloc(len), len };
	size_t i;

	if (g->nr == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		struct pending *h = realloc(g->heap, cap * sizeof(*h));

		if (!h) {
			free(p.rec);
			p.rec = NULL;
		} else {
			g->heap = h;
			g->cap = cap;
		}
	}
	if (!p.rec || g->nr == g->cap) {
		free(p.rec);
		g->err = -ENOMEM;
		return;
	}
	memcpy(p.rec, rec, len);
	for (i = g->nr++; i && before(&p, &g->heap[(i - 1) / 2]); i = (i - 1) / 2)
		g->heap[i] = g->heap[(i - 1) / 2];
	g->heap[i] = p;
}

/* Writes every queued record older than bound, oldest first. */
static void flush(struct gen *g, __u64 bound)
{
	while (g->nr && g->heap[0].ts < bound) {
		struct pending top = g->heap[0], last = g->heap[--g->nr];
		size_t i = 0, c;
		int err = g->err ? 0 : event_log_writer__add(g->w, top.rec, top.len);

		if (err)
			g->err = err;
		free(top.rec);
		for (; (c = 2 * i + 1) < g->nr; i = c) {
			if (c + 1 < g->nr && before(&g->heap[c + 1], &g->heap[c]))
				c++;
			if (!before(&g->heap[c], &last))
				break;
			g->heap[i] = g->heap[c];
		}
		if (g->nr)
			g->heap[i] = last;
	}
}

static void header(struct bb_event_header *h, __u32 type, __u64 ts, __u32 cpu, __u32 pid)
{
	memset(h, 0, sizeof(*h));
	h->ts_ns = ts;
	h->type = type;
	h->cpu = cpu;
	h->pid = h->tgid = pid;
}

/* What a process did, to be told at its end. */
struct proc {
	__u32 pid, cpu;
	__u64 start, on_cpu, runq;
	__u64 rss_kb;
	__u32 opened, written;
};

static void cut_comm(char comm[BB_COMM_LEN], const char *name)
{
	memset(comm, 0, BB_COMM_LEN);
	strncpy(comm, name, BB_COMM_LEN - 1);
}

/* Process pid forked by parent at ts (parent's comm), then exec'ing path with argv (NUL-separated). */
static struct proc start_proc(struct gen *g, __u64 ts, __u32 cpu, __u32 parent, const char *parent_comm,
			      __u32 waker, const char *path, const char *args, size_t args_len)
{
	struct proc p = { .pid = g->next_pid++, .cpu = cpu, .start = ts };
	struct bb_fork_event f;
	struct {
		struct bb_exec_event e;
		char data[512];
	} x;
	struct bb_mem_image_event mi = {};
	size_t flen = strlen(path);
	const char *base = strrchr(path, '/');

	g->procs++;
	header(&f.hdr, BB_EV_FORK, ts, cpu, p.pid);
	f.parent_pid = f.parent_tgid = parent;
	f.flags = 0;
	f.ns_tgid = p.pid;
	cut_comm(f.comm, parent_comm);
	push(g, &f, sizeof(f));
	if (g->b->deps) {
		struct bb_start_wake_event sw = {};

		header(&sw.hdr, BB_EV_START_WAKE, ts, cpu, p.pid);
		sw.parent_pid = sw.parent_tgid = parent;
		sw.wake_ns = sw.exit_wake_ns = ts > 50 * US ? ts - 50 * US : ts;
		sw.waker_pid = sw.waker_tgid = sw.exit_waker_pid = sw.exit_waker_tgid = waker;
		sw.flags = BB_WAKE_SEEN | BB_WAKE_EXIT_SEEN | (waker ? BB_WAKE_WAKER_EXITING : 0) |
			   (g->b->sched != SCHED_OFF ? BB_WAKE_RUNQ_KNOWN : 0);
		cut_comm(sw.waker_comm, "cc1");
		push(g, &sw, sizeof(sw));
	}
	/* The copy of the parent it was forked with ends at the exec. */
	header(&mi.hdr, BB_EV_MEM_IMAGE, ts + 100 * US, cpu, p.pid);
	mi.peak_rss_kb = 4096;
	push(g, &mi, sizeof(mi));
	memset(&x, 0, sizeof(x));
	if (flen + args_len > sizeof(x.data))
		args_len = sizeof(x.data) - flen;
	header(&x.e.hdr, BB_EV_EXEC, ts + 100 * US, cpu, p.pid);
	x.e.ppid = parent;
	x.e.old_tid = x.e.ns_tgid = p.pid;
	x.e.filename_len = flen;
	memcpy(x.e.data, path, flen);
	memcpy(x.e.data + flen, args, args_len);
	x.e.args_len = x.e.args_full_len = args_len;
	cut_comm(x.e.comm, base ? base + 1 : path);
	push(g, &x, sizeof(x.e) + flen + args_len);
	return p;
}

/* p ran on its CPU during [from, to), preempted every SLICE_NS; how it left it last. */
static void run(struct gen *g, struct proc *p, __u64 from, __u64 to, enum bb_slice_end end)
{
	while (from < to) {
		struct bb_cpu_slice_event s = {};
		__u64 until = to - from > SLICE_NS ? from + SLICE_NS : to;

		p->on_cpu += until - from;
		if (g->b->sched != SCHED_OFF) {
			header(&s.hdr, BB_EV_CPU_SLICE, until, p->cpu, p->pid);
			s.start_ns = from;
			s.wait_ns = 20 * US;
			s.end_state = until == to ? end : BB_SLICE_PREEMPTED;
			push(g, &s, sizeof(s));
		}
		p->runq += 20 * US;
		from = until + (until == to ? 0 : 20 * US);
	}
}

/* p's end at ts: its last image's memory, its I/O, its file counts, its exit. */
static void end_proc(struct gen *g, struct proc *p, __u64 ts, __u32 status)
{
	struct bb_mem_image_event mi = {};
	struct bb_proc_io_event io = {};
	struct bb_exit_event x = {};

	header(&mi.hdr, BB_EV_MEM_IMAGE, ts, p->cpu, p->pid);
	mi.peak_rss_kb = p->rss_kb;
	mi.image = 1;
	mi.flags = BB_MEM_IMAGE_EXITED;
	push(g, &mi, sizeof(mi));
	if (g->b->deps && p->opened) {
		struct bb_file_counts_event fc = {};

		header(&fc.hdr, BB_EV_FILE_COUNTS, ts, p->cpu, p->pid);
		fc.counts.opened = p->opened;
		fc.counts.written = p->written;
		push(g, &fc, sizeof(fc));
	}
	header(&io.hdr, BB_EV_PROC_IO, ts, p->cpu, p->pid);
	io.io.rchar = p->opened * 40000ull + 8192;
	io.io.wchar = p->written * 30000ull;
	io.io.syscr = p->opened * 10ull + 2;
	io.io.syscw = p->written * 8ull;
	io.io.write_bytes = p->written * 32768ull;
	io.flags = BB_IO_SYSCALLS | BB_IO_STORAGE;
	io.nr_threads = 1;
	push(g, &io, sizeof(io));
	header(&x.hdr, BB_EV_EXIT, ts, p->cpu, p->pid);
	x.sum_exec_ns = p->on_cpu;
	x.utime_ns = p->on_cpu / 10 * 9;
	x.stime_ns = p->on_cpu - x.utime_ns;
	x.maxrss_kb = p->rss_kb;
	if (g->b->sched != SCHED_OFF) {
		x.sched.on_cpu_ns = p->on_cpu;
		x.sched.runq_ns = p->runq;
		x.sched.sleep_ns = ts - p->start - p->on_cpu - p->runq;
		x.sched.nr_voluntary = 1;
		x.sched.nr_involuntary = p->on_cpu / SLICE_NS;
	}
	x.exit_status = status << 8;
	x.flags = BB_EXIT_GROUP_DEAD;
	x.nr_threads = 1;
	push(g, &x, sizeof(x));
}

/* path "a/b/c" opened at ts by p, file ino. */
static void open_file(struct gen *g, struct proc *p, __u64 ts, __u64 ino, bool write, const char *path)
{
	struct bb_file_event fe = {};
	char copy[256], *slash;


	p->opened++;
	p->written += write;
	if (!g->b->deps)
		return;
	header(&fe.hdr, BB_EV_FILE_OPEN, ts, p->cpu, p->pid);
	fe.ino = ino;
	fe.dev = DEV;
	fe.flags = (write ? BB_FILE_WRITE : 0) | BB_FILE_PATH_COMPLETE;
	snprintf(copy, sizeof(copy), "%s", path);
	while (fe.nr_names < BB_FILE_NAMES) {
		const char *name;

		slash = strrchr(copy, '/');
		name = slash ? slash + 1 : copy;
		memcpy(fe.names[fe.nr_names++], name, strnlen(name, BB_FILE_NAME_LEN - 1));
		if (!slash)
			break;
		*slash = '\0';
	}
	push(g, &fe, sizeof(fe));
}

/* The argv "a b c" as the kernel hands it over, NUL-separated, in buf; its length. */
static size_t argv_of(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t argv_of(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *c;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	if ((size_t)n >= size)
		n = size - 1;
	for (c = buf; c < buf + n; c++)
		if (*c == ' ')
			*c = '\0';
	return n;
}

/*
 * One compile of dir/f<k>.c under the sub-make mk, started at t on cpu
 * when waker's exit woke mk: sh -> gcc -> cc1, then as.  Returns its end.
 */
static __u64 compile(struct gen *g, __u64 t, __u32 cpu, __u32 mk, __u32 waker, const char *dir, size_t k,
		     __u64 obj_ino)
{
	char args[512], path[128];
	size_t n;
	__u64 r = rnd(g, 1000), cc1_ns = 5 * MS + r * r * 300 * MS / 1000000, tmp_ino = ++g->ino;
	struct proc sh, gcc, cc1, as;

	n = argv_of(args, sizeof(args), "/bin/sh -c gcc -Wp,-MMD,.f%zu.o.d -O2 -Wall -I../include -c -o f%zu.o f%zu.c",
		    k, k, k);
	sh = start_proc(g, t, cpu, mk, "make", waker, "/bin/sh", args, n + 1);
	sh.rss_kb = 1800;
	run(g, &sh, t + 100 * US, t + 500 * US, BB_SLICE_SLEPT);
	n = argv_of(args, sizeof(args), "gcc -Wp,-MMD,.f%zu.o.d -O2 -Wall -I../include -c -o f%zu.o f%zu.c", k, k, k);
	gcc = start_proc(g, t + 500 * US, cpu, sh.pid, "sh", 0, "/usr/bin/gcc", args, n + 1);
	gcc.rss_kb = 3500;
	run(g, &gcc, t + 600 * US, t + 1200 * US, BB_SLICE_SLEPT);
	n = argv_of(args, sizeof(args),
		    "/usr/lib/gcc/x86_64-linux-gnu/12/cc1 -quiet -I../include f%zu.c -quiet -dumpbase f%zu.c -O2 -Wall "
		    "-o /tmp/cc%zu.s",
		    k, k, k);
	cc1 = start_proc(g, t + 1200 * US, cpu, gcc.pid, "gcc", 0, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", args, n + 1);
	cc1.rss_kb = 40000 + r * 400;
	cc1.opened = 150; /* the headers, which send no file record */
	run(g, &cc1, t + 1300 * US, t + 1300 * US + cc1_ns, BB_SLICE_EXITED);
	t += 1300 * US + cc1_ns + 40 * US * (cc1_ns / SLICE_NS);
	snprintf(path, sizeof(path), "tmp/cc%zu.s", k);
	open_file(g, &cc1, t - 500 * US, tmp_ino, true, path);
	end_proc(g, &cc1, t, 0);
	n = argv_of(args, sizeof(args), "as --64 -o f%zu.o /tmp/cc%zu.s", k, k);
	as = start_proc(g, t + 100 * US, cpu, gcc.pid, "gcc", 0, "/usr/bin/as", args, n + 1);
	as.rss_kb = 6000;
	run(g, &as, t + 200 * US, t + 2200 * US, BB_SLICE_EXITED);
	open_file(g, &as, t + 300 * US, tmp_ino, false, path);
	snprintf(path, sizeof(path), "build/%s/f%zu.o", dir, k);
	open_file(g, &as, t + 400 * US, obj_ino, true, path);
	end_proc(g, &as, t + 2200 * US, 0);
	run(g, &gcc, t + 2300 * US, t + 2500 * US, BB_SLICE_EXITED);
	end_proc(g, &gcc, t + 2500 * US, 0);
	run(g, &sh, t + 2600 * US, t + 2700 * US, BB_SLICE_EXITED);
	end_proc(g, &sh, t + 2700 * US, 0);
	return t + 2700 * US;
}

/* A link of the LINK_EVERY objects dir/f<first>.o on, inodes from first_ino: sh -> ld. */
static __u64 link_objs(struct gen *g, __u64 t, __u32 cpu, __u32 mk, __u32 waker, const char *dir, size_t first,
		       __u64 first_ino)
{
	char args[512], path[128];
	struct proc sh, ld;
	size_t i, n;

	n = argv_of(args, sizeof(args), "/bin/sh -c ld -r -o built-in-%zu.o f%zu.o ...", first, first);
	sh = start_proc(g, t, cpu, mk, "make", waker, "/bin/sh", args, n + 1);
	sh.rss_kb = 1800;
	run(g, &sh, t + 100 * US, t + 400 * US, BB_SLICE_SLEPT);
	n = argv_of(args, sizeof(args), "ld -r -o built-in-%zu.o f%zu.o ...", first, first);
	ld = start_proc(g, t + 400 * US, cpu, sh.pid, "sh", 0, "/usr/bin/ld", args, n + 1);
	ld.rss_kb = 30000;
	for (i = 0; i < LINK_EVERY; i++) {
		snprintf(path, sizeof(path), "build/%s/f%zu.o", dir, first + i);
		open_file(g, &ld, t + 600 * US + i * 100 * US, first_ino + i, false, path);
	}
	snprintf(path, sizeof(path), "build/%s/built-in-%zu.o", dir, first);
	open_file(g, &ld, t + 8 * MS, ++g->ino, true, path);
	run(g, &ld, t + 500 * US, t + 20 * MS, BB_SLICE_EXITED);
	end_proc(g, &ld, t + 20 * MS, 0);
	run(g, &sh, t + 20100 * US, t + 20200 * US, BB_SLICE_EXITED);
	end_proc(g, &sh, t + 20200 * US, 0);
	return t + 20200 * US;
}

/* One CPU's next free time and the last process it ran, whose exit wakes make. */
struct slot {
	__u64 free;
	__u32 last;
};

static size_t first_free(const struct slot *slots, size_t n)
{
	size_t i, best = 0;

	for (i = 1; i < n; i++)
		if (slots[i].free < slots[best].free)
			best = i;
	return best;
}

static void mem_sample(struct gen *g, __u64 ts)
{
	struct bb_mem_sample_event s = {};

	header(&s.hdr, BB_EV_MEM_SAMPLE, ts, 0, 0);
	s.nr_procs = 3 * g->b->cpus + 2;
	s.total_kb = s.nr_procs * 20000ull;
	s.ram_kb = 16ull << 20;
	push(g, &s, sizeof(s));
}

static void psi(struct gen *g, __u64 ts, __u64 some_us)
{
	struct bb_mem_psi_event p = {};

	header(&p.hdr, BB_EV_MEM_PSI, ts, 0, 0);
	p.some_us = some_us;
	push(g, &p, sizeof(p));
}

/* Everything after the root make's exec: directories of compiles and links. */
static __u64 build(struct gen *g, struct proc *root)
{
	struct slot *slots = calloc(g->b->cpus, sizeof(*slots));
	struct proc mk = {};
	char dir[32], args[128];
	__u64 dir_end = 0, next_sample = START + SAMPLE_NS, obj_ino = 0, end = START;
	size_t job = 0, n;
	unsigned int i;

	if (!slots) {
		g->err = -ENOMEM;
		return START;
	}
	for (i = 0; i < g->b->cpus; i++)
		slots[i].free = START + 2 * MS;
	while (!g->err && g->procs < g->b->procs) {
		size_t c = first_free(slots, g->b->cpus), k = job % DIR_JOBS;
		__u64 t = slots[c].free + 1 * MS + rnd(g, 2 * MS);

		/* Nothing starts before the earliest free CPU: older records are final. */
		while (next_sample < slots[c].free) {
			mem_sample(g, next_sample);
			next_sample += SAMPLE_NS;
		}
		flush(g, slots[c].free);
		if (!k) {
			if (mk.pid)
				end_proc(g, &mk, dir_end + 1 * MS, 0);
			snprintf(dir, sizeof(dir), "src/d%zu", job / DIR_JOBS);
			n = argv_of(args, sizeof(args), "make -C %s", dir);
			mk = start_proc(g, t - 500 * US, c, root->pid, "make", 0, "/usr/bin/make", args, n + 1);
			mk.rss_kb = 2500;
			mk.opened = 20;
			obj_ino = g->ino + 1;
			g->ino += DIR_JOBS;
		}
		if (g->b->sched != SCHED_OFF) {
			struct bb_cpu_idle_event idle = {};

			header(&idle.hdr, BB_EV_CPU_IDLE, t, c, 0);
			idle.hdr.pid = idle.hdr.tgid = 0;
			idle.start_ns = slots[c].free;
			push(g, &idle, sizeof(idle));
		}
		slots[c].last = g->next_pid;
		if (k && k % LINK_EVERY == 0)
			slots[c].free = link_objs(g, t, c, mk.pid, slots[c].last, dir, k - LINK_EVERY,
						  obj_ino + k - LINK_EVERY);
		else
			slots[c].free = compile(g, t, c, mk.pid, slots[c].last, dir, k, obj_ino + k);
		dir_end = slots[c].free > dir_end ? slots[c].free : dir_end;
		end = dir_end > end ? dir_end : end;
		job++;
	}
	if (mk.pid)
		end_proc(g, &mk, dir_end + 1 * MS, 0);
	free(slots);
	return end + 2 * MS;
}

int big_build__write(const struct big_build *b, int fd, __u64 *records)
{
	static char *cmd[] = { "make", "-j", NULL };
	struct event_log_info info = {
		.buildbpf_version = "bench", .kernel_release = "synthetic", .user = "bench", .page_size = 4096,
		.start_ns = START, .root_pid = ROOT_PID, .args_max = BB_ARGS_MAX_DEFAULT, .ringbuf_bytes = 1 << 24,
		.sched = b->sched, .sched_resolution_ns = 10 * MS, .deps = b->deps, .cmd_argv = cmd, .cmd_argc = 2,
		.cwd = "/home/bench/src", .realtime_offset_ns = b->realtime_offset_ns,
	};
	struct gen g = { .b = b, .rnd = b->seed | 1, .next_pid = ROOT_PID + 1 };
	struct proc root = { .pid = ROOT_PID, .start = START, .rss_kb = 12000, .opened = 400 };
	struct bbl_trailer t = {};
	__u64 end;
	int err;

	if (!b->cpus || b->cpus > BBL_MAX_CPUS)
		return -EINVAL;
	info.online_cpus = info.possible_cpus = b->cpus;
	err = event_log_writer__open(&g.w, fd, &info);
	if (err)
		return err;
	{
		struct {
			struct bb_exec_event e;
			char data[32];
		} x = {};

		header(&x.e.hdr, BB_EV_EXEC, START + 1, 0, ROOT_PID);
		x.e.ppid = 1;
		x.e.old_tid = x.e.ns_tgid = ROOT_PID;
		x.e.filename_len = strlen("/usr/bin/make");
		memcpy(x.e.data, "/usr/bin/make", x.e.filename_len);
		memcpy(x.e.data + x.e.filename_len, "make\0-j", 8);
		x.e.args_len = x.e.args_full_len = 8;
		cut_comm(x.e.comm, "make");
		push(&g, &x, sizeof(x.e) + x.e.filename_len + 8);
	}
	psi(&g, START, 1000);
	run(&g, &root, START + 10 * US, START + 1 * MS, BB_SLICE_SLEPT);
	end = build(&g, &root);
	psi(&g, end, 2000);
	end_proc(&g, &root, end, 0);
	flush(&g, ~0ull);
	while (g.nr) /* left by an error */
		free(g.heap[--g.nr].rec);
	free(g.heap);
	t.end_ns = end;
	t.exit_ns = end + 1 * MS;
	t.flags = BBL_EXITED;
	err = g.err ?: event_log_writer__finish(g.w, &t, false);
	if (records)
		*records = event_log_writer__events(g.w);
	event_log_writer__free(g.w);
	return err;
}
