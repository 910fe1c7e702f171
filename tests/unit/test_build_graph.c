// SPDX-License-Identifier: GPL-2.0
/*
 * The file log and the build graph from synthetic records (no root): data
 * edges exactly as declared, once per (reader, file), renames, and the
 * critical path of builds whose answer is known.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/graph_run.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define DEV 8
#define ROOT 100 /* make, the command of every build here */

struct fixture {
	struct model *m;
	struct file_log *fl;
	struct graph_run g;
};

static void begin(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(ROOT, 0);
	f->fl = file_log__new();
	cr_assert(f->m && f->fl);
}

/* A child process of parent running program during [start, end] (ms). */
static void proc(struct fixture *f, __u32 parent, __u32 pid, const char *program, __u64 start, __u64 end)
{
	synth_fork(f->m, start * MS, parent, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, parent, program, (const char *[]){ program, NULL });
	synth_exit(f->m, end * MS, pid, pid, true, 0);
}

/* A job of make: pid runs program during [start, end] (ms). */
struct step {
	__u32 pid;
	const char *program;
	__u64 start, end;
};

/* pid opened file ino (path) at `at` ms, for writing or reading. */
struct open {
	__u64 at;
	__u32 pid;
	__u64 ino;
	bool write;
	const char *path;
};

/* After begin(): make's jobs, then the files they opened (either may be empty). */
static void build(struct fixture *f, const struct step *steps, size_t nr_steps, const struct open *opens,
		  size_t nr_opens)
{
	size_t i;

	for (i = 0; i < nr_steps; i++)
		proc(f, ROOT, steps[i].pid, steps[i].program, steps[i].start, steps[i].end);
	for (i = 0; i < nr_opens; i++)
		synth_file_open(f->fl, opens[i].at * MS, opens[i].pid, DEV, opens[i].ino, opens[i].write,
				opens[i].path);
}

#define BUILD(f, steps, opens) \
	build(f, steps, sizeof(steps) / sizeof(steps[0]), opens, sizeof(opens) / sizeof(opens[0]))

