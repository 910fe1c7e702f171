// SPDX-License-Identifier: GPL-2.0
/* The audit's figures, JSON and SVG from synthetic builds with known answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "audit/audit.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "model/cpu_sched.h"
#include "model/lanes.h"
#include "model/model.h"
#include "model/proc_name.h"
#include "model/tool_jobs.h"
#include "graph/job_slots.h"
#include "report/report_text.h"
#include "lib/answers_check.h"
#include "report/summary.h"
#include "report/svg.h"
#include "lib/source_file.h"
#include "lib/svg_attr.h"
#include "lib/synth.h"
#include "lib/xml_check.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define S 1000000000ull
#define T0 (1000 * MS)
#define MAKE_PID 100

/* A build: make (pid 100) and its jobs, with their CPU slices. */
struct build {
	struct model *m;
	struct sched_model *s; /* NULL: --sched=off */
	struct audit a;
	bool computed;
};

static void build_start(struct build *b, size_t nr_cpus, bool sched, const char *const make_argv[])
{
	memset(b, 0, sizeof(*b));
	b->m = model__new(MAKE_PID, T0);
	cr_assert(not(eq(ptr, b->m, NULL)));
	synth_exec(b->m, T0, MAKE_PID, 1, "/usr/bin/make", make_argv);
	if (sched) {
		b->s = sched_model__new(SCHED_SUMMARY, 0, nr_cpus, T0);
		cr_assert(not(eq(ptr, b->s, NULL)));
	}
}

static void cpu_slice(struct build *b, __u32 cpu, __u32 pid, __u64 from, __u64 to)
{
	if (b->s)
		synth_cpu_slice(b->s, cpu, pid, pid, T0 + from, T0 + to, 0);
}

static void cpu_idle(struct build *b, __u32 cpu, __u64 from, __u64 to)
{
	if (b->s)
		synth_cpu_idle(b->s, cpu, T0 + from, T0 + to);
}

/* A job of make: path run by pid over [from, to), on cpu the whole time. */
static void job(struct build *b, __u32 pid, const char *path, const char *const argv[], __u32 cpu, __u64 from,
		__u64 to, __u64 rss_kb)
{
	synth_fork(b->m, T0 + from, MAKE_PID, pid, pid, false);
	synth_exec(b->m, T0 + from, pid, MAKE_PID, path, argv);
	synth_exit_acct(b->m, T0 + to, pid, 0, to - from, 0, to - from, rss_kb);
	cpu_slice(b, cpu, pid, from, to);
}

static const struct audit *build_finish(struct build *b, __u64 end, size_t nr_cpus)
{
	struct audit_input in = { .nr_cpus = nr_cpus };
	const struct proc_instance *root;

	synth_exit_acct(b->m, T0 + end, MAKE_PID, 0, 0, 0, 0, 1000);
	cr_assert(eq(int, model__finish(b->m, T0 + end), 0));
	lanes__assign_model(b->m); /* as replay does */
	if (b->s)
		cr_assert(eq(int, sched_model__finish(b->s, T0 + end), 0));
	root = &b->m->procs[b->m->root];
	in.cmd_argv = root->execs[0].argv;
	in.cmd_argc = root->execs[0].argc;
	cr_assert(eq(int, with_slots__audit(&b->a, b->m, b->s, &in), 0));
	b->computed = true;
	return &b->a;
}

static void build_free(struct build *b)
{
	if (b->computed)
		audit__free(&b->a);
	model__free(b->m);
	sched_model__free(b->s);
}

static char *proc_name(const struct model *m, size_t idx)
{
	char *name = proc_display_name(m, &m->procs[idx]);

	cr_assert(not(eq(ptr, name, NULL)));
	return name;
}

static const char *const make_j2[] = { "make", "-j2", NULL };
static const char *const cc_a[] = { "cc1", "a.c", NULL };
static const char *const cc_b[] = { "cc1", "b.c", NULL };
static const char *const ld_argv[] = { "ld", "-o", "prog", "a.o", "b.o", NULL };

/* make -j2 on 2 CPUs: cc1 a.c and cc1 b.c side by side for dur, one on each CPU; not finished. */
static void compiles_side_by_side(struct build *b, __u64 dur)
{
	build_start(b, 2, true, make_j2);
	job(b, 200, "/usr/lib/gcc/cc1", cc_a, 0, 0, dur, 100);
	job(b, 201, "/usr/lib/gcc/cc1", cc_b, 1, 0, dur, 100);
}

/* make_argv on 2 CPUs: cc1 a.c, then cc1 b.c, 1 s each on CPU 0, while CPU 1 idles. */
static const struct audit *compiles_in_turn(struct build *b, const char *const make_argv[])
{
	build_start(b, 2, true, make_argv);
	job(b, 200, "/usr/lib/gcc/cc1", cc_a, 0, 0, 1 * S, 100);
	job(b, 201, "/usr/lib/gcc/cc1", cc_b, 0, 1 * S, 2 * S, 100);
	cpu_idle(b, 1, 0, 2 * S);
	return build_finish(b, 2 * S, 2);
}

/*
 * make -j2 on 2 CPUs: two 1 s compiles side by side (cc1 with first_argv,
 * cc1 b.c), then a 2 s link alone (ld with link_argv) while CPU 1 idles.
 */
static const struct audit *compile_then_link(struct build *b, const char *const first_argv[],
					     const char *const link_argv[])
{
	build_start(b, 2, true, make_j2);
	job(b, 200, "/usr/lib/gcc/cc1", first_argv, 0, 0, 1 * S, 100);
	job(b, 201, "/usr/lib/gcc/cc1", cc_b, 1, 0, 1 * S, 100);
	job(b, 202, "/usr/bin/ld", link_argv, 0, 1 * S, 3 * S, 5000);
	cpu_idle(b, 1, 1 * S, 3 * S);
	return build_finish(b, 3 * S, 2);
}

/* make -j2 on 2 CPUs, but one job after the other: 2 s of one running. */
Test(audit, purely_serial_build)
{
	struct build b;
	const struct audit *a;
	char *name;

	a = compiles_in_turn(&b, make_j2);

	cr_assert(eq(u64, a->wall_ns, 2 * S));
	cr_assert(eq(u64, a->cpu_ns, 2 * S));
	cr_assert(eq(dbl, a->utilisation, 0.5));
	cr_assert(eq(dbl, a->avg_running, 1.0));
	cr_assert(eq(long, a->jobs.jobs, 2));
	cr_assert(eq(int, a->jobs.source, JOBS_ARGUMENT));
	cr_assert(eq(sz, a->jobs_target, 2));
	cr_assert(eq(u64, a->lost_ns, 2 * S));
	cr_assert(eq(u64, a->par->running_ns[1], 2 * S));
	cr_assert(eq(sz, a->nr_phases, 1));
	cr_assert(eq(u64, a->phases[0].end_ns - a->phases[0].start_ns, 2 * S));
	cr_assert(eq(sz, a->phases[0].nr_procs, 2));
	name = proc_name(b.m, a->phases[0].procs[0].proc);
	cr_assert(eq(str, name, "cc1 a.c")); /* equal CPU: the one that ran first */
	free(name);
	/* Chain: cc1 b.c started after cc1 a.c ended. */
	cr_assert(eq(sz, a->nr_chain, 2));
	cr_assert(eq(u32, b.m->procs[a->chain[0]].pid, 200));
	cr_assert(eq(u32, b.m->procs[a->chain[1]].pid, 201));
	cr_assert(eq(u64, a->chain_busy_ns, 2 * S));
	build_free(&b);
}

Test(audit, perfect_j2_build)
{
	struct build b;
	const struct audit *a;

	compiles_side_by_side(&b, 1 * S);
	a = build_finish(&b, 1 * S, 2);

	cr_assert(eq(dbl, a->utilisation, 1.0));
	cr_assert(eq(dbl, a->avg_running, 2.0));
	cr_assert(eq(u32, a->par->peak_running, 2));
	cr_assert(eq(u64, a->lost_ns, 0));
	cr_assert(eq(sz, a->nr_phases, 0));
	cr_assert(eq(u64, a->noisy_ns, 0));
	/* Both CPUs on the build the whole time, nothing waiting: no limit to name. */
	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_YES));
	cr_assert(eq(int, a->help, AUDIT_HELP_NONE));
	cr_assert(eq(u64, a->help_ns, 0));
	build_free(&b);
}

