// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if with CPUs (graph/cpu_sim.h) and the jobs' slowing of each
 * other (graph/job_contention.h) on synthetic recordings whose answers are
 * worked out by hand: each job is its CPU time, run-queue wait and blocked
 * time as the scheduler accounted them at --sched=summary.
 */
#include <math.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/build_graph.h"
#include "graph/job_graph.h"
#include "graph/run_order.h"
#include "graph/cpu_sim.h"
#include "graph/job_contention.h"
#include "graph/schedule_sim.h"
#include "graph/slack.h"
#include "lib/synth.h"

#define MS 1000000ull
#define MAX_EDGES 32

struct cpu_fixture {
	struct model *m;
	struct graph_edge edges[MAX_EDGES];
	size_t nr_edges;
	struct job_slots slots; /* what job_graph__build() and run_order__build() read */
	struct job_graph jg;
	struct job_contention c;
};

/* The jobs over edges, after the model's job slots, as the graph stage orders them (graph/graph_run.h). */
static int build_jobs(struct cpu_fixture *f, const struct graph_edge *edges, size_t nr_edges)
{
	return job_slots__init(&f->slots, f->m, NULL, 0) ?: job_graph__build(&f->jg, f->m, &f->slots, edges, nr_edges) ?:
	       run_order__build(&f->jg, f->m, &f->slots);
}

/* make (pid 100) starts at 0; its job pid runs program during [start, end] ms with this CPU and waits. */
static void job(struct cpu_fixture *f, __u32 pid, const char *program, __u64 start, __u64 end, __u64 cpu,
		__u64 runq, __u64 blocked)
{
	synth_fork(f->m, start * MS, 100, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, 100, program, (const char *[]){ program, NULL });
	synth_exit_sched(f->m, end * MS, pid, cpu * MS, runq * MS, blocked * MS);
}

static void begin(struct cpu_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(100, 0);
	cr_assert(f->m != NULL);
	synth_exec(f->m, 0, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
}

static size_t idx(const struct cpu_fixture *f, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(f->m, pid);

	cr_assert(p != NULL, "no process %u", pid);
	return p->id;
}

static void edge(struct cpu_fixture *f, __u32 writer, __u32 reader)
{
	cr_assert(f->nr_edges < MAX_EDGES);
	f->edges[f->nr_edges++] = (struct graph_edge){ .writer = idx(f, writer), .reader = idx(f, reader) };
}

/* make ends at end_ms. */
static void finish(struct cpu_fixture *f, __u64 end_ms)
{
	synth_exit(f->m, end_ms * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
}

/* The jobs and what they teach, on cpus with outside CPUs' worth of outside work. */
static void build(struct cpu_fixture *f, size_t cpus, double outside)
{
	cr_assert(eq(int, build_jobs(f, f->edges, f->nr_edges), 0));
	cr_assert(eq(int, job_contention__learn(&f->c, &f->jg, cpus, outside), 0));
}

static void end(struct cpu_fixture *f)
{
	job_contention__free(&f->c);
	job_graph__free(&f->jg);
	job_slots__free(&f->slots);
	model__free(f->m);
}

static __u64 wall_ms(const struct cpu_fixture *f, size_t slots, size_t cpus, double outside)
{
	struct cpu_machine mc = { .slots = slots, .cpus = cpus, .outside = outside };
	__u64 wall = 0;

	cr_assert(eq(int, cpu_sim__run(&f->jg, &f->c, &mc, &wall), 0));
	return (wall + MS / 2) / MS;
}

/*
 * The case: 12 independent jobs of 0.4 s CPU, recorded at -j8 on
 * 2 CPUs: the first eight shared the CPUs (0.4 s CPU, 1.2 s waiting, 1.6 s
 * wall), the last four two to a CPU (0.4 s waiting); make ended at 2.4 s.
 */
static void twelve_jobs(struct cpu_fixture *f)
{
	__u32 i;

	begin(f);
	for (i = 0; i < 8; i++)
		job(f, 101 + i, "cc1", 0, 1600, 400, 1200, 0);
	for (i = 8; i < 12; i++)
		job(f, 101 + i, "cc1", 1600, 2400, 400, 400, 0);
	finish(f, 2400);
	build(f, 2, 0);
}

Test(cpu_sim, twelve_jobs_recorded_at_j8_on_two_cpus)
{
	struct cpu_fixture f;

	twelve_jobs(&f);
	cr_assert(f.jg.cpu_known);
	cr_assert(eq(u64, f.jg.jobs[0].cpu_ns, 400 * MS));
	cr_assert(eq(u64, f.jg.jobs[0].runq_ns, 1200 * MS));
	/* They all ran beside a busy CPU: nothing to learn a slowing from. */
	cr_assert(not(f.c.learned));
	cr_assert(eq(dbl, f.c.slowdown, 0));
	/* As run: 8 at a quarter CPU each for 1.6 s, then 4 at a half for 0.8 s. */
	cr_assert(eq(u64, wall_ms(&f, 8, 2, 0), 2400));
	/* -j4 on 4 CPUs: three rounds of 0.4 s (the old replay of wall times said 15 s). */
	cr_assert(eq(u64, wall_ms(&f, 4, 4, 0), 1200));
	/* -j1: 12 x 0.4 s; -j2 on 2 CPUs: 6 rounds; unlimited: one job's CPU. */
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 0), 4800));
	cr_assert(eq(u64, wall_ms(&f, 2, 2, 0), 2400));
	cr_assert(eq(u64, wall_ms(&f, SIM_UNLIMITED, 0, 0), 400));
	/* Two outside threads always runnable: -j2 gets half of each CPU, 4.8 s of CPU in 4.8 s; -j8 gets
	 * 8/10 of the two CPUs for the first eight (2 s), then 4/6 for the last four (1.2 s). */
	cr_assert(eq(u64, wall_ms(&f, 2, 2, 2.0), 4800));
	cr_assert(eq(u64, wall_ms(&f, 8, 2, 2.0), 3200));
	end(&f);
}