/* make ends at end_ms; the model and the graph are computed. */
static void compute(struct fixture *f, __u64 end_ms)
{
	enum graph_step failed;

	synth_exit(f->m, end_ms * MS, ROOT, ROOT, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
	file_log__finish(f->fl);
	cr_assert(eq(int, with_slots__graph_run(&f->g, f->m, f->fl, NULL, &failed), 0));
}

static void end(struct fixture *f)
{
	graph_run__free(&f->g);
	file_log__free(f->fl);
	model__free(f->m);
}

static size_t idx(const struct fixture *f, __u32 pid)
{
	size_t i;

	for (i = 0; i < f->m->nr_procs; i++)
		if (f->m->procs[i].pid == pid)
			return i;
	cr_fatal("no process %u", pid);
	return 0;
}

static bool has_edge(const struct fixture *f, __u32 writer, __u32 reader, const char *path)
{
	size_t i;

	for (i = 0; i < f->g.data.nr_edges; i++) {
		const struct graph_edge *e = &f->g.data.edges[i];

		if (e->writer == idx(f, writer) && e->reader == idx(f, reader) &&
		    !strcmp(e->path, path))
			return true;
	}
	return false;
}

/*
 * The known graph: gen (0.5 s) writes gen.h; a.o (1 s) reads it;
 * b.o (2 s) and c.o (3 s) are independent; link (0.5 s) reads the three
 * objects.  make (pid 100) runs them in parallel.
 */
static void known_build(struct fixture *f)
{
	static const struct step steps[] = {
		{ 101, "gen", 1, 500 }, { 102, "cc", 501, 1500 }, { 103, "cc", 2, 2000 },
		{ 104, "cc", 3, 3000 }, { 105, "ld", 3001, 3500 },
	};
	static const struct open opens[] = {
		{ 400, 101, 1, true, "src/gen.h" },   { 600, 102, 1, false, "src/gen.h" },
		{ 700, 102, 1, false, "src/gen.h" }, /* again: still one edge */
		{ 1400, 102, 2, true, "src/a.o" },    { 1900, 103, 3, true, "src/b.o" },
		{ 2900, 104, 4, true, "src/c.o" },    { 3100, 105, 2, false, "src/a.o" },
		{ 3101, 105, 3, false, "src/b.o" },   { 3102, 105, 4, false, "src/c.o" },
		{ 3400, 105, 5, true, "src/prog" },
	};

	begin(f);
	synth_exec(f->m, 1, ROOT, 1, "/usr/bin/make", (const char *[]){ "make", "-j4", NULL });
	BUILD(f, steps, opens);
	synth_file_counts(f->fl, 3500 * MS, 105, 40, 1);
	compute(f, 3510);
}

Test(build_graph, edges_of_a_known_build_are_exactly_the_declared_ones)
{
	struct fixture f;

	known_build(&f);
	cr_assert(eq(sz, f.g.data.nr_edges, 4));
	cr_assert(has_edge(&f, 101, 102, "/src/gen.h"));
	cr_assert(has_edge(&f, 102, 105, "/src/a.o"));
	cr_assert(has_edge(&f, 103, 105, "/src/b.o"));
	cr_assert(has_edge(&f, 104, 105, "/src/c.o"));
	cr_assert(eq(sz, f.g.data.nr_files, 5));
	cr_assert(f.g.data.proc_files[idx(&f, 105)].known);
	cr_assert(eq(u32, f.g.data.proc_files[idx(&f, 105)].opened, 40));
	cr_assert(eq(u32, f.g.data.proc_files[idx(&f, 105)].written, 1));
	cr_assert_not(f.g.data.proc_files[idx(&f, 104)].known);
	end(&f);
}

Test(build_graph, critical_path_of_a_known_build_is_the_longest_chain)
{
	struct fixture f;

	known_build(&f);
	/* make forks c.o; c.o's object is the link's last input; make waits for the link. */
	cr_assert(eq(sz, f.g.path.nr, 4));
	cr_assert(eq(sz, f.g.path.steps[0].proc, idx(&f, 100)));
	cr_assert(eq(int, f.g.path.steps[0].via, LINK_SPAWN));
	cr_assert(eq(sz, f.g.path.steps[1].proc, idx(&f, 104)));
	cr_assert(eq(int, f.g.path.steps[1].via, LINK_INPUT));
	cr_assert(eq(sz, f.g.data.edges[f.g.path.steps[1].edge].writer, idx(&f, 104)));
	cr_assert(eq(sz, f.g.data.edges[f.g.path.steps[1].edge].reader, idx(&f, 105)));
	cr_assert(eq(str, (char *)f.g.data.files[f.g.data.edges[f.g.path.steps[1].edge].file].path, "/src/c.o"));
	cr_assert(eq(u64, f.g.path.steps[1].from_ns, 3 * MS));
	cr_assert(eq(u64, f.g.path.steps[1].to_ns, 3000 * MS));
	cr_assert(eq(sz, f.g.path.steps[2].proc, idx(&f, 105)));
	cr_assert(eq(int, f.g.path.steps[2].via, LINK_WAIT));
	cr_assert(eq(sz, f.g.path.steps[3].proc, idx(&f, 100)));
	cr_assert(eq(int, f.g.path.steps[3].via, LINK_END));
	cr_assert(eq(u64, f.g.path.steps[3].to_ns, 3510 * MS));
	end(&f);
}

Test(build_graph, slower_input_moves_the_critical_path)
{
	struct fixture f;

	/* gen -> a.o now outlasts c.o: the path goes through gen and a.o. */
	static const struct step steps[] = {
		{ 101, "gen", 1, 2500 }, { 102, "cc", 2501, 3600 }, { 104, "cc", 3, 3000 }, { 105, "ld", 3601, 4000 },
	};
	static const struct open opens[] = {
		{ 2400, 101, 1, true, "gen.h" }, { 2600, 102, 1, false, "gen.h" }, { 3500, 102, 2, true, "a.o" },
		{ 2900, 104, 4, true, "c.o" },	 { 3700, 105, 2, false, "a.o" },   { 3701, 105, 4, false, "c.o" },
	};

	begin(&f);
	BUILD(&f, steps, opens);
	compute(&f, 4010);
	cr_assert(eq(sz, f.g.path.nr, 5));
	cr_assert(eq(sz, f.g.path.steps[1].proc, idx(&f, 101)));
	cr_assert(eq(sz, f.g.path.steps[2].proc, idx(&f, 102)));
	cr_assert(eq(sz, f.g.path.steps[3].proc, idx(&f, 105)));
	end(&f);
}

Test(build_graph, a_storm_of_independent_jobs_is_no_chain)
{
	struct fixture f;
	__u32 i;

	/* make -j2 of 400 trues, two at a time, no file between them. */
	begin(&f);
	for (i = 0; i < 400; i++)
		proc(&f, ROOT, 1000 + i, "true", 1 + (i / 2) * 3 + (i % 2), 3 + (i / 2) * 3 + (i % 2));
	compute(&f, 700);
	cr_assert(eq(sz, f.g.data.nr_edges, 0));
	cr_assert(eq(sz, f.g.path.nr, 3), "make, the last true, make: not a chain of trues (%zu)", f.g.path.nr);
	cr_assert(eq(sz, f.g.path.steps[1].proc, idx(&f, 1399)));
	end(&f);
}

Test(build_graph, a_shell_that_runs_commands_in_turn_waits_for_each)
{
	struct fixture f;

	static const struct step steps[] = { { 101, "a", 1, 10 }, { 102, "b", 11, 20 }, { 103, "c", 21, 30 } };

	begin(&f);
	build(&f, steps, 3, NULL, 0);
	compute(&f, 31);
	/* sh, a, sh, b, sh, c, sh */
	cr_assert(eq(sz, f.g.path.nr, 7));
	cr_assert(eq(sz, f.g.path.steps[1].proc, idx(&f, 101)));
	cr_assert(eq(sz, f.g.path.steps[3].proc, idx(&f, 102)));
	cr_assert(eq(sz, f.g.path.steps[5].proc, idx(&f, 103)));
	cr_assert(eq(u64, f.g.path.held_ns, 31 * MS), "the steps cover the wall time");
	end(&f);
}

Test(build_graph, a_rename_makes_its_process_the_writer_and_renames_the_file)
{
	struct fixture f;

	static const struct step steps[] = { { 101, "ar", 1, 10 }, { 102, "mv", 11, 12 }, { 103, "ld", 13, 20 } };
	static const struct open opens[] = {
		{ 5, 101, 7, true, "b/out/libx.a.tmp" },
		{ 14, 103, 7, false, "b/out/libx.a" },
	};

	begin(&f);
	BUILD(&f, steps, opens);
	synth_file_rename(f.fl, 11 * MS + 500, 102, "./out/libx.a.tmp", "out/libx.a");
	compute(&f, 21);
	cr_assert(eq(sz, f.g.data.nr_renames_matched, 1));
	cr_assert(eq(sz, f.g.data.nr_edges, 1));
	cr_assert(has_edge(&f, 102, 103, "/b/out/libx.a"));
	end(&f);
}

Test(build_graph, reads_before_any_write_and_of_ones_own_output_are_no_edges)
{
	struct fixture f;

	static const struct step steps[] = { { 101, "cc", 1, 10 }, { 102, "cat", 2, 3 } };
	static const struct open opens[] = {
		{ 4, 101, 9, true, "x" },
		{ 5, 101, 9, false, "x" }, /* its own */
		{ 6, 555, 9, false, "x" }, /* no such process */
	};

	begin(&f);
	BUILD(&f, steps, opens);
	synth_file_open(f.fl, 2500000, 102, DEV, 9, false, "x"); /* at 2.5 ms, before cc writes it */
	compute(&f, 11);
	cr_assert(eq(sz, f.g.data.nr_edges, 0));
	cr_assert(eq(sz, f.g.data.unmatched, 1));
	end(&f);
}

/*
 * ninja reads and deletes each compiler's .d file; the next compile's .d
 * gets the freed inode.  Each is its own file: both edges are kept.
 */
Test(build_graph, an_inode_freed_and_reused_under_another_name_is_a_new_file)
{
	struct fixture f;

	static const struct step steps[] = { { 101, "cc", 1, 10 }, { 102, "cc", 20, 30 } };
	static const struct open opens[] = {
		{ 5, 101, 7, true, "a.c.o.d" },	  { 11, ROOT, 7, false, "a.c.o.d" },
		{ 25, 102, 7, true, "b.c.o.d" },  { 31, ROOT, 7, false, "b.c.o.d" },
		{ 32, 102, 7, true, "b.c.o.d" }, /* the same name again: the same file */
		{ 33, ROOT, 7, false, "b.c.o.d" },
	};

	begin(&f);
	BUILD(&f, steps, opens);
	compute(&f, 40);
	cr_assert(eq(sz, f.g.data.nr_edges, 2));
	cr_assert(has_edge(&f, 101, ROOT, "/a.c.o.d"));
	cr_assert(has_edge(&f, 102, ROOT, "/b.c.o.d"));
	cr_assert(eq(sz, f.g.data.nr_files, 2));
	cr_assert(eq(str, (char *)f.g.data.files[f.g.data.edges[0].file].path, "/a.c.o.d"));
	cr_assert(eq(str, (char *)f.g.data.files[f.g.data.edges[1].file].path, "/b.c.o.d"));
	end(&f);
}

Test(build_graph, without_a_file_log_the_tree_still_gives_a_path)
{
	struct model *m = model__new(100, 0);
	struct graph_run g;
	enum graph_step failed;

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_exit(m, 5 * MS, 101, 101, true, 0);
	synth_exit(m, 6 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 6 * MS), 0));
	cr_assert(eq(int, with_slots__graph_run(&g, m, NULL, NULL, &failed), 0));
	cr_assert(eq(sz, g.data.nr_edges, 0));
	cr_assert(eq(sz, g.path.nr, 3));
	graph_run__free(&g);
	graph_run__free(NULL);
	model__free(m);
}