/* Four jobs on one CPU with -j4: each waits for the ones before it. */
Test(audit, oversubscribed_build)
{
	struct build b;
	const struct audit *a;
	struct bb_cpu_slice_event e = {};
	__u32 i;

	build_start(&b, 1, true, (const char *const[]){ "make", "-j4", NULL });
	for (i = 0; i < 4; i++) {
		synth_fork(b.m, T0, MAKE_PID, 200 + i, 200 + i, false);
		synth_exec(b.m, T0, 200 + i, MAKE_PID, "/usr/lib/gcc/cc1", cc_a);
		synth_exit_acct(b.m, T0 + (i + 1) * S, 200 + i, 0, 1 * S, 0, 1 * S, 100);
		e = (struct bb_cpu_slice_event){ .hdr = { .ts_ns = T0 + (i + 1) * S, .type = BB_EV_CPU_SLICE,
							  .pid = 200 + i, .tgid = 200 + i },
						 .start_ns = T0 + i * S, .wait_ns = i * S };
		cr_assert(eq(int, sched_model__add_event(b.s, &e, sizeof(e)), 0));
	}
	a = build_finish(&b, 4 * S, 1);

	cr_assert(eq(dbl, a->utilisation, 1.0));
	cr_assert(eq(u64, a->par->wait_thread_ns, (0 + 1 + 2 + 3) * S));
	cr_assert(eq(u64, a->par->runnable_ns[3], 1 * S));
	cr_assert(eq(u64, a->par->runnable_ns[2], 1 * S));
	cr_assert(eq(u64, a->par->runnable_ns[1], 1 * S));
	cr_assert(eq(u64, a->par->runnable_ns[0], 1 * S));
	cr_assert(eq(u32, a->par->peak_runnable, 3));
	/* 6 s of waits summed over threads (above), 3 s of wall with any waiting. */
	cr_assert(eq(u64, a->runq_wall_ns, 3 * S));
	cr_assert(eq(sz, a->jobs_target, 1)); /* -j4 on one CPU: one can run */
	cr_assert(eq(u64, a->lost_ns, 0));
	cr_assert(eq(sz, a->nr_phases, 0));
	build_free(&b);
}

/* Two compiles in parallel for 1 s, then a 2 s link alone. */
Test(audit, serial_link_step_is_the_top_phase_and_ends_the_chain)
{
	struct build b;
	const struct audit *a;
	char *name;

	a = compile_then_link(&b, cc_a, ld_argv);

	cr_assert(eq(u64, a->serial_threshold_ns, 60 * MS)); /* 2 % of 3 s */
	cr_assert(eq(sz, a->nr_phases, 1));
	cr_assert(eq(u64, a->phases[0].start_ns, T0 + 1 * S));
	cr_assert(eq(u64, a->phases[0].end_ns, T0 + 3 * S));
	name = proc_name(b.m, a->phases[0].procs[0].proc);
	cr_assert(eq(str, name, "ld -o prog"));
	free(name);
	cr_assert(eq(u64, a->phases[0].procs[0].on_cpu_ns, 2 * S));
	cr_assert(eq(u64, a->lost_ns, 2 * S));
	cr_assert(eq(sz, a->nr_chain, 2));
	cr_assert(eq(u32, b.m->procs[a->chain[1]].pid, 202));
	cr_assert(eq(u32, b.m->procs[a->top_rss.items[0].proc].pid, 202));
	cr_assert(eq(u32, b.m->procs[a->top_cpu.items[0].proc].pid, 202));
	cr_assert(eq(u64, a->top_cpu.items[0].value, 2 * S));
	/* make only waited for its jobs: a wrapper, not a step in the top lists. */
	cr_assert(a->wrapper[b.m->root]);
	cr_assert(eq(u32, b.m->procs[a->top_wall.items[0].proc].pid, 202));
	cr_assert(eq(sz, a->top_wall.nr, 3));
	build_free(&b);
}

Test(audit, per_program_totals)
{
	struct build b;
	const struct audit *a;

	compiles_side_by_side(&b, 3 * S);
	job(&b, 202, "/bin/sh", (const char *const[]){ "sh", "-c", "true", NULL }, 1, 3 * S, 4 * S, 10);
	job(&b, 203, "/usr/bin/ld", ld_argv, 0, 4 * S, 6 * S, 5000);
	a = build_finish(&b, 6 * S, 2);

	cr_assert(eq(u64, a->cpu_ns, 9 * S));
	cr_assert(eq(sz, a->nr_programs, 4));
	cr_assert(eq(str, a->programs[0].name, "cc1"));
	cr_assert(eq(u64, a->programs[0].cpu_ns, 6 * S));
	cr_assert(eq(sz, a->programs[0].nr_procs, 2));
	cr_assert(eq(str, a->programs[1].name, "ld"));
	cr_assert(eq(u64, a->programs[1].cpu_ns, 2 * S));
	cr_assert(eq(str, a->programs[2].name, "sh"));
	cr_assert(eq(u64, a->programs[2].cpu_ns, 1 * S));
	cr_assert(eq(str, a->programs[3].name, "make"));
	cr_assert(eq(u64, a->programs[3].cpu_ns, 0));
	/* Wall by program: the time one of its steps ran; make only waited (a wrapper). */
	cr_assert(eq(u64, a->programs[0].wall_ns, 3 * S));
	cr_assert(eq(u64, a->programs[1].wall_ns, 2 * S));
	cr_assert(eq(u64, a->programs[2].wall_ns, 1 * S));
	cr_assert(eq(u64, a->programs[3].wall_ns, 0));
	build_free(&b);
}

struct jobs_case {
	const char *argv[8];
	const char *makeflags;
	long jobs;
	enum tool_jobs_source source;
};

Test(audit, job_count_from_the_command)
{
	static const struct jobs_case cases[] = {
		{ { "make", "-j8" }, NULL, 8, JOBS_ARGUMENT },
		{ { "/usr/bin/make", "-j", "8", "all" }, NULL, 8, JOBS_ARGUMENT },
		{ { "make", "-j", "all" }, NULL, -1, JOBS_ARGUMENT },
		{ { "make", "-kj4" }, NULL, 4, JOBS_ARGUMENT },
		{ { "make", "--jobs=3" }, NULL, 3, JOBS_ARGUMENT },
		{ { "make", "--jobs" }, NULL, -1, JOBS_ARGUMENT },
		{ { "make", "-C", "-j3dir", "-j2" }, NULL, 2, JOBS_ARGUMENT },
		{ { "gmake", "V=1" }, NULL, 1, JOBS_TOOL_DEFAULT },
		{ { "make" }, "j5", 5, JOBS_MAKEFLAGS },
		{ { "make" }, "k -j6 --no-print-directory", 6, JOBS_MAKEFLAGS },
		{ { "make" }, " --no-print-directory -- CFLAGS=-j9", 1, JOBS_TOOL_DEFAULT },
		{ { "make", "-j3" }, "j5", 3, JOBS_ARGUMENT },
		{ { "ninja", "-j10" }, NULL, 10, JOBS_ARGUMENT },
		{ { "ninja", "-j", "12", "-C", "out" }, NULL, 12, JOBS_ARGUMENT },
		{ { "ninja" }, NULL, 6, JOBS_TOOL_DEFAULT }, /* 4 CPUs + 2 */
		{ { "cc", "-j4" }, NULL, 0, JOBS_UNKNOWN },
		{ { "/usr/bin/cargo", "build", "--release", "-j2" }, "j5", 2, JOBS_ARGUMENT },
		{ { "cargo", "build", "-j", "3" }, NULL, 3, JOBS_ARGUMENT },
		{ { "cargo", "build", "--jobs=5", "-p", "7" }, NULL, 5, JOBS_ARGUMENT },
		{ { "cargo", "build", "--jobs", "6" }, NULL, 6, JOBS_ARGUMENT },
		{ { "cargo", "run", "--", "-j8" }, NULL, 4, JOBS_TOOL_DEFAULT }, /* the program's, not cargo's */
		{ { "cargo", "build", "-p", "9" }, NULL, 4, JOBS_TOOL_DEFAULT }, /* -p is a package */
		{ { "go", "build", "-p", "2", "-o", "fzf", "." }, NULL, 2, JOBS_ARGUMENT },
		{ { "go", "build", "-p=3", "./..." }, NULL, 3, JOBS_ARGUMENT },
		{ { "go", "run", "main.go", "-p", "5" }, NULL, 4, JOBS_TOOL_DEFAULT }, /* the program's */
		{ { "/usr/lib/go-1.19/bin/go", "build" }, NULL, 4, JOBS_TOOL_DEFAULT },
	};
	struct tool_jobs j;
	size_t i, argc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (argc = 0; cases[i].argv[argc]; argc++)
			;
		const struct jobs_env env = { .makeflags = cases[i].makeflags };

		tool_jobs__from_argv(&j, (char *const *)cases[i].argv, argc, &env, 4);
		cr_assert(eq(long, j.jobs, cases[i].jobs), "case %zu", i);
		cr_assert(eq(int, j.source, cases[i].source), "case %zu", i);
	}
}

/*
 * cargo and go read a job count from what they inherit when their command
 * line gives none, in their own order: cargo -j, --config build.jobs,
 * $CARGO_BUILD_JOBS, then its config files; go -p, then -p=N in $GOFLAGS.
 */