/*
 * "If it took no time" is re-simulated on the CPUs: without the first job,
 * eight jobs share the two CPUs for 1.6 s, then three for 0.6 s (2.2 s).
 * A replay of wall times kept the last four's 0.8 s of waiting (2.4 s).
 */
Test(cpu_sim, a_step_that_took_no_time_frees_its_cpu_for_the_others)
{
	struct cpu_fixture f;
	struct cpu_machine as_run = { .slots = 8, .cpus = 2 }, replay = { .slots = 8, .replay = true };
	__u64 wall = 0;

	twelve_jobs(&f);
	cr_assert(eq(int, slack__wall_without(&f.jg, &f.c, &as_run, 0, 1600 * MS, &wall), 0));
	cr_assert(eq(u64, (wall + MS / 2) / MS, 2200));
	cr_assert(eq(int, slack__wall_without(&f.jg, &f.c, &replay, 0, 1600 * MS, &wall), 0));
	cr_assert(eq(u64, (wall + MS / 2) / MS, 2400), "the replay keeps the waits for a CPU");
	/* Half of it: 0.2 s of CPU left, done at 0.8 s beside seven; the rest as before. */
	cr_assert(eq(int, slack__wall_without(&f.jg, &f.c, &as_run, 0, 800 * MS, &wall), 0));
	cr_assert(eq(u64, (wall + MS / 2) / MS, 2300));
	end(&f);
}

/*
 * How much jobs slow each other, learned: four cc1 jobs of 0.4 s CPU ran
 * one after another (each read the one before), then eight in pairs on the
 * two CPUs, each 0.8 s of CPU beside the other: one busy CPU beside a job
 * doubled its CPU time (slowdown 1.0), so -j2 is no faster than -j1.
 */
static void pairs_slow_each_other(struct cpu_fixture *f)
{
	__u32 i;

	begin(f);
	for (i = 0; i < 4; i++)
		job(f, 101 + i, "cc1", 400 * i, 400 * (i + 1), 400, 0, 0);
	for (i = 0; i < 8; i++)
		job(f, 105 + i, "cc1", 1600 + 800 * (i / 2), 1600 + 800 * (i / 2 + 1), 800, 0, 0);
	finish(f, 4800);
	for (i = 0; i < 3; i++)
		edge(f, 101 + i, 102 + i);
	for (i = 0; i < 8; i++)
		edge(f, 104, 105 + i); /* the pairs read the fourth job's output ... */
	for (i = 2; i < 8; i++)
		edge(f, 105 + i - 2, 105 + i); /* ... and each pair the one before's */
	build(f, 2, 0);
}

