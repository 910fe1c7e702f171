// SPDX-License-Identifier: GPL-2.0
/* CPU lanes and parallelism counters from synthetic scheduler records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/cpu_sched.h"

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

static int try_slice(struct sched_model *s, __u32 cpu, __u32 tid, __u64 start, __u64 end, __u64 wait)
{
	struct bb_cpu_slice_event e = {};

	fill_header(&e.hdr, BB_EV_CPU_SLICE, cpu, end, tid, tid / 10 * 10);
	e.start_ns = start;
	e.wait_ns = wait;
	return sched_model__add_event(s, &e, sizeof(e));
}

/* Thread tid of process tid/10*10 ran on cpu during [start, end) after waiting `wait`. */
static void slice(struct sched_model *s, __u32 cpu, __u32 tid, __u64 start, __u64 end, __u64 wait)
{
	cr_assert(eq(int, try_slice(s, cpu, tid, start, end, wait), 0));
}

static void idle(struct sched_model *s, __u32 cpu, __u64 start, __u64 end)
{
	struct bb_cpu_idle_event e = {};

	fill_header(&e.hdr, BB_EV_CPU_IDLE, cpu, end, 0, 0);
	e.start_ns = start;
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e)), 0));
}

static void expect_slice(const struct cpu_lane *lane, size_t i, __u32 kind, __u32 tid, __u64 start, __u64 end,
			 __u32 merged)
{
	const struct cpu_slice *sl;

	cr_assert(lt(sz, i, lane->nr_slices), "slice %zu of cpu %u missing", i, lane->cpu);
	sl = &lane->slices[i];
	cr_assert(eq(u32, sl->kind, kind), "slice %zu", i);
	if (kind == CPU_SLICE_BUILD) {
		cr_assert(eq(u32, sl->tid, tid), "slice %zu", i);
		cr_assert(eq(u32, sl->tgid, tid / 10 * 10), "slice %zu", i);
	}
	cr_assert(eq(u64, sl->start_ns, start), "slice %zu", i);
	cr_assert(eq(u64, sl->end_ns, end), "slice %zu", i);
	cr_assert(eq(u32, sl->merged, merged), "slice %zu", i);
}

static void expect_sample(const struct sched_model *s, size_t i, __u64 ts, double running, double runnable,
			  double idle_cpus)
{
	const struct counter_sample *c;

	cr_assert(lt(sz, i, s->nr_samples), "sample %zu missing", i);
	c = &s->samples[i];
	cr_assert(eq(u64, c->ts_ns, ts), "sample %zu", i);
	cr_assert(eq(dbl, c->running, running), "sample %zu", i);
	cr_assert(eq(dbl, c->runnable, runnable), "sample %zu", i);
	cr_assert(eq(dbl, c->idle_cpus, idle_cpus), "sample %zu", i);
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

static void expect_totals(const struct cpu_lane *l, __u64 build, __u64 other, __u64 idle_ns, __u64 folded_ns,
			  size_t folded)
{
	cr_assert(eq(u64, l->build_ns, build), "cpu %u", l->cpu);
	cr_assert(eq(u64, l->other_ns, other), "cpu %u", l->cpu);
	cr_assert(eq(u64, l->idle_ns, idle_ns), "cpu %u", l->cpu);
	cr_assert(eq(u64, l->folded_ns, folded_ns), "cpu %u", l->cpu);
	cr_assert(eq(sz, l->folded, folded), "cpu %u", l->cpu);
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

/* Within one bucket the thread with the most time is drawn, across the gap. */
Test(cpu_sched, same_thread_is_drawn_across_a_short_gap)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	/* [3, 3.5) ms: something else */
	slice(s, 0, 11, T0 + 3500 * US, T0 + 6 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 6 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 6 * MS, 2);
	expect_totals(l, 5500 * US, 500 * US, 0, 500 * US, 1);
	sched_model__free(s);
}

Test(cpu_sched, idle_dominant_bucket_draws_nothing)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 200 * US, 0);
	idle(s, 0, T0 + 200 * US, T0 + 5 * MS);
	slice(s, 0, 12, T0 + 5 * MS, T0 + 5300 * US, 0);
	idle(s, 0, T0 + 5300 * US, T0 + 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 0));
	expect_totals(l, 500 * US, 0, 9500 * US, 500 * US, 2);
	sched_model__free(s);
}

