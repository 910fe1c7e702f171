/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exact time-weighted parallelism from the classified CPU intervals: how
 * many build threads ran, how many waited, when CPUs idled, and the serial
 * phases.  Pure.  The sched model feeds it every interval it classifies
 * (exact at every --sched level: summarising happens after, in drawing);
 * the interval ends are swept in time order, so memory holds only the ends
 * not yet swept, not the whole build.
 *
 *   struct parallelism *p = par__new(nr_cpus, start_ns);
 *   par__interval(p, PAR_RUN, tgid, from, to);  ... any order
 *   par__sweep(p, watermark);  ... optional: nothing earlier will come
 *   par__finish(p, end_ns);
 *   ... read p->running_ns[], p->phases[] ...
 *   par__free(p);
 */
#ifndef BUILDBPF_PARALLELISM_H
#define BUILDBPF_PARALLELISM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

enum par_kind {
	PAR_RUN = 0,   /* a build thread on a CPU (tgid: its process) */
	PAR_WAIT = 1,  /* a build thread runnable, waiting for a CPU (tgid: its process) */
	PAR_IDLE = 2,  /* a CPU running its idle task */
	PAR_OTHER = 3, /* a CPU running something outside the build */
	PAR_NR_KINDS,
};

/* Longest serial phases kept, and processes named per phase. */
#define PAR_MAX_PHASES 8
#define PAR_PHASE_PROCS 3
/*
 * A serial phase is not ended by a non-serial stretch shorter than this:
 * a shell and the tool it forks overlap for a moment, which would otherwise
 * cut one link step into many.
 */
#define PAR_SERIAL_BRIDGE_NS 20000000ull /* 20 ms */
/*
 * The tolerance: a phase holds at most 2 ms plus 5 % of its length with two
 * or more build threads running (the bridged overlaps, summed).  Past it,
 * the phase ends where the overlap that would break it began: many short
 * overlaps are parallel work, not a serial step.  (A compile-assemble-link
 * step overlaps its driver about 6 % of the time; a storm of short jobs
 * 40 %.)
 */
#define PAR_PHASE_PARALLEL_MIN_NS 2000000ull
#define PAR_PHASE_PARALLEL_PERMILLE 50

static inline __u64 par__phase_tolerance_ns(__u64 phase_ns)
{
	return PAR_PHASE_PARALLEL_MIN_NS + phase_ns / 1000 * PAR_PHASE_PARALLEL_PERMILLE;
}

struct par_phase_proc {
	__u32 tgid;
	__u64 on_cpu_ns; /* its threads' CPU time inside the phase */
};

/*
 * At most one build process made progress (had threads running or waiting
 * for a CPU) and at most one build thread ran, while a CPU idled or ran
 * work outside the build; short non-serial stretches bridged (see above).
 */
struct par_phase {
	__u64 start_ns, end_ns;
	struct par_phase_proc procs[PAR_PHASE_PROCS]; /* most CPU time first */
	size_t nr_procs;
	__u64 cpu_ns;	   /* build CPU time in its serial stretches: what procs[] share */
	__u64 parallel_ns; /* time two or more build threads ran in it (bridged) */
};

struct parallelism {
	size_t nr_cpus;
	__u64 start_ns, end_ns;
	/* running_ns[k]: time exactly k build threads ran (k <= nr_cpus) */
	__u64 *running_ns;
	/* ... of that, time with at least one CPU idle */
	__u64 *running_idle_ns;
	/* ... and the idle CPUs' time then, summed over them */
	__u64 *running_idle_cpu_ns;
	/* runnable_ns[k]: time k build threads waited; the last bin holds
	 * nr_runnable - 1 or more */
	__u64 *runnable_ns;
	size_t nr_runnable;
	__u64 run_thread_ns;  /* integral of running: build CPU time */
	__u64 wait_thread_ns; /* integral of runnable: run-queue wait */
	__u64 noisy_ns;	      /* build threads waited while a CPU ran outside work */
	__u64 ready_full_ns;  /* build threads ready (running or waiting) numbered the CPUs or more */
	__u32 peak_running, peak_runnable;
	/* Waits that arrived after their time was swept (only possible with
	 * a wait longer than every CPU's hold-back): left out of the figures. */
	__u64 late_ns;
	struct par_phase phases[PAR_MAX_PHASES]; /* longest first */
	size_t nr_phases;
	struct par_priv *priv;
};

struct parallelism *par__new(size_t nr_cpus, __u64 start_ns);
/* [from, to) was of kind; tgid only for PAR_RUN and PAR_WAIT.  0 or -ENOMEM. */
int par__interval(struct parallelism *p, enum par_kind kind, __u32 tgid, __u64 from, __u64 to);
/* True when enough ends are buffered that a sweep is worth its sort. */
bool par__wants_sweep(const struct parallelism *p);
/* Sweeps every end before watermark: no interval will start before it. */
int par__sweep(struct parallelism *p, __u64 watermark);
/* Sweeps the rest up to end_ns; time past it is dropped.  Call once. */
int par__finish(struct parallelism *p, __u64 end_ns);
void par__free(struct parallelism *p);

#endif /* BUILDBPF_PARALLELISM_H */