Test(job_contention, a_busy_cpu_beside_a_job_doubled_its_cpu)
{
	struct cpu_fixture f;

	pairs_slow_each_other(&f);
	cr_assert(f.c.learned);
	cr_assert(eq(sz, f.c.nr_fitted, 12));
	cr_assert(ieee_ulp_eq(dbl, f.c.busy[0], 0.0, 4), "alone");
	cr_assert(ieee_ulp_eq(dbl, f.c.busy[4], 1.0, 4), "beside its pair");
	cr_assert(ieee_ulp_eq(dbl, f.c.slowdown, 1.0, 16), "%f", f.c.slowdown);
	cr_assert(lt(dbl, f.c.slowdown_se, 1e-6), "a perfect fit");
	cr_assert(ieee_ulp_eq(dbl, job_contention__alone_ns(&f.c, &f.jg, 4), 400.0 * MS, 16));
	/* As run at -j2: 1.6 s alone, then four pairs of 0.8 s. */
	cr_assert(eq(u64, wall_ms(&f, 2, 2, 0), 4800));
	/* At -j1 the pairs' jobs run alone at 0.4 s: 1.6 + 8 x 0.4 s, no slower than -j2. */
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 0), 4800));
	/* Unlimited CPUs, each job as fast as alone: the chain of four, then 4 pairs in turn at 0.4 s. */
	cr_assert(eq(u64, wall_ms(&f, SIM_UNLIMITED, 0, 0), 3200));
	end(&f);
}

Test(job_contention, jobs_that_ran_at_one_concurrency_teach_nothing)
{
	struct cpu_fixture f;
	__u32 i;

	begin(&f);
	for (i = 0; i < 6; i++)
		job(&f, 101 + i, "cc1", 500 * i, 500 * (i + 1), 300 + 40 * i, 0, 0);
	finish(&f, 3000);
	build(&f, 2, 0);
	cr_assert(not(f.c.learned), "a -j1 build alone on the machine");
	cr_assert(eq(sz, f.c.nr_fitted, 6));
	cr_assert(eq(dbl, f.c.spread, 0));
	end(&f);
}

/*
 * CPU times that drifted with the machine, not with the jobs beside them:
 * four cc1 alone of 0.3 and 0.7 s in turn, then four pairs of 0.6 s each
 * (the rest of each job's wall waiting for a CPU).
 * The fit leans up (+27 % per busy CPU) but its standard error is 24 %: not
 * two clear of 0, so nothing is learned and the slope is only said.
 */
Test(job_contention, a_slope_within_its_noise_is_not_learned)
{
	struct cpu_fixture f;
	__u32 i;

	begin(&f);
	for (i = 0; i < 4; i++)
		job(&f, 101 + i, "cc1", 700 * i, 700 * (i + 1), i % 2 ? 700 : 300, i % 2 ? 0 : 400, 0);
	for (i = 0; i < 8; i++)
		job(&f, 105 + i, "cc1", 2800 + 800 * (i / 2), 2800 + 800 * (i / 2 + 1), 600, 200, 0);
	finish(&f, 6000);
	build(&f, 2, 0);
	cr_assert(eq(sz, f.c.nr_fitted, 12));
	cr_assert(not(f.c.learned));
	cr_assert(f.c.noisy);
	cr_assert(eq(dbl, f.c.slowdown, 0), "not applied");
	cr_assert(lt(dbl, 0.2, f.c.noisy_slowdown), "%f", f.c.noisy_slowdown);
	cr_assert(lt(dbl, f.c.noisy_slowdown, 0.35), "%f", f.c.noisy_slowdown);
	cr_assert(lt(dbl, f.c.noisy_slowdown, 2 * f.c.slowdown_se), "%f", f.c.slowdown_se);
	/* At -j1 every job keeps its measured CPU time: 2.0 + 8 x 0.6 s. */
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 0), 6800));
	end(&f);
}

/*
 * A job's blocked time is its own: four jobs each 0.2 s on a CPU and 0.3 s
 * blocked (I/O), at -j4 on one CPU, share the CPU for 0.8 s, then each
 * waits out its 0.3 s: 1.1 s.  Recorded one after another (-j1): 2.0 s.
 */
