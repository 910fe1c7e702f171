/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit's what-if: the build's jobs replayed by list scheduling
 * (graph/schedule_sim.h) at its own -jN (a self-check beside the measured
 * wall time), at 2x and 4x the CPUs, and with unlimited CPUs (the longest
 * data path); and for each step of the critical path the predicted wall
 * time if it took no time.  Pure: computed by audit__compute() when the
 * recording has a build graph with jobs; report/whatif_report.h says it.
 */
#ifndef BUILDBPF_AUDIT_WHATIF_H
#define BUILDBPF_AUDIT_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/schedule_sim.h"

struct audit;
struct model;

#define WHATIF_MAX_ROWS 5
/* Critical-path steps whose removal is simulated, the longest first (each is one simulation),
 * from 1 % of the wall. */
#define WHATIF_MAX_STEPS 32
/* A critical-path step under this share of the wall (per mille) is neither simulated nor listed. */
#define WHATIF_STEP_MIN_PERMILLE 10

/* How the build's own job count was found. */
enum whatif_jobs_from {
	WHATIF_JOBS_ASKED,   /* -jN, MAKEFLAGS, or the tool's default (audit.jobs) */
	WHATIF_JOBS_PEAK,    /* not readable from the command: the most jobs seen at once */
};

struct whatif_row {
	size_t jobs;	/* slots; SIM_UNLIMITED: unlimited */
	size_t cpus;	/* the CPUs it stands for; 0: unlimited */
	bool own;	/* the build's own -jN on its CPUs */
	__u64 wall_ns;	/* predicted */
};

struct audit_whatif {
	bool known;		  /* a build graph with jobs: the rest is valid */
	enum whatif_jobs_from from;
	size_t nr_jobs, nr_job_edges; /* what was simulated */
	struct whatif_row rows[WHATIF_MAX_ROWS];
	size_t nr_rows;		  /* rows[0]: own; the last: unlimited */
	/* Per a->chain entry: the predicted wall (own -jN) had that step taken
	 * no time; 0: not simulated (under 1 % of the wall, or beyond WHATIF_MAX_STEPS). */
	__u64 *without_ns;
	/* The critical path's time held by no job: a runner's own work, its
	 * order (jobs started one after another) or a wait for a job slot.
	 * Never a step to speed up: said in words, not simulated. */
	__u64 runner_held_ns;
};

/* 0, or -ENOMEM.  a: computed up to its chain; w->known false without a graph or jobs. */
int audit_whatif__compute(struct audit_whatif *w, const struct audit *a);
void audit_whatif__free(struct audit_whatif *w);
/* a->chain[i] is a build step (in a job a runner started), not a runner or
 * a process around one; true without a graph or without jobs. */
bool audit_whatif__is_step(const struct audit *a, size_t i);
/* How long a->chain[i]'s critical step held the path (a: with its graph). */
__u64 audit_whatif__step_held(const struct audit *a, size_t i);

#endif /* BUILDBPF_AUDIT_WHATIF_H */
