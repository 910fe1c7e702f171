// SPDX-License-Identifier: GPL-2.0
/* CPU lanes and parallelism counters from synthetic scheduler records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include "model/cpu_sched.h"
#include "lib/synth.h"

#define US 1000ull
#define MS 1000000ull
/* A start far from zero, so that absolute and relative times differ. */
#define T0 (1000 * MS)

static void fill_header(struct bb_event_header *hdr, __u32 type, __u32 cpu, __u64 ts, __u32 tid, __u32 tgid)
{
	hdr->ts_ns = ts;
	hdr->type = type;
	hdr->cpu = cpu;
	hdr->pid = tid;
	hdr->tgid = tgid;
}

/* Thread tid of process tid/10*10 ran on cpu during [start, end) after waiting `wait`. */
static struct bb_cpu_slice_event slice_event(__u32 cpu, __u32 tid, __u64 start, __u64 end, __u64 wait)
{
	return synth_cpu_slice_event(cpu, tid, tid / 10 * 10, start, end, wait);
}

static int try_slice(struct sched_model *s, __u32 cpu, __u32 tid, __u64 start, __u64 end, __u64 wait)
{
	struct bb_cpu_slice_event e = slice_event(cpu, tid, start, end, wait);

	return sched_model__add_event(s, &e, sizeof(e));
}

static void slice(struct sched_model *s, __u32 cpu, __u32 tid, __u64 start, __u64 end, __u64 wait)
{
	synth_cpu_slice(s, cpu, tid, tid / 10 * 10, start, end, wait);
}

/* what: the scenario, named in every failure. */
static void expect_slice(const char *what, const struct cpu_lane *lane, size_t i, __u32 kind, __u32 tid, __u64 start,
			 __u64 end, __u32 merged)
{
	const struct cpu_slice *sl;

	cr_assert(lt(sz, i, lane->nr_slices), "%s: slice %zu of cpu %u missing", what, i, lane->cpu);
	sl = &lane->slices[i];
	cr_assert(eq(u32, sl->kind, kind), "%s: cpu %u slice %zu", what, lane->cpu, i);
	if (kind == CPU_SLICE_BUILD) {
		cr_assert(eq(u32, sl->tid, tid), "%s: cpu %u slice %zu", what, lane->cpu, i);
		cr_assert(eq(u32, sl->tgid, tid / 10 * 10), "%s: cpu %u slice %zu", what, lane->cpu, i);
	}
	cr_assert(eq(u64, sl->start_ns, start), "%s: cpu %u slice %zu", what, lane->cpu, i);
	cr_assert(eq(u64, sl->end_ns, end), "%s: cpu %u slice %zu", what, lane->cpu, i);
	cr_assert(eq(u32, sl->merged, merged), "%s: cpu %u slice %zu", what, lane->cpu, i);
}

static void expect_sample(const char *what, const struct sched_model *s, size_t i, __u64 ts, double running,
			  double runnable, double idle_cpus)
{
	const struct counter_sample *c;

	cr_assert(lt(sz, i, s->nr_samples), "%s: sample %zu missing", what, i);
	c = &s->samples[i];
	cr_assert(eq(u64, c->ts_ns, ts), "%s: sample %zu", what, i);
	cr_assert(eq(dbl, c->running, running), "%s: sample %zu", what, i);
	cr_assert(eq(dbl, c->runnable, runnable), "%s: sample %zu", what, i);
	cr_assert(eq(dbl, c->idle_cpus, idle_cpus), "%s: sample %zu", what, i);
}

/* SUMMARY at the resolution the counter tests were written for: 10 ms counter buckets. */
static struct sched_model *summary_model(size_t nr_cpus)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 1 * MS, nr_cpus, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	return s;
}

static struct sched_model *summary_model_at(size_t nr_cpus, __u64 resolution)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, resolution, nr_cpus, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	return s;
}

static void expect_totals(const char *what, const struct cpu_lane *l, __u64 build, __u64 other, __u64 idle_ns,
			  __u64 folded_ns, size_t folded)
{
	cr_assert(eq(u64, l->build_ns, build), "%s: cpu %u", what, l->cpu);
	cr_assert(eq(u64, l->other_ns, other), "%s: cpu %u", what, l->cpu);
	cr_assert(eq(u64, l->idle_ns, idle_ns), "%s: cpu %u", what, l->cpu);
	cr_assert(eq(u64, l->folded_ns, folded_ns), "%s: cpu %u", what, l->cpu);
	cr_assert(eq(sz, l->folded, folded), "%s: cpu %u", what, l->cpu);
}

Test(cpu_sched, levels_set_resolution_and_buckets)
{
	struct sched_model *dflt = sched_model__new(SCHED_SUMMARY, 0, 2, T0);
	struct sched_model *full = sched_model__new(SCHED_FULL, 5 * MS, 2, T0);

	cr_assert(dflt && full);
	cr_assert(eq(u64, SCHED_DEFAULT_RESOLUTION_NS, 10 * MS));
	cr_assert(eq(u64, dflt->resolution_ns, SCHED_DEFAULT_RESOLUTION_NS));
	cr_assert(eq(u64, dflt->bucket_ns, 100 * MS));
	cr_assert(eq(u64, full->resolution_ns, 0));
	cr_assert(eq(u64, full->bucket_ns, 1 * MS));
	cr_assert(eq(sz, full->nr_cpus, 2));
	cr_assert(eq(u32, full->cpus[1].cpu, 1));
	cr_assert(eq(ptr, sched_model__new((enum sched_level)7, 0, 1, 0), NULL));
	sched_model__free(dflt);
	sched_model__free(full);
	sched_model__free(NULL);
}

/*
 * Scenarios with known answers, one row each.  Times are from T0.  Every
 * row is fed in order, finished at `end`, then every CPU's drawn slices
 * and totals are compared, and the counter samples when the row gives any.
 */
#define IDLE 0	/* a record's tid: the CPU idled */
#define OTHER 0 /* a drawn slice's tid: work outside the build */
#define MAX_CPUS 2
#define MAX_RECS 8
#define MAX_SLICES 8
#define MAX_SAMPLES 4

/*
 * Thread tid of process tid/10*10 ran on cpu during [start, end) after
 * waiting `wait` (tid IDLE: the CPU idled); short_idle is the idle the
 * kernel summed in the gap before it (bb_cpu_slice_event).
 */
struct sched_rec {
	__u32 tid;
	__u64 start, end, wait, short_idle;
	__u32 cpu;
};

/* A drawn slice: [start, end) of tid, or of OTHER, made of `merged` intervals (end 0 ends the list). */
struct drawn {
	__u32 tid;
	__u64 start, end;
	__u32 merged;
};

struct lane_totals {
	__u64 build, other, idle, folded_ns;
	size_t folded;
};

struct sample {
	__u64 ts;
	double running, runnable, idle_cpus;
};

