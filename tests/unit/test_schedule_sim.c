// SPDX-License-Identifier: GPL-2.0
/*
 * What-if over the build's jobs (graph/schedule_sim.h, graph/slack.h) on
 * synthetic builds whose answers are worked out by hand: the known
 * graph (gen 0.5 s writes gen.h; a.o 1 s reads it; b.o 2 s, c.o 3 s; the
 * link 0.5 s reads the three objects) run at -j1 and at -j4.
 */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/build_graph.h"
#include "graph/job_graph.h"
#include "graph/run_order.h"
#include "graph/cpu_sim.h"
#include "graph/schedule_sim.h"
#include "graph/slack.h"
#include "lib/seeded_random.h"
#include "lib/synth.h"

#define MS 1000000ull

struct sim_fixture {
	struct model *m;
	struct graph_edge edges[16];
	size_t nr_edges;
	struct job_slots slots; /* what job_graph__build() and run_order__build() read */
	struct job_graph jg;
};

/* The jobs over edges, after the model's job slots, as the graph stage orders them (graph/graph_run.h). */
static int build_jobs(struct sim_fixture *f, const struct graph_edge *edges, size_t nr_edges)
{
	return job_slots__init(&f->slots, f->m, NULL, 0) ?: job_graph__build(&f->jg, f->m, &f->slots, edges, nr_edges) ?:
	       run_order__build(&f->jg, f->m, &f->slots);
}

/* pid runs program (its comm) during [start, end] ms, a child of parent. */
static void sim_proc(struct sim_fixture *f, __u32 parent, __u32 pid, const char *program, __u64 start, __u64 end)
{
	synth_fork(f->m, start * MS, parent, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, parent, program, (const char *[]){ program, NULL });
	synth_exit(f->m, end * MS, pid, pid, true, 0);
}

static size_t sim_idx(const struct sim_fixture *f, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(f->m, pid);

	cr_assert(p != NULL, "no process %u", pid);
	return p->id;
}

static void sim_edge(struct sim_fixture *f, __u32 writer, __u32 reader)
{
	f->edges[f->nr_edges++] = (struct graph_edge){ .writer = sim_idx(f, writer), .reader = sim_idx(f, reader) };
}

/* An edge its writer published at ready_ms while it ran on (a rename: cargo's .rmeta, graph/build_graph.h). */
static void sim_edge_ready(struct sim_fixture *f, __u32 writer, __u32 reader, __u64 ready_ms)
{
	sim_edge(f, writer, reader);
	f->edges[f->nr_edges - 1].ready_ns = ready_ms * MS;
}

/* make (pid 100, from 0 to end_ms) and its five jobs at the given times. */
static void known_jobs(struct sim_fixture *f, const __u64 at[5][2], __u64 end_ms)
{
	static const char *const names[] = { "gen", "cc", "cc", "cc", "ld" };
	size_t i;

	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	cr_assert(f->m != NULL);
	synth_exec(f->m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	for (i = 0; i < 5; i++)
		sim_proc(f, 100, 101 + i, names[i], at[i][0], at[i][1]);
	synth_exit(f->m, end_ms * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
	sim_edge(f, 101, 102); /* gen.h */
	sim_edge(f, 102, 105); /* a.o */
	sim_edge(f, 103, 105); /* b.o */
	sim_edge(f, 104, 105); /* c.o */
	cr_assert(eq(int, build_jobs(f, f->edges, f->nr_edges), 0));
}

/* The lag of the one link into job j from a runner's start (graph/run_order.h). */
static __u64 lag_into(const struct sim_fixture *f, size_t j)
{
	size_t k, n = 0;
	__u64 lag = 0;

	for (k = 0; k < f->jg.nr_links; k++) {
		size_t from = f->jg.links[k].from;

		if (f->jg.links[k].to == j && from >= f->jg.nr_jobs && !f->jg.marks[from - f->jg.nr_jobs].end) {
			lag = f->jg.links[k].lag_ns;
			n++;
		}
	}
	cr_assert(eq(sz, n, 1), "job %zu: one link from a start", j);
	return lag;
}

static void sim_end(struct sim_fixture *f)
{
	job_graph__free(&f->jg);
	job_slots__free(&f->slots);
	model__free(f->m);
}

static __u64 wall_at(const struct sim_fixture *f, size_t slots)
{
	__u64 wall = 0;

	cr_assert(eq(int, schedule_sim__run(&f->jg, slots, NULL, &wall), 0));
	return wall;
}

/* -j1: one after the other from 10 ms, 10 ms apart; make ends 10 ms after the link. */
static const __u64 serial[5][2] = { { 10, 510 }, { 520, 1520 }, { 1530, 3530 }, { 3540, 6540 }, { 6550, 7050 } };
/* -j4: gen, b.o and c.o at once; a.o after gen; the link after c.o. */
static const __u64 parallel[5][2] = { { 10, 510 }, { 511, 1511 }, { 11, 2011 }, { 12, 3012 }, { 3013, 3513 } };

Test(schedule_sim, jobs_of_a_known_build_and_their_data_edges)
{
	struct sim_fixture f;
	size_t i;

	known_jobs(&f, parallel, 3520);
	cr_assert(eq(sz, f.jg.nr_jobs, 5));
	cr_assert(eq(sz, f.jg.nr_data_edges, 4));
	cr_assert(eq(sz, f.jg.nr_runners, 1));
	cr_assert(eq(long, f.jg.proc_job[sim_idx(&f, 100)], -1), "make is the runner, not a job");
	/* Jobs in start order: gen, b.o, c.o, a.o, link. */
	cr_assert(eq(sz, f.jg.jobs[0].proc, sim_idx(&f, 101)));
	cr_assert(eq(sz, f.jg.jobs[1].proc, sim_idx(&f, 103)));
	cr_assert(eq(sz, f.jg.jobs[4].proc, sim_idx(&f, 105)));
	for (i = 0; i < 5; i++) {
		cr_assert(eq(u64, f.jg.jobs[i].release_ns, 0), "released by make's order, not the clock");
		cr_assert(eq(u64, lag_into(&f, i), 10 * MS), "make started its first job 10 ms after its own start");
		cr_assert(eq(long, f.jg.jobs[i].prev_in_turn, -1), "make ran them in parallel");
	}
	cr_assert(eq(sz, f.jg.nr_marks, 2), "make's start and end");
	cr_assert(eq(sz, f.jg.peak_jobs, 3));
	cr_assert(eq(u64, f.jg.tail_ns, 0), "make's 7 ms after its last job is its end mark's");
	cr_assert(eq(u64, f.jg.wall_ns, 3520 * MS));
	sim_end(&f);
}

Test(schedule_sim, the_unlimited_bound_is_the_longest_data_path)
{
	struct sim_fixture f;

	known_jobs(&f, parallel, 3520);
	/* 10 ms, c.o 3,000, the link 500, the tail 7. */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 3517 * MS));
	cr_assert(eq(u64, wall_at(&f, 4), 3517 * MS), "four slots hold every job that could run");
	/* Two slots, in make's order: gen and b.o at 10; c.o, started before a.o, in the
	 * slot gen frees (510 to 3510); a.o in b.o's (2010 to 3010); the link 3510 to 4010. */
	cr_assert(eq(u64, wall_at(&f, 2), 4017 * MS));
	/* One slot: every job in turn, 7,000 ms from 10 ms, and the tail. */
	cr_assert(eq(u64, wall_at(&f, 1), 7017 * MS));
	sim_end(&f);
}

