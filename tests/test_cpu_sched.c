// SPDX-License-Identifier: GPL-2.0
/* CPU lanes and parallelism counters from synthetic scheduler records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "cpu_sched.h"

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

static struct sched_model *summary_model(size_t nr_cpus)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 1 * MS, nr_cpus, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	return s;
}

Test(cpu_sched, levels_set_resolution_and_buckets)
{
	struct sched_model *dflt = sched_model__new(SCHED_SUMMARY, 0, 2, T0);
	struct sched_model *full = sched_model__new(SCHED_FULL, 5 * MS, 2, T0);

	cr_assert(dflt && full);
	cr_assert(eq(u64, dflt->resolution_ns, SCHED_DEFAULT_RESOLUTION_NS));
	cr_assert(eq(u64, dflt->bucket_ns, 10 * SCHED_DEFAULT_RESOLUTION_NS));
	cr_assert(eq(u64, full->resolution_ns, 0));
	cr_assert(eq(u64, full->bucket_ns, 1 * MS));
	cr_assert(eq(sz, full->nr_cpus, 2));
	cr_assert(eq(u32, full->cpus[1].cpu, 1));
	cr_assert(eq(ptr, sched_model__new((enum sched_level)7, 0, 1, 0), NULL));
	sched_model__free(dflt);
	sched_model__free(full);
	sched_model__free(NULL);
}

Test(cpu_sched, same_thread_merges_across_a_short_gap)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	/* [3, 3.5) ms: something else, too short to draw */
	slice(s, 0, 11, T0 + 3500 * US, T0 + 6 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 6 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 6 * MS, 2);
	cr_assert(eq(u64, l->build_ns, 5500 * US));
	cr_assert(eq(u64, l->other_ns, 500 * US));
	cr_assert(eq(u64, l->idle_ns, 0));
	cr_assert(eq(sz, l->folded, 1));
	cr_assert(eq(u64, l->folded_ns, 500 * US));
	sched_model__free(s);
}

Test(cpu_sched, short_slices_are_folded_not_drawn)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 200 * US, 0);
	idle(s, 0, T0 + 200 * US, T0 + 5 * MS);
	slice(s, 0, 12, T0 + 5 * MS, T0 + 5300 * US, 0);
	idle(s, 0, T0 + 5300 * US, T0 + 10 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 10 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 0));
	cr_assert(eq(sz, l->folded, 2));
	cr_assert(eq(u64, l->folded_ns, 500 * US));
	cr_assert(eq(u64, l->build_ns, 500 * US));
	cr_assert(eq(u64, l->idle_ns, 9500 * US));
	cr_assert(eq(u64, l->other_ns, 0));
	sched_model__free(s);
}

/* A folded slice counts its own time, not the interruptions it spans. */
Test(cpu_sched, folded_slice_counts_only_its_own_time)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 300 * US, 0);
	slice(s, 0, 21, T0 + 300 * US, T0 + 400 * US, 0);
	slice(s, 0, 11, T0 + 400 * US, T0 + 600 * US, 0);
	idle(s, 0, T0 + 600 * US, T0 + 5 * MS);
	cr_assert(eq(int, sched_model__finish(s, T0 + 5 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 0));
	cr_assert(eq(sz, l->folded, 3));
	cr_assert(eq(u64, l->folded_ns, 600 * US));
	sched_model__free(s);
}

Test(cpu_sched, short_idle_is_not_counted_as_folded)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	idle(s, 0, T0 + 3 * MS, T0 + 3200 * US);
	slice(s, 0, 11, T0 + 3200 * US, T0 + 6 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 6 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 6 * MS, 2);
	cr_assert(eq(sz, l->folded, 0));
	cr_assert(eq(u64, l->folded_ns, 0));
	cr_assert(eq(u64, l->idle_ns, 200 * US));
	sched_model__free(s);
}

Test(cpu_sched, short_interruption_is_folded_and_the_thread_resumes)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 4 * MS, 0);
	slice(s, 0, 21, T0 + 4 * MS, T0 + 4300 * US, 0);
	slice(s, 0, 11, T0 + 4300 * US, T0 + 8 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 8 * MS, 2);
	cr_assert(eq(sz, l->folded, 1));
	cr_assert(eq(u64, l->folded_ns, 300 * US));
	cr_assert(eq(u64, l->build_ns, 8 * MS));
	sched_model__free(s);
}

/*
 * Short interruptions that add up to a long absence still split the
 * thread: it comes back as a new pending slice, which may then resume.
 */