/* Criterion hands each row to a fresh process of the test binary: no pointers in a row. */
struct sched_case {
	char name[64];
	enum sched_level level;
	__u64 resolution;
	size_t nr_cpus;
	__u64 end;
	struct sched_rec recs[MAX_RECS]; /* end 0 ends the list */
	struct drawn slices[MAX_CPUS][MAX_SLICES];
	struct lane_totals totals[MAX_CPUS];
	size_t nr_samples; /* 0: the samples are not compared */
	struct sample samples[MAX_SAMPLES];
};

static const struct sched_case sched_cases[] = {
	{
		/* Within one bucket the thread with the most time is drawn, across the gap. */
		.name = "same thread is drawn across a short gap",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 6 * MS,
		/* [3, 3.5) ms: something else */
		.recs = { { 11, 0, 3 * MS }, { 11, 3500 * US, 6 * MS } },
		.slices = { { { 11, 0, 6 * MS, 2 } } },
		.totals = { { 5500 * US, 500 * US, 0, 500 * US, 1 } },
	},
	{
		.name = "idle-dominant bucket draws nothing",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 10 * MS,
		.recs = { { 11, 0, 200 * US }, { IDLE, 200 * US, 5 * MS }, { 12, 5 * MS, 5300 * US },
			  { IDLE, 5300 * US, 10 * MS } },
		.totals = { { 500 * US, 0, 9500 * US, 500 * US, 2 } },
	},
	{
		/* Folded time is each kind's own, not the time between its pieces. */
		.name = "folded time is only the folded kinds' own",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 5 * MS,
		.recs = { { 11, 0, 300 * US }, { 21, 300 * US, 400 * US }, { 11, 400 * US, 600 * US },
			  { IDLE, 600 * US, 5 * MS } },
		.totals = { { 600 * US, 0, 4400 * US, 600 * US, 3 } },
	},
	{
		.name = "short idle is not counted as folded",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 6 * MS,
		.recs = { { 11, 0, 3 * MS }, { IDLE, 3 * MS, 3200 * US }, { 11, 3200 * US, 6 * MS } },
		.slices = { { { 11, 0, 6 * MS, 2 } } },
		.totals = { { 5800 * US, 0, 200 * US, 0, 0 } },
	},
	{
		/* Interruptions inside a bucket, however many, do not split the dominant thread. */
		.name = "interruptions within a bucket are folded",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 8 * MS,
		.recs = { { 11, 0, 3 * MS }, { 21, 3 * MS, 3600 * US }, { 31, 3600 * US, 4200 * US },
			  { 11, 4200 * US, 4500 * US }, { 21, 4500 * US, 4600 * US }, { 11, 4600 * US, 8 * MS } },
		.slices = { { { 11, 0, 8 * MS, 3 } } },
		.totals = { { 8 * MS, 0, 0, 1300 * US, 3 } },
	},
	{
		/* At a finer resolution the same interruption holds buckets of its own. */
		.name = "interruption dominating buckets splits",
		.level = SCHED_SUMMARY, .resolution = 1 * MS, .nr_cpus = 1, .end = 10 * MS,
		.recs = { { 11, 0, 4 * MS }, { 21, 4 * MS, 6 * MS }, { 11, 6 * MS, 10 * MS } },
		.slices = { { { 11, 0, 4 * MS, 1 }, { 21, 4 * MS, 6 * MS, 1 }, { 11, 6 * MS, 10 * MS, 1 } } },
		.totals = { { 10 * MS, 0, 0, 0, 0 } },
	},
	{
		.name = "idle is never drawn",
		.level = SCHED_SUMMARY, .resolution = 1 * MS, .nr_cpus = 2, .end = 10 * MS,
		.recs = { { IDLE, 0, 10 * MS }, { IDLE, 0, 4 * MS, .cpu = 1 }, { IDLE, 4 * MS, 10 * MS, .cpu = 1 } },
		.totals = { { 0, 0, 10 * MS, 0, 0 }, { 0, 0, 10 * MS, 0, 0 } },
	},
	{
		.name = "long gaps become other slices",
		.level = SCHED_SUMMARY, .resolution = 1 * MS, .nr_cpus = 1, .end = 10 * MS,
		.recs = { { 11, 0, 2 * MS }, { 11, 5 * MS, 7 * MS } },
		/* the last: the final gap, up to the end */
		.slices = { { { 11, 0, 2 * MS, 1 }, { OTHER, 2 * MS, 5 * MS, 1 }, { 11, 5 * MS, 7 * MS, 1 },
			      { OTHER, 7 * MS, 10 * MS, 1 } } },
		.totals = { { 4 * MS, 6 * MS, 0, 0, 0 } },
	},
	{
		/* Of two kinds with equal time in a bucket, the one that ran first is drawn. */
		.name = "ties go to the one that ran first",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 20 * MS,
		/* 21: folded in the first bucket, drawn in the second: counted once each way */
		.recs = { { 11, 0, 5 * MS }, { 21, 5 * MS, 15 * MS }, { 11, 15 * MS, 20 * MS } },
		.slices = { { { 11, 0, 5 * MS, 1 }, { 21, 10 * MS, 15 * MS, 1 } } },
		.totals = { { 20 * MS, 0, 0, 10 * MS, 2 } },
	},
	{
		/* A compiler holding a CPU for seconds: one slice, its exact first and last times. */
		.name = "long-running thread is one slice with exact ends",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 2020 * MS,
		.recs = { { IDLE, 0, 3500 * US }, { 11, 3500 * US, 2006500 * US }, { IDLE, 2006500 * US, 2020 * MS } },
		.slices = { { { 11, 3500 * US, 2006500 * US, 1 } } },
		.totals = { { 2003 * MS, 0, 17 * MS, 0, 0 } },
	},
	{
		/* The same with 1 us buckets: two million of them, one slice. */
		.name = "long-running thread is one slice at 1 us buckets",
		.level = SCHED_SUMMARY, .resolution = 1 * US, .nr_cpus = 1, .end = 2000 * MS + 5 * US,
		.recs = { { IDLE, 0, 2400 }, { 12, 2400, 2000 * MS + 600 },
			  { IDLE, 2000 * MS + 600, 2000 * MS + 5 * US } },
		.slices = { { { 12, 2400, 2000 * MS + 600, 1 } } },
		.totals = { { 2000 * MS - 1800, 0, 6800, 0, 0 } },
	},
	{
		/* An idle-dominated bucket ends the run; the thread's time in it is
		 * folded and the next run starts where the thread ran again. */
		.name = "idle-dominant bucket breaks the run",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 50 * MS,
		.recs = { { 11, 0, 23 * MS }, { IDLE, 23 * MS, 32 * MS }, { 11, 32 * MS, 50 * MS } },
		.slices = { { { 11, 0, 20 * MS, 1 }, { 11, 32 * MS, 50 * MS, 1 } } },
		.totals = { { 41 * MS, 0, 9 * MS, 3 * MS, 1 } },
	},
	{
		/* Outside work dominates a bucket: an other slice, trimmed to the gap. */
		.name = "other-dominant bucket draws other",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 20 * MS,
		/* [2, 9) ms: something else; then 11 again, into the next bucket */
		.recs = { { 11, 0, 2 * MS }, { 11, 9 * MS, 20 * MS } },
		.slices = { { { OTHER, 2 * MS, 9 * MS, 1 }, { 11, 10 * MS, 20 * MS, 1 } } },
		.totals = { { 13 * MS, 7 * MS, 0, 3 * MS, 2 } },
	},
	{
		/* Folded in a bucket, drawn in the next, folded again: one folded interval. */
		.name = "an interval is counted folded once",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 30 * MS,
		.recs = { { 11, 0, 9 * MS }, { 21, 9 * MS, 21 * MS }, { 11, 21 * MS, 30 * MS } },
		.slices = { { { 11, 0, 9 * MS, 1 }, { 21, 10 * MS, 20 * MS, 1 }, { 11, 21 * MS, 30 * MS, 1 } } },
		.totals = { { 30 * MS, 0, 0, 2 * MS, 1 } },
	},
	{
		/* The last bucket ends at the trace end, however short it is. */
		.name = "last bucket is cut at the end",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 21 * MS,
		.recs = { { 11, 0, 19 * MS }, { 21, 19 * MS, 22 * MS }, { IDLE, 22 * MS, 40 * MS } },
		.slices = { { { 11, 0, 19 * MS, 1 }, { 21, 20 * MS, 21 * MS, 1 } } },
		.totals = { { 21 * MS, 0, 0, 1 * MS, 1 } },
	},
	{
		.name = "full keeps every interval",
		.level = SCHED_FULL, .nr_cpus = 1, .end = 1 * MS,
		/* 11 at 300 us: exactly adjacent, merged; at 410 us: 10 us later, not merged */
		.recs = { { 11, 0, 100 * US }, { 21, 100 * US, 200 * US }, { 11, 200 * US, 300 * US },
			  { 11, 300 * US, 400 * US }, { 11, 410 * US, 420 * US }, { IDLE, 500 * US, 1 * MS } },
		.slices = { { { 11, 0, 100 * US, 1 }, { 21, 100 * US, 200 * US, 1 }, { 11, 200 * US, 400 * US, 2 },
			      { OTHER, 400 * US, 410 * US, 1 }, { 11, 410 * US, 420 * US, 1 },
			      { OTHER, 420 * US, 500 * US, 1 } } },
		.totals = { { 410 * US, 90 * US, 500 * US, 0, 0 } },
	},
	{
		/* cpu 0: thread 11 runs throughout.  cpu 1: idle for 10 ms,
		 * something else for 5, then thread 12, runnable during [5, 15) ms. */
		.name = "counters of a known scenario (10 ms buckets)",
		.level = SCHED_SUMMARY, .resolution = 1 * MS, .nr_cpus = 2, .end = 20 * MS,
		.recs = { { 11, 0, 20 * MS }, { IDLE, 0, 10 * MS, .cpu = 1 },
			  { 12, 15 * MS, 20 * MS, 10 * MS, .cpu = 1 } },
		.slices = { { { 11, 0, 20 * MS, 1 } },
			    { { OTHER, 10 * MS, 15 * MS, 1 }, { 12, 15 * MS, 20 * MS, 1 } } },
		.totals = { { 20 * MS, 0, 0, 0, 0 }, { 5 * MS, 5 * MS, 10 * MS, 0, 0 } },
		.nr_samples = 2,
		.samples = { { 0, 1.0, 0.5, 1.0 }, { 10 * MS, 1.5, 0.5, 0.0 } },
	},
	{
		.name = "interval spanning buckets is split exactly (1 ms buckets)",
		.level = SCHED_FULL, .nr_cpus = 1, .end = 3 * MS,
		.recs = { { 11, 250 * US, 2750 * US } },
		.slices = { { { OTHER, 0, 250 * US, 1 }, { 11, 250 * US, 2750 * US, 1 },
			      { OTHER, 2750 * US, 3 * MS, 1 } } },
		.totals = { { 2500 * US, 500 * US, 0, 0, 0 } },
		.nr_samples = 3,
		.samples = { { 0, 0.75, 0, 0 }, { 1 * MS, 1.0, 0, 0 }, { 2 * MS, 0.75, 0, 0 } },
	},
	{
		.name = "last partial bucket divides by its width",
		.level = SCHED_FULL, .nr_cpus = 1, .end = 2500 * US,
		.recs = { { 11, 500 * US, 2500 * US } },
		.slices = { { { OTHER, 0, 500 * US, 1 }, { 11, 500 * US, 2500 * US, 1 } } },
		.totals = { { 2 * MS, 500 * US, 0, 0, 0 } },
		/* [2, 2.5) ms is busy throughout: 1.0, equal to [1, 2), merged */
		.nr_samples = 2,
		.samples = { { 0, 0.5, 0, 0 }, { 1 * MS, 1.0, 0, 0 } },
	},
	{
		/* Two 1 ms buckets per step, each step changing one counter only. */
		.name = "equal samples are merged",
		.level = SCHED_FULL, .nr_cpus = 2, .end = 8 * MS,
		/* 12: past the end, but runnable during [6, 9) ms */
		.recs = { { 11, 0, 2 * MS }, { IDLE, 2 * MS, 8 * MS }, { IDLE, 0, 4 * MS, .cpu = 1 },
			  { 12, 9 * MS, 10 * MS, 3 * MS, .cpu = 1 } },
		.slices = { { { 11, 0, 2 * MS, 1 } }, { { OTHER, 4 * MS, 8 * MS, 1 } } },
		.totals = { { 2 * MS, 0, 6 * MS, 0, 0 }, { 0, 4 * MS, 4 * MS, 0, 0 } },
		.nr_samples = 4,
		.samples = { { 0, 1.0, 0, 1.0 }, { 2 * MS, 0, 0, 2.0 }, { 4 * MS, 0, 0, 1.0 },
			     { 6 * MS, 0, 1.0, 1.0 } },
	},
	{
		/* 20 ms between two slices, 15 ms of it in idle periods too short to
		 * be streamed: exactly 15 ms idle and 5 ms outside work, spread
		 * evenly, so at 10 ms buckets idle dominates the gap and nothing is
		 * drawn there. */
		.name = "summed short idle is idle, not outside work",
		.level = SCHED_SUMMARY, .resolution = 10 * MS, .nr_cpus = 1, .end = 40 * MS,
		.recs = { { 11, 0, 10 * MS }, { 11, 30 * MS, 40 * MS, 0, 15 * MS } },
		.slices = { { { 11, 0, 10 * MS, 1 }, { 11, 30 * MS, 40 * MS, 1 } } },
		/* the outside work folded in each of the gap's two buckets */
		.totals = { { 20 * MS, 5 * MS, 15 * MS, 5 * MS, 2 } },
	},
	{
		/* The same at FULL: the outside work is drawn, the idle is not, totals exact. */
		.name = "summed short idle at full",
		.level = SCHED_FULL, .nr_cpus = 1, .end = 42 * MS,
		/* the last: more summed idle than the gap holds is capped at the gap */
		.recs = { { 11, 0, 10 * MS }, { 11, 30 * MS, 40 * MS, 0, 15 * MS },
			  { 11, 41 * MS, 42 * MS, 0, 5 * MS } },
		.slices = { { { 11, 0, 10 * MS, 1 }, { OTHER, 10 * MS, 15 * MS, 1 }, { 11, 30 * MS, 40 * MS, 1 },
			      { 11, 41 * MS, 42 * MS, 1 } } },
		.totals = { { 21 * MS, 5 * MS, 16 * MS, 0, 0 } },
	},
};