Test(cpu_sim, blocked_time_needs_no_cpu)
{
	struct cpu_fixture f;
	__u32 i;

	begin(&f);
	for (i = 0; i < 4; i++)
		job(&f, 101 + i, "gen", 500 * i, 500 * (i + 1), 200, 0, 300);
	finish(&f, 2000);
	build(&f, 1, 0);
	cr_assert(eq(dbl, cpu_sim__blocked_ns(&f.jg, 0), 300.0 * MS));
	cr_assert(eq(u64, wall_ms(&f, 1, 1, 0), 2000));
	cr_assert(eq(u64, wall_ms(&f, 4, 1, 0), 1100));
	/* Two CPUs: the four share them for 0.4 s, then each waits out its 0.3 s: 0.7 s. */
	cr_assert(eq(u64, wall_ms(&f, 4, 2, 0), 700));
	end(&f);
}

/*
 * A go compile's threads on a busy machine: three wanted a CPU for the
 * whole 3 s beside five always-runnable outside threads on 2 CPUs, so each
 * got a quarter of one: 2.25 s of CPU and 6.75 s of waits, summed over the
 * threads, more than the wall.  As run the three share the CPUs with the
 * five again (3 s); counted as one thread the job got 2/6 of a CPU and took
 * 6.75 s, more than twice the wall.  Quiet: 0.75 s of CPU per thread, at
 * 2/3 of a CPU each on 2 CPUs, at a whole one on 4.
 */
Test(cpu_sim, a_jobs_threads_that_waited_at_once_share_the_cpus_as_they_did)
{
	struct cpu_fixture f;

	begin(&f);
	job(&f, 101, "compile", 0, 3000, 2250, 6750, 0);
	finish(&f, 3000);
	build(&f, 2, 5.0);
	cr_assert(eq(dbl, cpu_sim__width(&f.jg, 0), 3.0));
	cr_assert(eq(dbl, cpu_sim__blocked_ns(&f.jg, 0), 0.0));
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 5.0), 3000));
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 0), 1125));
	cr_assert(eq(u64, wall_ms(&f, 1, 4, 0), 750));
	end(&f);
}

/* One thread that waited for a CPU half its wall is one thread wide, not two. */
Test(cpu_sim, a_single_threads_wait_for_a_cpu_widens_nothing)
{
	struct cpu_fixture f;

	begin(&f);
	job(&f, 101, "cc1", 0, 1000, 400, 500, 100);
	finish(&f, 1000);
	build(&f, 2, 1.0);
	cr_assert(eq(dbl, cpu_sim__width(&f.jg, 0), 1.0));
	/* Quiet: its 0.4 s of CPU, then its 0.1 s blocked. */
	cr_assert(eq(u64, wall_ms(&f, 1, 2, 0), 500));
	end(&f);
}

/* Without --sched figures a job keeps its wall time, its wait for a CPU included: the old replay. */
Test(cpu_sim, without_sched_figures_jobs_keep_their_wall_time)
{
	struct cpu_fixture f;
	__u64 old = 0;
	__u32 i;

	begin(&f);
	for (i = 0; i < 4; i++) {
		synth_fork(f.m, 0, 100, 101 + i, 101 + i, false);
		synth_exec(f.m, 1, 101 + i, 100, "cc1", (const char *[]){ "cc1", NULL });
		synth_exit(f.m, 1000 * MS, 101 + i, 101 + i, true, 0);
	}
	finish(&f, 1000);
	build(&f, 2, 0);
	cr_assert(not(f.jg.cpu_known));
	cr_assert(eq(u64, wall_ms(&f, 2, 2, 0), 2000));
	cr_assert(eq(int, schedule_sim__run(&f.jg, 2, NULL, &old), 0));
	cr_assert(eq(u64, (old + MS / 2) / MS, 2000));
	cr_assert(eq(u64, wall_ms(&f, 4, 4, 0), 1000));
	end(&f);
}