/* Folded time is each kind's own, not the time between its pieces. */
Test(cpu_sched, folded_time_is_only_the_folded_kinds_own)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 300 * US, 0);
	slice(s, 0, 21, T0 + 300 * US, T0 + 400 * US, 0);
	slice(s, 0, 11, T0 + 400 * US, T0 + 600 * US, 0);
	idle(s, 0, T0 + 600 * US, T0 + 5 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 5 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 0));
	expect_totals(l, 600 * US, 0, 4400 * US, 600 * US, 3);
	sched_model__free(s);
}

Test(cpu_sched, short_idle_is_not_counted_as_folded)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	idle(s, 0, T0 + 3 * MS, T0 + 3200 * US);
	slice(s, 0, 11, T0 + 3200 * US, T0 + 6 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 6 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 6 * MS, 2);
	expect_totals(l, 5800 * US, 0, 200 * US, 0, 0);
	sched_model__free(s);
}

/* Interruptions inside a bucket, however many, do not split the dominant thread. */
Test(cpu_sched, interruptions_within_a_bucket_are_folded)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	slice(s, 0, 21, T0 + 3 * MS, T0 + 3600 * US, 0);
	slice(s, 0, 31, T0 + 3600 * US, T0 + 4200 * US, 0);
	slice(s, 0, 11, T0 + 4200 * US, T0 + 4500 * US, 0);
	slice(s, 0, 21, T0 + 4500 * US, T0 + 4600 * US, 0);
	slice(s, 0, 11, T0 + 4600 * US, T0 + 8 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 8 * MS, 3);
	expect_totals(l, 8 * MS, 0, 0, 1300 * US, 3);
	sched_model__free(s);
}

/* At a finer resolution the same interruption holds buckets of its own. */
Test(cpu_sched, interruption_dominating_buckets_splits)
{
	struct sched_model *s = summary_model_at(1, 1 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 4 * MS, 0);
	slice(s, 0, 21, T0 + 4 * MS, T0 + 6 * MS, 0);
	slice(s, 0, 11, T0 + 6 * MS, T0 + 10 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 3));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 4 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 4 * MS, T0 + 6 * MS, 1);
	expect_slice(l, 2, CPU_SLICE_BUILD, 11, T0 + 6 * MS, T0 + 10 * MS, 1);
	expect_totals(l, 10 * MS, 0, 0, 0, 0);
	sched_model__free(s);
}

Test(cpu_sched, idle_is_never_drawn)
{
	struct sched_model *s = summary_model(2);

	idle(s, 0, T0, T0 + 10 * MS);
	idle(s, 1, T0, T0 + 4 * MS);
	idle(s, 1, T0 + 4 * MS, T0 + 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	cr_assert(eq(sz, s->cpus[0].nr_slices, 0));
	cr_assert(eq(sz, s->cpus[1].nr_slices, 0));
	cr_assert(eq(u64, s->cpus[0].idle_ns, 10 * MS));
	cr_assert(eq(u64, s->cpus[1].idle_ns, 10 * MS));
	cr_assert(eq(sz, s->cpus[0].folded + s->cpus[1].folded, 0));
	sched_model__free(s);
}

Test(cpu_sched, long_gaps_become_other_slices)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 2 * MS, 0);
	slice(s, 0, 11, T0 + 5 * MS, T0 + 7 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 4));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 2 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_OTHER, 0, T0 + 2 * MS, T0 + 5 * MS, 1);
	expect_slice(l, 2, CPU_SLICE_BUILD, 11, T0 + 5 * MS, T0 + 7 * MS, 1);
	/* the final gap, up to the end */
	expect_slice(l, 3, CPU_SLICE_OTHER, 0, T0 + 7 * MS, T0 + 10 * MS, 1);
	cr_assert(eq(u64, l->other_ns, 6 * MS));
	cr_assert(eq(u64, l->build_ns, 4 * MS));
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
	idle(s, 0, T0 + 48 * MS, T0 + 50 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 50 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 48 * MS, 10);
	expect_totals(l, 48 * MS, 0, 2 * MS, 18 * MS, 9);
	sched_model__free(s);
}