static void feed(struct sched_model *s, const struct sched_rec *r)
{
	struct bb_cpu_slice_event e;

	if (r->tid == IDLE) {
		synth_cpu_idle(s, r->cpu, T0 + r->start, T0 + r->end);
		return;
	}
	e = slice_event(r->cpu, r->tid, T0 + r->start, T0 + r->end, r->wait);
	e.short_idle_ns = r->short_idle;
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e)), 0));
}

ParameterizedTestParameters(cpu_sched, known_scenarios)
{
	return cr_make_param_array(struct sched_case, sched_cases, sizeof(sched_cases) / sizeof(sched_cases[0]));
}

ParameterizedTest(const struct sched_case *c, cpu_sched, known_scenarios)
{
	struct sched_model *s = sched_model__new(c->level, c->resolution, c->nr_cpus, T0);
	size_t nr_recs = 0, cpu, i, n;

	cr_assert(not(eq(ptr, s, NULL)), "%s", c->name);
	for (; nr_recs < MAX_RECS && c->recs[nr_recs].end; nr_recs++)
		feed(s, &c->recs[nr_recs]);
	cr_assert(eq(int, sched_model__finish(s, T0 + c->end), 0), "%s", c->name);
	cr_assert(eq(sz, s->records, nr_recs), "%s", c->name);
	cr_assert(eq(sz, s->reordered, 0), "%s", c->name);

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		const struct cpu_lane *l = &s->cpus[cpu];
		const struct drawn *d = c->slices[cpu];
		const struct lane_totals *t = &c->totals[cpu];

		for (n = 0; n < MAX_SLICES && d[n].end; n++)
			;
		cr_assert(eq(sz, l->nr_slices, n), "%s: cpu %zu", c->name, cpu);
		for (i = 0; i < n; i++)
			expect_slice(c->name, l, i, d[i].tid == OTHER ? CPU_SLICE_OTHER : CPU_SLICE_BUILD, d[i].tid,
				     T0 + d[i].start, T0 + d[i].end, d[i].merged);
		expect_totals(c->name, l, t->build, t->other, t->idle, t->folded_ns, t->folded);
	}
	if (c->nr_samples) {
		cr_assert(eq(sz, s->nr_samples, c->nr_samples), "%s", c->name);
		for (i = 0; i < c->nr_samples; i++)
			expect_sample(c->name, s, i, T0 + c->samples[i].ts, c->samples[i].running,
				      c->samples[i].runnable, c->samples[i].idle_cpus);
	}
	sched_model__free(s);
}