/* pid, parent's child, runs program over [start, end] ms with this CPU time and run-queue wait. */
static void step(struct cpu_fixture *f, __u32 parent, __u32 pid, const char *program, __u64 start, __u64 end,
		 __u64 cpu, __u64 runq)
{
	synth_fork(f->m, start * MS, parent, pid, pid, false);
	synth_exec(f->m, start * MS + 1, pid, parent, program, (const char *[]){ program, NULL });
	synth_exit_sched(f->m, end * MS, pid, cpu * MS, runq * MS, (end - start - cpu - runq) * MS);
}

/*
 * ./configure && make on a busy machine: configure's probe (no job, a
 * fixed cost) took 1 s, 600 ms of it waiting for a CPU; make's one job
 * 100 ms of CPU.  As run the probe keeps its measured second and the wall
 * comes back; on a quiet machine it loses its run-queue wait, and the make
 * phase starts that much sooner.
 */
Test(cpu_sim, a_fixed_step_loses_its_run_queue_wait_on_a_quiet_machine)
{
	struct cpu_fixture f;
	struct cpu_machine as_run = { .slots = 1, .cpus = 2 }, quiet = { .slots = 1, .cpus = 2, .quiet = true };
	__u64 wall = 0;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	synth_exec(f.m, 0, 100, 1, "/bin/sh", (const char *[]){ "sh", "-c", "./configure && make", NULL });
	step(&f, 100, 101, "bash", 10, 1120, 0, 0);
	step(&f, 101, 102, "cc", 20, 1020, 200, 600);
	step(&f, 100, 103, "make", 1130, 1290, 0, 0);
	step(&f, 103, 104, "cc1", 1140, 1240, 100, 0);
	synth_exit(f.m, 1300 * MS, 100, 100, true, 0);
	cr_assert(eq(int, model__finish(f.m, 1300 * MS), 0));
	build(&f, 2, 0);
	cr_assert(eq(sz, f.jg.nr_jobs, 1), "the probe is no job: no runner started it");
	cr_assert(eq(int, cpu_sim__run(&f.jg, &f.c, &as_run, &wall), 0));
	cr_assert(eq(u64, wall, 1300 * MS), "as run: every gap and the probe as measured");
	cr_assert(eq(int, cpu_sim__run(&f.jg, &f.c, &quiet, &wall), 0));
	cr_assert(eq(u64, wall, 700 * MS), "quiet: the probe's 600 ms wait for a CPU left out");
	end(&f);
}

/*
 * cargo -j1's pipelining on CPUs: rustc a (800 ms CPU, then 200 ms
 * blocked) published one .rmeta 500 ms into its run (in its CPU phase),
 * which b read, and another at 900 ms (in its blocked phase), which c
 * read; b and c are 100 ms of CPU each, recorded one after another.  On
 * four CPUs b runs 500-600 and c 900-1,000 beside a: 1,000 ms.  On one,
 * b shares the CPU with a from 500 (ends at 700, a's CPU phase at 900),
 * c's .rmeta comes 100 ms into a's blocked phase: c from 1,000 to 1,100,
 * as a ends.
 */
Test(cpu_sim, a_dependent_goes_at_the_share_of_its_writers_run_it_was_published)
{
	struct cpu_fixture f;

	memset(&f, 0, sizeof(f));
	f.m = model__new(100, 0);
	cr_assert(f.m != NULL);
	synth_exec(f.m, 0, 100, 1, "/usr/bin/cargo", (const char *[]){ "cargo", "build", "-j1", NULL });
	job(&f, 101, "rustc", 0, 1000, 800, 0, 200);
	job(&f, 102, "rustc", 1000, 1100, 100, 0, 0);
	job(&f, 103, "rustc", 1100, 1200, 100, 0, 0);
	finish(&f, 1200);
	edge(&f, 101, 102);
	f.edges[f.nr_edges - 1].ready_ns = 500 * MS;
	edge(&f, 101, 103);
	f.edges[f.nr_edges - 1].ready_ns = 900 * MS;
	build(&f, 1, 0);
	cr_assert(eq(sz, f.jg.nr_data_edges, 2));
	cr_assert(eq(u64, wall_ms(&f, SIM_UNLIMITED, 4, 0), 1000));
	cr_assert(eq(u64, wall_ms(&f, SIM_UNLIMITED, 1, 0), 1100));
	cr_assert(eq(u64, wall_ms(&f, 1, 1, 0), 1200), "one slot: as run");
	end(&f);
}