/* Of two kinds with equal time in a bucket, the one that ran first is drawn. */
Test(cpu_sched, ties_go_to_the_one_that_ran_first)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 5 * MS, 0);
	/* folded in the first bucket, drawn in the second: counted once each way */
	slice(s, 0, 21, T0 + 5 * MS, T0 + 15 * MS, 0);
	slice(s, 0, 11, T0 + 15 * MS, T0 + 20 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 20 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 5 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 10 * MS, T0 + 15 * MS, 1);
	expect_totals(l, 20 * MS, 0, 0, 10 * MS, 2);
	sched_model__free(s);
}

/* A compiler holding a CPU for seconds: one slice, its exact first and last times. */
Test(cpu_sched, long_running_thread_is_one_slice_with_exact_ends)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	idle(s, 0, T0, T0 + 3500 * US);
	slice(s, 0, 11, T0 + 3500 * US, T0 + 2006500 * US, 0);
	idle(s, 0, T0 + 2006500 * US, T0 + 2020 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 2020 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0 + 3500 * US, T0 + 2006500 * US, 1);
	expect_totals(l, 2003 * MS, 0, 17 * MS, 0, 0);
	sched_model__free(s);

	/* The same with 1 us buckets: two million of them, one slice. */
	s = summary_model_at(1, 1 * US);
	idle(s, 0, T0, T0 + 2400);
	slice(s, 0, 12, T0 + 2400, T0 + 2000 * MS + 600, 0);
	idle(s, 0, T0 + 2000 * MS + 600, T0 + 2000 * MS + 5 * US);
	cr_assert(eq(int, sched_model__finish(s, T0 + 2000 * MS + 5 * US), 0));
	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 12, T0 + 2400, T0 + 2000 * MS + 600, 1);
	expect_totals(l, 2000 * MS - 1800, 0, 6800, 0, 0);
	sched_model__free(s);
}

/*
 * An idle-dominated bucket ends the run; the thread's time in it is folded
 * and the next run starts where the thread ran again.
 */
Test(cpu_sched, idle_dominant_bucket_breaks_the_run)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 23 * MS, 0);
	idle(s, 0, T0 + 23 * MS, T0 + 32 * MS);
	slice(s, 0, 11, T0 + 32 * MS, T0 + 50 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 50 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 20 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 11, T0 + 32 * MS, T0 + 50 * MS, 1);
	expect_totals(l, 41 * MS, 0, 9 * MS, 3 * MS, 1);
	sched_model__free(s);
}

/* Outside work dominates a bucket: an other slice, trimmed to the gap. */
Test(cpu_sched, other_dominant_bucket_draws_other)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 2 * MS, 0);
	/* [2, 9) ms: something else; then 11 again, into the next bucket */
	slice(s, 0, 11, T0 + 9 * MS, T0 + 20 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 20 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_OTHER, 0, T0 + 2 * MS, T0 + 9 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 11, T0 + 10 * MS, T0 + 20 * MS, 1);
	expect_totals(l, 13 * MS, 7 * MS, 0, 3 * MS, 2);
	sched_model__free(s);
}