Test(audit, job_count_from_what_cargo_and_go_inherit)
{
	static const struct {
		const char *argv[6];
		struct jobs_env env;
		long jobs;
		enum tool_jobs_source source;
	} cases[] = {
		{ { "cargo", "build" }, { .cargo_build_jobs = "3" }, 3, JOBS_CARGO_BUILD_JOBS },
		{ { "cargo", "build", "-j2" }, { .cargo_build_jobs = "3" }, 2, JOBS_ARGUMENT },
		{ { "cargo", "build", "--config", "build.jobs=5" }, { .cargo_build_jobs = "3" }, 5, JOBS_ARGUMENT },
		{ { "cargo", "build" }, { .cargo_build_jobs = "3", .cargo_config_jobs = "6" }, 3, JOBS_CARGO_BUILD_JOBS },
		{ { "cargo", "build" }, { .cargo_config_jobs = "6", .cargo_config_file = "/w/.cargo/config.toml" }, 6,
		  JOBS_CARGO_CONFIG },
		/* cargo 1.68's negative counts: the CPUs less N, at least one; "default": its default. */
		{ { "cargo", "build", "-j", "-1" }, {}, 3, JOBS_ARGUMENT },
		{ { "cargo", "build" }, { .cargo_build_jobs = "-9" }, 1, JOBS_CARGO_BUILD_JOBS },
		{ { "cargo", "build" }, { .cargo_config_jobs = "default" }, 4, JOBS_TOOL_DEFAULT },
		/* MAKEFLAGS is make's, not cargo's; GOFLAGS go's. */
		{ { "cargo", "build" }, { .makeflags = "-j7", .goflags = "-p=7" }, 4, JOBS_TOOL_DEFAULT },
		{ { "go", "build", "." }, { .goflags = "-mod=mod -p=3" }, 3, JOBS_GOFLAGS },
		{ { "go", "build", "-p", "2", "." }, { .goflags = "-p=3" }, 2, JOBS_ARGUMENT },
		{ { "go", "build", "." }, { .goflags = "-p 3", .cargo_build_jobs = "5" }, 4, JOBS_TOOL_DEFAULT },
		/* GOFLAGS of go's env file (`go env -w`), read only when $GOFLAGS is unset or empty, as go does. */
		{ { "go", "build", "." }, { .go_env_goflags = "-p=1", .go_env_file = "/h/.config/go/env" }, 1,
		  JOBS_GO_ENV },
		{ { "go", "build", "." }, { .goflags = "", .go_env_goflags = "-mod=mod -p=2", .go_env_file = "/g" }, 2,
		  JOBS_GO_ENV },
		{ { "go", "build", "." }, { .goflags = "-mod=mod", .go_env_goflags = "-p=1", .go_env_file = "/g" }, 4,
		  JOBS_TOOL_DEFAULT },
		{ { "go", "build", "." }, { .goflags = "-p=3", .go_env_goflags = "-p=1", .go_env_file = "/g" }, 3,
		  JOBS_GOFLAGS },
		{ { "go", "build", "-p=2", "." }, { .go_env_goflags = "-p=1", .go_env_file = "/g" }, 2, JOBS_ARGUMENT },
		{ { "cargo", "build" }, { .go_env_goflags = "-p=1", .go_env_file = "/g" }, 4, JOBS_TOOL_DEFAULT },
	};
	struct tool_jobs j;
	size_t i, argc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (argc = 0; cases[i].argv[argc]; argc++)
			;
		tool_jobs__from_argv(&j, (char *const *)cases[i].argv, argc, &cases[i].env, 4);
		cr_assert(eq(long, j.jobs, cases[i].jobs), "case %zu", i);
		cr_assert(eq(int, j.source, cases[i].source), "case %zu", i);
		cr_assert(eq(ptr, (void *)j.config_file,
			     (void *)(j.source == JOBS_CARGO_CONFIG ? cases[i].env.cargo_config_file
				      : j.source == JOBS_GO_ENV  ? cases[i].env.go_env_file
								 : NULL)),
			  "case %zu", i);
	}
}

/* env NAME=VALUE before the tool: what it inherits, as env changes it. */
Test(audit, an_env_before_the_tool_changes_what_it_inherits)
{
	static const char *const set[] = { "/usr/bin/env", "-C", "sub", "CARGO_BUILD_JOBS=3", "GOFLAGS=-p=2",
					   "RUSTC=rustc", "cargo", "build", "MAKEFLAGS=-j9", NULL };
	static const char *const clear[] = { "env", "-i", "PATH=/bin", "-u", "GOFLAGS", "cargo", NULL };
	static const char *const not_env[] = { "nice", "CARGO_BUILD_JOBS=3", NULL };
	struct jobs_env e = { .makeflags = "-j4", .goflags = "-p=8", .cargo_config_jobs = "5" };

	tool_jobs__env_argv(&e, (char *const *)set, 9);
	cr_assert(eq(str, (char *)e.cargo_build_jobs, "3"));
	cr_assert(eq(str, (char *)e.goflags, "-p=2"));
	cr_assert(eq(str, (char *)e.makeflags, "-j4"), "the command's own argument, not env's");
	tool_jobs__env_argv(&e, (char *const *)not_env, 2);
	cr_assert(eq(str, (char *)e.cargo_build_jobs, "3"), "not env: nothing changed");
	e.go_env_goflags = "-p=1";
	tool_jobs__env_argv(&e, (char *const *)clear, 6);
	cr_assert(eq(ptr, (void *)e.go_env_goflags, NULL), "go finds its env file through HOME, gone");
	cr_assert(eq(ptr, (void *)e.makeflags, NULL));
	cr_assert(eq(ptr, (void *)e.cargo_build_jobs, NULL));
	cr_assert(eq(ptr, (void *)e.goflags, NULL));
	cr_assert(eq(str, (char *)e.cargo_config_jobs, "5"), "files, not the environment");
}

/*
 * A -j a shell sets inside the build: `sh -c 'MAKEFLAGS=-j1 make'` (the
 * shell execs make in place), a shell that forks cargo after an export,
 * and a make under a shell that set CARGO_BUILD_JOBS for everything below
 * it; a variable set for another command is not cargo's.
 */
Test(audit, a_job_count_set_in_a_shell_reaches_the_tool)
{
	struct jobs_env env = { .makeflags = "-j4", .cargo_build_jobs = "4" };
	struct model *m = model__new(100, 0);
	struct job_slots slots;
	struct tool_jobs j;

	cr_assert(m != NULL);
	synth_exec(m, 1, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "MAKEFLAGS=-j1 make", NULL });
	synth_exec(m, 2, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	synth_fork(m, 10, 100, 101, 101, false);
	synth_exec(m, 11, 101, 100, "/bin/sh",
		   (const char *[]){ "/bin/sh", "-c", "CARGO_BUILD_JOBS=9 true; export CARGO_BUILD_JOBS='2'; cargo build",
				     NULL });
	synth_fork(m, 20, 101, 102, 102, false);
	synth_exec(m, 21, 102, 101, "/usr/bin/cargo", (const char *[]){ "cargo", "build", NULL });
	synth_exit(m, 30, 102, 102, true, 0);
	synth_exit(m, 31, 101, 101, true, 0);
	synth_fork(m, 40, 100, 103, 103, false);
	synth_exec(m, 41, 103, 100, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "CARGO_BUILD_JOBS=3 make -C rust", NULL });
	synth_fork(m, 42, 103, 104, 104, false);
	synth_exec(m, 43, 104, 103, "/usr/bin/make", (const char *[]){ "make", "-C", "rust", NULL });
	synth_fork(m, 44, 104, 105, 105, false);
	synth_exec(m, 45, 105, 104, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "cargo build", NULL });
	synth_fork(m, 46, 105, 106, 106, false);
	synth_exec(m, 47, 106, 105, "/usr/bin/cargo", (const char *[]){ "cargo", "build", NULL });
	synth_fork(m, 48, 100, 107, 107, false);
	synth_exec(m, 49, 107, 100, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "GOFLAGS=-p=1 go version; cargo build", NULL });
	synth_fork(m, 50, 107, 108, 108, false);
	synth_exec(m, 51, 108, 107, "/usr/bin/cargo", (const char *[]){ "cargo", "build", NULL });
	synth_exit(m, 60, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, 60), 0));
	tool_jobs__of_proc(&j, m, synth_proc_of(m, 100)->id, &env, 2);
	cr_assert(eq(long, j.jobs, 1), "make: MAKEFLAGS the shell set before exec'ing it");
	cr_assert(eq(int, j.source, JOBS_MAKEFLAGS));
	tool_jobs__of_proc(&j, m, synth_proc_of(m, 102)->id, &env, 2);
	cr_assert(eq(long, j.jobs, 2), "cargo: exported before it, quotes off; not true's 9");
	cr_assert(eq(int, j.source, JOBS_CARGO_BUILD_JOBS));
	tool_jobs__of_proc(&j, m, synth_proc_of(m, 106)->id, &env, 2);
	cr_assert(eq(long, j.jobs, 3), "cargo under make -C: set two shells above it");
	tool_jobs__of_proc(&j, m, synth_proc_of(m, 108)->id, &env, 2);
	cr_assert(eq(long, j.jobs, 4), "go's variable is go's: cargo inherits the command's");
	/* The job slots the start causes read hold the same counts. */
	cr_assert(eq(int, job_slots__init(&slots, m, &env, 2), 0));
	cr_assert(eq(sz, job_slots__limit(&slots, slots.pool[synth_proc_of(m, 102)->id]), 2));
	cr_assert(eq(sz, job_slots__limit(&slots, slots.pool[synth_proc_of(m, 106)->id]), 3));
	job_slots__free(&slots);
	model__free(m);
}