Test(schedule_sim, the_j1_simulation_reproduces_a_serial_build)
{
	struct sim_fixture f;
	size_t i;

	known_jobs(&f, serial, 7060);
	for (i = 1; i < 5; i++)
		cr_assert(eq(long, f.jg.jobs[i].prev_in_turn, (long)i - 1), "one at a time: each waited for the last");
	cr_assert(eq(sz, f.jg.peak_jobs, 1));
	/* The measured wall less the four 10 ms gaps make took between jobs. */
	cr_assert(eq(u64, wall_at(&f, 1), 7020 * MS));
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 3520 * MS));
	sim_end(&f);
}

Test(slack, a_known_parallel_build_has_slack_off_the_critical_path)
{
	struct sim_fixture f;
	__u64 s[5];

	known_jobs(&f, parallel, 3520);
	slack__jobs(&f.jg, s);
	/* Order: gen, b.o, c.o, a.o, link.  The link reads c.o 1 ms after it ended. */
	cr_assert(eq(u64, s[4], 0));
	cr_assert(eq(u64, s[2], 1 * MS));
	cr_assert(eq(u64, s[1], 1002 * MS), "b.o could end as late as the link's start");
	cr_assert(eq(u64, s[3], 1502 * MS));
	/* gen: a.o (1 s) must still end by 3,013 ms, so gen by 2,013. */
	cr_assert(eq(u64, s[0], 1503 * MS));
	sim_end(&f);
}

Test(slack, a_runner_that_ran_jobs_in_turn_leaves_none)
{
	struct sim_fixture f;
	__u64 s[5];
	size_t i;

	known_jobs(&f, serial, 7060);
	slack__jobs(&f.jg, s);
	/* Each waited for by the next, 10 ms later: the gaps after a job add up. */
	for (i = 0; i < 5; i++)
		cr_assert(eq(u64, s[i], 10 * MS * (4 - i)), "job %zu", i);
	sim_end(&f);
}

Test(slack, a_step_that_took_no_time_lets_the_next_path_take_over)
{
	struct sim_fixture f;
	struct cpu_machine unlimited = { .slots = SIM_UNLIMITED, .replay = true }, one = { .slots = 1, .replay = true };
	__u64 wall;

	known_jobs(&f, parallel, 3520);
	/* Without c.o, b.o then the link: 10 + 2,000 + 500 + 7. */
	cr_assert(eq(int, slack__wall_without(&f.jg, NULL, &unlimited, 2, 3000 * MS, &wall), 0));
	cr_assert(eq(u64, wall, 2517 * MS));
	/* Without gen: c.o still holds the path. */
	cr_assert(eq(int, slack__wall_without(&f.jg, NULL, &unlimited, 0, 500 * MS, &wall), 0));
	cr_assert(eq(u64, wall, 3517 * MS));
	/* At -j1 every job counts: 7,017 less c.o's 3,000. */
	cr_assert(eq(int, slack__wall_without(&f.jg, NULL, &one, 2, 3000 * MS, &wall), 0));
	cr_assert(eq(u64, wall, 4017 * MS));
	sim_end(&f);
}