/* Folded in a bucket, drawn in the next, folded again: one folded interval. */
Test(cpu_sched, an_interval_is_counted_folded_once)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 9 * MS, 0);
	slice(s, 0, 21, T0 + 9 * MS, T0 + 21 * MS, 0);
	slice(s, 0, 11, T0 + 21 * MS, T0 + 30 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 30 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 3));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 9 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 10 * MS, T0 + 20 * MS, 1);
	expect_slice(l, 2, CPU_SLICE_BUILD, 11, T0 + 21 * MS, T0 + 30 * MS, 1);
	expect_totals(l, 30 * MS, 0, 0, 2 * MS, 1);
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

Test(cpu_sched, threads_alternating_every_4ms)
{
	struct sched_model *s = alternate_every_4ms(10 * MS);
	const struct cpu_lane *l = &s->cpus[0];
	size_t i;

	cr_assert(eq(sz, l->nr_slices, 500));
	for (i = 0; i < l->nr_slices; i++)
		expect_slice(l, i, CPU_SLICE_BUILD, i % 2 ? 21 : 11, T0 + i * 20 * MS, T0 + (i + 1) * 20 * MS, 3);
	/* 4 ms of the other thread folded per bucket, 2 of its intervals per run */
	expect_totals(l, 10000 * MS, 0, 0, 4000 * MS, 1000);
	sched_model__free(s);
}

/* A coarse resolution still shows a busy CPU busy: the slices tile the lane. */
Test(cpu_sched, coarse_resolution_keeps_a_busy_cpu_drawn)
{
	struct sched_model *s = alternate_every_4ms(100 * MS);
	const struct cpu_lane *l = &s->cpus[0];
	size_t i;

	cr_assert(eq(sz, l->nr_slices, 100));
	for (i = 0; i < l->nr_slices; i++)
		expect_slice(l, i, CPU_SLICE_BUILD, i % 2 ? 21 : 11, T0 + i * 100 * MS, T0 + (i + 1) * 100 * MS, 13);
	expect_totals(l, 10000 * MS, 0, 0, 4800 * MS, 1200);
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
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0 + 4500 * US, T0 + 10 * MS, 1);
	expect_totals(l, 10 * MS, 0, 0, 4500 * US, 9);
	sched_model__free(s);
}

/* Eviction takes the least time, not the oldest thread: the one that held the CPU stays. */
Test(cpu_sched, eviction_keeps_the_thread_with_most_time)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;
	__u32 i;

	slice(s, 0, 21, T0, T0 + 3 * MS, 0);
	for (i = 0; i < 9; i++)
		slice(s, 0, 22 + i, T0 + 3 * MS + i * 500 * US, T0 + 3 * MS + (i + 1) * 500 * US, 0);
	idle(s, 0, T0 + 7500 * US, T0 + 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 21, T0, T0 + 3 * MS, 1);
	expect_totals(l, 7500 * US, 0, 2500 * US, 4500 * US, 9);
	sched_model__free(s);
}

/* The spill holds the most time, but a real thread is drawn: the first of the best. */
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
	expect_slice(l, 0, CPU_SLICE_BUILD, 21, T0, T0 + 500 * US, 1);
	expect_totals(l, 10 * MS, 0, 0, 9500 * US, 19);
	sched_model__free(s);
}

/* The last bucket ends at the trace end, however short it is. */
Test(cpu_sched, last_bucket_is_cut_at_the_end)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 19 * MS, 0);
	slice(s, 0, 21, T0 + 19 * MS, T0 + 22 * MS, 0);
	idle(s, 0, T0 + 22 * MS, T0 + 40 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 21 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 19 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 20 * MS, T0 + 21 * MS, 1);
	expect_totals(l, 21 * MS, 0, 0, 1 * MS, 1);
	sched_model__free(s);
}