/*
 * Per 10 ms bucket thread 11 runs 6 ms and thread 21 4 ms, in four pieces:
 * one slice of 11 for the whole run, ending where 11 last ran, not at the
 * bucket's end.
 */
Test(cpu_sched, alternating_threads_draw_the_dominant_one)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;
	__u64 b;

	for (b = T0; b < T0 + 50 * MS; b += 10 * MS) {
		slice(s, 0, 11, b, b + 3 * MS, 0);
		slice(s, 0, 21, b + 3 * MS, b + 5 * MS, 0);
		slice(s, 0, 11, b + 5 * MS, b + 8 * MS, 0);
		if (b + 10 * MS < T0 + 50 * MS)
			slice(s, 0, 21, b + 8 * MS, b + 10 * MS, 0);
	}
	synth_cpu_idle(s, 0, T0 + 48 * MS, T0 + 50 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 50 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("alternating", l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 48 * MS, 10);
	expect_totals("alternating", l, 48 * MS, 0, 2 * MS, 18 * MS, 9);
	sched_model__free(s);
}

/*
 * Two threads trading one CPU every 4 ms for 10 s: the period beats with
 * the 10 ms buckets so that each thread dominates two buckets in turn.
 * 500 slices, not one per switch (2500), and every one runs from where its
 * thread first ran to where it last did.
 */
static struct sched_model *alternate_every_4ms(__u64 resolution)
{
	struct sched_model *s = summary_model_at(1, resolution);
	__u64 t;

	for (t = T0; t < T0 + 10000 * MS; t += 4 * MS)
		slice(s, 0, (t - T0) / (4 * MS) % 2 ? 21 : 11, t, t + 4 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10000 * MS), 0));
	return s;
}

/* That run at two resolutions: a coarse one still shows a busy CPU busy, the slices tile the lane. */
struct alternation_case {
	char name[32];
	__u64 resolution, slice_ns;
	size_t nr_slices;
	__u32 merged;
	__u64 folded_ns; /* 4 ms of the other thread per 10 ms bucket, ... */
	size_t folded;	 /* ... 2 of its intervals per run at 10 ms */
};

static const struct alternation_case alternation_cases[] = {
	{ "10 ms buckets", 10 * MS, 20 * MS, 500, 3, 4000 * MS, 1000 },
	{ "coarse, 100 ms buckets", 100 * MS, 100 * MS, 100, 13, 4800 * MS, 1200 },
};

ParameterizedTestParameters(cpu_sched, threads_alternating_every_4ms)
{
	return cr_make_param_array(struct alternation_case, alternation_cases,
				   sizeof(alternation_cases) / sizeof(alternation_cases[0]));
}

ParameterizedTest(const struct alternation_case *c, cpu_sched, threads_alternating_every_4ms)
{
	struct sched_model *s = alternate_every_4ms(c->resolution);
	const struct cpu_lane *l = &s->cpus[0];
	size_t i;

	cr_assert(eq(sz, l->nr_slices, c->nr_slices), "%s", c->name);
	for (i = 0; i < l->nr_slices; i++)
		expect_slice(c->name, l, i, CPU_SLICE_BUILD, i % 2 ? 21 : 11, T0 + i * c->slice_ns,
			     T0 + (i + 1) * c->slice_ns, c->merged);
	expect_totals(c->name, l, 10000 * MS, 0, 0, c->folded_ns, c->folded);
	sched_model__free(s);
}

/*
 * Nine threads in a bucket, one more than it tells apart: the ninth evicts
 * the one with least time (of equals, the latest) to the spill, then 11
 * evicts the ninth.  The spill is folded.
 */
Test(cpu_sched, more_threads_than_a_bucket_holds_are_spilled)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;
	__u32 i;

	for (i = 0; i < 9; i++)
		slice(s, 0, 21 + i, T0 + i * 500 * US, T0 + (i + 1) * 500 * US, 0);
	slice(s, 0, 11, T0 + 4500 * US, T0 + 10 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("spilled", l, 0, CPU_SLICE_BUILD, 11, T0 + 4500 * US, T0 + 10 * MS, 1);
	expect_totals("spilled", l, 10 * MS, 0, 0, 4500 * US, 9);
	sched_model__free(s);
}

