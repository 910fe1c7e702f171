// SPDX-License-Identifier: GPL-2.0
/*
 * The event log and its replay (no root): round trips, every cut a crash
 * can leave, corrupt and hostile files, and the recordings checked in under
 * tests/fixtures/ (made by the tool itself) converted to a trace; hostile
 * recordings of a few hundred bytes that once cost minutes or gigabytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "report/chrome_trace.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "lib/integration.h"
#include "lib/synth.h"

#define START 1000000000ull
#define ROOT 100
#define CHILD 101

static const char odd_arg[] = "caf\xc3\xa9 \xff\xfe\n\"q\" \x1b[31m";

static void header(struct bb_event_header *hdr, __u32 type, __u64 ts, __u32 tgid)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->ts_ns = ts;
	hdr->type = type;
	hdr->pid = tgid;
	hdr->tgid = tgid;
}

static void add(struct event_log_writer *w, const void *rec, size_t len)
{
	cr_assert_eq(event_log_writer__add(w, rec, len), 0);
}

static void add_fork(struct event_log_writer *w, __u64 ts, __u32 parent, __u32 child)
{
	struct bb_fork_event e = {};

	header(&e.hdr, BB_EV_FORK, ts, child);
	e.parent_pid = e.parent_tgid = parent;
	e.ns_tgid = child;
	strcpy(e.comm, "sh");
	add(w, &e, sizeof(e));
}

static void add_exec(struct event_log_writer *w, __u64 ts, __u32 tgid, __u32 ppid, const char *file, const char *arg)
{
	size_t name_len = strlen(file), args_len = strlen(arg) + 1, len = sizeof(struct bb_exec_event) + name_len + args_len;
	struct bb_exec_event *e = calloc(1, len);

	cr_assert_not_null(e);
	header(&e->hdr, BB_EV_EXEC, ts, tgid);
	e->ppid = ppid;
	e->old_tid = tgid;
	e->ns_tgid = tgid;
	e->filename_len = name_len;
	e->args_len = e->args_full_len = args_len;
	strcpy(e->comm, "x");
	memcpy(e->data, file, name_len);
	memcpy(e->data + name_len, arg, args_len);
	add(w, e, len);
	free(e);
}

static void add_exit(struct event_log_writer *w, __u64 ts, __u32 tgid, __u32 status)
{
	struct bb_exit_event e = {};

	header(&e.hdr, BB_EV_EXIT, ts, tgid);
	e.flags = BB_EXIT_GROUP_DEAD;
	e.exit_status = status;
	e.utime_ns = 3000000;
	add(w, &e, sizeof(e));
}

static struct event_log_info sample_info(enum sched_level sched)
{
	static char *argv[] = { "make", "-j2", (char *)odd_arg, NULL };

	return (struct event_log_info){
		.buildbpf_version = "9.9.9",
		.kernel_release = "6.18.0-test",
		.user = "builder",
		.online_cpus = 2,
		.possible_cpus = 2,
		.page_size = 4096,
		.start_ns = START,
		.realtime_offset_ns = 1700000000000000000ll,
		.root_pid = ROOT,
		.args_max = 16384,
		.ringbuf_bytes = 1 << 24,
		.sched = sched,
		.sched_resolution_ns = 10000000,
		.wait_all = false,
		.online_cpu_list = "0-1",
		.makeflags = sched == SCHED_OFF ? NULL : " -j2 --jobserver-auth=3,4",
		.jobs_settings = { sched == SCHED_OFF ? NULL : "3", NULL, sched == SCHED_OFF ? NULL : "-1",
				   sched == SCHED_OFF ? NULL : "/src/.cargo/config.toml",
				   sched == SCHED_OFF ? NULL : "-p=1 -mod=mod",
				   sched == SCHED_OFF ? NULL : "/home/b/.config/go/env" },
		.cwd = sched == SCHED_OFF ? NULL : "/src/json-c/build",
		.cmd_argv = argv,
		.cmd_argc = 3,
	};
}

/*
 * A small build: make (ROOT) forks a child that runs cc and exits 1; make
 * exits 2 at START + 50 ms.  With trailer unless cut.  Returns a memfd.
 */