Test(schedule_sim, a_recursive_makes_jobs_are_the_sub_makes_children)
{
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	sim_proc(&f, 100, 101, "sh", 5, 900);	  /* sh -c 'make -C sub' */
	sim_proc(&f, 101, 102, "make", 6, 890);	  /* the sub-make */
	sim_proc(&f, 102, 103, "sh", 20, 400);	  /* its jobs */
	sim_proc(&f, 103, 104, "cc1", 21, 390);	  /* inside a job */
	sim_proc(&f, 102, 105, "sh", 30, 800);
	sim_proc(&f, 100, 106, "cp", 901, 950);	  /* a job of the top make */
	synth_exit(f.m, 960 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 960 * MS), 0));
	sim_edge(&f, 104, 106); /* cp copies what cc1 wrote */
	sim_edge(&f, 104, 103); /* inside one job: no edge */
	cr_assert(eq(int, build_jobs(&f, f.edges, f.nr_edges), 0));
	cr_assert(eq(sz, f.jg.nr_jobs, 3));
	cr_assert(eq(sz, f.jg.nr_runners, 2));
	cr_assert(eq(long, f.jg.proc_job[sim_idx(&f, 101)], -1), "the shell that runs a make is no job");
	cr_assert(eq(long, f.jg.proc_job[sim_idx(&f, 104)], f.jg.proc_job[sim_idx(&f, 103)]));
	cr_assert(eq(u64, lag_into(&f, 0), 14 * MS), "the sub-make's parse time: its first job 14 ms after its start");
	cr_assert(eq(u64, lag_into(&f, 2), 5 * MS), "the top make's first child, 5 ms after its start");
	cr_assert(eq(sz, f.jg.nr_data_edges, 1));
	cr_assert(eq(sz, f.jg.peak_jobs, 2));
	/* Unlimited: the shell at 5 ms runs the sub-make 1 ms later, its jobs from 20 ms, the
	 * 770 ms one ends at 790; the sub-make's 90 ms tail, the shell's 10; cp 1 ms after
	 * (make had a slot free and still waited for the shell: its order, no file says it),
	 * 891 to 940, and the top make's 10. */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 950 * MS));
	sim_end(&f);
}

Test(schedule_sim, a_reader_that_started_before_its_writer_ended_did_not_wait)
{
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/usr/bin/ninja", (const char *[]){ "ninja", NULL });
	sim_proc(&f, 100, 101, "gen", 10, 1000); /* writes early, runs on */
	sim_proc(&f, 100, 102, "cc", 100, 300);
	synth_exit(f.m, 1010 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 1010 * MS), 0));
	sim_edge(&f, 101, 102);
	cr_assert(eq(int, build_jobs(&f, f.edges, f.nr_edges), 0));
	cr_assert(eq(sz, f.jg.nr_data_edges, 0));
	cr_assert(eq(u64, wall_at(&f, 1), 1210 * MS), "990 then 200, from 10 ms, the tail 10");
	sim_end(&f);
}

Test(schedule_sim, without_a_runner_there_is_nothing_to_simulate)
{
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/bin/sh", (const char *[]){ "sh", "build.sh", NULL });
	sim_proc(&f, 100, 101, "cc", 10, 500);
	synth_exit(f.m, 600 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 600 * MS), 0));
	cr_assert(eq(int, build_jobs(&f, NULL, 0), 0));
	cr_assert(eq(sz, f.jg.nr_jobs, 0));
	cr_assert(eq(u64, wall_at(&f, 2), 600 * MS), "the measured wall");
	sim_end(&f);
}

/* A make recipe line: a shell running cmd, a child of make (pid 100), during [start, end] (ns). */
static void sim_line(struct sim_fixture *f, __u32 pid, const char *cmd, __u64 start, __u64 end)
{
	synth_fork(f->m, start, 100, pid, pid, false);
	synth_exec(f->m, start + 1000, pid, 100, "/bin/sh", (const char *[]){ "/bin/sh", "-c", cmd, NULL });
	synth_exit(f->m, end, pid, pid, true, 0);
}

/*
 * make -j2, kbuild's shape: a.o's recipe is two shells, the second forked
 * when the first ended, both naming a.o; b.o's recipe runs beside it.
 * With release_calls, make also runs kbuild's KERNELRELEASE = $(shell cat
 * ...) before the first line and between a.o's two: make's own work.
 */