/* With --sched=off the figures that need the scheduler are missing, not zero. */
Test(audit, sched_off_says_what_is_unavailable)
{
	struct build b;
	const struct audit *a;
	struct json_object *o, *v;
	char *text = NULL;
	size_t len;
	FILE *out;

	build_start(&b, 2, false, make_j2);
	job(&b, 200, "/usr/lib/gcc/cc1", cc_a, 0, 0, 1 * S, 100);
	a = build_finish(&b, 2 * S, 2);
	cr_assert(eq(ptr, (void *)a->par, NULL));
	cr_assert(eq(u64, a->cpu_ns, 1 * S));
	cr_assert(eq(sz, a->top_wait.nr, 0));

	o = audit_json__new(a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	cr_assert(json_object_object_get_ex(o, "parallelism", &v) && v == NULL);
	cr_assert(json_object_object_get_ex(o, "serial_phases", &v) && v == NULL);
	cr_assert(json_object_object_get_ex(o, "runqueue", &v) && v == NULL);
	cr_assert(json_object_object_get_ex(o, "outside_work", &v) && v == NULL);
	cr_assert(json_object_object_get_ex(o, "unavailable", &v));
	cr_assert(eq(sz, json_object_array_length(v), 5));
	cr_assert(json_object_object_get_ex(o, "sched", &v));
	cr_assert(eq(str, (char *)json_object_get_string(v), "off"));
	json_object_put(o);

	out = open_memstream(&text, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	audit_report__print(out, a, b.m, true);
	fclose(out);
	cr_assert(strstr(text, "unavailable (traced with --sched=off)") != NULL, "%s", text);
	cr_assert(strstr(text, "more CPUs or jobs? unknown (traced with --sched=off)") != NULL, "%s", text);
	cr_assert(strstr(text, "lost parallelism:") == NULL, "%s", text);
	cr_assert(strstr(text, "serial phases (") == NULL, "%s", text);
	free(text);
	build_free(&b);
}

/* The schema is a contract: its top-level keys, in order, and their types. */
Test(audit, json_schema_is_stable)
{
	static const struct {
		const char *key;
		enum json_type type;
	} schema[] = {
		{ "version", json_type_int },	      { "wall_ms", json_type_double },
		{ "cpu_count", json_type_int },	      { "cpu_ms", json_type_double },
		{ "utilisation", json_type_double },  { "sched", json_type_string },
		{ "unavailable", json_type_array },   { "parallelism", json_type_object },
		{ "jobs", json_type_object },	      { "nothing_compiled", json_type_null },
		{ "phases", json_type_array },
		{ "runqueue", json_type_object },
		{ "serial_phases", json_type_object }, { "critical_chain", json_type_object },
		{ "top", json_type_object },	      { "programs", json_type_array },
		{ "lost_events", json_type_int },     { "partial", json_type_boolean },
		{ "partial_reason", json_type_null }, { "outside_work", json_type_object },
		{ "answers", json_type_object },
		{ "memory", json_type_object },
		{ "daemons", json_type_array },	      { "outside_wait", json_type_object },
		{ "io", json_type_object },
		{ "compiler_cache", json_type_null }, /* no ccache call */
		{ "what_if", json_type_null }, /* no build graph here */
		{ "start_waits", json_type_null }, /* --deps=off: not recorded */
		{ "races", json_type_null },	   /* no build graph */
		{ "deps_hook", json_type_null },   /* a recording that did not say */
		{ "mem_hook", json_type_null },	   /* likewise */
	};
	struct build b;
	const struct audit *a;
	struct json_object *o, *parsed, *v, *ph;
	size_t i = 0;

	build_start(&b, 2, true, make_j2);
	job(&b, 200, "/usr/lib/gcc/cc1", cc_a, 0, 0, 1 * S, 100);
	job(&b, 201, "/usr/bin/ld", ld_argv, 0, 1 * S, 3 * S, 100);
	cpu_idle(&b, 1, 0, 3 * S);
	a = build_finish(&b, 3 * S, 2);
	o = audit_json__new(a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	/* Through text, as a reader gets it. */
	parsed = json_tokener_parse(json_object_to_json_string(o));
	cr_assert(not(eq(ptr, parsed, NULL)));
	json_object_object_foreach(parsed, key, val) {
		cr_assert(lt(sz, i, sizeof(schema) / sizeof(schema[0])), "extra key %s", key);
		cr_assert(eq(str, key, (char *)schema[i].key));
		cr_assert(eq(int, json_object_get_type(val), schema[i].type), "%s", key);
		i++;
	}
	cr_assert(eq(sz, i, sizeof(schema) / sizeof(schema[0])));
	cr_assert(eq(int, json_object_get_int(json_object_object_get(parsed, "version")), AUDIT_JSON_VERSION));
	v = json_object_object_get(parsed, "parallelism");
	cr_assert(eq(sz, json_object_array_length(json_object_object_get(v, "running_ms")), 3));
	cr_assert(eq(dbl, json_object_get_double(json_object_array_get_idx(json_object_object_get(v, "running_ms"), 1)),
		     3000.0));
	v = json_object_object_get(json_object_object_get(parsed, "serial_phases"), "phases");
	cr_assert(eq(sz, json_object_array_length(v), 1));
	ph = json_object_array_get_idx(v, 0);
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(ph, "duration_ms")), 3000.0));
	v = json_object_object_get(json_object_object_get(parsed, "critical_chain"), "estimate");
	cr_assert(json_object_get_boolean(v));
	v = json_object_object_get(json_object_object_get(parsed, "jobs"), "requested");
	cr_assert(eq(int, json_object_get_int(v), 2));
	json_object_put(parsed);
	json_object_put(o);
	build_free(&b);
}

/* The integer value of attribute attr in the first element carrying marker. */
static int attr_int_before(const char *svg, const char *marker, const char *attr)
{
	return (int)svg_attr(svg, marker, attr);
}

Test(audit, svg_is_well_formed_and_has_its_parts)
{
	static const char *const odd_argv[] = { "cc1", "<b>&\"'\x01\xff.c", NULL };
	struct build b;
	const struct audit *a;
	char *svg = NULL;
	const char *problem;
	size_t len, elements;
	FILE *out;

	a = compile_then_link(&b, odd_argv, ld_argv);
	out = open_memstream(&svg, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(int, svg__write(out, a, b.m, b.s), 0));
	fclose(out);

	problem = xml_check(svg, &elements);
	cr_assert(eq(ptr, (void *)problem, NULL), "%s", problem);
	cr_assert(lt(sz, 10, elements));
	cr_assert(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
	cr_assert(strstr(svg, "class=\"serial\"") != NULL);	/* the link step */
	cr_assert(strstr(svg, "class=\"run\"") != NULL);	/* the CPU strip */
	cr_assert(strstr(svg, "serial 2.00 s: ld") != NULL);
	cr_assert(strstr(svg, "&lt;b&gt;&amp;&quot;&apos;") != NULL);
	cr_assert(strstr(svg, "<script") == NULL);
	cr_assert(strstr(svg, "href") == NULL);
	cr_assert(strstr(svg, "url(") == NULL);
	cr_assert(strstr(svg, "@font-face") == NULL);
	/* No program wears the strip's running blue or waiting orange, and
	 * outside work has a colour of its own in the strip. */
	cr_assert(strstr(svg, "fill=\"#4e79a7\"") == NULL && strstr(svg, "fill=\"#f28e2b\"") == NULL);
	cr_assert(strstr(svg, "class=\"out\"") != NULL);
	/* The serial phase's label sits above the strip, not on it. */
	cr_assert(lt(int, attr_int_before(svg, "class=\"sl\"", "y"), attr_int_before(svg, "class=\"bg\"", "y")));
	free(svg);
	build_free(&b);
}

/* The verbose stderr report: every section, and nothing a terminal would obey. */
Test(audit, report_has_every_section_and_no_control_bytes)
{
	static const char *const odd_argv[] = { "ld", "\x1b]0;pwned\x07", NULL };
	struct build b;
	const struct audit *a;
	char *text = NULL;
	size_t len, i;
	FILE *out;

	a = compile_then_link(&b, cc_a, odd_argv);
	out = open_memstream(&text, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	audit_report__print(out, a, b.m, true);
	fclose(out);
	for (i = 0; i < len; i++)
		cr_assert(text[i] == '\n' || ((unsigned char)text[i] >= 0x20 && (unsigned char)text[i] < 0x7f),
			  "byte %zu: %02x", i, (unsigned char)text[i]);
	cr_assert(strstr(text, "buildbpf: audit: 3.00 s wall on 2 CPUs, 4.00 s CPU: 67 % utilisation") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "make -j2 (from the command)") != NULL, "%s", text);
	cr_assert(strstr(text, "lost parallelism: 2.00 s (67 % of wall) with fewer than 2 running") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "2.00 s at 1.00-3.00 s: ld") != NULL, "%s", text);
	cr_assert(strstr(text, "chain to the end (estimate") != NULL, "%s", text);
	cr_assert(strstr(text, "CPU by program: cc1 2.00 s in 2 processes, ld 2.00 s in 1") != NULL, "%s", text);
	cr_assert(strstr(text, "LOST EVENTS") == NULL, "%s", text);
	free(text);
	build_free(&b);
}

/* ---- the answers at the top of the default report ---- */

static char *report_text(const struct audit *a, const struct model *m, bool verbose)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	audit_report__print(out, a, m, verbose);
	fclose(out);
	return text;
}

/* Every line of the default report within REPORT_WIDTH columns (one byte each: it is ASCII). */
static void assert_narrow(const char *text)
{
	const char *line = text, *nl;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		cr_assert(not(eq(ptr, (void *)nl, NULL)), "unterminated line: %s", line);
		cr_assert(le(long, nl - line, REPORT_WIDTH), "%ld columns: %.*s", (long)(nl - line), (int)(nl - line),
			  line);
	}
}