static int write_sample(enum sched_level sched, bool trailer)
{
	struct event_log_info info = sample_info(sched);
	struct event_log_writer *w;
	int fd = memfd_create("bbl", 0);

	cr_assert_geq(fd, 0);
	cr_assert_eq(event_log_writer__open(&w, fd, &info), 0);
	add_exec(w, START + 1000, ROOT, 1, "/usr/bin/make", "make");
	add_fork(w, START + 2000, ROOT, CHILD);
	add_exec(w, START + 3000, CHILD, ROOT, "/usr/bin/cc", odd_arg);
	add_exit(w, START + 40000000, CHILD, 1 << 8);
	add_exit(w, START + 50000000, ROOT, 2 << 8);
	if (trailer) {
		struct bbl_trailer t = { .lost_events = 0, .end_ns = START + 50000000, .exit_ns = START + 50100000,
					 .wait_status = 2 << 8, .flags = BBL_EXITED };

		cr_assert_eq(event_log_writer__finish(w, &t, false), 0);
	} else {
		cr_assert_eq(event_log_writer__flush(w), 0);
	}
	cr_assert_eq(event_log_writer__events(w), 5);
	event_log_writer__free(w);
	return fd;
}

static FILE *reopen(int fd)
{
	FILE *f;
	int d = dup(fd);

	cr_assert_geq(d, 0);
	cr_assert_eq(lseek(d, 0, SEEK_SET), 0);
	f = fdopen(d, "r");
	cr_assert_not_null(f);
	return f;
}

static FILE *from_bytes(const void *data, size_t len)
{
	FILE *f = fmemopen((void *)data, len, "r");

	cr_assert_not_null(f);
	return f;
}

/* The whole file a memfd holds. */
static unsigned char *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	unsigned char *buf = malloc(end ? end : 1);

	cr_assert_not_null(buf);
	cr_assert_eq(pread(fd, buf, end, 0), end);
	*len = end;
	return buf;
}