static void two_recipes(struct sim_fixture *f, bool release_calls)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	synth_exec(f->m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	if (release_calls)
		synth_captured_sh(f->m, 9 * MS, 9 * MS + 500000, 100, 104, "cat include/config/kernel.release");
	sim_line(f, 101, "gcc -c -o mm/a.o mm/a.c", 10 * MS, 300 * MS);
	sim_line(f, 102, "gcc -c -o mm/b.o mm/b.c", 11 * MS, 200 * MS);
	if (release_calls)
		synth_captured_sh(f->m, 300 * MS + 100000, 300 * MS + 200000, 100, 105,
				  "cat include/config/kernel.release");
	sim_line(f, 103, "objtool mm/a.o", 300 * MS + 300000, 310 * MS);
	synth_exit(f->m, 320 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, 320 * MS), 0));
	cr_assert(eq(int, build_jobs(f, NULL, 0), 0));
	cr_assert(eq(sz, f->jg.nr_jobs, 2), "two recipes, three shells");
	cr_assert(eq(long, f->jg.proc_job[sim_idx(f, 103)], f->jg.proc_job[sim_idx(f, 101)]));
	cr_assert(eq(u64, f->jg.jobs[0].end_ns, 310 * MS), "the recipe ends with its last line");
	cr_assert(eq(sz, f->jg.peak_jobs, 2));
	/* -j1: 300 then b.o's 189, from 10 ms, the tail 10. */
	cr_assert(eq(u64, wall_at(f, 1), 509 * MS));
}

/*
 * The recipe is one job of 300 ms, so the unlimited bound keeps its lines
 * in turn (each its own job, the second would run from the start).
 */
Test(schedule_sim, a_recipes_lines_are_one_job)
{
	struct sim_fixture f;

	two_recipes(&f, false);
	/* Unlimited: a.o's recipe from 10 to 310, the tail 10. */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 320 * MS));
	cr_assert(eq(sz, f.jg.nr_shell_calls, 0));
	sim_end(&f);
}

/* make's $(shell) calls are no jobs: the recipe is still one job over the call between its lines. */
Test(schedule_sim, makes_shell_calls_are_no_jobs)
{
	struct sim_fixture f;

	two_recipes(&f, true);
	cr_assert(eq(sz, f.jg.nr_shell_calls, 2));
	cr_assert(eq(long, f.jg.proc_job[sim_idx(&f, 104)], -1));
	cr_assert(eq(long, f.jg.proc_job[sim_idx(&f, 105)], -1));
	sim_end(&f);
}

/*
 * make -j2 parses 10 ms, then runs two $(shell) calls (10 to 110 ms, 112
 * to 212 ms), forks a.o (111 to 400 ms) right after the first and b.o
 * (213 to 600 ms) right after the second; it ends 10 ms after b.o.
 * Before, each call was released at 0, both ran at once, and b.o ran from
 * make's parse time (111 ms, its first fork).
 */
static void calls_then_jobs(struct sim_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	synth_exec(f->m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	synth_captured_sh(f->m, 10 * MS, 110 * MS, 100, 102, "gcc -dumpversion");
	sim_line(f, 103, "gcc -c -o a.o a.c", 111 * MS, 400 * MS);
	synth_captured_sh(f->m, 112 * MS, 212 * MS, 100, 104, "cat include/config/kernel.release");
	sim_line(f, 105, "gcc -c -o b.o b.c", 213 * MS, 600 * MS);
	synth_exit(f->m, 610 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, 610 * MS), 0));
	cr_assert(eq(int, build_jobs(f, NULL, 0), 0));
	cr_assert(eq(sz, f->jg.nr_jobs, 2));
	cr_assert(eq(sz, f->jg.nr_shell_calls, 2));
}

/* How many links go from node from to node to; lag: only those after it, ANY_LAG: all. */
#define ANY_LAG UINT64_MAX
static size_t links(const struct sim_fixture *f, size_t from, size_t to, __u64 lag)
{
	size_t k, n = 0;

	for (k = 0; k < f->jg.nr_links; k++)
		n += f->jg.links[k].from == from && f->jg.links[k].to == to &&
		     (lag == ANY_LAG || f->jg.links[k].lag_ns == lag);
	return n;
}

/* A process's start mark's node (graph/schedule_sim.h); its end's is the next. */
static size_t start_mark(const struct sim_fixture *f, __u32 pid)
{
	size_t i, proc = sim_idx(f, pid);

	for (i = 0; i < f->jg.nr_marks; i++)
		if (f->jg.marks[i].proc == proc && !f->jg.marks[i].end)
			return f->jg.nr_jobs + i;
	cr_fatal("no start mark for %u", pid);
}

static size_t job_of(const struct sim_fixture *f, __u32 pid)
{
	return (size_t)f->jg.proc_job[sim_idx(f, pid)];
}

/*
 * make runs its $(shell) calls one at a time: the first after its parse,
 * the second after the first, its lag make's own work up to a.o's fork
 * (1 ms); make ends after the last.
 */