/* The default report of a, checked for width and length; the caller frees it. */
static char *answers(const struct build *b)
{
	char *text = report_text(&b->a, b->m, false), *v = report_text(&b->a, b->m, true), why[4096];

	assert_narrow(text);
	/* The audit alone: the traced line above it takes one of the report's lines. */
	cr_assert(bb_report_is_brief(text, AUDIT_REPORT_BRIEF_LINES - 1, REPORT_WIDTH, false, why, sizeof(why)),
		  "%s", why);
	cr_assert(bb_answers_agree(v, why, sizeof(why)), "%s", why);
	free(v);
	return text;
}

/* One answer a line: each continuation ("\nbuildbpf:   ") joined to the line before. */
static void unwrap(char *text)
{
	static const char cont[] = "\nbuildbpf:   ";
	char *at;

	while ((at = strstr(text, cont))) {
		*at = ' ';
		memmove(at + 1, at + sizeof(cont) - 1, strlen(at + sizeof(cont) - 1) + 1);
	}
}

/* A job ready at ready (forked then) that waited for a CPU until from. */
static void waiting_job(struct build *b, __u32 pid, const char *const argv[], __u32 cpu, __u64 ready, __u64 from,
			__u64 to)
{
	synth_fork(b->m, T0 + ready, MAKE_PID, pid, pid, false);
	synth_exec(b->m, T0 + ready, pid, MAKE_PID, "/usr/lib/gcc/cc1", argv);
	synth_exit_acct(b->m, T0 + to, pid, 0, to - from, 0, to - from, 100);
	synth_cpu_slice(b->s, cpu, pid, pid, T0 + from, T0 + to, from - ready);
}

/* make -j4 on 2 CPUs: four 1 s jobs ready at once, two wait a second. */
Test(audit_answers, cpu_starved_build)
{
	static const char *const make_j4[] = { "make", "-j4", NULL };
	struct build b;
	const struct audit *a;
	char *text;

	build_start(&b, 2, true, make_j4);
	waiting_job(&b, 200, cc_a, 0, 0, 0, 1 * S);
	waiting_job(&b, 201, cc_b, 1, 0, 0, 1 * S);
	waiting_job(&b, 202, cc_a, 0, 0, 1 * S, 2 * S);
	waiting_job(&b, 203, cc_b, 1, 0, 1 * S, 2 * S);
	a = build_finish(&b, 2 * S, 2);

	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_YES));
	cr_assert(eq(int, a->help, AUDIT_HELP_CPUS));
	cr_assert(eq(u64, a->help_ns, 1 * S));
	cr_assert(eq(u64, a->other_ns, 0));
	text = answers(&b);
	cr_assert(strstr(text, "parallel? yes: on average 2.00 of 2 CPUs ran the build; make -j4") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "more CPUs or jobs? yes: jobs were ready and waiting for a CPU 50 % of the time: "
			       "more CPUs\nbuildbpf:   would help") != NULL, "%s", text);
	cr_assert(strstr(text, "machine shared? no: other programs held 0 % of the CPU time") != NULL, "%s", text);
	/* Every job ran the whole time it could: no step held the build up alone. */
	cr_assert(strstr(text, "speed up? no single step stands out") != NULL, "%s", text);
	cr_assert(strstr(text, "CPU by program") == NULL, "-v only: %s", text);
	free(text);
	text = report_text(a, b.m, true);
	cr_assert(strstr(text, "CPU by program: cc1 4.00 s in 4 processes, 1 more process using none\n") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "wall by program: cc1 2.00 s\n") != NULL, "%s", text);
	free(text);
	build_free(&b);
}

/*
 * make -j4 on 2 CPUs while another program holds CPU 1 throughout: four
 * 1 s jobs ready at once run one after another on CPU 0.  Parallel enough,
 * starved of CPU, and the CPU was the other program's (issue 26 item 5).
 */
Test(audit_answers, a_build_starved_of_cpu_by_others_is_not_serial)
{
	static const char *const make_j4[] = { "make", "-j4", NULL };
	struct build b;
	const struct audit *a;
	struct json_object *o;
	char *text;

	build_start(&b, 2, true, make_j4);
	for (__u32 k = 0; k < 4; k++)
		waiting_job(&b, 200 + k, k % 2 ? cc_b : cc_a, 0, 0, k * S, (k + 1) * S);
	a = build_finish(&b, 4 * S, 2);

	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_STARVED), "on average 1.00 of 2 CPUs, yet 2-4 jobs ready");
	cr_assert(eq(u64, a->ready_full_ns, 3 * S), "2 or more ready until the last job ran alone");
	cr_assert(eq(u64, a->noisy_ns, 3 * S));
	cr_assert(eq(u64, a->starved_ns, 0));
	text = answers(&b);
	unwrap(text);
	cr_assert(strstr(text, "parallel? starved: jobs for all 2 CPUs were ready 75 % of the time, but on "
			       "average 1.00 of 2 CPUs ran the build; jobs waited for a CPU other programs held 75 % of "
			       "the time, for one the build's own jobs held 0 %; make -j4 (from the command)") != NULL,
		  "%s", text);
	free(text);
	o = audit_json__new(a, b.m);
	cr_assert(eq(str, (char *)json_object_get_string(
				  json_object_object_get(json_object_object_get(o, "answers"), "parallel")),
		     "starved"));
	json_object_put(o);
	build_free(&b);
}

/* The same four jobs with both CPUs the build's: parallel, and no starving. */
Test(audit_answers, a_build_with_both_cpus_is_not_starved)
{
	static const char *const make_j4[] = { "make", "-j4", NULL };
	struct build b;
	const struct audit *a;

	build_start(&b, 2, true, make_j4);
	for (__u32 k = 0; k < 4; k++)
		waiting_job(&b, 200 + k, k % 2 ? cc_b : cc_a, k % 2, 0, k / 2 * S, (k / 2 + 1) * S);
	a = build_finish(&b, 2 * S, 2);
	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_YES));
	cr_assert(eq(u64, a->ready_full_ns, 2 * S));
	build_free(&b);
}

/* Without a build graph, "speed up?" says what --deps=on gives and, by the recording's hook, what it costs. */
Test(audit_answers, the_timing_estimate_says_what_deps_on_costs_here)
{
	struct json_object *o;
	struct build b;
	char *text;

	compile_then_link(&b, cc_a, ld_argv);
	b.a.deps_hook = DEPS_HOOK_SYSCALL;
	text = answers(&b);
	cr_assert(strstr(text, "  --deps=on would give the real critical path; on this kernel (no fentry) it slows other\n") !=
			  NULL,
		  "%s", text);
	cr_assert(strstr(text, "programs' syscall-heavy work about 1.08x while a build is traced\n") != NULL, "%s", text);
	free(text);
	o = audit_json__new(&b.a, b.m);
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(o, "deps_hook")), "syscall"));
	json_object_put(o);
	/* The memory checkpoints' hook is said beside it, whatever --deps. */
	b.a.mem_hook = MEM_HOOK_FENTRY;
	o = audit_json__new(&b.a, b.m);
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(o, "mem_hook")), "fentry"));
	json_object_put(o);
	b.a.deps_hook = DEPS_HOOK_FENTRY;
	text = answers(&b);
	cr_assert(strstr(text, "  --deps=on would give the real critical path (fentry on this kernel: only the build's\n") !=
			  NULL,
		  "%s", text);
	cr_assert(strstr(text, "opens pay)\n") != NULL, "%s", text);
	cr_assert(strstr(text, "no fentry") == NULL, "%s", text);
	free(text);
	build_free(&b);
}

/*
 * make -j4 on 4 CPUs: four compiles side by side, one ends at 3 s and its
 * CPU idles to the end at 4 s.  A CPU idled a quarter of the wall, but the
 * build had 15/16 of its CPUs: its order cost it 6 %, no answer.
 */
Test(audit_answers, one_idle_cpu_beside_busy_ones_is_no_limit)
{
	static const char *const make_j4[] = { "make", "-j4", NULL };
	static const char *const cc_c[] = { "cc1", "c.c", NULL }, *const cc_d[] = { "cc1", "d.c", NULL };
	struct build b;
	const struct audit *a;
	char *text;

	build_start(&b, 4, true, make_j4);
	job(&b, 200, "/usr/lib/gcc/cc1", cc_a, 0, 0, 4 * S, 100);
	job(&b, 201, "/usr/lib/gcc/cc1", cc_b, 1, 0, 4 * S, 100);
	job(&b, 202, "/usr/lib/gcc/cc1", cc_c, 2, 0, 4 * S, 100);
	job(&b, 203, "/usr/lib/gcc/cc1", cc_d, 3, 0, 3 * S, 100);
	cpu_idle(&b, 3, 3 * S, 4 * S);
	a = build_finish(&b, 4 * S, 4);
	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_YES));
	cr_assert(eq(u64, a->lost_ns, 1 * S));
	cr_assert(eq(u64, a->lost_cpu_ns, 1 * S));
	cr_assert(eq(int, a->help, AUDIT_HELP_NONE));
	text = answers(&b);
	cr_assert(strstr(text, "more CPUs or jobs? neither is clearly the limit: jobs waited for a CPU 0 % of the "
			       "time,\nbuildbpf:   CPUs idled with fewer jobs running than allowed 6 % of their time\n")
		  != NULL, "%s", text);
	free(text);
	build_free(&b);
}