Test(event_log, round_trip_keeps_info_argv_records_and_trailer)
{
	int fd = write_sample(SCHED_SUMMARY, true), n = 0, e;
	struct event_log_reader *r;
	const struct event_log_info *info;
	const void *rec;
	size_t len;
	char err[256];
	FILE *f = reopen(fd);

	cr_assert_eq(event_log_reader__open(&r, f, err, sizeof(err)), 0, "%s", err);
	info = event_log_reader__info(r);
	cr_assert(eq(str, info->buildbpf_version, "9.9.9"));
	cr_assert(eq(str, info->kernel_release, "6.18.0-test"));
	cr_assert(eq(str, info->user, "builder"));
	cr_assert(eq(u64, info->start_ns, START));
	cr_assert(eq(i64, info->realtime_offset_ns, 1700000000000000000ll));
	cr_assert(eq(u32, info->root_pid, ROOT));
	cr_assert(eq(int, info->sched, SCHED_SUMMARY));
	cr_assert(eq(u32, info->possible_cpus, 2));
	cr_assert(eq(str, info->online_cpu_list, "0-1"));
	cr_assert(eq(str, info->makeflags, " -j2 --jobserver-auth=3,4"));
	cr_assert(eq(str, info->jobs_settings.cargo_build_jobs, "3"));
	cr_assert_null(info->jobs_settings.goflags, "unset is left out");
	cr_assert(eq(str, info->jobs_settings.cargo_config_jobs, "-1"));
	cr_assert(eq(str, info->jobs_settings.cargo_config_file, "/src/.cargo/config.toml"));
	cr_assert(eq(str, info->jobs_settings.go_env_goflags, "-p=1 -mod=mod"));
	cr_assert(eq(str, info->jobs_settings.go_env_file, "/home/b/.config/go/env"));
	cr_assert(eq(str, info->cwd, "/src/json-c/build"));
	cr_assert(eq(int, info->cmd_argc, 3));
	cr_assert(eq(str, info->cmd_argv[2], (char *)odd_arg), "argv bytes changed on the way");
	cr_assert_null(info->cmd_argv[3]);
	while ((e = event_log_reader__next(r, &rec, &len, err, sizeof(err))) == 1) {
		const struct bb_event_header *hdr = rec;

		n++;
		cr_assert_geq(len, sizeof(*hdr));
		if (n == 3) {
			const struct bb_exec_event *ex = rec;

			cr_assert(eq(u32, hdr->type, BB_EV_EXEC));
			cr_assert_eq(memcmp(ex->data + ex->filename_len, odd_arg, sizeof(odd_arg)), 0);
		}
	}
	cr_assert_eq(e, 0, "%s", err);
	cr_assert_eq(n, 5);
	cr_assert_not_null(event_log_reader__trailer(r));
	cr_assert(eq(u64, event_log_reader__trailer(r)->events, 5));
	cr_assert(eq(u64, event_log_reader__trailer(r)->end_ns, START + 50000000));
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

/* Every prefix of a log is what a crash or a full disk can leave. */
Test(event_log, every_cut_reads_up_to_the_last_complete_frame)
{
	int fd = write_sample(SCHED_SUMMARY, true);
	size_t total, cut, full_events = 0, events_at;
	unsigned char *data = slurp(fd, &total);
	struct event_log_reader *whole;
	char whole_err[256];
	FILE *wf = from_bytes(data, total);

	/* Where the first record starts: the end of the ARGV frame. */
	cr_assert_eq(event_log_reader__open(&whole, wf, whole_err, sizeof(whole_err)), 0, "%s", whole_err);
	events_at = event_log_reader__offset(whole);
	event_log_reader__free(whole);
	fclose(wf);

	for (cut = 0; cut < total; cut++) {
		struct event_log_reader *r;
		const void *rec;
		size_t len, n = 0;
		char err[256];
		FILE *f = from_bytes(data, cut);
		int e = event_log_reader__open(&r, f, err, sizeof(err));

		if (e) {
			/* Only a cut before the events begin fails to open. */
			cr_assert(e == -EBADMSG || e == -ENODATA, "cut %zu: %d %s", cut, e, err);
			cr_assert_lt(cut, events_at, "cut %zu refused: %s", cut, err);
			fclose(f);
			continue;
		}
		while ((e = event_log_reader__next(r, &rec, &len, err, sizeof(err))) == 1)
			n++;
		cr_assert_eq(e, -ENODATA, "cut %zu of %zu: %d %s", cut, total, e, err);
		cr_assert_null(event_log_reader__trailer(r));
		cr_assert_leq(n, 5);
		cr_assert_geq(n, full_events, "cut %zu: fewer records than a shorter cut", cut);
		full_events = n;
		event_log_reader__free(r);
		fclose(f);
	}
	cr_assert_eq(full_events, 5, "the cut just before the trailer must keep every record");
	free(data);
	close(fd);
}

static int open_bytes(const void *data, size_t len, char *err, size_t size)
{
	struct event_log_reader *r;
	FILE *f = from_bytes(data, len);
	int e = event_log_reader__open(&r, f, err, size);

	if (!e) {
		const void *rec;
		size_t n;

		while ((e = event_log_reader__next(r, &rec, &n, err, size)) == 1)
			;
		event_log_reader__free(r);
	}
	fclose(f);
	return e;
}

Test(event_log, wrong_magic_version_and_byte_order_are_refused_clearly)
{
	int fd = write_sample(SCHED_OFF, true);
	size_t total;
	unsigned char *data = slurp(fd, &total);
	struct bbl_file_header *hdr = (struct bbl_file_header *)data;
	char err[256];

	hdr->version = 2;
	cr_assert_eq(open_bytes(data, total, err, sizeof(err)), -EPROTONOSUPPORT);
	cr_assert(strstr(err, "format version 2") != NULL, "%s", err);
	hdr->version = BBL_VERSION;
	hdr->byte_order = 0x04030201;
	cr_assert_eq(open_bytes(data, total, err, sizeof(err)), -EPROTONOSUPPORT);
	cr_assert(strstr(err, "byte order") != NULL, "%s", err);
	hdr->byte_order = BBL_BYTE_ORDER;
	data[0] = 'X';
	cr_assert_eq(open_bytes(data, total, err, sizeof(err)), -EBADMSG);
	cr_assert(strstr(err, "not a buildbpf recording") != NULL, "%s", err);
	cr_assert_eq(open_bytes("", 0, err, sizeof(err)), -EBADMSG);
	free(data);
	close(fd);
}

/* A recording made before the cwd was kept reads as "unknown", not corrupt. */
Test(event_log, optional_info_keys_absent_read_as_unknown)
{
	int fd = write_sample(SCHED_OFF, true);
	struct event_log_reader *r;
	const struct event_log_info *info;
	char err[256];
	FILE *f = reopen(fd);

	cr_assert_eq(event_log_reader__open(&r, f, err, sizeof(err)), 0, "%s", err);
	info = event_log_reader__info(r);
	cr_assert_null(info->cwd);
	cr_assert_null(info->makeflags);
	cr_assert_null(info->jobs_settings.cargo_build_jobs);
	cr_assert_null(info->jobs_settings.cargo_config_jobs);
	cr_assert_null(info->jobs_settings.go_env_goflags);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

/* Frames after the header: INFO starts at byte 16. */
Test(event_log, corrupt_frames_are_errors_never_allocations)
{
	int fd = write_sample(SCHED_OFF, true);
	size_t total;
	unsigned char *data = slurp(fd, &total), *copy = malloc(total);
	struct bbl_frame *info = (struct bbl_frame *)(data + sizeof(struct bbl_file_header));
	char err[256];

	cr_assert_not_null(copy);
	/* A 4 GiB frame: refused from its length, nothing allocated for it. */
	memcpy(copy, data, total);
	((struct bbl_frame *)(copy + 16))->len = 0xffffffffu;
	cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), -EBADMSG);
	cr_assert(strstr(err, "frame at byte 16") != NULL, "%s", err);
	/* An unknown frame type. */
	memcpy(copy, data, total);
	((struct bbl_frame *)(copy + 16))->type = 77;
	cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), -EBADMSG);
	cr_assert(strstr(err, "unknown frame type 77") != NULL, "%s", err);
	/* INFO that is not JSON. */
	memcpy(copy, data, total);
	copy[16 + 8] = '[';
	cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), -EBADMSG);
	cr_assert(strstr(err, "not a JSON object") != NULL, "%s", err);
	/* INFO fields are range-checked: a CPU count in range passes, 0 does not. */
	memcpy(copy, data, total);
	{
		char *p = memmem(copy + 24, info->len, "\"possible_cpus\":2", 17);

		cr_assert_not_null(p);
		memcpy(p, "\"possible_cpus\":9", 17);
		cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), 0, "%s", err);
		p = memmem(copy + 24, info->len, "\"online_cpus\":2,", 16);
		cr_assert_not_null(p);
		memcpy(p, "\"online_cpus\":0,", 16);
		cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), -EBADMSG);
		cr_assert(strstr(err, "'online_cpus'") != NULL, "%s", err);
	}
	/* A second INFO where a record belongs. */
	memcpy(copy, data, total);
	{
		size_t off = 16 + 8 + ((info->len + 7) & ~7u);
		struct bbl_frame *argv = (struct bbl_frame *)(copy + off);
		struct bbl_frame *first_event = (struct bbl_frame *)(copy + off + 8 + ((argv->len + 7) & ~7u));

		cr_assert_eq(first_event->type, BBL_FRAME_EVENT);
		first_event->type = BBL_FRAME_INFO;
		cr_assert_eq(open_bytes(copy, total, err, sizeof(err)), -EBADMSG);
	}
	free(copy);
	free(data);
	close(fd);
}