Test(cpu_sched, full_keeps_every_interval)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 1, T0);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 100 * US, 0);
	slice(s, 0, 21, T0 + 100 * US, T0 + 200 * US, 0);
	slice(s, 0, 11, T0 + 200 * US, T0 + 300 * US, 0);
	slice(s, 0, 11, T0 + 300 * US, T0 + 400 * US, 0); /* exactly adjacent: merged */
	slice(s, 0, 11, T0 + 410 * US, T0 + 420 * US, 0); /* 10 us later: not merged */
	idle(s, 0, T0 + 500 * US, T0 + 1 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 1 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 6));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 100 * US, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 100 * US, T0 + 200 * US, 1);
	expect_slice(l, 2, CPU_SLICE_BUILD, 11, T0 + 200 * US, T0 + 400 * US, 2);
	expect_slice(l, 3, CPU_SLICE_OTHER, 0, T0 + 400 * US, T0 + 410 * US, 1);
	expect_slice(l, 4, CPU_SLICE_BUILD, 11, T0 + 410 * US, T0 + 420 * US, 1);
	expect_slice(l, 5, CPU_SLICE_OTHER, 0, T0 + 420 * US, T0 + 500 * US, 1);
	cr_assert(eq(sz, l->folded, 0));
	cr_assert(eq(u64, l->folded_ns, 0));
	sched_model__free(s);
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
			idle(s, cpu, recs[i].start, recs[i].end);
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
			cr_assert(sl->kind == CPU_SLICE_BUILD || sl->kind == CPU_SLICE_OTHER);
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
			if (!same_kind(&tl[k], sl->kind, sl->tid, sl->tgid))
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
	struct ref_share shares[REF_KINDS], *dom;
	__u64 bs, be, from, to;
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
		dom = &shares[0];
		for (i = 1; i < nr_shares; i++)
			if (shares[i].ns > dom->ns)
				dom = &shares[i];
		if (dom->kind == 2) {
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
			out[i].merged += same_kind(&tl[j], out[i].kind, out[i].tid, out[i].tgid) &&
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
			if (same_kind(&tl[j], sl[i].kind, sl[i].tid, sl[i].tgid))
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
			expect_slice(l, i, ref[i].kind, ref[i].tid, ref[i].start_ns, ref[i].end_ns, ref[i].merged);
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
	size_t n, cpu, drawn = 0, folded = 0;

	cr_assert(recs && a && b);
	n = synth_stream(recs, 0x9e3779b97f4a7c15ull, nr_tids);
	cr_assert(gt(sz, n, 1000));
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
		drawn += a->cpus[cpu].nr_slices;
		folded += a->cpus[cpu].folded;
	}
	cr_assert(eq(sz, a->nr_samples, b->nr_samples));
	cr_assert(eq(int, memcmp(a->samples, b->samples, a->nr_samples * sizeof(*a->samples)), 0));
	cr_assert(gt(sz, drawn, 10));
	if (level == SCHED_FULL)
		cr_assert(eq(sz, folded, 0));
	else
		cr_assert(gt(sz, folded, 10));
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

Test(cpu_sched, counters_of_a_known_scenario)
{
	struct sched_model *s = summary_model(2); /* 10 ms buckets */

	/* cpu 0: thread 11 runs throughout */
	slice(s, 0, 11, T0, T0 + 20 * MS, 0);
	/* cpu 1: idle for 10 ms, something else for 5, then thread 12,
	 * runnable during [5, 15) ms */
	idle(s, 1, T0, T0 + 10 * MS);
	slice(s, 1, 12, T0 + 15 * MS, T0 + 20 * MS, 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 20 * MS), 0));

	cr_assert(eq(sz, s->nr_samples, 2));
	expect_sample(s, 0, T0, 1.0, 0.5, 1.0);
	expect_sample(s, 1, T0 + 10 * MS, 1.5, 0.5, 0.0);
	cr_assert(eq(u64, s->cpus[1].other_ns, 5 * MS));
	sched_model__free(s);
}