Test(file_log, paths_join_leaf_first_names_and_say_when_cut)
{
	struct file_log *fl = file_log__new();
	struct bb_file_event e = synth_file_event(1, 100, DEV, 1, true, "a/b/c/d/e/f/g/h/i/j");
	struct bb_file_event whole = synth_file_event(2, 100, DEV, 2, false, "usr/src/x.c");

	cr_assert_not_null(fl);
	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), 0);
	cr_assert_eq(file_log__add(fl, &whole, sizeof(whole)), 0);
	file_log__finish(fl);
	cr_assert(eq(str, fl->opens[0].path, "\xe2\x80\xa6/a/b/c/d/e/f/g/h"));
	cr_assert(fl->opens[0].write);
	cr_assert(eq(str, fl->opens[1].path, "/usr/src/x.c"));
	cr_assert_not(fl->opens[1].write);
	file_log__free(fl);
	file_log__free(NULL);
}

Test(file_log, malformed_records_are_refused_and_counted)
{
	struct file_log *fl = file_log__new();
	struct bb_file_event e = synth_file_event(1, 100, DEV, 1, true, "a");

	cr_assert_eq(file_log__add(fl, &e, sizeof(e) - 1), -EINVAL);
	e.nr_names = BB_FILE_NAMES + 1;
	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), -EINVAL);
	e.hdr.type = BB_EV_FORK;
	cr_assert_eq(file_log__add(fl, &e, sizeof(e)), -EINVAL);
	cr_assert(eq(sz, fl->malformed, 3));
	cr_assert(eq(sz, fl->nr_opens, 0));
	file_log__free(fl);
}