Test(schedule_sim, makes_shell_calls_run_one_after_another)
{
	struct sim_fixture f;
	size_t make, first, second;

	calls_then_jobs(&f);
	make = start_mark(&f, 100);
	first = start_mark(&f, 102);
	second = start_mark(&f, 104);
	cr_assert(eq(sz, links(&f, make, first, 10 * MS), 1), "the first after make's parse");
	cr_assert(eq(sz, links(&f, first + 1, second, 1 * MS), 1), "the second after the first");
	cr_assert(eq(sz, links(&f, make, second, ANY_LAG), 0), "not released at make's start");
	cr_assert(eq(sz, links(&f, second + 1, make + 1, 1 * MS), 1), "make ends after the last");
	sim_end(&f);
}

/*
 * A job make forked right after a call does not start before that call
 * ended: b.o from 212 ms (the calls in turn), not from 111.  1 ms under
 * the measured 610: make's own work after a.o's fork, before the second
 * call, is left out.
 */
Test(schedule_sim, a_job_forked_after_a_shell_call_waits_for_it)
{
	struct sim_fixture f;

	calls_then_jobs(&f);
	cr_assert(eq(sz, links(&f, start_mark(&f, 102) + 1, job_of(&f, 103), 1 * MS), 1));
	cr_assert(eq(sz, links(&f, start_mark(&f, 104) + 1, job_of(&f, 105), 1 * MS), 1));
	cr_assert(eq(sz, links(&f, start_mark(&f, 102) + 1, job_of(&f, 105), ANY_LAG), 0),
		  "only the call right before it");
	/* a.o 111 to 400, b.o 212 to 599, make's 10 ms tail (before: b.o from 111, 508 ms). */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 609 * MS));
	cr_assert(eq(u64, wall_at(&f, 2), 609 * MS));
	/* -j1: b.o after a.o, 400 to 787. */
	cr_assert(eq(u64, wall_at(&f, 1), 797 * MS));
	sim_end(&f);
}

/* make forked b.o after a.o, past the call: it did something between, b.o is not tied to the call. */
Test(schedule_sim, a_job_after_other_work_of_make_is_not_tied_to_the_call)
{
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", "-j3", NULL });
	synth_captured_sh(f.m, 10 * MS, 110 * MS, 100, 102, "cat include/config/kernel.release");
	sim_line(&f, 103, "gcc -c -o a.o a.c", 111 * MS, 300 * MS);
	sim_line(&f, 104, "gcc -c -o b.o b.c", 112 * MS, 300 * MS);
	synth_exit(f.m, 310 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 310 * MS), 0));
	cr_assert(eq(int, build_jobs(&f, NULL, 0), 0));
	cr_assert(eq(sz, links(&f, start_mark(&f, 102) + 1, job_of(&f, 103), 1 * MS), 1));
	cr_assert(eq(sz, links(&f, start_mark(&f, 102) + 1, job_of(&f, 104), ANY_LAG), 0));
	sim_end(&f);
}

/*
 * A recursive make recorded at -j1, kbuild's shape: a shell enters a/ then
 * b/ one after another; a/ has three 1 s jobs, b/ two.  With more slots
 * a/ ends sooner, so b/ and its jobs start sooner: the runners' order,
 * not the clock b/'s jobs first started at (3,040 ms), releases them.
 */
Test(schedule_sim, a_second_sub_makes_jobs_start_earlier_with_more_slots)
{
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	sim_proc(&f, 100, 101, "sh", 5, 5060);	  /* for d in a b; do make -C $d; done */
	sim_proc(&f, 101, 102, "make", 6, 3020);  /* a/: parses 4 ms, runs its jobs in turn */
	sim_proc(&f, 102, 103, "cc", 10, 1010);
	sim_proc(&f, 102, 104, "cc", 1011, 2011);
	sim_proc(&f, 102, 105, "cc", 2012, 3012);
	sim_proc(&f, 101, 106, "make", 3030, 5050); /* b/: 10 ms after a/ ended */
	sim_proc(&f, 106, 107, "cc", 3040, 4040);
	sim_proc(&f, 106, 108, "cc", 4041, 5041);
	synth_exit(f.m, 5070 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 5070 * MS), 0));
	cr_assert(eq(int, build_jobs(&f, NULL, 0), 0));
	cr_assert(eq(sz, f.jg.nr_jobs, 5));
	/* -j1: the measured wall less the three 1 ms gaps the sub-makes took between jobs. */
	cr_assert(eq(u64, wall_at(&f, 1), 5067 * MS));
	/* -j2: a/ from 10 to 2,010 (two, then one), its 8 ms tail; b/ 10 ms later, parses
	 * 10 ms, both jobs 2,038 to 3,038; b/'s 9 ms, the shell's 10, make's 10. */
	cr_assert(eq(u64, wall_at(&f, 2), 3067 * MS));
	/* Unlimited: each sub-make's jobs at once, 1 s each, the same fixed 67 ms. */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 2067 * MS));
	sim_end(&f);
}

/*
 * ./configure && make && make check: the shell runs three phases one after
 * another.  configure runs three 1 s probes in turn (a shell, not a runner:
 * no -j shortens it); make four 1 s jobs, make check two, recorded at -j1.
 * More -j shortens only the make phases, and each phase starts when the
 * one before ended in the simulation.
 */
