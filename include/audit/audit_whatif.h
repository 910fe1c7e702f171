/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit's what-if: the build's jobs replayed on job slots and CPUs
 * (graph/cpu_sim.h): as run (its own -jN on the machine as it was, the
 * outside work included: a self-check beside the measured wall time), and
 * on a quiet machine at -j1, -j = CPUs, twice the CPUs as jobs and as CPUs,
 * and unlimited (the longest data path, each job as fast as alone); and for
 * each step of the critical path the predicted wall time if it took no
 * time.  Pure: computed by audit__compute() when the recording has a build
 * graph with jobs; report/whatif_report.h says it.
 */
#ifndef BUILDBPF_AUDIT_WHATIF_H
#define BUILDBPF_AUDIT_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/job_contention.h"
#include "graph/schedule_sim.h"
#include "audit/whatif_answer.h"

struct audit;
struct model;

#define WHATIF_MAX_ROWS 7
/*
 * The build was confined to fewer CPUs than the machine has (taskset, a
 * cgroup's cpuset) when it ran on fewer (audit.cpus_build_ran), yet its
 * threads waited for a CPU 10 % of the wall.
 */
#define WHATIF_CONFINED_WAIT_PERMILLE 100
/* Under this many outside threads sharing the CPUs, on average, its bursts not counted: the machine was quiet. */
#define WHATIF_QUIET_OUTSIDE 0.05
/* The build's threads got this share of the time they wanted a CPU or more: nothing competed. */
#define WHATIF_UNCONTENDED 0.98
/* Critical-path steps whose removal is simulated, the longest first (each is one simulation),
 * from 1 % of the wall. */
#define WHATIF_MAX_STEPS 32
/* A critical-path step under this share of the wall (per mille) is neither simulated nor listed. */
#define WHATIF_STEP_MIN_PERMILLE 10

/* Whether ns is WHATIF_STEP_MIN_PERMILLE of wall_ns or more: a step worth simulating and listing, a part of
 * the path worth saying. */
static inline bool whatif_over_step_min(__u64 ns, __u64 wall_ns)
{
	return ns * 1000 >= wall_ns * WHATIF_STEP_MIN_PERMILLE;
}

/* How the build's own job count was found. */
enum whatif_jobs_from {
	WHATIF_JOBS_ASKED,   /* -jN, MAKEFLAGS, or the tool's default (audit.jobs) */
	WHATIF_JOBS_PEAK,    /* not readable from the command: the most jobs seen at once */
};

/* What a row assumes, besides its -j and CPUs. */
enum whatif_row_kind {
	WHATIF_AS_RUN,	    /* the build's own -j on the machine as it was: its outside work, its CPUs */
	WHATIF_OWN_QUIET,   /* the build's own -j on a quiet machine */
	WHATIF_ONE_JOB,	    /* -j1 */
	WHATIF_JOBS_CPUS,   /* -j = CPUs */
	WHATIF_TWICE_JOBS,  /* twice the CPUs as jobs, on the same CPUs */
	WHATIF_TWICE_CPUS,  /* twice the CPUs, as many jobs */
	WHATIF_UNLIMITED,   /* unlimited jobs and CPUs: the longest data path */
};

struct whatif_row {
	enum whatif_row_kind kind;
	size_t jobs;	/* slots; SIM_UNLIMITED: unlimited */
	size_t cpus;	/* the CPUs it stands for; 0: unlimited */
	bool own;	/* the build's own -jN (as run, or quiet) */
	bool quiet;	/* no outside work (every row but as run) */
	__u64 wall_ns;	/* predicted */
};

struct audit_whatif {
	bool known;		  /* a build graph with jobs: the rest is valid */
	enum whatif_jobs_from from;
	size_t nr_jobs, nr_job_edges; /* what was simulated */
	size_t nr_shell_calls;	     /* make's $(shell) calls, not jobs: make's own work (model/shell_call.h) */
	struct whatif_row rows[WHATIF_MAX_ROWS];
	size_t nr_rows;		  /* rows[0]: as run; the last: unlimited */
	/* The model: with the jobs' CPU times (--sched), each job is its CPU
	 * time and its blocked time, its run-queue wait left out; without,
	 * its measured wall time (a wait for a CPU kept at every row). */
	bool cpu_model;
	__u64 cpu_ns, blocked_ns, runq_ns; /* the jobs', summed (cpu_model) */
	double outside_cpus;	  /* outside work during the build, CPUs' worth on average */
	double outside_threads;	  /* outside threads the build's shared the CPUs with (as run) */
	double burst_threads;	  /* of those, the build's own waits its jobs' averages smooth away: kept when quiet */
	size_t cpus_as_run;	  /* the CPUs the build could use (fewer when confined) */
	bool was_quiet;		  /* all the CPUs, little outside work: as run is its own -j on a quiet machine */
	struct job_contention contention; /* how much the jobs slowed each other */
	/* Per a->chain entry: the predicted wall at the base row (audit_whatif__base())
	 * had that step taken no time; 0: not simulated (under 1 % of the wall, or
	 * beyond WHATIF_MAX_STEPS). */
	__u64 *without_ns;
	/* The critical path's time held by no job is audit->chain_no_job_ns:
	 * never a step to speed up, said in words, not simulated. */
	struct whatif_answer answer; /* the short answers, read off the rows above */
};

/* 0, or -ENOMEM.  a: computed up to its chain; w->known false without a graph or jobs. */
int audit_whatif__compute(struct audit_whatif *w, const struct audit *a);
void audit_whatif__free(struct audit_whatif *w);
/*
 * The row every other figure is weighed against: the build's own -j on a
 * quiet machine, which is rows[0] (as run) when the machine was quiet.  A
 * step's removal is simulated on it, so "speed up?" and "more CPUs or jobs?"
 * read one model; as run beside outside work is the model's self-check.
 */
size_t audit_whatif__base(const struct audit_whatif *w);
/* What a row of that kind assumes, in words; its name in the JSON. */
const char *audit_whatif__assumes(enum whatif_row_kind kind);
const char *audit_whatif__kind_name(enum whatif_row_kind kind);
/* a->chain[i] is a build step (in a job a runner started), not a runner or
 * a process around one; true without a graph or without jobs. */
bool audit_whatif__is_step(const struct audit *a, size_t i);
/* How many of a->chain are build steps (audit_whatif__is_step()): what "N steps" counts. */
size_t audit_whatif__nr_steps(const struct audit *a);
/* How long a->chain[i]'s critical step held the path (a: with its graph). */
__u64 audit_whatif__step_held(const struct audit *a, size_t i);

#endif /* BUILDBPF_AUDIT_WHATIF_H */