/* A log recorded with --deps=deps: make (ROOT) writes one file and reads it back through a child. */
static int write_deps_log(bool deps)
{
	static char *argv[] = { "make", NULL };
	struct event_log_info info = {
		.buildbpf_version = "9.9.9", .kernel_release = "6.18.0-test", .user = "builder",
		.online_cpus = 1, .possible_cpus = 1, .page_size = 4096, .start_ns = MS, .root_pid = 100,
		.args_max = 16384, .ringbuf_bytes = 1 << 24, .sched = SCHED_OFF, .sched_resolution_ns = 10 * MS,
		.deps = deps, .cmd_argv = argv, .cmd_argc = 1,
	};
	struct bbl_trailer t = { .end_ns = 10 * MS, .exit_ns = 10 * MS, .flags = BBL_EXITED };
	struct bb_file_event w = synth_file_event(2 * MS, 100, DEV, 1, true, "x");
	struct bb_file_event r = synth_file_event(3 * MS, 100, DEV, 1, false, "x");
	struct event_log_writer *lw;
	int fd = memfd_create("bbl", 0);

	cr_assert_geq(fd, 0);
	cr_assert_eq(event_log_writer__open(&lw, fd, &info), 0);
	if (deps) {
		cr_assert_eq(event_log_writer__add(lw, &w, sizeof(w)), 0);
		cr_assert_eq(event_log_writer__add(lw, &r, sizeof(r)), 0);
	}
	cr_assert_eq(event_log_writer__finish(lw, &t, false), 0);
	event_log_writer__free(lw);
	return fd;
}