/* Two compiles side by side, then a 2 s link alone: the order, not the machine. */
Test(audit_answers, dependency_bound_build)
{
	struct build b;
	const struct audit *a;
	char *text;

	a = compile_then_link(&b, cc_a, ld_argv);

	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_PARTLY)); /* 4 s of CPU in 3 s */
	cr_assert(eq(int, a->help, AUDIT_HELP_ORDER));
	/* One CPU of the two idle for 2 s: the wall of both idle for 1 s. */
	cr_assert(eq(u64, a->lost_ns, 2 * S));
	cr_assert(eq(u64, a->lost_cpu_ns, 2 * S));
	cr_assert(eq(u64, a->help_ns, 1 * S));
	text = answers(&b);
	cr_assert(strstr(text, "parallel? partly: on average 1.33 of 2 CPUs ran the build") != NULL, "%s", text);
	cr_assert(strstr(text, "more CPUs or jobs? no: CPUs idled 33 % of their time with fewer jobs running than "
			       "-j2\nbuildbpf:   allowed: the build's own order held it back") != NULL, "%s", text);
	cr_assert(strstr(text, "speed up? ld -o prog ran alone for 2.00 s (67 % of the wall)") != NULL, "%s", text);
	cr_assert(strstr(text, "chain to the end (an estimate from timing): 2 steps; longest ld -o prog 2.00 s,\n"
			       "buildbpf:     cc1 b.c 1.00 s\n") != NULL, "%s", text);
	/* The jargon stays in --verbose. */
	cr_assert(strstr(text, "lost parallelism") == NULL && strstr(text, "run-queue") == NULL, "%s", text);
	free(text);
	build_free(&b);
}

/*
 * make -j2 on 2 CPUs, but for the first second another program holds CPU 1
 * (no record from it: time on a CPU that is neither the build nor idle is
 * outside work); the second job waits for it.
 */
Test(audit_answers, shared_machine)
{
	struct build b;
	const struct audit *a;
	struct json_object *o, *ow;
	char *text;

	build_start(&b, 2, true, make_j2);
	waiting_job(&b, 200, cc_a, 0, 0, 0, 2 * S);
	waiting_job(&b, 201, cc_b, 1, 0, 1 * S, 2 * S);
	a = build_finish(&b, 2 * S, 2);

	cr_assert(eq(u64, a->other_ns, 1 * S));
	cr_assert(eq(u64, a->other_ns, b.s->cpus[0].other_ns + b.s->cpus[1].other_ns)); /* the trace's other_ms */
	cr_assert(eq(dbl, a->other_share, 0.25));
	cr_assert(eq(int, a->help, AUDIT_HELP_QUIETER));
	cr_assert(eq(u64, a->help_ns, 1 * S));
	text = answers(&b);
	/* A share of the wall, not a sum over the threads that waited. */
	cr_assert(strstr(text, "machine shared? yes: other programs held 25 % of the CPU time during the build; "
			       "build\nbuildbpf:   threads waited for them 50 % of the time") != NULL, "%s", text);
	cr_assert(strstr(text, "more CPUs or jobs? jobs waited for a CPU that other programs held 50 % of the time: "
			       "a\nbuildbpf:   quieter machine (or more CPUs) would help") != NULL, "%s", text);
	free(text);

	o = audit_json__new(a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	ow = json_object_object_get(o, "outside_work");
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(ow, "cpu_ms")), 1000.0));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(ow, "share")), 0.25));
	cr_assert(eq(str, (char *)json_object_get_string(
				  json_object_object_get(json_object_object_get(o, "answers"), "limit")),
		     "quieter_machine"));
	json_object_put(o);
	build_free(&b);
}

/* make -j1 on 2 CPUs: one job at a time by request. */
Test(audit_answers, too_few_jobs)
{
	struct build b;
	const struct audit *a;
	char *text;

	a = compiles_in_turn(&b, (const char *const[]){ "make", "-j1", NULL });

	cr_assert(eq(int, a->parallel, AUDIT_PARALLEL_NO));
	cr_assert(eq(int, a->help, AUDIT_HELP_JOBS));
	cr_assert(eq(u64, a->lost_ns, 0)); /* -j1 ran: nothing was held back by the order */
	text = answers(&b);
	cr_assert(strstr(text, "more CPUs or jobs? yes: only -j1 jobs ran while a CPU idled 100 % of the time: "
			       "more jobs\nbuildbpf:   (-j2) would help") != NULL, "%s", text);
	cr_assert(strstr(text, "speed up? one step at a time for 2.00 s (100 % of the wall), most CPU in cc1 a.c") !=
			  NULL, "%s", text);
	free(text);
	build_free(&b);
}

/*
 * ninja's shape: sh -c "cc -c a.c" runs cc, which runs cc1 and then as.
 * sh and cc only wait: the top lists show the compile once, as cc1 and as.
 */
Test(audit_answers, wrappers_are_left_out_of_the_top_lists)
{
	static const char *const sh_argv[] = { "sh", "-c", "cc -c a.c", NULL };
	static const char *const cc_argv[] = { "cc", "-c", "a.c", NULL };
	static const char *const as_argv[] = { "as", "-o", "a.o", "/tmp/cc1.s", NULL };
	static const char *const busy_argv[] = { "busy", NULL };
	struct build b;
	const struct audit *a;
	size_t i, k;
	char *text;

	build_start(&b, 2, true, make_j2);
	synth_fork(b.m, T0, MAKE_PID, 200, 200, false);
	synth_exec(b.m, T0, 200, MAKE_PID, "/bin/sh", sh_argv);
	synth_fork(b.m, T0 + 1 * MS, 200, 201, 201, false);
	synth_exec(b.m, T0 + 1 * MS, 201, 200, "/usr/bin/cc", cc_argv);
	synth_fork(b.m, T0 + 4 * MS, 201, 202, 202, false);
	synth_exec(b.m, T0 + 4 * MS, 202, 201, "/usr/lib/gcc/cc1", cc_a);
	synth_exit_acct(b.m, T0 + 800 * MS, 202, 0, 790 * MS, 0, 790 * MS, 100);
	synth_fork(b.m, T0 + 801 * MS, 201, 203, 203, false);
	synth_exec(b.m, T0 + 801 * MS, 203, 201, "/usr/bin/as", as_argv);
	synth_exit_acct(b.m, T0 + 900 * MS, 203, 0, 95 * MS, 0, 95 * MS, 100);
	synth_exit_acct(b.m, T0 + 902 * MS, 201, 0, 3 * MS, 0, 3 * MS, 100);
	synth_exit_acct(b.m, T0 + 903 * MS, 200, 0, 1 * MS, 0, 1 * MS, 100);
	/* Not wrappers: a parent busy itself, and one whose child ran a tenth of its life. */
	synth_fork(b.m, T0, MAKE_PID, 300, 300, false);
	synth_exec(b.m, T0, 300, MAKE_PID, "/usr/bin/busy", busy_argv);
	job(&b, 301, "/usr/lib/gcc/cc1", cc_b, 1, 0, 100 * MS, 100);
	synth_exit_acct(b.m, T0 + 1 * S, 300, 0, 900 * MS, 0, 900 * MS, 100);
	a = build_finish(&b, 1 * S, 2);

	for (i = 0; i < b.m->nr_procs; i++) {
		__u32 pid = b.m->procs[i].pid;

		cr_assert(eq(int, a->wrapper[i], pid == MAKE_PID || pid == 200 || pid == 201), "pid %u", pid);
	}
	for (i = 0; i < a->top_wall.nr; i++) {
		__u32 pid = b.m->procs[a->top_wall.items[i].proc].pid;

		cr_assert(pid != MAKE_PID && pid != 200 && pid != 201, "wrapper %u in the top list", pid);
	}
	/* busy 1 s, cc1 a.c 0.80 s, cc1 b.c 0.10 s, as 0.10 s: one entry per step. */
	cr_assert(eq(sz, a->top_wall.nr, 4));
	cr_assert(eq(u32, b.m->procs[a->top_wall.items[1].proc].pid, 202));
	/* Wall by program counts steps: cc1 ran 0-0.8 s, cc (a wrapper) not at all. */
	for (k = 0; k < a->nr_programs; k++) {
		if (!strcmp(a->programs[k].name, "cc1"))
			cr_assert(eq(u64, a->programs[k].wall_ns, 800 * MS - 4 * MS + 4 * MS));
		if (!strcmp(a->programs[k].name, "cc") || !strcmp(a->programs[k].name, "make"))
			cr_assert(eq(u64, a->programs[k].wall_ns, 0));
	}
	text = report_text(a, b.m, true);
	cr_assert(strstr(text, "by wall:        busy 1.00 s, cc1 a.c 0.80 s, cc1 b.c 0.10 s, as -o a.o 0.10 s") !=
			  NULL, "%s", text);
	free(text);
	build_free(&b);
}

/*
 * gcc's link: cc runs collect2, which runs ld.  A small link's collect2 is
 * busy for a share of its life (12 ms of 30 ms, ld alive for half of it),
 * too much for the CPU rule: still a wrapper, so the link is ld's alone.
 */