/*
 * Eviction takes the least time, not the oldest thread: the one that held
 * the CPU stays.  (It holds half the busy time, so it is drawn alone; with
 * 3 ms against 4.5 ms of others, as this test had it, the bucket is now
 * drawn as many short processes.)
 */
Test(cpu_sched, eviction_keeps_the_thread_with_most_time)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;
	__u32 i;

	slice(s, 0, 21, T0, T0 + 5 * MS, 0);
	for (i = 0; i < 9; i++)
		slice(s, 0, 22 + i, T0 + 5 * MS + i * 500 * US, T0 + 5 * MS + (i + 1) * 500 * US, 0);
	synth_cpu_idle(s, 0, T0 + 9500 * US, T0 + 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("eviction", l, 0, CPU_SLICE_BUILD, 21, T0, T0 + 5 * MS, 1);
	expect_totals("eviction", l, 9500 * US, 0, 500 * US, 4500 * US, 9);
	sched_model__free(s);
}

/*
 * Twenty threads of 0.5 ms, the spill holding most of them: no thread holds
 * half the time, so the bucket is the build's threads together, one slice
 * over all of it (it used to draw thread 21's 0.5 ms and fold the rest,
 * leaving a busy CPU looking idle).  The spill is never drawn as a thread.
 */
Test(cpu_sched, spill_is_never_drawn)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;
	__u32 i;

	for (i = 0; i < 20; i++)
		slice(s, 0, 21 + i, T0 + i * 500 * US, T0 + (i + 1) * 500 * US, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("spill", l, 0, CPU_SLICE_MANY, 0, T0, T0 + 10 * MS, 20);
	expect_totals("spill", l, 10 * MS, 0, 0, 0, 0);
	sched_model__free(s);
}

/*
 * A storm of short processes, each 0.6 ms on the CPU with 0.4 ms idle
 * between: idle is the largest single share of every bucket but not half
 * of it.  At every resolution the CPU is drawn busy (a thread where one
 * holds its bucket, many short processes where none does) and a gap is
 * idle: nothing is folded.
 */
Test(cpu_sched, a_storm_of_short_processes_is_drawn_not_folded)
{
	static const __u64 resolutions[] = { 1 * MS, 10 * MS, 100 * MS };
	size_t r, i;

	for (r = 0; r < sizeof(resolutions) / sizeof(resolutions[0]); r++) {
		struct sched_model *s = summary_model_at(1, resolutions[r]);
		const struct cpu_lane *l;
		__u64 drawn = 0;

		for (i = 0; i < 200; i++) {
			slice(s, 0, 100 + i * 10, T0 + i * MS, T0 + i * MS + 600 * US, 0);
			synth_cpu_idle(s, 0, T0 + i * MS + 600 * US, T0 + (i + 1) * MS);
		}
		cr_assert(eq(int, sched_model__finish(s, T0 + 200 * MS), 0));
		l = &s->cpus[0];
		for (i = 0; i < l->nr_slices; i++)
			drawn += l->slices[i].end_ns - l->slices[i].start_ns;
		cr_assert(eq(u64, l->folded_ns, 0), "resolution %llu ns", (unsigned long long)resolutions[r]);
		/* The drawn slices span the busy stretches (and the idle between). */
		cr_assert(ge(u64, drawn, l->build_ns), "resolution %llu ns", (unsigned long long)resolutions[r]);
		if (resolutions[r] > 1 * MS) {
			cr_assert(eq(sz, l->nr_slices, 1), "resolution %llu ns", (unsigned long long)resolutions[r]);
			expect_slice("storm", l, 0, CPU_SLICE_MANY, 0, T0, T0 + 199 * MS + 600 * US, 200);
		}
		sched_model__free(s);
	}
}

/* xorshift64: a fixed seed gives the same stream on every run. */
static __u64 prng(__u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#define STREAM_CPUS 4
#define STREAM_LEN 3000
#define STREAM_END (T0 + 2000 * MS)

struct synth_record {
	int idle;
	__u32 cpu, tid;
	__u64 start, end, wait;
};

/*
 * Per CPU a time-ordered run of build slices (nr_tids threads, so the same
 * one often comes back), idle periods and gaps, from 1 us to 5 ms, some
 * exactly adjacent; all within [T0, STREAM_END].
 */
static size_t synth_stream(struct synth_record *recs, __u64 seed, __u32 nr_tids)
{
	__u64 cursor[STREAM_CPUS], rng = seed, len;
	size_t n = 0, cpu;

	for (cpu = 0; cpu < STREAM_CPUS; cpu++)
		cursor[cpu] = T0;
	for (cpu = 0; cpu < STREAM_CPUS; cpu++) {
		for (;;) {
			struct synth_record *r = &recs[n];

			if (prng(&rng) % 3 == 0)
				cursor[cpu] += prng(&rng) % 2 ? prng(&rng) % (3 * MS) : 0;
			len = 1 * US + prng(&rng) % (prng(&rng) % 4 ? 800 * US : 5 * MS);
			if (cursor[cpu] + len > STREAM_END || n == STREAM_LEN * (cpu + 1) / STREAM_CPUS)
				break;
			r->cpu = cpu;
			r->idle = prng(&rng) % 4 == 0;
			r->tid = 10 + prng(&rng) % nr_tids;
			r->start = cursor[cpu];
			r->end = cursor[cpu] + len;
			r->wait = prng(&rng) % (2 * MS);
			cursor[cpu] = r->end;
			n++;
		}
	}
	return n;
}

/* Feeds the records interleaving the CPUs at random, each CPU in order. */
static void feed_interleaved(struct sched_model *s, const struct synth_record *recs, size_t n, __u64 seed)
{
	size_t next[STREAM_CPUS], fed = 0, i, cpu;
	__u64 rng = seed;

	for (cpu = 0; cpu < STREAM_CPUS; cpu++) {
		for (i = 0; i < n && recs[i].cpu != cpu; i++)
			;
		next[cpu] = i;
	}
	while (fed < n) {
		cpu = prng(&rng) % STREAM_CPUS;
		i = next[cpu];
		if (i >= n || recs[i].cpu != cpu)
			continue;
		if (recs[i].idle)
			synth_cpu_idle(s, cpu, recs[i].start, recs[i].end);
		else
			slice(s, cpu, recs[i].tid, recs[i].start, recs[i].end, recs[i].wait);
		next[cpu]++;
		fed++;
	}
}

/* Area under a merged counter series, each value held to the next sample. */
static double integral(const struct sched_model *s, size_t field)
{
	double sum = 0, v;
	__u64 to;
	size_t i;

	for (i = 0; i < s->nr_samples; i++) {
		to = i + 1 < s->nr_samples ? s->samples[i + 1].ts_ns : s->end_ns;
		v = field == 0 ? s->samples[i].running : field == 1 ? s->samples[i].runnable : s->samples[i].idle_cpus;
		sum += v * (double)(to - s->samples[i].ts_ns);
	}
	return sum;
}

static void check_lanes(const struct sched_model *s)
{
	__u64 last_end, span = s->end_ns - s->start_ns;
	size_t cpu, i;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu_lane *l = &s->cpus[cpu];

		cr_assert(eq(u64, l->build_ns + l->other_ns + l->idle_ns, span), "cpu %zu", cpu);
		cr_assert(le(u64, l->folded_ns, l->build_ns + l->other_ns), "cpu %zu", cpu);
		/* At most one slice per bucket. */
		if (s->level == SCHED_SUMMARY)
			cr_assert(le(sz, l->nr_slices, span / s->resolution_ns + 1), "cpu %zu", cpu);
		last_end = s->start_ns;
		for (i = 0; i < l->nr_slices; i++) {
			const struct cpu_slice *sl = &l->slices[i];

			cr_assert(ge(u64, sl->start_ns, last_end), "cpu %zu slice %zu overlaps", cpu, i);
			cr_assert(lt(u64, sl->start_ns, sl->end_ns), "cpu %zu slice %zu", cpu, i);
			cr_assert(le(u64, sl->end_ns, s->end_ns), "cpu %zu slice %zu", cpu, i);
			cr_assert(ge(u32, sl->merged, 1));
			cr_assert(sl->kind == CPU_SLICE_BUILD || sl->kind == CPU_SLICE_OTHER ||
				  (sl->kind == CPU_SLICE_MANY && s->level == SCHED_SUMMARY));
			last_end = sl->end_ns;
		}
	}
}

