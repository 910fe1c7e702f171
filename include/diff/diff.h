/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two builds compared: the figures each build's audit already computed,
 * old -> new; the CPU time of each program; the matched steps that changed
 * most; the processes only one build ran; what moved onto or off the
 * critical path (diff_path.h).  Pure: two replayed builds in,
 * figures out; the reports (diff_report.h), the gate (fail_if.h) and the
 * picture (diff_svg.h) only read them.
 *
 *   struct diff d;
 *   diff__compute(&d, &old_side, &new_side);
 *   ...
 *   diff__free(&d);
 */
#ifndef BUILDBPF_DIFF_H
#define BUILDBPF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "diff/diff_cache.h"
#include "diff/diff_path.h"
#include "diff/diff_races.h"
#include "diff/proc_match.h"
#include "model/cpu_sched.h"
#include "model/model.h"
#include "audit/audit.h"

/* Steps listed per "changed most" list. */
#define DIFF_TOP_STEPS 10
/*
 * The noise floor: a matched step's change is news when it is at least
 * 100 ms and 20 % of the step's old CPU time (a 2 ms step that became
 * 3 ms is not; neither is a 10 s link that took 10.1 s).  Wall time also
 * counts the waits for a CPU that a busy machine changes from run to run,
 * so its floor is higher: 250 ms and 25 %.
 */
#define DIFF_CPU_NOISE_MIN_NS 100000000ull
#define DIFF_CPU_NOISE_PERCENT 20
#define DIFF_WALL_NOISE_MIN_NS 250000000ull
#define DIFF_WALL_NOISE_PERCENT 25

/* One build: its replayed model, scheduler model (NULL at --sched=off) and audit. */
struct diff_side {
	const char *name; /* the log's path, as given */
	const struct model *m;
	const struct sched_model *s;
	const struct audit *a;
};

/* The build-wide figures, in the order reports list them. */
enum diff_metric {
	DIFF_WALL,	  /* s */
	DIFF_CPU,	  /* s, user + system of every process */
	DIFF_UTILISATION, /* %, of the CPUs over the wall time */
	DIFF_PARALLELISM, /* average build threads running (sched) */
	DIFF_PEAK,	  /* most build threads running at once (sched) */
	DIFF_LOST,	  /* s, lost parallelism (sched) */
	DIFF_PROCESSES,	  /* count */
	DIFF_LOST_EVENTS, /* count, records the kernel could not deliver: the recording misses part of the build */
	DIFF_NR_METRICS,
};

struct diff_value {
	double old_v, new_v;
	bool known; /* false: a build was recorded at --sched=off */
};

/* The metric's name as reports and --fail-if spell it ("wall", "cpu", ...). */
const char *diff_metric__name(enum diff_metric k);
/* Its row in the reports: the name, or words where the name alone is ambiguous ("lost parallelism"). */
const char *diff_metric__label(enum diff_metric k);
/* Its unit in reports: "s", "%" or "" (a count or ratio). */
const char *diff_metric__unit(enum diff_metric k);

/* A program's CPU time and processes in each build (0 and 0: not run there). */
struct diff_program {
	char *name;
	__u64 old_cpu_ns, new_cpu_ns;
	size_t old_procs, new_procs;
};

/* A matched step: its process in each build. */
struct diff_step {
	size_t old_proc, new_proc;
	__u64 old_ns, new_ns; /* wall or CPU, per list */
};

/* Processes of one program that only one build ran. */
struct diff_only {
	const char *program; /* owned by the model */
	size_t count;
};

struct diff {
	const struct diff_side *old_b, *new_b;
	struct diff_value values[DIFF_NR_METRICS];
	struct proc_match match;
	/* Most CPU change (absolute) first. */
	struct diff_program *programs;
	size_t nr_programs;
	/* Above the noise floor, largest absolute change first. */
	struct diff_step top_wall[DIFF_TOP_STEPS], top_cpu[DIFF_TOP_STEPS];
	size_t nr_top_wall, nr_top_cpu;
	/* Most processes first. */
	struct diff_only *only_old, *only_new;
	size_t nr_only_old, nr_only_new;
	size_t nr_only_old_procs, nr_only_new_procs;
	/* The critical paths: what moved onto or off it (known: both have the build graph). */
	struct diff_path path;
	/* The new build's races the old one did not have (known: both have the build graph). */
	struct diff_races races;
	/* The new build's compiler-cache hits against the old build's misses of their steps. */
	struct diff_cache cache;
	/* The -j each build asked for (its audit's jobs) differs: a row of the report, not a --fail-if figure. */
	bool jobs_changed;
};

/* 0, or -ENOMEM (d freed and empty).  The sides must outlive d. */
int diff__compute(struct diff *d, const struct diff_side *old_b, const struct diff_side *new_b);
void diff__free(struct diff *d);

/* new - old, in the value's unit; relative: percent of old (old 0: +/-inf, or 0 when new is 0 too). */
double diff_value__change(const struct diff_value *v);
double diff_value__percent(const struct diff_value *v);
/* The longer build's wall: the one time scale the pictures draw both builds on, so that lengths compare. */
__u64 diff__longer_wall_ns(const struct diff *d);
/* A process's CPU time (user + system) and wall time. */
__u64 diff__proc_cpu_ns(const struct proc_instance *p);
__u64 diff__proc_wall_ns(const struct proc_instance *p);
/* True when a step's change of CPU time (or wall time) is above the noise floor. */
bool diff__above_noise(__u64 old_ns, __u64 new_ns, bool wall);

#endif /* BUILDBPF_DIFF_H */