/* Replays the log on fd; *recorded: the recording's --deps (rp->info is the reader's, freed here). */
static int replay_deps_log(int fd, const struct replay_opts *opts, struct replay *rp, bool *recorded, char *err,
			   size_t size)
{
	struct event_log_reader *r;
	FILE *f;
	int e, d = dup(fd);

	cr_assert_geq(d, 0);
	cr_assert_eq(lseek(d, 0, SEEK_SET), 0);
	f = fdopen(d, "r");
	cr_assert_not_null(f);
	cr_assert_eq(event_log_reader__open(&r, f, err, size), 0, "%s", err);
	e = replay__run(rp, r, opts, err, size);
	*recorded = event_log_reader__info(r)->deps;
	rp->info = NULL;
	event_log_reader__free(r);
	fclose(f);
	return e;
}

Test(file_log, deps_level_is_in_the_log_and_can_be_lowered_never_raised)
{
	struct replay_opts recorded = {}, off = { .deps = false, .deps_given = true }, on = { .deps = true, .deps_given = true };
	struct replay rp;
	bool recorded_deps;
	char err[256];
	int with = write_deps_log(true), without = write_deps_log(false);

	cr_assert_eq(replay_deps_log(with, &recorded, &rp, &recorded_deps, err, sizeof(err)), 0, "%s", err);
	cr_assert(recorded_deps);
	cr_assert_not_null(rp.files);
	cr_assert(eq(sz, rp.files->nr_opens, 2));
	cr_assert(eq(sz, rp.model->stats.malformed, 0), "file records are not the process model's");
	replay__free(&rp);

	cr_assert_eq(replay_deps_log(with, &off, &rp, &recorded_deps, err, sizeof(err)), 0, "%s", err);
	cr_assert_null(rp.files, "convert --deps=off drops them");
	replay__free(&rp);

	cr_assert_eq(replay_deps_log(without, &recorded, &rp, &recorded_deps, err, sizeof(err)), 0, "%s", err);
	cr_assert_not(recorded_deps);
	cr_assert_null(rp.files);
	replay__free(&rp);

	cr_assert_eq(replay_deps_log(without, &on, &rp, &recorded_deps, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "recorded with --deps=off") != NULL, "%s", err);
	replay__free(&rp);
	close(with);
	close(without);
}

/*
 * A recording whose file records include a hidden process's, as a kernel
 * program that forgot the rule would send them: make (ROOT) forks 101,
 * which the kernel hid (setuid), writes, renames and counts a secret, and
 * exits; make writes and reads back a file of its own.
 */
static int write_hidden_writer_log(void)
{
	static char *argv[] = { "make", NULL };
	struct event_log_info info = {
		.buildbpf_version = "9.9.9", .kernel_release = "6.12.0-test", .user = "builder",
		.online_cpus = 1, .possible_cpus = 1, .page_size = 4096, .start_ns = MS, .root_pid = ROOT,
		.args_max = 16384, .ringbuf_bytes = 1 << 24, .sched = SCHED_OFF, .sched_resolution_ns = 10 * MS,
		.deps = true, .cmd_argv = argv, .cmd_argc = 1,
	};
	struct bbl_trailer t = { .end_ns = 10 * MS, .exit_ns = 10 * MS, .flags = BBL_EXITED };
	struct bb_fork_event fork = { .hdr = { .ts_ns = 2 * MS, .type = BB_EV_FORK, .pid = 101, .tgid = 101 },
				      .parent_pid = ROOT, .parent_tgid = ROOT, .ns_tgid = 101, .comm = "keeper" };
	struct bb_file_event secret = synth_file_event(3 * MS, 101, DEV, 1, true, "vault/suid.secret.new");
	struct bb_file_rename_event rename = { .hdr = { .ts_ns = 3 * MS + 1, .type = BB_EV_FILE_RENAME, .pid = 101,
							.tgid = 101 },
					       .old_path = "vault/suid.secret.new", .new_path = "vault/suid.secret" };
	struct bb_file_counts_event counts = { .hdr = { .ts_ns = 4 * MS, .type = BB_EV_FILE_COUNTS, .pid = 101,
							.tgid = 101 },
					       .counts = { .opened = 1, .written = 1 } };
	struct bb_exit_event exit = { .hdr = { .ts_ns = 4 * MS, .type = BB_EV_EXIT, .pid = 101, .tgid = 101 },
				      .flags = BB_EXIT_GROUP_DEAD, .hidden = BB_HIDDEN_CREDS };
	struct bb_file_event own = synth_file_event(5 * MS, ROOT, DEV, 2, true, "plain.o");
	struct bb_file_event own_read = synth_file_event(6 * MS, ROOT, DEV, 2, false, "plain.o");
	struct event_log_writer *lw;
	int fd = memfd_create("bbl", 0);

	cr_assert_geq(fd, 0);
	cr_assert_eq(event_log_writer__open(&lw, fd, &info), 0);
	cr_assert_eq(event_log_writer__add(lw, &fork, sizeof(fork)), 0);
	cr_assert_eq(event_log_writer__add(lw, &secret, sizeof(secret)), 0);
	cr_assert_eq(event_log_writer__add(lw, &rename, sizeof(rename)), 0);
	cr_assert_eq(event_log_writer__add(lw, &counts, sizeof(counts)), 0);
	cr_assert_eq(event_log_writer__add(lw, &exit, sizeof(exit)), 0);
	cr_assert_eq(event_log_writer__add(lw, &own, sizeof(own)), 0);
	cr_assert_eq(event_log_writer__add(lw, &own_read, sizeof(own_read)), 0);
	cr_assert_eq(event_log_writer__finish(lw, &t, false), 0);
	event_log_writer__free(lw);
	return fd;
}