static void check_invariants(const struct sched_model *s)
{
	__u64 build = 0, idle_total = 0;
	size_t cpu;

	check_lanes(s);
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		build += s->cpus[cpu].build_ns;
		idle_total += s->cpus[cpu].idle_ns;
	}
	/* The counters integrate to the lanes' totals. */
	cr_assert(epsilon_eq(dbl, integral(s, 0), (double)build, 1e-6 * (double)build + 1));
	cr_assert(epsilon_eq(dbl, integral(s, 2), (double)idle_total, 1e-6 * (double)idle_total + 1));
}

/*
 * One CPU's time from the records, independent of the model: every record
 * clipped to the trace, the gaps between them as other.
 */
struct stretch {
	__u64 start, end;
	__u32 kind; /* 0 build, 1 other, 2 idle */
	__u32 tid, tgid;
};

static size_t timeline(const struct sched_model *s, const struct synth_record *recs, size_t n, __u32 cpu,
		       struct stretch *out)
{
	__u64 cursor = s->start_ns, from, to;
	size_t i, nr = 0;

	for (i = 0; i <= n; i++) {
		if (i < n && recs[i].cpu != cpu)
			continue;
		from = i < n ? recs[i].start : s->end_ns;
		from = from < s->start_ns ? s->start_ns : from > s->end_ns ? s->end_ns : from;
		if (from > cursor)
			out[nr++] = (struct stretch){ cursor, from, 1, 0, 0 };
		if (i == n)
			break;
		to = recs[i].end > s->end_ns ? s->end_ns : recs[i].end;
		if (to > from)
			out[nr++] = (struct stretch){ from, to, recs[i].idle ? 2 : 0, recs[i].idle ? 0 : recs[i].tid,
						      recs[i].idle ? 0 : recs[i].tid / 10 * 10 };
		cursor = to > cursor ? to : cursor;
	}
	return nr;
}

static int same_kind(const struct stretch *st, __u32 kind, __u32 tid, __u32 tgid)
{
	return st->kind == kind && (kind != 0 || (st->tid == tid && st->tgid == tgid));
}

/* A stretch is a slice's own time: its thread's, or any build thread's for MANY. */
static int slice_owns(const struct stretch *st, const struct cpu_slice *sl)
{
	return sl->kind == CPU_SLICE_MANY ? st->kind == 0 : same_kind(st, sl->kind, sl->tid, sl->tgid);
}

static __u64 overlap(__u64 a0, __u64 a1, __u64 b0, __u64 b1)
{
	__u64 lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/*
 * Holds for any SUMMARY lane: a slice begins and ends with its own kind
 * running, and its own time plus the folded time is all build and other time.
 */
static void check_slices_against_timeline(const struct cpu_lane *l, const struct stretch *tl, size_t nr)
{
	__u64 own_total = 0, own;
	size_t i, k;
	int starts, ends;

	for (i = 0; i < l->nr_slices; i++) {
		const struct cpu_slice *sl = &l->slices[i];

		own = 0;
		starts = ends = 0;
		for (k = 0; k < nr; k++) {
			if (!slice_owns(&tl[k], sl))
				continue;
			own += overlap(tl[k].start, tl[k].end, sl->start_ns, sl->end_ns);
			starts |= tl[k].start <= sl->start_ns && sl->start_ns < tl[k].end;
			ends |= tl[k].start < sl->end_ns && sl->end_ns <= tl[k].end;
		}
		cr_assert(starts && ends, "cpu %u slice %zu does not start and end with its own kind", l->cpu, i);
		own_total += own;
	}
	cr_assert(eq(u64, own_total + l->folded_ns, l->build_ns + l->other_ns), "cpu %u", l->cpu);
}

/*
 * The SUMMARY lanes, recomputed the slow way from the stretches: each bucket's
 * kinds with their time, the dominant one, runs of them.  Exact as long as
 * no bucket has more threads than the model tells apart.
 */
#define REF_KINDS 64

struct ref_share {
	__u64 ns, first, last;
	__u32 kind, tid, tgid;
};

static size_t reference_slices(const struct sched_model *s, const struct stretch *tl, size_t nr, struct cpu_slice *out)
{
	struct ref_share shares[REF_KINDS], *dom, many;
	__u64 bs, be, from, to, idle_ns, busy_ns, other_ns;
	size_t k = 0, j, i, nr_shares, n = 0;
	int open = 0;

	for (bs = s->start_ns; bs < s->end_ns; bs = be) {
		be = bs + s->resolution_ns < s->end_ns ? bs + s->resolution_ns : s->end_ns;
		nr_shares = 0;
		while (k < nr && tl[k].end <= bs)
			k++;
		for (j = k; j < nr && tl[j].start < be; j++) {
			const struct stretch *st = &tl[j];

			from = st->start > bs ? st->start : bs;
			to = st->end < be ? st->end : be;
			for (i = 0; i < nr_shares && !same_kind(st, shares[i].kind, shares[i].tid, shares[i].tgid); i++)
				;
			if (i == nr_shares) {
				cr_assert(lt(sz, nr_shares, REF_KINDS));
				shares[nr_shares++] = (struct ref_share){ 0, from, 0, st->kind, st->tid, st->tgid };
			}
			shares[i].ns += to - from;
			shares[i].last = to;
		}
		/* At least half idle: a gap.  Else the busiest thread or outside
		 * work if it holds half the busy time, else the threads together. */
		idle_ns = busy_ns = other_ns = 0;
		many = (struct ref_share){ .kind = CPU_SLICE_MANY };
		dom = NULL;
		for (i = 0; i < nr_shares; i++) {
			if (shares[i].kind == 2) {
				idle_ns += shares[i].ns;
				continue;
			}
			busy_ns += shares[i].ns;
			if (shares[i].kind == 1)
				other_ns += shares[i].ns;
			if (!dom || shares[i].ns > dom->ns)
				dom = &shares[i];
			if (shares[i].kind == 0) {
				many.first = many.ns ? many.first : shares[i].first;
				many.last = shares[i].last > many.last ? shares[i].last : many.last;
				many.ns += shares[i].ns;
			}
		}
		if (idle_ns >= busy_ns)
			dom = NULL;
		else if (dom->ns * 2 < busy_ns && many.ns >= other_ns)
			dom = &many;
		else if (dom->ns * 2 < busy_ns)
			for (i = 0; i < nr_shares; i++)
				if (shares[i].kind == 1)
					dom = &shares[i];
		if (!dom) {
			open = 0;
		} else if (open && out[n - 1].kind == dom->kind && out[n - 1].tid == dom->tid &&
			   out[n - 1].tgid == dom->tgid) {
			out[n - 1].end_ns = dom->last;
		} else {
			out[n++] = (struct cpu_slice){ .start_ns = dom->first, .end_ns = dom->last, .kind = dom->kind,
						       .tid = dom->tid, .tgid = dom->tgid };
			open = 1;
		}
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < nr; j++)
			out[i].merged += slice_owns(&tl[j], &out[i]) &&
					 overlap(tl[j].start, tl[j].end, out[i].start_ns, out[i].end_ns);
	return n;
}

/* Folded: build and other time outside the slices of its own kind, and its stretches. */
static void reference_folded(const struct stretch *tl, size_t nr, const struct cpu_slice *sl, size_t nr_slices,
			     __u64 *folded_ns, size_t *folded)
{
	__u64 covered;
	size_t i, j;

	*folded_ns = 0;
	*folded = 0;
	for (j = 0; j < nr; j++) {
		if (tl[j].kind == 2)
			continue;
		covered = 0;
		for (i = 0; i < nr_slices; i++)
			if (slice_owns(&tl[j], &sl[i]))
				covered += overlap(tl[j].start, tl[j].end, sl[i].start_ns, sl[i].end_ns);
		*folded_ns += tl[j].end - tl[j].start - covered;
		*folded += covered < tl[j].end - tl[j].start;
	}
}

static void check_summary_lanes(const struct sched_model *s, const struct synth_record *recs, size_t n, int exact)
{
	struct stretch *tl = calloc(2 * n + 2, sizeof(*tl));
	struct cpu_slice *ref = calloc(2 * n + 2, sizeof(*ref));
	size_t cpu, nr, nr_ref, folded, i;
	__u64 folded_ns;

	cr_assert(tl && ref);
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu_lane *l = &s->cpus[cpu];

		nr = timeline(s, recs, n, cpu, tl);
		check_slices_against_timeline(l, tl, nr);
		if (!exact)
			continue;
		nr_ref = reference_slices(s, tl, nr, ref);
		cr_assert(eq(sz, l->nr_slices, nr_ref), "cpu %zu at %llu ns", cpu,
			  (unsigned long long)s->resolution_ns);
		for (i = 0; i < nr_ref; i++)
			expect_slice("reference", l, i, ref[i].kind, ref[i].tid, ref[i].start_ns, ref[i].end_ns,
				     ref[i].merged);
		reference_folded(tl, nr, ref, nr_ref, &folded_ns, &folded);
		cr_assert(eq(u64, l->folded_ns, folded_ns), "cpu %zu", cpu);
		cr_assert(eq(sz, l->folded, folded), "cpu %zu", cpu);
	}
	free(tl);
	free(ref);
}