Test(schedule_sim, more_slots_shorten_only_the_make_phases)
{
	struct sim_fixture f;
	__u64 j1, j2, j4, unlimited;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 1, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "./configure && make && make check", NULL });
	sim_proc(&f, 100, 101, "bash", 1, 3110); /* configure */
	sim_proc(&f, 101, 102, "cc", 101, 1101);
	sim_proc(&f, 101, 103, "cc", 1102, 2102);
	sim_proc(&f, 101, 104, "cc", 2103, 3103);
	sim_proc(&f, 100, 105, "make", 3120, 7140);
	sim_proc(&f, 105, 106, "cc", 3130, 4130);
	sim_proc(&f, 105, 107, "cc", 4131, 5131);
	sim_proc(&f, 105, 108, "cc", 5132, 6132);
	sim_proc(&f, 105, 109, "cc", 6133, 7133);
	sim_proc(&f, 100, 110, "make", 7150, 9170); /* make check */
	sim_proc(&f, 110, 111, "cc", 7160, 8160);
	sim_proc(&f, 110, 112, "cc", 8161, 9161);
	synth_exit(f.m, 9180 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 9180 * MS), 0));
	cr_assert(eq(int, build_jobs(&f, NULL, 0), 0));
	cr_assert(eq(sz, f.jg.nr_jobs, 6), "configure's probes are no jobs: no runner started them");
	j1 = wall_at(&f, 1);
	j2 = wall_at(&f, 2);
	j4 = wall_at(&f, 4);
	unlimited = wall_at(&f, SIM_UNLIMITED);
	/* -j1: the measured wall less the four 1 ms gaps between the makes' jobs. */
	cr_assert(eq(u64, j1, 9176 * MS));
	/* -j2: make 2 s, make check 1 s; configure's 3,110 ms as measured. */
	cr_assert(eq(u64, j2, 6176 * MS));
	/* -j4: each make's jobs at once; no more slots help. */
	cr_assert(eq(u64, j4, 5176 * MS));
	cr_assert(eq(u64, unlimited, j4));
	/* What -j saved is the make phases' time only: 4 + 2 jobs of 1 s down to 1 + 1. */
	cr_assert(eq(u64, j1 - unlimited, 4000 * MS));
	sim_end(&f);
}

/* The longest chain of data edges over jobs i < n (a predecessor has a smaller index): its jobs' walls summed. */
static __u64 longest_data_chain(const struct job_graph *jg)
{
	__u64 best = 0, *upto = calloc(jg->nr_jobs + 1, sizeof(*upto));
	size_t i, k;

	cr_assert(upto != NULL);
	for (i = 0; i < jg->nr_jobs; i++) {
		for (k = jg->pred_off[i]; k < jg->pred_off[i + 1]; k++)
			upto[i] = upto[jg->preds[k]] > upto[i] ? upto[jg->preds[k]] : upto[i];
		upto[i] += jg->jobs[i].end_ns - jg->jobs[i].start_ns;
		best = upto[i] > best ? upto[i] : best;
	}
	free(upto);
	return best;
}

/*
 * Seeded random builds: a shell running phases one after another, each a
 * configure (probes in turn) or a make whose jobs ran at -j1, 1 ms apart,
 * with random data edges.  Unlimited slots start every job as early as its
 * inputs and its runners' order allow, so it is never above the build's own
 * -j1 nor below the longest data path plus configure's probes; and -j1
 * replays the measured wall less make's 1 ms between jobs.
 */
Test(schedule_sim, unlimited_lies_between_the_data_path_and_as_run)
{
	__u64 state = 26;
	int build, shorter = 0;

	for (build = 0; build < 40; build++) {
		struct sim_fixture f;
		__u64 t = 0, probes = 0, gaps = 0, as_run, unlimited;
		__u32 pid = 101, phase, nr_phases = 1 + (__u32)(seeded_random(&state) % 3), pairs[12][2];
		size_t nr_pairs = 0, k;

		memset(&f, 0, sizeof(f));
		f.m = model__new(100, 0);
		synth_exec(f.m, 1, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "./configure && make", NULL });
		for (phase = 0; phase < nr_phases; phase++) {
			bool configure = seeded_random(&state) % 2;
			__u32 runner = pid++, first = pid, n = 2 + (__u32)(seeded_random(&state) % 5), i;
			__u64 from = t + 10, at[6][2];

			/* Each child 1 ms after the one before; the first 3 ms after the phase's start. */
			for (t = from + 2, i = 0; i < n; i++) {
				at[i][0] = ++t;
				t += 10 + seeded_random(&state) % 490;
				at[i][1] = t;
				probes += configure ? at[i][1] - at[i][0] : 0;
				gaps += !configure && i ? MS : 0;
			}
			sim_proc(&f, 100, runner, configure ? "bash" : "make", from, t + 3);
			for (i = 0; i < n; i++)
				sim_proc(&f, runner, pid++, "cc", at[i][0], at[i][1]);
			for (i = 1; !configure && nr_pairs < 12 && i < n; i++)
				if (seeded_random(&state) % 2) {
					pairs[nr_pairs][0] = first + (__u32)(seeded_random(&state) % i);
					pairs[nr_pairs++][1] = first + i;
				}
			t += 3;
		}
		t += 5;
		synth_exit(f.m, t * MS, 100, 100, true, 0);
		cr_assert(eq(int, model__finish(f.m, t * MS), 0));
		for (k = 0; k < nr_pairs; k++) /* the writer ended before the reader started */
			sim_edge(&f, pairs[k][0], pairs[k][1]);
		cr_assert(eq(int, build_jobs(&f, f.edges, f.nr_edges), 0));
		as_run = wall_at(&f, 1);
		unlimited = wall_at(&f, SIM_UNLIMITED);
		cr_assert(as_run + gaps == t * MS, "build %d: -j1 is the measured wall less make's gaps", build);
		cr_assert(unlimited <= as_run, "build %d: unlimited %llu above -j1 %llu", build,
			  (unsigned long long)unlimited, (unsigned long long)as_run);
		cr_assert(unlimited >= longest_data_chain(&f.jg) + probes * MS, "build %d: below the longest data path",
			  build);
		shorter += unlimited < as_run;
		sim_end(&f);
	}
	cr_assert(shorter > 20, "more slots shortened only %d of the 40 builds", shorter);
}