Test(cpu_sched, interval_spanning_buckets_is_split_exactly)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 1, T0); /* 1 ms buckets */

	slice(s, 0, 11, T0 + 250 * US, T0 + 2750 * US, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 3 * MS), 0));

	cr_assert(eq(sz, s->nr_samples, 3));
	expect_sample(s, 0, T0, 0.75, 0, 0);
	expect_sample(s, 1, T0 + 1 * MS, 1.0, 0, 0);
	expect_sample(s, 2, T0 + 2 * MS, 0.75, 0, 0);
	sched_model__free(s);
}

Test(cpu_sched, last_partial_bucket_divides_by_its_width)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 1, T0);

	slice(s, 0, 11, T0 + 500 * US, T0 + 2500 * US, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 2500 * US), 0));

	/* [2, 2.5) ms is busy throughout: 1.0, equal to [1, 2), merged */
	cr_assert(eq(sz, s->nr_samples, 2));
	expect_sample(s, 0, T0, 0.5, 0, 0);
	expect_sample(s, 1, T0 + 1 * MS, 1.0, 0, 0);
	sched_model__free(s);
}

Test(cpu_sched, equal_samples_are_merged)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 2, T0);

	/* Two 1 ms buckets per step, each step changing one counter only. */
	slice(s, 0, 11, T0, T0 + 2 * MS, 0);
	idle(s, 0, T0 + 2 * MS, T0 + 8 * MS);
	idle(s, 1, T0, T0 + 4 * MS);
	/* past the end, but runnable during [6, 9) ms */
	slice(s, 1, 12, T0 + 9 * MS, T0 + 10 * MS, 3 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), 0));

	cr_assert(eq(sz, s->nr_samples, 4));
	expect_sample(s, 0, T0, 1.0, 0, 1.0);
	expect_sample(s, 1, T0 + 2 * MS, 0, 0, 2.0);
	expect_sample(s, 2, T0 + 4 * MS, 0, 0, 1.0);
	expect_sample(s, 3, T0 + 6 * MS, 0, 1.0, 1.0);
	sched_model__free(s);
}

Test(cpu_sched, records_are_clipped_to_the_trace)
{
	struct sched_model *s = summary_model(2);
	const struct cpu_lane *l;

	/* before the start, and straddling it */
	slice(s, 0, 11, T0 - 9 * MS, T0 - 6 * MS, 0);
	idle(s, 0, T0 - 5 * MS, T0 + 2 * MS);
	/* straddling the end, its wait [7, 12) ms from start minus 5 ms */
	slice(s, 0, 11, T0 + 2 * MS, T0 + 30 * MS, 5 * MS);
	idle(s, 0, T0 + 30 * MS, T0 + 31 * MS);
	/* wholly past the end, though its wait is not */
	slice(s, 1, 12, T0 + 25 * MS, T0 + 26 * MS, 20 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(u64, l->idle_ns, 2 * MS));
	cr_assert(eq(u64, l->build_ns, 8 * MS));
	cr_assert(eq(u64, l->other_ns, 0));
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0 + 2 * MS, T0 + 10 * MS, 1);
	l = &s->cpus[1];
	cr_assert(eq(u64, l->other_ns, 10 * MS));
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_OTHER, 0, T0, T0 + 10 * MS, 1);
	/* runnable: [0, 2) ms on cpu 0, [5, 10) ms on cpu 1 */
	cr_assert(eq(sz, s->nr_samples, 1));
	expect_sample(s, 0, T0, 0.8, 0.7, 0.2);
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
	idle(s, 0, T0 + 8 * MS, T0 + 9 * MS);
	/* [9, 9.5) ms other, [9.5, 10) ms thread 12: a tie, other ran first */
	slice(s, 0, 12, T0 + 9500 * US, T0 + 11 * MS, 0);
	idle(s, 0, T0 + 11 * MS, T0 + 12 * MS);
	for (i = 0; i < 2000; i++, t += 2 * MS) {
		slice(s, 0, 11 + i % 2, t + 2 * MS, t + 3 * MS, 0);
		idle(s, 0, t + 3 * MS, t + 4 * MS);
	}
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	/* Which kinds the time past the end was is lost by then: the totals
	 * are approximate but still add up; the drawn slices are exact, and
	 * so are the counters when the end falls on a bucket edge. */
	l = &s->cpus[0];
	check_lanes(s);
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 8 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_OTHER, 0, T0 + 9 * MS, T0 + 9500 * US, 1);
	cr_assert(ge(u64, l->build_ns, 8500 * US));
	cr_assert(eq(sz, s->nr_samples, 1));
	expect_sample(s, 0, T0, 0.85, 0, 0.1);
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
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 5 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 21, T0 + 5 * MS, T0 + 8 * MS, 1);
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