static void check_random_stream(enum sched_level level, __u64 resolution, __u32 nr_tids, __u64 end)
{
	struct synth_record *recs = calloc(STREAM_LEN, sizeof(*recs));
	struct sched_model *a = sched_model__new(level, resolution, STREAM_CPUS, T0);
	struct sched_model *b = sched_model__new(level, resolution, STREAM_CPUS, T0);
	size_t n, cpu, i, drawn = 0, folded = 0;

	cr_assert(recs && a && b);
	n = synth_stream(recs, 0x9e3779b97f4a7c15ull, nr_tids);
	cr_assert(lt(sz, 1000, n));
	feed_interleaved(a, recs, n, 1);
	feed_interleaved(b, recs, n, 2);
	cr_assert(eq(int, sched_model__finish(a, end), 0));
	cr_assert(eq(int, sched_model__finish(b, end), 0));
	cr_assert(eq(sz, a->records, n));
	cr_assert(eq(sz, a->reordered, 0));
	check_invariants(a);
	if (level == SCHED_SUMMARY)
		check_summary_lanes(a, recs, n, nr_tids <= 8);

	/* The arrival order across CPUs changes nothing. */
	for (cpu = 0; cpu < STREAM_CPUS; cpu++) {
		cr_assert(eq(sz, a->cpus[cpu].nr_slices, b->cpus[cpu].nr_slices));
		cr_assert(eq(int, memcmp(a->cpus[cpu].slices, b->cpus[cpu].slices,
					 a->cpus[cpu].nr_slices * sizeof(struct cpu_slice)), 0));
		cr_assert(eq(u64, a->cpus[cpu].folded_ns, b->cpus[cpu].folded_ns));
		cr_assert(eq(sz, a->cpus[cpu].folded, b->cpus[cpu].folded));
		/* Intervals drawn, not slices: at a coarse resolution a CPU
		 * juggling three threads is a few "many" slices of hundreds. */
		for (i = 0; i < a->cpus[cpu].nr_slices; i++)
			drawn += a->cpus[cpu].slices[i].merged;
		folded += a->cpus[cpu].folded;
	}
	cr_assert(eq(sz, a->nr_samples, b->nr_samples));
	cr_assert(eq(int, memcmp(a->samples, b->samples, a->nr_samples * sizeof(*a->samples)), 0));
	cr_assert(lt(sz, 10, drawn));
	if (level == SCHED_FULL)
		cr_assert(eq(sz, folded, 0));
	else
		cr_assert(lt(sz, 10, folded));
	sched_model__free(a);
	sched_model__free(b);
	free(recs);
}

Test(cpu_sched, random_stream_summary_invariants)
{
	static const __u64 resolutions[] = { 250 * US, 1 * MS, 3333 * US, 10 * MS, 100 * MS };
	size_t i;

	for (i = 0; i < sizeof(resolutions) / sizeof(resolutions[0]); i++) {
		check_random_stream(SCHED_SUMMARY, resolutions[i], 3, STREAM_END);
		/* an end that cuts records and buckets */
		check_random_stream(SCHED_SUMMARY, resolutions[i], 3, T0 + 777777 * US);
	}
}

/* More threads than a bucket tells apart: still no overlaps, exact totals. */
Test(cpu_sched, random_stream_summary_many_threads)
{
	check_random_stream(SCHED_SUMMARY, 10 * MS, 24, STREAM_END);
	check_random_stream(SCHED_SUMMARY, 100 * MS, 24, STREAM_END);
}

Test(cpu_sched, random_stream_full_invariants)
{
	check_random_stream(SCHED_FULL, 1 * MS, 3, STREAM_END);
}