/*
 * cargo -j<jobs> (pid 100 from 0 ms, ending 1 ms after its last unit) and a
 * pipelined chain: rustc a, b, c of 1,000 ms each, each published its
 * .rmeta 300 ms into its run and the next read it; the bin d (200 ms)
 * reads c's .rlib, ready at c's end.  at: each unit's measured start.
 */
static void cargo_chain(struct sim_fixture *f, const char *jobs, const __u64 at[4])
{
	static const __u64 ms[4] = { 1000, 1000, 1000, 200 };
	size_t i;

	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	cr_assert(f->m != NULL);
	synth_exec(f->m, 1, 100, 1, "/usr/bin/cargo", (const char *[]){ "cargo", "build", jobs, NULL });
	for (i = 0; i < 4; i++)
		sim_proc(f, 100, 101 + i, "rustc", at[i], at[i] + ms[i]);
	synth_exit(f->m, (at[3] + ms[3] + 1) * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, (at[3] + ms[3] + 1) * MS), 0));
	sim_edge_ready(f, 101, 102, at[0] + 300);
	sim_edge_ready(f, 102, 103, at[1] + 300);
	sim_edge(f, 103, 104);
	f->edges[f->nr_edges - 1].ready_ns = (at[2] + ms[2]) * MS; /* the .rlib: at its writer's end */
	cr_assert(eq(int, build_jobs(f, f->edges, f->nr_edges), 0));
}

/*
 * Recorded at -j1, each unit waited for the slot, so started at the end
 * of the one before: the what-if still releases b and c at the .rmeta
 * their writer published (cargo's pipelining), not at its end.  Unlimited:
 * a from 1 ms, b from 301, c from 601 to 1,601, d to 1,801, cargo's 1 ms.
 * -j2: c waits for a's slot (1,001), d for c (2,001 to 2,201).  -j1: as run.
 */
Test(schedule_sim, a_pipelined_dependent_is_released_at_the_rmeta_not_its_writers_end)
{
	static const __u64 serial_units[4] = { 1, 1001, 2001, 3001 };
	struct cpu_machine alone = { .slots = SIM_UNLIMITED };
	struct sim_fixture f;
	__u64 s[4], wall;

	cargo_chain(&f, "-j1", serial_units);
	cr_assert(eq(sz, f.jg.nr_data_edges, 3));
	cr_assert(eq(u64, f.jg.pred_early_ns[f.jg.pred_off[1]], 700 * MS), "a's .rmeta: 700 ms before its end");
	cr_assert(eq(u64, f.jg.pred_early_ns[f.jg.pred_off[3]], 0), "c's .rlib: at its end");
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 1802 * MS));
	cr_assert(eq(u64, wall_at(&f, 2), 2202 * MS));
	cr_assert(eq(u64, wall_at(&f, 1), 3202 * MS));
	/* The what-if rows' simulation (no --sched figures: the measured walls) agrees. */
	cr_assert(eq(int, cpu_sim__run(&f.jg, NULL, &alone, &wall), 0));
	cr_assert(eq(u64, wall, 1802 * MS));
	/* A writer may end as late as its reader's latest start plus what it ran on after the .rmeta. */
	slack__jobs(&f.jg, s);
	cr_assert(eq(u64, s[0], 0), "a's .rmeta held b's start: no slack");
	sim_end(&f);
}

/*
 * Recorded at -j2, b and c started at the .rmeta, before their writers
 * ended: their edges count (each was ready by the reader's start), so -j1
 * cannot run b before a's .rmeta, and unlimited is the chain of .rmeta
 * times, as run.
 */