Test(audit_answers, collect2_is_counted_with_its_linker)
{
	static const char *const collect2_argv[] = { "collect2", "-o", "prog", "a.o", NULL };
	static const char *const ld_argv[] = { "ld", "-o", "prog", "a.o", NULL };
	struct build b;
	const struct audit *a;
	size_t i, k;

	build_start(&b, 2, true, make_j2);
	synth_fork(b.m, T0, MAKE_PID, 400, 400, false);
	synth_exec(b.m, T0, 400, MAKE_PID, "/usr/lib/gcc/x86_64-linux-gnu/12/collect2", collect2_argv);
	synth_fork(b.m, T0 + 10 * MS, 400, 401, 401, false);
	synth_exec(b.m, T0 + 10 * MS, 401, 400, "/usr/bin/ld", ld_argv);
	synth_exit_acct(b.m, T0 + 25 * MS, 401, 0, 14 * MS, 0, 14 * MS, 100);
	synth_exit_acct(b.m, T0 + 30 * MS, 400, 0, 12 * MS, 0, 12 * MS, 100);
	a = build_finish(&b, 1 * S, 2);

	for (i = 0; i < b.m->nr_procs; i++)
		if (b.m->procs[i].pid == 400 || b.m->procs[i].pid == 401)
			cr_assert(eq(int, a->wrapper[i], b.m->procs[i].pid == 400), "pid %u", b.m->procs[i].pid);
	for (i = 0; i < a->top_wall.nr; i++)
		cr_assert(not(eq(u32, b.m->procs[a->top_wall.items[i].proc].pid, 400)), "collect2 in the top list");
	for (k = 0; k < a->nr_programs; k++) {
		if (!strcmp(a->programs[k].name, "collect2"))
			cr_assert(eq(u64, a->programs[k].wall_ns, 0));
		if (!strcmp(a->programs[k].name, "ld"))
			cr_assert(eq(u64, a->programs[k].wall_ns, 15 * MS));
	}
	build_free(&b);
}

/* configure's shape: a thousand tiny steps one after another. */
Test(audit_answers, a_chain_of_tiny_steps_is_left_out)
{
	static const char *const rm_argv[] = { "rm", "-f", "conftest.c", NULL };
	struct build b;
	const struct audit *a;
	char *text;
	__u32 i;

	build_start(&b, 2, true, make_j2);
	for (i = 0; i < 1000; i++)
		job(&b, 1000 + i, "/bin/rm", rm_argv, 0, i * MS, i * MS + 900 * 1000, 100);
	cpu_idle(&b, 1, 0, 1 * S);
	a = build_finish(&b, 1 * S, 2);

	cr_assert(eq(sz, a->nr_chain, 1000));
	text = answers(&b);
	cr_assert(strstr(text, "chain to the end") == NULL, "%s", text);
	cr_assert(strstr(text, "speed up? one step at a time for 1.00 s (100 % of the wall)") != NULL, "%s", text);
	free(text);
	/* --verbose keeps it. */
	text = report_text(a, b.m, true);
	cr_assert(strstr(text, "CPU by program: rm 0.90 s in 1,000 processes") != NULL, "%s", text);
	cr_assert(strstr(text, "chain to the end (estimate, no build graph): 1000 processes") != NULL, "%s", text);
	free(text);
	build_free(&b);
}

/* Long names, many programs and phases: every default line still fits. */
/*
 * A cargo build run again, every unit fresh: cargo asks rustc its version
 * (rustc -vV, rustc - --print=...) and runs nothing else.  The report says
 * nothing compiled, not how parallel 0.3 s of probes were.
 */
static const struct audit *cargo_build(struct build *b, bool compile)
{
	static const char *const cargo[] = { "cargo", "build", "--release", NULL };
	static const char *const version[] = { "rustc", "-vV", NULL };
	static const char *const print[] = { "rustc", "-", "--crate-name", "___", "--print=file-names", NULL };
	static const char *const crate[] = { "rustc", "--crate-name", "heavy", "--crate-type", "lib", "src/lib.rs", NULL };

	build_start(b, 2, true, cargo);
	synth_exec(b->m, T0 + MS, MAKE_PID, 1, "/usr/bin/cargo", cargo);
	job(b, 200, "/usr/bin/rustc", version, 0, 10 * MS, 50 * MS, 100);
	job(b, 201, "/usr/bin/rustc", print, 0, 60 * MS, 150 * MS, 100);
	if (compile)
		job(b, 202, "/usr/bin/rustc", crate, 1, 160 * MS, 250 * MS, 100);
	return build_finish(b, 300 * MS, 2);
}

/* --summary-json's nothing_compiled: runner, found, probes and text as expected. */
static void nothing_compiled_json(const struct audit *a, const struct model *m, const char *runner, const char *found,
				  int probes, const char *text)
{
	struct json_object *o = audit_json__new(a, m), *nc;

	cr_assert(not(eq(ptr, o, NULL)));
	cr_assert(json_object_object_get_ex(o, "nothing_compiled", &nc));
	cr_assert(not(eq(ptr, nc, NULL)));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(nc, "runner")), (char *)runner));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(nc, "found")), (char *)found));
	cr_assert(eq(int, json_object_get_int(json_object_object_get(nc, "probes")), probes));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(nc, "text")), (char *)text));
	json_object_put(o);
}

Test(audit_answers, a_cargo_build_that_compiled_nothing_says_so)
{
	struct build b;
	const struct audit *a = cargo_build(&b, false);
	char *text, *v;

	cr_assert(eq(str, (char *)a->fresh.runner, "cargo"));
	cr_assert(eq(sz, a->fresh.nr_probes, 2));
	cr_assert(eq(sz, a->fresh.nr_compiles, 0));
	text = answers(&b);
	cr_assert(strstr(text, "buildbpf: nothing compiled: cargo found every unit fresh; its compilers ran 2 times,\n"
			       "buildbpf:   only to tell their version: no parallelism to audit\n") != NULL, "%s", text);
	cr_assert(eq(ptr, strstr(text, "parallel?"), NULL), "%s", text);
	cr_assert(eq(ptr, strstr(text, "speed up?"), NULL), "%s", text);
	/* -v has the figures, after the same line. */
	v = report_text(&b.a, b.m, true);
	cr_assert(not(eq(ptr, strstr(v, "nothing compiled: cargo"), NULL)), "%s", v);
	cr_assert(not(eq(ptr, strstr(v, "parallel?"), NULL)), "%s", v);
	free(v);
	free(text);
	/* --summary-json says it in the same words. */
	nothing_compiled_json(a, b.m, "cargo", "every_unit_fresh", 2,
			      "nothing compiled: cargo found every unit fresh; its compilers ran 2 times, only to tell "
			      "their version: no parallelism to audit");
	build_free(&b);
}

/*
 * `env CARGO_BUILD_JOBS=3 cargo build`, as a script runs it: the build's -j
 * is 3, from CARGO_BUILD_JOBS, and every output says so.
 */
Test(audit_answers, cargo_under_env_takes_its_jobs_from_cargo_build_jobs)
{
	static const char *const env_cargo[] = { "env", "CARGO_BUILD_JOBS=3", "cargo", "build", NULL };
	static const char *const cargo[] = { "cargo", "build", NULL };
	static const char *const crate[] = { "rustc", "--crate-name", "heavy", "--crate-type", "lib", "src/lib.rs", NULL };
	struct json_object *o, *jobs;
	struct build b;
	const struct audit *a;
	char *text;

	build_start(&b, 2, true, env_cargo);
	synth_exec(b.m, T0 + MS, MAKE_PID, 1, "/usr/bin/cargo", cargo);
	job(&b, 202, "/usr/bin/rustc", crate, 1, 10 * MS, 250 * MS, 100);
	a = build_finish(&b, 300 * MS, 2);
	cr_assert(eq(long, a->jobs.jobs, 3));
	cr_assert(eq(int, a->jobs.source, JOBS_CARGO_BUILD_JOBS));
	text = report_text(a, b.m, true);
	cr_assert(not(eq(ptr, strstr(text, "cargo -j3 (from CARGO_BUILD_JOBS)"), NULL)), "%s", text);
	free(text);
	o = audit_json__new(a, b.m);
	cr_assert(json_object_object_get_ex(o, "jobs", &jobs));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(jobs, "source")), "cargo_build_jobs"));
	cr_assert(eq(int, json_object_get_int(json_object_object_get(jobs, "requested")), 3));
	json_object_put(o);
	build_free(&b);
}

Test(audit_answers, a_cargo_build_that_compiled_a_crate_is_audited)
{
	struct build b;
	const struct audit *a = cargo_build(&b, true);
	struct json_object *o, *nc = (struct json_object *)1;
	char *text;

	cr_assert(eq(sz, a->fresh.nr_compiles, 1));
	text = answers(&b);
	cr_assert(eq(ptr, strstr(text, "nothing compiled"), NULL), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "parallel?"), NULL)), "%s", text);
	free(text);
	o = audit_json__new(a, b.m);
	cr_assert(json_object_object_get_ex(o, "nothing_compiled", &nc));
	cr_assert(eq(ptr, nc, NULL), "null when something compiled");
	json_object_put(o);
	build_free(&b);
}

/*
 * make with every target up to date ("make: Nothing to be done for 'all'")
 * and ninja with "no work to do" run no job: nothing compiled, said so.
 * One job (a recipe's echo) is work: audited.
 */
static const struct audit *runner_build(struct build *b, const char *path, const char *const argv[], bool work)
{
	static const char *const echo[] = { "echo", "done", NULL };

	build_start(b, 2, true, argv);
	synth_exec(b->m, T0 + MS, MAKE_PID, 1, path, argv);
	if (work)
		job(b, 200, "/bin/echo", echo, 0, 10 * MS, 20 * MS, 100);
	return build_finish(b, 30 * MS, 2);
}