/* A build slice whose gap before it held idle the kernel summed, not streamed. */
static void slice_after_short_idle(struct sched_model *s, __u32 cpu, __u32 tid, __u64 start, __u64 end,
				   __u64 short_idle)
{
	struct bb_cpu_slice_event e = {};

	fill_header(&e.hdr, BB_EV_CPU_SLICE, cpu, end, tid, tid / 10 * 10);
	e.start_ns = start;
	e.short_idle_ns = short_idle;
	cr_assert(eq(int, sched_model__add_event(s, &e, sizeof(e)), 0));
}

/*
 * 20 ms between two slices, 15 ms of it in idle periods too short to be
 * streamed: exactly 15 ms idle and 5 ms outside work, spread evenly, so at
 * 10 ms buckets idle dominates the gap and nothing is drawn there.
 */
Test(cpu_sched, summed_short_idle_is_idle_not_outside_work)
{
	struct sched_model *s = summary_model_at(1, 10 * MS);

	slice(s, 0, 11, T0, T0 + 10 * MS, 0);
	slice_after_short_idle(s, 0, 11, T0 + 30 * MS, T0 + 40 * MS, 15 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 40 * MS), 0));
	cr_assert(eq(u64, s->cpus[0].idle_ns, 15 * MS));
	cr_assert(eq(u64, s->cpus[0].other_ns, 5 * MS));
	cr_assert(eq(u64, s->cpus[0].build_ns, 20 * MS));
	cr_assert(eq(sz, s->cpus[0].nr_slices, 2));
	expect_slice(&s->cpus[0], 0, CPU_SLICE_BUILD, 11, T0, T0 + 10 * MS, 1);
	expect_slice(&s->cpus[0], 1, CPU_SLICE_BUILD, 11, T0 + 30 * MS, T0 + 40 * MS, 1);
	sched_model__free(s);
}

/* The same at FULL: the outside work is drawn, the idle is not, totals exact. */
Test(cpu_sched, summed_short_idle_at_full)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 1, T0);

	slice(s, 0, 11, T0, T0 + 10 * MS, 0);
	slice_after_short_idle(s, 0, 11, T0 + 30 * MS, T0 + 40 * MS, 15 * MS);
	/* More summed idle than the gap holds is capped at the gap. */
	slice_after_short_idle(s, 0, 11, T0 + 41 * MS, T0 + 42 * MS, 5 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 42 * MS), 0));
	cr_assert(eq(u64, s->cpus[0].idle_ns, 16 * MS));
	cr_assert(eq(u64, s->cpus[0].other_ns, 5 * MS));
	cr_assert(eq(u64, s->cpus[0].build_ns, 21 * MS));
	expect_slice(&s->cpus[0], 1, CPU_SLICE_OTHER, 0, T0 + 10 * MS, T0 + 15 * MS, 1);
	expect_slice(&s->cpus[0], 2, CPU_SLICE_BUILD, 11, T0 + 30 * MS, T0 + 40 * MS, 1);
	sched_model__free(s);
}