Test(schedule_sim, a_dependent_started_at_the_rmeta_waits_for_it_and_no_more)
{
	static const __u64 pipelined[4] = { 1, 311, 621, 1621 };
	struct sim_fixture f;

	cargo_chain(&f, "-j2", pipelined);
	cr_assert(eq(sz, f.jg.nr_data_edges, 3), "b and c started before their writers' end, after the .rmeta");
	/* Unlimited: b released at 301 (10 ms sooner than cargo started it), c at 601, d at 1,601 to 1,801. */
	cr_assert(eq(u64, wall_at(&f, SIM_UNLIMITED), 1802 * MS));
	cr_assert(eq(u64, wall_at(&f, 1), 3202 * MS), "one at a time: the walls summed from 1 ms, cargo's 1 ms");
	sim_end(&f);
}

/* pid runs argv (its file argv[0]) during [start, end] ms, a child of parent. */
static void sim_unit(struct sim_fixture *f, __u32 parent, __u32 pid, const char *const argv[], __u64 start,
		     __u64 end)
{
	synth_fork(f->m, start * MS, parent, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, parent, argv[0], argv);
	synth_exit(f->m, end * MS, pid, pid, true, 0);
}

/*
 * runner (pid 100, "-j1") ran a, d, b, then c, which read b's output, one
 * at a time from 10 ms: a, d and b 1,000 ms each, c 3,000 ms; the runner
 * ends 10 ms after c.
 */
static void ready_three(struct sim_fixture *f, const char *runner)
{
	static const __u64 at[4][2] = { { 10, 1010 }, { 1020, 2020 }, { 2030, 3030 }, { 3040, 6040 } };
	static const char *const crates[4] = { "a", "d", "b", "c" };
	size_t i;

	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	cr_assert(f->m != NULL);
	synth_exec(f->m, 1, 100, 1, runner, (const char *[]){ runner, "build", "-j1", NULL });
	for (i = 0; i < 4; i++)
		sim_unit(f, 100, 101 + i, (const char *[]){ "rustc", "--crate-name", crates[i], NULL }, at[i][0],
			 at[i][1]);
	synth_exit(f->m, 6050 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, 6050 * MS), 0));
	sim_edge(f, 103, 104);
	cr_assert(eq(int, build_jobs(f, f->edges, f->nr_edges), 0));
}

/*
 * With two slots a, d and b are ready at once.  cargo starts b first, the
 * one c depends on (DependencyQueue's priority): b and a from 10 ms, c
 * from 1,010 to 4,010, the end 10 ms after.  make keeps the order the
 * build started them in: a and d, then b from 1,010, c from 2,010 to
 * 5,010.
 */
Test(schedule_sim, cargo_starts_the_ready_unit_most_others_need_first)
{
	struct sim_fixture f;
	size_t i;

	ready_three(&f, "cargo");
	cr_assert(eq(sz, f.jg.jobs[2].rank, 2), "b: c depends on it");
	cr_assert(eq(sz, f.jg.jobs[0].rank, 1), "a: nothing depends on it");
	cr_assert(eq(u64, wall_at(&f, 2), 4020 * MS));
	cr_assert(eq(u64, wall_at(&f, 1), 6020 * MS), "one at a time: the walls summed from 10 ms");
	sim_end(&f);
	ready_three(&f, "make");
	for (i = 0; i < 4; i++)
		cr_assert(eq(sz, f.jg.jobs[i].rank, 0), "make's job %zu: started as it came", i);
	cr_assert(eq(u64, wall_at(&f, 2), 5020 * MS));
	sim_end(&f);
}

/*
 * cargo's unit graph has edges no file shows: a build script's run
 * execs what its compile wrote, and its crate gets what the run printed
 * from cargo.  Ranked through them: the compile before its run before
 * its crate (rand-core's, as rand_core), the other crate alone.
 */
Test(schedule_sim, a_build_script_ranks_above_its_run_and_its_crate)
{
	static const char *const compile[] = { "rustc", "--crate-name", "build_script_build", "--out-dir",
					       "/t/target/release/build/rand-core-1f2e", NULL };
	static const char *const run[] = { "/t/target/release/build/rand-core-1f2e/build-script-build", NULL };
	static const char *const crate[] = { "rustc", "--crate-name", "rand_core", NULL };
	static const char *const other[] = { "rustc", "--crate-name", "rand", NULL };
	struct sim_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	cr_assert(f.m != NULL);
	synth_exec(f.m, 1, 100, 1, "/usr/bin/cargo", (const char *[]){ "cargo", "build", NULL });
	sim_unit(&f, 100, 101, compile, 10, 1010);
	sim_unit(&f, 100, 102, other, 20, 1000);
	sim_unit(&f, 100, 103, run, 1020, 1100);
	sim_unit(&f, 100, 104, crate, 1110, 2110);
	synth_exit(f.m, 2120 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 2120 * MS), 0));
	cr_assert(eq(int, build_jobs(&f, NULL, 0), 0));
	cr_assert(eq(sz, f.jg.nr_jobs, 4));
	cr_assert(eq(sz, f.jg.jobs[0].rank, 3), "the compile: its run and its crate depend on it");
	cr_assert(eq(sz, f.jg.jobs[1].rank, 1), "rand: nothing depends on it");
	cr_assert(eq(sz, f.jg.jobs[2].rank, 2), "the run: its crate depends on it");
	cr_assert(eq(sz, f.jg.jobs[3].rank, 1));
	sim_end(&f);
}