Test(cpu_sched, many_short_interruptions_split)
{
	struct sched_model *s = summary_model(1);
	const struct cpu_lane *l;

	slice(s, 0, 11, T0, T0 + 3 * MS, 0);
	slice(s, 0, 21, T0 + 3 * MS, T0 + 3600 * US, 0);
	slice(s, 0, 31, T0 + 3600 * US, T0 + 4200 * US, 0);
	slice(s, 0, 11, T0 + 4200 * US, T0 + 4500 * US, 0);
	slice(s, 0, 21, T0 + 4500 * US, T0 + 4600 * US, 0);
	slice(s, 0, 11, T0 + 4600 * US, T0 + 8 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 8 * MS), 0));

	l = &s->cpus[0];
	cr_assert(eq(sz, l->nr_slices, 2));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 3 * MS, 1);
	expect_slice(l, 1, CPU_SLICE_BUILD, 11, T0 + 4200 * US, T0 + 8 * MS, 2);
	cr_assert(eq(sz, l->folded, 3));
	cr_assert(eq(u64, l->folded_ns, 1300 * US));
	sched_model__free(s);
}

Test(cpu_sched, long_interruption_splits)
{
	struct sched_model *s = summary_model(1);
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
	cr_assert(eq(sz, l->folded, 0));
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
 * Per CPU a time-ordered run of build slices (a few threads, so the same
 * one often comes back), idle periods and gaps, from 1 us to 5 ms, some
 * exactly adjacent; all within [T0, STREAM_END].
 */
static size_t synth_stream(struct synth_record *recs, __u64 seed)
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
			r->tid = 10 + prng(&rng) % 3;
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
	__u64 last_end;
	size_t cpu, i;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct cpu_lane *l = &s->cpus[cpu];

		cr_assert(eq(u64, l->build_ns + l->other_ns + l->idle_ns, s->end_ns - s->start_ns), "cpu %zu", cpu);
		cr_assert(le(u64, l->folded_ns, l->build_ns + l->other_ns), "cpu %zu", cpu);
		last_end = s->start_ns;
		for (i = 0; i < l->nr_slices; i++) {
			const struct cpu_slice *sl = &l->slices[i];

			cr_assert(ge(u64, sl->start_ns, last_end), "cpu %zu slice %zu overlaps", cpu, i);
			cr_assert(lt(u64, sl->start_ns, sl->end_ns), "cpu %zu slice %zu", cpu, i);
			cr_assert(le(u64, sl->end_ns, s->end_ns), "cpu %zu slice %zu", cpu, i);
			cr_assert(ge(u64, sl->end_ns - sl->start_ns, s->resolution_ns), "cpu %zu slice %zu", cpu, i);
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

static void check_random_stream(enum sched_level level)
{
	struct synth_record *recs = calloc(STREAM_LEN, sizeof(*recs));
	struct sched_model *a = sched_model__new(level, 1 * MS, STREAM_CPUS, T0);
	struct sched_model *b = sched_model__new(level, 1 * MS, STREAM_CPUS, T0);
	size_t n, cpu, drawn = 0, folded = 0;

	cr_assert(recs && a && b);
	n = synth_stream(recs, 0x9e3779b97f4a7c15ull);
	cr_assert(gt(sz, n, 1000));
	feed_interleaved(a, recs, n, 1);
	feed_interleaved(b, recs, n, 2);
	cr_assert(eq(int, sched_model__finish(a, STREAM_END), 0));
	cr_assert(eq(int, sched_model__finish(b, STREAM_END), 0));
	cr_assert(eq(sz, a->records, n));
	cr_assert(eq(sz, a->reordered, 0));
	check_invariants(a);

	/* The arrival order across CPUs changes nothing. */
	for (cpu = 0; cpu < STREAM_CPUS; cpu++) {
		cr_assert(eq(sz, a->cpus[cpu].nr_slices, b->cpus[cpu].nr_slices));
		cr_assert(eq(int, memcmp(a->cpus[cpu].slices, b->cpus[cpu].slices,
					 a->cpus[cpu].nr_slices * sizeof(struct cpu_slice)), 0));
		cr_assert(eq(u64, a->cpus[cpu].folded_ns, b->cpus[cpu].folded_ns));
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
	check_random_stream(SCHED_SUMMARY);
}

Test(cpu_sched, random_stream_full_invariants)
{
	check_random_stream(SCHED_FULL);
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
	/* cut to 0.5 ms at the end: too short to stay drawn */
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
	cr_assert(eq(sz, l->nr_slices, 1));
	expect_slice(l, 0, CPU_SLICE_BUILD, 11, T0, T0 + 8 * MS, 1);
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