Test(audit_answers, a_make_or_ninja_that_ran_no_job_compiled_nothing)
{
	static const char *const ninja[] = { "ninja", "-C", "build", NULL };
	static const struct {
		const char *path, *const *argv, *runner;
	} cases[] = { { "/usr/bin/make", make_j2, "make" }, { "/usr/bin/ninja", ninja, "ninja" } };
	char expected[160], *text;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct build b;
		const struct audit *a = runner_build(&b, cases[i].path, cases[i].argv, false);

		snprintf(expected, sizeof(expected),
			 "nothing compiled: %s ran no job, every target was up to date: no parallelism to audit",
			 cases[i].runner);
		cr_assert(fresh_build__nothing_compiled(&a->fresh));
		text = answers(&b);
		cr_assert(not(eq(ptr, strstr(text, expected), NULL)), "%s", text);
		cr_assert(eq(ptr, strstr(text, "parallel?"), NULL), "%s", text);
		free(text);
		nothing_compiled_json(a, b.m, cases[i].runner, "no_job", 0, expected);
		build_free(&b);

		a = runner_build(&b, cases[i].path, cases[i].argv, true);
		cr_assert(not(fresh_build__nothing_compiled(&a->fresh)), "%s ran a job", cases[i].runner);
		build_free(&b);
	}
}

Test(audit_answers, default_lines_fit_in_100_columns)
{
	static const char *const long_argv[] = {
		"cc1", "src/a/very/long/directory/name/that/goes/on/and/on/file.c", NULL
	};
	struct build b;
	const struct audit *a;
	char path[64], *text;
	__u32 i;

	build_start(&b, 2, true, make_j2);
	for (i = 0; i < 12; i++) {
		snprintf(path, sizeof(path), "/usr/bin/a-program-with-a-long-name-%u", i);
		job(&b, 200 + i, path, long_argv, i % 2, i * 100 * MS, (i + 1) * 100 * MS, 100000);
	}
	job(&b, 300, "/usr/lib/gcc/cc1", long_argv, 0, 1200 * MS, 3 * S, 100);
	cpu_idle(&b, 1, 1200 * MS, 3 * S);
	a = build_finish(&b, 3 * S, 2);
	cr_assert(lt(sz, 5, a->nr_programs));
	text = answers(&b);
	free(text);
	build_free(&b);
}

Test(report_text, a_long_list_wraps_after_a_comma)
{
	struct report_line l;
	char *text = NULL;
	size_t len, i;
	FILE *out = open_memstream(&text, &len), *f;

	cr_assert(not(eq(ptr, out, NULL)));
	f = report_line__begin(&l, out);
	fputs("  a list:", f);
	for (i = 0; i < 30; i++)
		fprintf(f, "%s item %zu", i ? "," : "", i);
	report_line__end(&l);
	fclose(out);
	assert_narrow(text);
	/* Each line but the last ends in a comma; continuations are indented past the line's own. */
	cr_assert(strstr(text, ",\nbuildbpf:     item ") != NULL, "%s", text);
	cr_assert(strstr(text, "item 29\n") != NULL, "%s", text);
	free(text);
}

/* Issue 39: a file in the report (a race's, what a step reads) loses directories to the column, not its name. */
Test(report_text, a_path_keeps_its_file_name)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	report_put_path(out, "/tmp/gb/jsonc/bld/apps/CMakeFiles/json_parse.dir/json_parse.c.o", REPORT_NAME_MAX);
	fputc(' ', out);
	report_put_path(out, "target/release/deps/libregex_syntax-63ff320c63d06a21.rmeta", REPORT_NAME_MAX);
	fputc(' ', out);
	report_put_path(out, "src/x.c", REPORT_NAME_MAX);
	fclose(out);
	cr_assert(eq(str, text, ".../json_parse.dir/json_parse.c.o libregex_syntax-63ff320c63d06a21.rmeta src/x.c"));
	free(text);
}

Test(report_text, counts_and_seconds)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	report_put_count(out, 1138);
	fputc(' ', out);
	report_put_count(out, 1000000);
	fputc(' ', out);
	report_put_sec(out, 1 * MS);
	fputc(' ', out);
	report_put_sec(out, 0);
	fputc(' ', out);
	report_put_share(out, 1, 1000);
	fclose(out);
	cr_assert(eq(str, text, "1,138 1,000,000 <0.01 s 0.00 s <1 %"));
	free(text);
}

/* One formatter for every size: powers of 1024, labelled as such, the unit chosen at each 2^10 step. */
Test(report_text, sizes_are_binary_and_labelled_so)
{
	char buf[REPORT_SIZE_LEN];

	cr_assert(eq(str, (char *)report_size(buf, 0), "0 B"));
	cr_assert(eq(str, (char *)report_size(buf, 1023), "1023 B"));
	cr_assert(eq(str, (char *)report_size(buf, 1024), "1 KiB"));
	cr_assert(eq(str, (char *)report_size(buf, 12 << 10), "12 KiB"));
	cr_assert(eq(str, (char *)report_size(buf, 1 << 20), "1.0 MiB"));
	/* 1,000,000 bytes is 0.95 MiB, not "1.0 MB". */
	cr_assert(eq(str, (char *)report_size(buf, 1000000), "977 KiB"));
	cr_assert(eq(str, (char *)report_size(buf, 3 << 19), "1.5 MiB"));
	cr_assert(eq(str, (char *)report_size(buf, 1ull << 30), "1.0 GiB"));
	cr_assert(eq(str, (char *)report_size(buf, 23ull << 30), "23.0 GiB"));
	cr_assert(eq(str, (char *)report_size(buf, 5ull << 40), "5120.0 GiB"));
}

/* line up to its newline (or end), every run of digits, ',' and '.' as one '#'. */
static void digits_as_hash(char *out, size_t size, const char *line)
{
	size_t n = 0;

	for (; *line && *line != '\n' && n + 1 < size; line++) {
		if (*line >= '0' && *line <= '9') {
			while (line[1] && ((line[1] >= '0' && line[1] <= '9') || line[1] == ',' || line[1] == '.'))
				line++;
			out[n++] = '#';
		} else {
			out[n++] = *line;
		}
	}
	out[n] = '\0';
}

/*
 * The summary the README and docs/usage.md show is what buildbpf prints by
 * default, figures aside: no line or word of --verbose only (the lanes).
 */
Test(summary, the_docs_show_the_default_summary)
{
	static const char *const docs[] = { "README.md", "docs/usage.md" };
	static char *const argv[] = { "make", "-j8", NULL };
	const struct summary_info info = {
		.cmd_argv = argv, .cmd_argc = 2, .wall_ns = 41 * S, .exit_status = 0, .output_path = "trace.json",
		.audit_counts = true, /* by default the audit's line counts the processes */
	};
	struct model *m = model__new(MAKE_PID, T0);
	char *text = NULL, want[256], got[256];
	const char *line, *shown;
	size_t len, i, k;
	FILE *out;

	cr_assert(not(eq(ptr, m, NULL)));
	synth_fork(m, T0, MAKE_PID, MAKE_PID + 1, MAKE_PID + 1, false);
	synth_exit(m, T0 + 1 * S, MAKE_PID + 1, MAKE_PID + 1, true, 0);
	synth_exit(m, T0 + 41 * S, MAKE_PID, MAKE_PID, true, 0);
	cr_assert(eq(int, model__finish(m, T0 + 41 * S), 0));
	out = open_memstream(&text, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	summary__print(out, m, &info);
	fclose(out);
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *doc = bb_read_source(docs[i]);

		shown = strstr(doc, "    buildbpf: traced 'make -j8'");
		cr_assert(not(eq(ptr, (void *)shown, NULL)), "%s shows no summary of make -j8", docs[i]);
		for (line = text, k = 0; *line; k++) {
			digits_as_hash(want, sizeof(want), line);
			digits_as_hash(got, sizeof(got), shown + strlen("    "));
			cr_assert(eq(str, got, want), "%s, summary line %zu", docs[i], k + 1);
			line = strchr(line, '\n') + 1;
			shown = strchr(shown, '\n') + 1;
		}
		free(doc);
	}
	free(text);
	model__free(m);
}

Test(summary, a_killed_command_says_by_which_signal)
{
	static char *const argv[] = { "make", NULL };
	struct summary_info info = {
		.cmd_argv = argv, .cmd_argc = 1, .wall_ns = 1 * S, .exit_status = 143, .term_signal = 15
	};
	struct model *m = model__new(MAKE_PID, T0);
	char *text = NULL;
	size_t len;
	FILE *out;

	cr_assert(not(eq(ptr, m, NULL)));
	cr_assert(eq(int, model__finish(m, T0 + 1 * S), 0));
	out = open_memstream(&text, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	summary__print(out, m, &info);
	info.exit_status = 143; /* exited with 143 itself: no signal */
	info.term_signal = 0;
	summary__print(out, m, &info);
	fclose(out);
	cr_assert(strstr(text, "'make': killed by SIGTERM (exit status 143), 1.000 s wall\n") != NULL, "%s", text);
	cr_assert(strstr(text, "'make': exit status 143, 1.000 s wall\n") != NULL, "%s", text);
	cr_assert(strstr(text, "lanes at peak") == NULL, "%s", text); /* --verbose only */
	free(text);
	model__free(m);
}