Test(cpu_sched, records_are_clipped_to_the_trace)
{
	struct sched_model *s = summary_model(2);
	const struct cpu_lane *l;

	/* before the start, and straddling it */
	slice(s, 0, 11, T0 - 9 * MS, T0 - 6 * MS, 0);
	synth_cpu_idle(s, 0, T0 - 5 * MS, T0 + 2 * MS);
	/* straddling the end, its wait [7, 12) ms from start minus 5 ms */
	slice(s, 0, 11, T0 + 2 * MS, T0 + 30 * MS, 5 * MS);
	synth_cpu_idle(s, 0, T0 + 30 * MS, T0 + 31 * MS);
	/* wholly past the end, though its wait is not */
	slice(s, 1, 12, T0 + 25 * MS, T0 + 26 * MS, 20 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(u64, l->idle_ns, 2 * MS));
	cr_assert(eq(u64, l->build_ns, 8 * MS));
	cr_assert(eq(u64, l->other_ns, 0));
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("clipped", l, 0, CPU_SLICE_BUILD, 11, T0 + 2 * MS, T0 + 10 * MS, 1);
	l = &s->cpus[1];
	cr_assert(eq(u64, l->other_ns, 10 * MS));
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice("clipped", l, 0, CPU_SLICE_OTHER, 0, T0, T0 + 10 * MS, 1);
	/* runnable: [0, 2) ms on cpu 0, [5, 10) ms on cpu 1 */
	cr_assert(eq(sz, s->nr_samples, 1));
	expect_sample("clipped", s, 0, T0, 0.8, 0.7, 0.2);
	cr_assert(eq(sz, s->records, 5));
	cr_assert(eq(sz, s->reordered, 0));
	sched_model__free(s);
}

/* More records past the end than a CPU holds back: still cut at the end. */
Test(cpu_sched, many_records_past_the_end_are_cut)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;
	__u64 t = T0 + 10 * MS;
	int i;

	slice(s, 0, 11, T0, T0 + 8 * MS, 0);
	synth_cpu_idle(s, 0, T0 + 8 * MS, T0 + 9 * MS);
	/* [9, 9.5) ms other, [9.5, 10) ms thread 12: a tie, other ran first */
	slice(s, 0, 12, T0 + 9500 * US, T0 + 11 * MS, 0);
	synth_cpu_idle(s, 0, T0 + 11 * MS, T0 + 12 * MS);
	for (i = 0; i < 2000; i++, t += 2 * MS) {
		slice(s, 0, 11 + i % 2, t + 2 * MS, t + 3 * MS, 0);
		synth_cpu_idle(s, 0, t + 3 * MS, t + 4 * MS);
	}
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	/* Which kinds the time past the end was is lost by then: the totals
	 * are approximate but still add up; the drawn slices are exact, and
	 * so are the counters when the end falls on a bucket edge. */
	l = &s->cpus[0];
	check_lanes(s);
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice("past the end", l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 8 * MS, 1);
	expect_slice("past the end", l, 1, CPU_SLICE_OTHER, 0, T0 + 9 * MS, T0 + 9500 * US, 1);
	cr_assert(ge(u64, l->build_ns, 8500 * US));
	cr_assert(eq(sz, s->nr_samples, 1));
	expect_sample("past the end", s, 0, T0, 0.85, 0, 0.1);
	sched_model__free(s);
}

Test(cpu_sched, malformed_and_reordered_are_counted)
{
	struct sched_model *s = summary_model(2);
	struct bb_cpu_slice_event e = {};
	const struct cpu_lane *l;

	cr_assert(eq(int, try_slice(s, 2, 11, T0, T0 + 1 * MS, 0), -EINVAL)); /* no such CPU */
	cr_assert(eq(int, try_slice(s, 0, 11, T0 + 2 * MS, T0 + 1 * MS, 0), -EINVAL)); /* ends before it starts */
	fill_header(&e.hdr, BB_EV_CPU_SLICE, 0, T0 + 1 * MS, 11, 10);
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e) - 1), -EINVAL));
	e.hdr.type = BB_EV_CPU_IDLE;
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(struct bb_cpu_idle_event) - 1), -EINVAL));
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e.hdr) - 1), -EINVAL));
	cr_assert(eq(sz, s->malformed, 5));
	cr_assert(eq(sz, s->records, 0));

	slice(s, 0, 11, T0, T0 + 5 * MS, 0);
	slice(s, 0, 21, T0 + 3 * MS, T0 + 8 * MS, 0); /* starts inside the previous one */
	slice(s, 0, 31, T0 + 6 * MS, T0 + 7 * MS, 0); /* wholly inside what is classified */
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), 0));
	cr_assert(eq(sz, s->reordered, 2));
	cr_assert(eq(sz, s->records, 3));
	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice("reordered", l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 5 * MS, 1);
	expect_slice("reordered", l, 1, CPU_SLICE_BUILD, 21, T0 + 5 * MS, T0 + 8 * MS, 1);
	cr_assert(eq(u64, l->build_ns, 8 * MS));

	cr_assert(eq(int, try_slice(s, 0, 11, T0, T0 + 1 * MS, 0), -EINVAL)); /* after finish */
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), -EINVAL));
	sched_model__free(s);
}

Test(cpu_sched, other_record_types_are_ignored)
{
	struct sched_model *s = summary_model(1);
	struct bb_fork_event fork = {};
	struct bb_exit_event exit = {};
	struct bb_event_header unknown = {};

	fill_header(&fork.hdr, BB_EV_FORK, 0, T0 + 1 * MS, 11, 10);
	fill_header(&exit.hdr, BB_EV_EXIT, 0, T0 + 2 * MS, 11, 10);
	fill_header(&unknown, 99, 7, T0 + 3 * MS, 0, 0);
	cr_assert(eq(int, sched_model__add_event(s, &fork, sizeof(fork)), 0));
	cr_assert(eq(int, sched_model__add_event(s, &exit, sizeof(exit)), 0));
	cr_assert(eq(int, sched_model__add_event(s, &unknown, sizeof(unknown)), 0));
	cr_assert(eq(int, sched_model__finish(s, T0 + 5 * MS), 0));
	cr_assert(eq(sz, s->records, 0));
	cr_assert(eq(sz, s->malformed, 0));
	cr_assert(eq(u64, s->cpus[0].other_ns, 5 * MS));
	sched_model__free(s);
}

Test(cpu_sched, off_ignores_everything)
{
	struct sched_model *s = sched_model__new(SCHED_OFF, 0, 8, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	cr_assert(eq(sz, s->nr_cpus, 0));
	cr_assert(eq(int, try_slice(s, 0, 11, T0, T0 + 1 * MS, 0), 0));
	cr_assert(eq(int, try_slice(s, 99, 11, T0, T0 + 1 * MS, 0), 0));
	cr_assert(eq(int, sched_model__finish(s, T0 + 5 * MS), 0));
	cr_assert(eq(sz, s->records, 0));
	cr_assert(eq(sz, s->malformed, 0));
	cr_assert(eq(sz, s->nr_samples, 0));
	cr_assert(eq(ptr, s->cpus, NULL));
	sched_model__free(s);
}