Test(file_log, a_hidden_process_file_records_are_dropped_however_they_came)
{
	struct replay_opts recorded = {};
	struct replay rp;
	bool recorded_deps;
	char err[256];
	int fd = write_hidden_writer_log();
	size_t i;

	cr_assert_eq(replay_deps_log(fd, &recorded, &rp, &recorded_deps, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(synth_proc_of(rp.model, 101));
	cr_assert(eq(u32, synth_proc_of(rp.model, 101)->hidden, BB_HIDDEN_CREDS));
	cr_assert(eq(sz, rp.files->nr_opens, 2), "make's write and read, not the keeper's secret");
	for (i = 0; i < rp.files->nr_opens; i++)
		cr_assert(eq(u32, rp.files->opens[i].tgid, ROOT), "%s", rp.files->opens[i].path);
	cr_assert(eq(sz, rp.files->nr_renames, 0), "the keeper's rename");
	cr_assert(eq(sz, rp.files->nr_counts, 0), "the keeper's counts");
	replay__free(&rp);
	close(fd);
}

Test(build_graph, a_jobs_shell_waits_for_its_inputs_and_its_own_earlier_commands)
{
	struct fixture f;

	/*
	 * make -j2: job c = sh 101 { sleep 102 (0-3000), echo > c.o by sh };
	 * job link = sh 103 { sleep 104 (3001-3500), cat 105 reads c.o }.
	 * The link waited for c.o (read by its cat, a descendant), then for
	 * its own sleep: the path is sleep 3 s, then sleep 0.5 s, then cat.
	 */
	begin(&f);
	synth_fork(f.m, 1 * MS, ROOT, 101, 101, false);
	proc(&f, 101, 102, "sleep", 2, 3000);
	synth_exit(f.m, 3000 * MS + 500, 101, 101, true, 0);
	synth_fork(f.m, 3001 * MS, ROOT, 103, 103, false);
	proc(&f, 103, 104, "sleep", 3002, 3500);
	proc(&f, 103, 105, "cat", 3501, 3600);
	synth_exit(f.m, 3601 * MS, 103, 103, true, 0);
	proc(&f, ROOT, 106, "true", 5, 10); /* an unrelated job */
	synth_file_open(f.fl, 3000 * MS + 100, 101, DEV, 3, true, "c.o");
	synth_file_open(f.fl, 3550 * MS, 105, DEV, 3, false, "c.o");
	compute(&f, 3602);
	cr_assert(eq(sz, f.g.data.nr_edges, 1));
	cr_assert(has_edge(&f, 101, 105, "/c.o"));
	/* make, sh c, sleep 3, sh c -(c.o)-> sh link, sleep 0.5, sh link, cat, sh link, make */
	cr_assert(eq(sz, f.g.path.nr, 10), "%zu steps", f.g.path.nr);
	cr_assert(eq(sz, f.g.path.steps[2].proc, idx(&f, 102)));
	cr_assert(eq(int, f.g.path.steps[3].via, LINK_INPUT));
	cr_assert(eq(sz, f.g.path.steps[4].proc, idx(&f, 103)));
	cr_assert(eq(sz, f.g.path.steps[5].proc, idx(&f, 104)));
	cr_assert(eq(sz, f.g.path.steps[7].proc, idx(&f, 105)));
	cr_assert(f.g.path.held_ns > 3590 * MS, "the steps cover the build: %llu", (unsigned long long)f.g.path.held_ns);
	end(&f);
}

Test(build_graph, an_input_ready_before_the_readers_parent_started_is_not_what_it_waited_for)
{
	struct fixture f;
	size_t i;
	bool sleep_on_path = false;

	/*
	 * make -j1: job gen.h = sh 101 writes gen.h (0-600); job a.o = sh 102
	 * { sleep 103 (602-1602), cc 105 (1603-1710) { cc1 104 reads gen.h
	 * (1604-1700) } }.  cc1 is its driver's first child; gen.h was ready
	 * long before the driver started: cc1 waited for the sleep, which the
	 * path must hold.
	 */
	begin(&f);
	synth_fork(f.m, 1 * MS, ROOT, 101, 101, false);
	synth_exit(f.m, 600 * MS, 101, 101, true, 0);
	synth_fork(f.m, 601 * MS, ROOT, 102, 102, false);
	proc(&f, 102, 103, "sleep", 602, 1602);
	synth_fork(f.m, 1603 * MS, 102, 105, 105, false);
	proc(&f, 105, 104, "cc1", 1604, 1700);
	synth_exit(f.m, 1710 * MS, 105, 105, true, 0);
	synth_exit(f.m, 1711 * MS, 102, 102, true, 0);
	synth_file_open(f.fl, 590 * MS, 101, DEV, 1, true, "gen.h");
	synth_file_open(f.fl, 1610 * MS, 104, DEV, 1, false, "gen.h");
	compute(&f, 1712);
	cr_assert(has_edge(&f, 101, 104, "/gen.h"));
	for (i = 0; i < f.g.path.nr; i++)
		sleep_on_path |= f.g.path.steps[i].proc == idx(&f, 103);
	cr_assert(sleep_on_path, "the path holds the 1 s sleep");
	cr_assert(f.g.path.held_ns > 1700 * MS, "the steps cover the build: %llu", (unsigned long long)f.g.path.held_ns);
	end(&f);
}

Test(build_graph, running_a_program_the_build_wrote_is_an_input)
{
	struct fixture f;

	begin(&f);
	proc(&f, ROOT, 101, "/usr/bin/ld", 1, 10);
	synth_fork(f.m, 11 * MS, ROOT, 102, 102, false);
	synth_exec(f.m, 12 * MS, 102, ROOT, "out/gen", (const char *[]){ "out/gen", NULL });
	synth_exit(f.m, 20 * MS, 102, 102, true, 0);
	synth_file_open(f.fl, 5 * MS, 101, DEV, 4, true, "src/out/gen");
	compute(&f, 21);
	cr_assert(eq(sz, f.g.data.nr_edges, 1));
	cr_assert(has_edge(&f, 101, 102, "out/gen"));
	end(&f);
}

/*
 * Without a close event a write-open says when writing began, not ended:
 * a reader started while its writer ran gets no input from it.  A rename
 * is an atomic publish: the reader's input, ready at the rename.
 */
Test(build_graph, only_a_rename_makes_a_file_ready_before_its_writer_ends)
{
	struct fixture f;
	const struct step steps[] = { { 101, "gen", 1, 500 }, { 102, "cc", 200, 600 } };
	const struct open opens[] = {
		{ 100, 101, 1, true, "a.h" },
		{ 150, 101, 2, true, "tmp/b.h" },
		{ 250, 102, 1, false, "a.h" },
		{ 260, 102, 2, false, "b.h" },
	};

	begin(&f);
	build(&f, steps, 2, opens, 4);
	synth_file_rename(f.fl, 160 * MS, 101, "tmp/b.h", "b.h");
	compute(&f, 601);
	cr_assert(eq(sz, f.g.data.nr_edges, 2));
	cr_assert(eq(u64, f.g.data.edges[0].ready_ns, 500 * MS), "a.h: the writer's end");
	cr_assert(eq(u64, f.g.data.edges[1].ready_ns, 160 * MS), "b.h: the rename");
	cr_assert(eq(long, f.g.data.proc_input[idx(&f, 102)], 1));
	end(&f);
}

/*
 * cargo at -j2 often starts a dependent only once a job slot is free, after
 * the writer's end: the .rmeta it reads was still complete at its rename
 * when the writer went on writing (its code), and is ready then.  A rename
 * that was the writer's last write (rustc's .rlib) is ready at its end, as
 * cargo waits for it; and under make, which waits for a recipe's end,
 * every rename a reader started after that end read is ready at the end.
 */
static void rmeta_then_code(struct fixture *f, const char *runner)
{
	const struct step steps[] = { { 101, "rustc", 1, 500 }, { 102, "rustc", 520, 700 } };
	const struct open opens[] = {
		{ 150, 101, 2, true, "deps/rmetaAbC/lib.rmeta" },
		{ 300, 101, 3, true, "deps/heavy.cgu.0.o" },
		{ 480, 101, 4, true, "deps/libheavy.rlib.temp-archive" },
		{ 530, 102, 2, false, "deps/libheavy-1.rmeta" },
		{ 540, 102, 4, false, "deps/libheavy-1.rlib" },
	};

	begin(f);
	synth_exec(f->m, 0, ROOT, 1, runner, (const char *[]){ runner, "build", NULL });
	build(f, steps, 2, opens, 5);
	synth_file_rename(f->fl, 160 * MS, 101, "deps/rmetaAbC/lib.rmeta", "deps/libheavy-1.rmeta");
	synth_file_rename(f->fl, 490 * MS, 101, "deps/libheavy.rlib.temp-archive", "deps/libheavy-1.rlib");
	compute(f, 701);
	cr_assert(eq(sz, f->g.data.nr_edges, 2));
	cr_assert(has_edge(f, 101, 102, "/deps/libheavy-1.rmeta"));
	cr_assert(eq(u64, f->g.data.edges[1].ready_ns, 500 * MS), ".rlib: the writer's end, its last write");
}

Test(build_graph, a_rename_its_writer_wrote_on_after_is_ready_then_for_a_later_reader_under_cargo)
{
	struct fixture f;

	rmeta_then_code(&f, "/usr/bin/cargo");
	cr_assert(eq(u64, f.g.data.edges[0].ready_ns, 160 * MS), ".rmeta: its rename, the writer wrote on");
	end(&f);
	rmeta_then_code(&f, "/usr/bin/make");
	cr_assert(eq(u64, f.g.data.edges[0].ready_ns, 500 * MS), "make waits for the recipe's end");
	end(&f);
}

/* rustc 101 writes its .rmeta at written (the path as its record kept it) and renames it into place; 102 reads it. */
static void renamed_rmeta(struct fixture *f, const char *written)
{
	const struct step steps[] = { { 101, "rustc", 1, 500 }, { 102, "rustc", 200, 600 } };
	const struct open opens[] = {
		{ 150, 101, 2, true, written },
		{ 260, 102, 2, false, "/src/ws/target/release/deps/libheavy-1.rmeta" },
	};

	begin(f);
	build(f, steps, 2, opens, 2);
	synth_file_rename(f->fl, 160 * MS, 101, "/src/ws/target/release/deps/rmetaAbC/lib.rmeta",
			  "/src/ws/target/release/deps/libheavy-1.rmeta");
	compute(f, 601);
}

/*
 * A record keeps a deep path's last components only: rustc's .rmeta is
 * written under the target directory as ".../deps/rmetaXXXX/lib.rmeta",
 * which a deep checkout cuts to "…/…/lib.rmeta", while its rename passes
 * the whole path.  The rename still finds its write, and the reader's
 * input is ready at the rename.
 */
Test(build_graph, a_rename_finds_its_write_whose_path_the_record_cut)
{
	struct fixture f;

	renamed_rmeta(&f, "\xe2\x80\xa6/ws/target/release/deps/rmetaAbC/lib.rmeta");
	cr_assert(eq(sz, f.g.data.nr_renames_matched, 1));
	cr_assert(eq(sz, f.g.data.nr_edges, 1));
	cr_assert(eq(u64, f.g.data.edges[0].ready_ns, 160 * MS), "ready at the rename, not the writer's end");
	end(&f);
}

/* A cut path agrees only as far as it goes: a different directory below the cut is another file. */
Test(build_graph, a_cut_path_of_another_directory_is_not_the_renamed_file)
{
	struct fixture f;

	renamed_rmeta(&f, "\xe2\x80\xa6/ws/target/debug/deps/rmetaAbC/lib.rmeta");
	cr_assert(eq(sz, f.g.data.nr_renames_matched, 0));
	end(&f);
}
