/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lanes and parallelism counters from the scheduler records
 * (BB_EV_CPU_SLICE, BB_EV_CPU_IDLE).  Pure: records in, per-CPU slices and
 * counter samples out.  Streaming: each record is folded in as it arrives,
 * so memory grows with what will be drawn (at SUMMARY at most one slice per
 * resolution and CPU), not with the number of context switches.
 *
 *   struct sched_model *s = sched_model__new(SCHED_SUMMARY, SCHED_DEFAULT_RESOLUTION_NS, nr_cpus, start_ns);
 *   sched_model__add_event(s, rec, len);   ... every record, ring order
 *   sched_model__finish(s, end_ns);
 *   ... read s->cpus[c].slices, s->samples ...
 *   sched_model__free(s);
 */
#ifndef BUILDBPF_CPU_SCHED_H
#define BUILDBPF_CPU_SCHED_H

#include <stddef.h>
#include <linux/types.h>
#include "events.h"
#include "model/parallelism.h"
#include "sched_level.h"

enum cpu_slice_kind {
	CPU_SLICE_BUILD = 0, /* a thread of the build ran */
	CPU_SLICE_OTHER = 1, /* something outside the build ran (not idle) */
	/* SUMMARY: build threads shared the CPU and none held it for most of
	 * their time (a storm of short processes): drawn as one, so that a gap
	 * stays idle.  tid and tgid 0; merged counts their on-CPU intervals. */
	CPU_SLICE_MANY = 2,
};

/* One drawn slice of a CPU lane. */
struct cpu_slice {
	__u64 start_ns;
	__u64 end_ns;
	__u32 kind; /* enum cpu_slice_kind */
	__u32 tid;  /* CPU_SLICE_BUILD: the thread ... */
	__u32 tgid; /* ... and its process */
	__u32 merged; /* its kind's intervals (on-CPU, or outside stretches) inside it (>= 1) */
};

struct cpu_lane {
	__u32 cpu;
	struct cpu_slice *slices; /* time order, never overlapping */
	size_t nr_slices;
	__u64 build_ns; /* time the build ran on this CPU */
	__u64 other_ns; /* time something else ran */
	__u64 idle_ns;	/* time the CPU was idle */
	/* build or other time not drawn as its own kind (a CPU_SLICE_MANY slice
	 * draws every build thread's): at SUMMARY, what was not drawn in its
	 * bucket; build_ns + other_ns is the drawn slices' own time plus this
	 * (unless the CPU ran far past the end).  0 at FULL. */
	__u64 folded_ns;
	size_t folded; /* intervals with folded time, each counted once */
};

/*
 * Time-weighted averages over one counter bucket [ts_ns, ts_ns + bucket).
 * Consecutive buckets with equal values are merged into the first.
 */
struct counter_sample {
	__u64 ts_ns;
	double running;	 /* build threads on a CPU */
	double runnable; /* build threads runnable but waiting for a CPU */
	double idle_cpus; /* CPUs running their idle task */
};

struct sched_model {
	enum sched_level level;
	/*
	 * SUMMARY: each lane is cut into buckets [start_ns + k * resolution_ns,
	 * + resolution_ns), the last ending at end_ns.  A bucket at least half
	 * idle is drawn as nothing (so a gap is idle at every resolution).
	 * Otherwise the build thread or outside work with the most time in it
	 * (of equals, the one that ran first) is drawn if it holds at least half
	 * the busy time; if none does, the build's threads together are drawn as
	 * CPU_SLICE_MANY (or outside work, if it had more).  A run of buckets
	 * with the same drawn kind is one slice, from where that kind first ran
	 * in the run to where it last ran.  FULL: 0, every interval.
	 */
	__u64 resolution_ns;
	/* Counter bucket width: 10 * resolution_ns, FULL 1 ms, doubled as often
	 * as keeps the span within 65,536 buckets. */
	__u64 bucket_ns;
	__u64 start_ns, end_ns;
	struct cpu_lane *cpus; /* nr_cpus lanes, cpus[i].cpu == i */
	size_t nr_cpus;
	struct counter_sample *samples;
	size_t nr_samples;
	/* Exact running/runnable histograms and serial phases; NULL at OFF */
	struct parallelism *par;
	size_t records;	  /* records folded in */
	size_t malformed; /* rejected: too short, unknown CPU */
	size_t reordered; /* records older than their CPU's previous one (clamped) */
	struct sched_priv *priv;
};

/*
 * resolution_ns applies to SCHED_SUMMARY (0 there means the default);
 * SCHED_FULL keeps every interval.  NULL on allocation failure.
 */
struct sched_model *sched_model__new(enum sched_level level, __u64 resolution_ns, size_t nr_cpus, __u64 start_ns);
/*
 * cpu is possible but offline: it will send nothing, and is left out of
 * the parallelism figures.  Call before the first record.
 */
void sched_model__set_absent(struct sched_model *s, size_t cpu);
/*
 * Folds in one record.  Records of other types are ignored (0).  -EINVAL
 * for a malformed one (counted), -ENOMEM.
 */
int sched_model__add_event(struct sched_model *s, const void *rec, size_t len);
/* Closes every lane and counter at end_ns.  Call once. */
int sched_model__finish(struct sched_model *s, __u64 end_ns);
void sched_model__free(struct sched_model *s);

#endif /* BUILDBPF_CPU_SCHED_H */