static void run_replay(int fd, const struct replay_opts *opts, struct replay *rp, struct event_log_reader **r,
		       FILE **f)
{
	char err[256];

	*f = reopen(fd);
	cr_assert_eq(event_log_reader__open(r, *f, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(replay__run(rp, *r, opts, err, sizeof(err)), 0, "%s", err);
}

Test(event_log, replay_rebuilds_the_build_from_the_log)
{
	struct replay_opts opts = {};
	struct event_log_reader *r;
	struct replay rp;
	FILE *f;
	int fd = write_sample(SCHED_SUMMARY, true);

	run_replay(fd, &opts, &rp, &r, &f);
	cr_assert(rp.complete);
	cr_assert_null(rp.partial_reason);
	cr_assert_not_null(rp.sched, "the recording's level (summary) is the default");
	cr_assert(eq(sz, rp.model->nr_procs, 2));
	cr_assert(eq(u64, rp.end_ns, START + 50000000));
	cr_assert(eq(int, replay__exit_code(&rp), 2));
	cr_assert(eq(u32, synth_proc_of(rp.model, CHILD)->exit_status, 1 << 8));
	cr_assert(eq(u64, rp.model->stats.events, 5));
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

Test(event_log, replay_lowers_the_sched_level_but_never_raises_it)
{
	struct replay_opts off = { .sched = SCHED_OFF, .sched_given = true };
	struct replay_opts full = { .sched = SCHED_FULL, .sched_given = true };
	struct event_log_reader *r;
	struct replay rp;
	char err[256];
	FILE *f;
	int fd = write_sample(SCHED_SUMMARY, true);

	run_replay(fd, &off, &rp, &r, &f);
	cr_assert_null(rp.sched);
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);

	f = reopen(fd);
	cr_assert_eq(event_log_reader__open(&r, f, err, sizeof(err)), 0);
	cr_assert_eq(replay__run(&rp, r, &full, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "recorded with --sched=summary") != NULL, "%s", err);
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

Test(event_log, a_log_cut_short_replays_as_partial_up_to_its_last_record)
{
	struct replay_opts opts = {};
	struct event_log_reader *r;
	struct replay rp;
	FILE *f;
	int fd = write_sample(SCHED_OFF, false);

	run_replay(fd, &opts, &rp, &r, &f);
	cr_assert_not(rp.complete);
	cr_assert_not_null(rp.partial_reason);
	cr_assert(strstr(rp.partial_reason, "cut short") != NULL, "%s", rp.partial_reason);
	cr_assert(eq(u64, rp.end_ns, START + 50000000), "ends with the last record");
	cr_assert(eq(int, replay__exit_code(&rp), -1), "no waitpid status without a trailer");
	cr_assert(eq(sz, rp.model->nr_procs, 2));
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

Test(event_log, records_dated_past_the_span_are_left_out_and_counted)
{
	struct event_log_info info = sample_info(SCHED_SUMMARY);
	struct replay_opts opts = { .max_span_ns = 1000000000ull };
	struct bbl_trailer t = { .end_ns = START + 1000, .flags = 0 };
	struct bb_cpu_idle_event idle = {};
	struct event_log_writer *w;
	struct event_log_reader *r;
	struct replay rp;
	FILE *f;
	int fd = memfd_create("bbl", 0);

	cr_assert_eq(event_log_writer__open(&w, fd, &info), 0);
	add_exec(w, START + 10, ROOT, 1, "/bin/sh", "sh");
	/* An idle period a year long: the counters would need 300k buckets. */
	header(&idle.hdr, BB_EV_CPU_IDLE, START + 365ull * 86400 * 1000000000ull, 0);
	idle.start_ns = START;
	add(w, &idle, sizeof(idle));
	cr_assert_eq(event_log_writer__finish(w, &t, false), 0);
	event_log_writer__free(w);

	run_replay(fd, &opts, &rp, &r, &f);
	cr_assert(eq(u64, rp.out_of_range, 1));
	cr_assert(eq(sz, rp.sched->records, 0));
	replay__free(&rp);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

/* ---- hostile recordings: a few hundred bytes, bounded work and memory ---- */

#define SEC 1000000000ull
#define HOUR (3600 * SEC)
/* Generous: each of these converts in milliseconds, and took 20 s to
 * minutes or a gigabyte before the bounds. */
#define BUDGET_CPU_SEC 2.0
#define BUDGET_RSS_MB 200

/* A recording of one make process: its exec, then what the caller adds. */
static struct event_log_writer *hostile_begin(const struct event_log_info *info, int *fd)
{
	struct event_log_writer *w;

	*fd = memfd_create("bbl", 0);
	cr_assert_geq(*fd, 0);
	cr_assert_eq(event_log_writer__open(&w, *fd, info), 0);
	add_exec(w, START + 10, ROOT, 1, "/usr/bin/make", "make");
	return w;
}

/* Its exit and a trailer at end_ns: a complete recording, and a small one. */
static void hostile_end(struct event_log_writer *w, int fd, __u64 end_ns)
{
	struct bbl_trailer t = { .end_ns = end_ns, .exit_ns = end_ns, .flags = BBL_EXITED };

	add_exit(w, end_ns, ROOT, 0);
	cr_assert_eq(event_log_writer__finish(w, &t, false), 0);
	event_log_writer__free(w);
	cr_assert_lt(lseek(fd, 0, SEEK_END), 64 << 10);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	cr_assert_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Replays fd and writes its trace as `convert` does, within the budget: the
 * CPU time it took and this test process's peak RSS (each test runs in its
 * own process).
 */
static void convert_within_budget(int fd, struct replay *rp, struct event_log_reader **r, FILE **f)
{
	struct replay_opts opts = {};
	struct trace_meta meta = {};
	struct rusage ru;
	double cpu = cpu_seconds();
	int out = open("/dev/null", O_WRONLY | O_CLOEXEC);

	cr_assert_geq(out, 0);
	run_replay(fd, &opts, rp, r, f);
	meta.info = rp->info;
	meta.sched = rp->sched;
	cr_assert_eq(chrome_trace__write(rp->model, &meta, out), 0);
	close(out);
	cpu = cpu_seconds() - cpu;
	cr_assert_eq(getrusage(RUSAGE_SELF, &ru), 0);
	cr_assert_lt(cpu, BUDGET_CPU_SEC, "converting took %.2f s of CPU", cpu);
	cr_assert_lt(ru.ru_maxrss / 1024, BUDGET_RSS_MB, "converting peaked at %ld MB", ru.ru_maxrss / 1024);
}

static void free_replay(struct replay *rp, struct event_log_reader *r, FILE *f, int fd)
{
	replay__free(rp);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

static struct event_log_info one_cpu_info(enum sched_level sched, __u64 resolution_ns)
{
	struct event_log_info info = sample_info(sched);

	info.online_cpus = info.possible_cpus = 1;
	info.online_cpu_list = "0";
	info.sched_resolution_ns = resolution_ns;
	return info;
}

/* 1 ns resolution over a second, and a gap before the one slice whose
 * summed idle would be spread over a billion buckets. */
Test(event_log, a_one_ns_resolution_converts_within_budget)
{
	struct event_log_info info = one_cpu_info(SCHED_SUMMARY, 1);
	struct bb_cpu_slice_event slice = {};
	struct event_log_reader *r;
	struct replay rp;
	const struct cpu_lane *lane;
	FILE *f;
	int fd;

	struct event_log_writer *w = hostile_begin(&info, &fd);

	header(&slice.hdr, BB_EV_CPU_SLICE, START + SEC, ROOT);
	slice.start_ns = START + SEC - 1000;
	slice.short_idle_ns = SEC / 10;
	add(w, &slice, sizeof(slice));
	hostile_end(w, fd, START + SEC);
	convert_within_budget(fd, &rp, &r, &f);
	lane = &rp.sched->cpus[0];
	cr_assert(eq(u64, lane->build_ns, 1000));
	cr_assert(eq(u64, lane->idle_ns, SEC / 10), "the summed idle is kept exactly");
	cr_assert(eq(u64, lane->build_ns + lane->other_ns + lane->idle_ns, SEC));
	free_replay(&rp, r, f, fd);
}

/* 8192 possible and online CPUs at 10 ms over an hour: 2.9e9 CPU buckets. */
Test(event_log, eight_thousand_cpus_over_an_hour_convert_within_budget)
{
	struct event_log_info info = sample_info(SCHED_SUMMARY);
	struct bb_cpu_idle_event idle = {};
	struct event_log_reader *r;
	struct replay rp;
	FILE *f;
	int fd;

	struct event_log_writer *w;

	info.online_cpus = info.possible_cpus = BBL_MAX_CPUS;
	info.online_cpu_list = "0-8191";
	w = hostile_begin(&info, &fd);
	header(&idle.hdr, BB_EV_CPU_IDLE, START + HOUR, 0);
	idle.hdr.cpu = BBL_MAX_CPUS - 1;
	idle.start_ns = START;
	add(w, &idle, sizeof(idle));
	hostile_end(w, fd, START + HOUR);
	convert_within_budget(fd, &rp, &r, &f);
	cr_assert(eq(sz, rp.sched->nr_cpus, BBL_MAX_CPUS));
	cr_assert(eq(u64, rp.sched->cpus[0].other_ns, HOUR), "a silent CPU ran outside work all along");
	cr_assert(eq(u64, rp.sched->cpus[BBL_MAX_CPUS - 1].idle_ns, HOUR));
	free_replay(&rp, r, f, fd);
}

/*
 * --sched=full, one idle period of 12 hours (a gigabyte of 1 ms counter
 * buckets), and slices each waiting all that time: the counters coarsen
 * instead of growing with the span, and a wait costs what a short one does.
 */
Test(event_log, full_sched_with_twelve_idle_hours_converts_within_budget)
{
	struct event_log_info info = one_cpu_info(SCHED_FULL, 10000000);
	struct bb_cpu_slice_event slice = {};
	struct bb_cpu_idle_event idle = {};
	struct event_log_writer *w;
	struct event_log_reader *r;
	const struct counter_sample *last;
	struct replay rp;
	__u64 end = START + 12 * HOUR;
	FILE *f;
	size_t i;
	int fd;

	w = hostile_begin(&info, &fd);
	header(&idle.hdr, BB_EV_CPU_IDLE, end - SEC, 0);
	idle.start_ns = START;
	add(w, &idle, sizeof(idle));
	for (i = 0; i < 500; i++) {
		header(&slice.hdr, BB_EV_CPU_SLICE, end - SEC + (i + 1) * 1000000, ROOT);
		slice.start_ns = end - SEC + i * 1000000;
		slice.wait_ns = 12 * HOUR;
		add(w, &slice, sizeof(slice));
	}
	hostile_end(w, fd, end);
	convert_within_budget(fd, &rp, &r, &f);
	cr_assert(eq(u64, rp.sched->cpus[0].idle_ns, 12 * HOUR - SEC));
	cr_assert(eq(u64, rp.sched->cpus[0].build_ns, SEC / 2));
	cr_assert_gt(rp.sched->bucket_ns, 1000000, "counters coarsened past 1 ms");
	cr_assert_leq(12 * HOUR / rp.sched->bucket_ns, 1 << 16, "at most 65,536 counter buckets");
	cr_assert_geq(rp.sched->nr_samples, 2);
	cr_assert(eq(dbl, rp.sched->samples[0].idle_cpus, 1.0), "idle from the start");
	cr_assert(eq(dbl, rp.sched->samples[0].runnable, 500.0), "every wait covers the first bucket whole");
	last = &rp.sched->samples[rp.sched->nr_samples - 1];
	cr_assert(lt(dbl, last->runnable, 500.0), "but not the last, where they end");
	free_replay(&rp, r, f, fd);
}

Test(event_log, cpu_counts_that_disagree_are_refused_clearly)
{
	struct event_log_info more_online = sample_info(SCHED_SUMMARY);
	struct event_log_info list_beyond = sample_info(SCHED_SUMMARY);
	struct event_log_info list_empty = sample_info(SCHED_SUMMARY);
	const struct {
		const struct event_log_info *info;
		const char *says;
	} cases[] = {
		{ &more_online, "2 CPUs online of 1 possible" },
		{ &list_beyond, "online CPU list does not fit its 2 possible CPUs" },
		{ &list_empty, "online CPU list does not fit" },
	};
	struct event_log_reader *r;
	struct event_log_writer *w;
	char err[256];
	size_t i;

	more_online.possible_cpus = 1;
	more_online.online_cpu_list = NULL;
	list_beyond.online_cpu_list = "0,8000";
	list_empty.online_cpu_list = "9000";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int fd = memfd_create("bbl", 0);
		FILE *f;

		cr_assert_eq(event_log_writer__open(&w, fd, cases[i].info), 0);
		cr_assert_eq(event_log_writer__flush(w), 0);
		event_log_writer__free(w);
		f = reopen(fd);
		cr_assert(eq(int, event_log_reader__open(&r, f, err, sizeof(err)), -EBADMSG), "case %zu", i);
		cr_assert(strstr(err, cases[i].says) != NULL, "case %zu: %s", i, err);
		cr_assert(strstr(err, "corrupt") == err, "%s", err);
		fclose(f);
		close(fd);
	}
}

/* ---- checked-in recordings, made by buildbpf itself ---- */

static struct json_object *convert_fixture(const char *name, struct replay *rp)
{
	struct replay_opts opts = {};
	struct event_log_reader *r;
	struct trace_meta meta = {};
	struct json_object *trace;
	char path[256], err[256];
	int out = memfd_create("trace", 0);
	size_t len;
	char *text;
	FILE *f;

	snprintf(path, sizeof(path), "tests/fixtures/%s", name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: %s (run the tests from the repository root)", path, strerror(errno));
	cr_assert_eq(event_log_reader__open(&r, f, err, sizeof(err)), 0, "%s: %s", path, err);
	cr_assert_eq(replay__run(rp, r, &opts, err, sizeof(err)), 0, "%s: %s", path, err);
	meta.info = rp->info;
	meta.lost_events = rp->lost_events;
	meta.sched = rp->sched;
	meta.partial_reason = rp->partial_reason;
	cr_assert_eq(chrome_trace__write(rp->model, &meta, out), 0);
	text = (char *)slurp(out, &len);
	text = realloc(text, len + 1);
	text[len] = '\0';
	trace = json_tokener_parse(text);
	cr_assert_not_null(trace, "%s: the trace is not JSON", name);
	free(text);
	close(out);
	event_log_reader__free(r);
	fclose(f);
	return trace;
}

Test(event_log, fixture_of_a_complete_build_converts_without_root)
{
	struct replay rp;
	struct json_object *trace = convert_fixture("sh-children.bbl", &rp);

	/* sh -c 'sleep 0.1 & ls / >/dev/null; wait; exit 4' */
	cr_assert(rp.complete);
	cr_assert_null(rp.partial_reason);
	cr_assert(eq(int, replay__exit_code(&rp), 4));
	cr_assert(eq(sz, rp.model->nr_procs, 3));
	cr_assert(eq(i64, bb_other_int(trace, "processes"), 3));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	cr_assert_not_null(rp.sched);
	json_object_put(trace);
	replay__free(&rp);
}

Test(event_log, fixture_of_a_killed_recording_converts_as_partial)
{
	struct replay rp;
	struct json_object *trace = convert_fixture("killed.bbl", &rp);
	struct json_object *od, *partial;

	/* buildbpf record SIGKILLed during sh -c 'true; true; sleep 5' */
	cr_assert_not(rp.complete);
	cr_assert(eq(int, replay__exit_code(&rp), -1));
	cr_assert_geq(rp.model->nr_procs, 2);
	cr_assert(json_object_object_get_ex(trace, "otherData", &od));
	cr_assert(json_object_object_get_ex(od, "partial", &partial));
	cr_assert(json_object_get_boolean(partial));
	json_object_put(trace);
	replay__free(&rp);
}

/* Writes just the INFO of info and reads it back: 0, or the reader's error. */
static int info_round_trip(const struct event_log_info *info, struct event_log_reader **r, FILE **f, int *fd)
{
	struct event_log_writer *w;
	char err[256];

	*fd = memfd_create("bbl", 0);
	cr_assert_geq(*fd, 0);
	cr_assert_eq(event_log_writer__open(&w, *fd, info), 0);
	event_log_writer__free(w);
	*f = reopen(*fd);
	return event_log_reader__open(r, *f, err, sizeof(err));
}

Test(event_log, attached_and_cgroup_recordings_say_so)
{
	struct event_log_info info = sample_info(SCHED_OFF);
	struct event_log_reader *r;
	FILE *f;
	int fd;

	info.attached = true;
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
	cr_assert(event_log_reader__info(r)->attached);
	cr_assert_null(event_log_reader__info(r)->cgroup);
	event_log_reader__free(r);
	fclose(f);
	close(fd);

	/* --cgroup: no root process, which only a cgroup recording may say. */
	info.attached = false;
	info.root_pid = 0;
	info.cgroup = "/sys/fs/cgroup/unified/ci";
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
	cr_assert_str_eq(event_log_reader__info(r)->cgroup, "/sys/fs/cgroup/unified/ci");
	cr_assert_eq(event_log_reader__info(r)->root_pid, 0);
	cr_assert_not(event_log_reader__info(r)->attached);
	event_log_reader__free(r);
	fclose(f);
	close(fd);

	/* --follow: the daemons, as a list. */
	info.cgroup = NULL;
	info.root_pid = ROOT;
	info.follow = (const pid_t[]){ 4242, 77 };
	info.nr_follow = 2;
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
	cr_assert_eq(event_log_reader__info(r)->nr_follow, 2);
	cr_assert_eq(event_log_reader__info(r)->follow[0], 4242);
	cr_assert_eq(event_log_reader__info(r)->follow[1], 77);
	event_log_reader__free(r);
	fclose(f);
	close(fd);

	info.follow = NULL;
	info.nr_follow = 0;
	info.root_pid = 0;
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), -EBADMSG);
	fclose(f);
	close(fd);
}

/* convert --add places logs of several hosts by these: they survive the round trip. */
Test(event_log, host_and_clock_accuracy_round_trip)
{
	struct event_log_info info = sample_info(SCHED_OFF);
	const struct event_log_info *got;
	struct event_log_reader *r;
	FILE *f;
	int fd;

	info.host = "worker-1";
	info.realtime_offset_err_ns = 37;
	info.clock_esterror_us = 1500;
	info.clock_synced = true;
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
	got = event_log_reader__info(r);
	cr_assert_str_eq(got->host, "worker-1");
	cr_assert_eq(got->realtime_offset_err_ns, 37);
	cr_assert_eq(got->clock_esterror_us, 1500);
	cr_assert(got->clock_synced);
	event_log_reader__free(r);
	fclose(f);
	close(fd);

	/* An older recording without them reads as unknown. */
	info.host = NULL;
	info.realtime_offset_err_ns = 0;
	cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
	got = event_log_reader__info(r);
	cr_assert_null(got->host);
	cr_assert_eq(got->realtime_offset_err_ns, 0);
	cr_assert_not(got->clock_synced);
	event_log_reader__free(r);
	fclose(f);
	close(fd);
}

/*
 * The file-dependency and memory hooks the recording's kernel allowed,
 * recorded or not; older recordings have neither (UNKNOWN, 0).
 */
Test(event_log, kernel_hooks_round_trip_and_read_as_unknown_when_absent)
{
	struct event_log_info info = sample_info(SCHED_OFF);
	const struct event_log_info *got;
	struct event_log_reader *r;
	FILE *f;
	int fd;

	for (int h = 0; h <= MEM_HOOK_SYSCALL; h++) {
		info.deps_hook = (enum deps_hook)(h % (DEPS_HOOK_SYSCALL + 1));
		info.mem_hook = (enum mem_hook)h;
		cr_assert_eq(info_round_trip(&info, &r, &f, &fd), 0);
		got = event_log_reader__info(r);
		cr_assert(eq(int, got->deps_hook, info.deps_hook));
		cr_assert(eq(int, got->mem_hook, info.mem_hook));
		event_log_reader__free(r);
		fclose(f);
		close(fd);
	}
}
