// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a synthetic event log for the conversion benchmark
 * (bench/convert.sh): PROCS processes (fork, exec, exit each) and SLICES
 * scheduler records spread over CPUS CPUs, each CPU's slices back to back
 * and run by whichever synthetic process is alive then, as
 * `buildbpf record --sched=full` would write them.
 *
 *   gen-log OUT.bbl PROCS SLICES CPUS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log/event_log.h"
#include "events.h"

#define START 1000000000ull
#define ROOT 1000

static void die(const char *what, int err)
{
	fprintf(stderr, "gen-log: %s: %s\n", what, strerror(-err));
	exit(1);
}

static void put(struct event_log_writer *w, const void *rec, size_t len)
{
	int err = event_log_writer__add(w, rec, len);

	if (err)
		die("write", err);
}

static void header(struct bb_event_header *h, __u32 type, __u64 ts, __u32 cpu, __u32 tgid)
{
	memset(h, 0, sizeof(*h));
	h->ts_ns = ts;
	h->type = type;
	h->cpu = cpu;
	h->pid = h->tgid = tgid;
}

int main(int argc, char **argv)
{
	static char *cmd[] = { "make", "-j8", NULL };
	struct event_log_info info = {
		.buildbpf_version = "bench", .kernel_release = "synthetic", .user = "bench", .page_size = 4096,
		.start_ns = START, .root_pid = ROOT, .args_max = 16384, .ringbuf_bytes = 1 << 24,
		.sched = SCHED_FULL, .sched_resolution_ns = 10000000, .cmd_argv = cmd, .cmd_argc = 2,
	};
	unsigned long procs, slices, cpus, i, per_cpu;
	struct event_log_writer *w;
	struct bbl_trailer t = {};
	__u64 span, life, end;
	int fd, err;

	if (argc != 5) {
		fprintf(stderr, "usage: gen-log OUT.bbl PROCS SLICES CPUS\n");
		return 2;
	}
	procs = strtoul(argv[2], NULL, 10);
	slices = strtoul(argv[3], NULL, 10);
	cpus = strtoul(argv[4], NULL, 10);
	if (!procs || !cpus || cpus > BBL_MAX_CPUS) {
		fprintf(stderr, "gen-log: PROCS and CPUS must be > 0\n");
		return 2;
	}
	info.online_cpus = info.possible_cpus = cpus;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	err = event_log_writer__open(&w, fd, &info);
	if (err)
		die("open", err);
	/* 100 us slices; processes start evenly and live 8 slots of theirs,
	 * so about 8 run at once whatever the counts. */
	per_cpu = (slices + cpus - 1) / cpus;
	span = per_cpu * 100000ull + 1000000;
	life = span / procs * 8 + 1;
	{
		struct bb_exec_event *e = calloc(1, sizeof(*e) + 64);

		header(&e->hdr, BB_EV_EXEC, START + 1, 0, ROOT);
		e->ppid = 1;
		e->old_tid = e->ns_tgid = ROOT;
		e->filename_len = strlen("/usr/bin/make");
		memcpy(e->data, "/usr/bin/make", e->filename_len);
		memcpy(e->data + e->filename_len, "make\0-j8", 9);
		e->args_len = e->args_full_len = 9;
		strcpy(e->comm, "make");
		put(w, e, sizeof(*e) + e->filename_len + 9);
		free(e);
	}
	/* Records in time order, processes and slices interleaved. */
	for (i = 0; i < procs || i < per_cpu; i++) {
		if (i < procs) {
			__u64 at = START + 2 + i * (span / procs);
			__u32 pid = ROOT + 1 + i;
			struct bb_fork_event f;
			struct {
				struct bb_exec_event e;
				char data[48];
			} x;

			header(&f.hdr, BB_EV_FORK, at, 0, pid);
			f.parent_pid = f.parent_tgid = ROOT;
			f.flags = 0;
			f.ns_tgid = pid;
			strcpy(f.comm, "make");
			put(w, &f, sizeof(f));
			memset(&x, 0, sizeof(x));
			header(&x.e.hdr, BB_EV_EXEC, at + 1000, 0, pid);
			x.e.ppid = ROOT;
			x.e.old_tid = x.e.ns_tgid = pid;
			x.e.filename_len = 11;
			memcpy(x.e.data, "/usr/bin/cc", 11);
			memcpy(x.e.data + 11, "cc\0-c\0f.c", 10);
			x.e.args_len = x.e.args_full_len = 10;
			strcpy(x.e.comm, "cc");
			put(w, &x, sizeof(x.e) + 21);
		}
		if (i < per_cpu) {
			unsigned long c;

			for (c = 0; c < cpus && i * cpus + c < slices; c++) {
				struct bb_cpu_slice_event s = {};
				__u64 from = START + 1000000 + i * 100000ull;
				unsigned long owner = procs * (i * 100000ull) / span;

				header(&s.hdr, BB_EV_CPU_SLICE, from + 100000, c, ROOT + 1 + (owner + c) % procs);
				s.start_ns = from;
				s.wait_ns = 5000;
				put(w, &s, sizeof(s));
			}
		}
		/* Exits of the processes whose life ended by now. */
		if (i < procs && i >= 8) {
			struct bb_exit_event x = {};

			header(&x.hdr, BB_EV_EXIT, START + 2 + (i - 8) * (span / procs) + life, 0, ROOT + 1 + i - 8);
			x.flags = BB_EXIT_GROUP_DEAD;
			x.utime_ns = 1000000;
			put(w, &x, sizeof(x));
		}
	}
	end = START + span + life * 2;
	for (i = procs > 8 ? procs - 8 : 0; i < procs; i++) {
		struct bb_exit_event x = {};

		header(&x.hdr, BB_EV_EXIT, end - 2000 + i % 8, 0, ROOT + 1 + i);
		x.flags = BB_EXIT_GROUP_DEAD;
		put(w, &x, sizeof(x));
	}
	{
		struct bb_exit_event x = {};

		header(&x.hdr, BB_EV_EXIT, end, 0, ROOT);
		x.flags = BB_EXIT_GROUP_DEAD;
		put(w, &x, sizeof(x));
	}
	t.end_ns = end;
	t.exit_ns = end + 1000;
	t.flags = BBL_EXITED;
	err = event_log_writer__finish(w, &t, true);
	if (err)
		die("finish", err);
	printf("%llu\n", (unsigned long long)event_log_writer__events(w));
	event_log_writer__free(w);
	close(fd);
	return 0;
}
