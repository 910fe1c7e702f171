// SPDX-License-Identifier: GPL-2.0
/* Exact parallelism histograms and serial phases from synthetic intervals. */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/cpu_sched.h"
#include "model/parallelism.h"
#include "lib/synth.h"

#define MS 1000000ull
#define S 1000000000ull
#define T0 (1000 * MS)

static struct parallelism *new_par(size_t nr_cpus)
{
	struct parallelism *p = par__new(nr_cpus, T0);

	cr_assert(not(eq(ptr, p, NULL)));
	return p;
}

static void iv(struct parallelism *p, enum par_kind kind, __u32 tgid, __u64 from, __u64 to)
{
	cr_assert(eq(int, par__interval(p, kind, tgid, T0 + from, T0 + to), 0));
}

/* One CPU runs tgid 10 for 2 s while the other idles. */
Test(parallelism, purely_serial_build_is_one_phase)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 2 * S);
	iv(p, PAR_IDLE, 0, 0, 2 * S);
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(eq(u64, p->running_ns[0], 0));
	cr_assert(eq(u64, p->running_ns[1], 2 * S));
	cr_assert(eq(u64, p->running_ns[2], 0));
	cr_assert(eq(u64, p->running_idle_ns[1], 2 * S));
	cr_assert(eq(u64, p->run_thread_ns, 2 * S));
	cr_assert(eq(u32, p->peak_running, 1));
	cr_assert(eq(sz, p->nr_phases, 1));
	cr_assert(eq(u64, p->phases[0].start_ns, T0));
	cr_assert(eq(u64, p->phases[0].end_ns, T0 + 2 * S));
	cr_assert(eq(sz, p->phases[0].nr_procs, 1));
	cr_assert(eq(u32, p->phases[0].procs[0].tgid, 10));
	cr_assert(eq(u64, p->phases[0].procs[0].on_cpu_ns, 2 * S));
	par__free(p);
}

Test(parallelism, perfect_j2_has_no_serial_phase)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_RUN, 20, 0, 1 * S);
	iv(p, PAR_RUN, 30, 1 * S, 2 * S);
	iv(p, PAR_RUN, 40, 1 * S, 2 * S);
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(eq(u64, p->running_ns[2], 2 * S));
	cr_assert(eq(u64, p->running_idle_ns[2], 0));
	cr_assert(eq(u64, p->run_thread_ns, 4 * S));
	cr_assert(eq(u32, p->peak_running, 2));
	cr_assert(eq(sz, p->nr_phases, 0));
	par__free(p);
}

/* One CPU, two threads taking turns; then outside work runs while one waits. */
Test(parallelism, oversubscribed_build_waits_and_meets_a_noisy_neighbour)
{
	struct parallelism *p = new_par(1);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_WAIT, 20, 0, 1 * S);
	iv(p, PAR_RUN, 20, 1 * S, 2 * S);
	iv(p, PAR_WAIT, 10, 1 * S, 3 * S);
	iv(p, PAR_OTHER, 0, 2 * S, 3 * S);
	cr_assert(eq(int, par__finish(p, T0 + 3 * S), 0));
	cr_assert(eq(u64, p->running_ns[1], 2 * S));
	cr_assert(eq(u64, p->running_ns[0], 1 * S));
	cr_assert(eq(u64, p->runnable_ns[1], 3 * S));
	cr_assert(eq(u64, p->wait_thread_ns, 3 * S));
	cr_assert(eq(u64, p->noisy_ns, 1 * S));
	cr_assert(eq(u32, p->peak_runnable, 1));
	/* Only while the neighbour held the CPU did one process alone want it. */
	cr_assert(eq(sz, p->nr_phases, 1));
	cr_assert(eq(u64, p->phases[0].start_ns, T0 + 2 * S));
	cr_assert(eq(u64, p->phases[0].end_ns, T0 + 3 * S));
	cr_assert(eq(sz, p->phases[0].nr_procs, 0));
	par__free(p);
}

/* A serial step on a machine whose other CPU is busy with outside work. */
Test(parallelism, a_busy_neighbour_does_not_hide_a_serial_step)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 30, 0, 2 * S);
	iv(p, PAR_OTHER, 0, 0, 2 * S);
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(eq(sz, p->nr_phases, 1));
	cr_assert(eq(u64, p->phases[0].end_ns - p->phases[0].start_ns, 2 * S));
	cr_assert(eq(u32, p->phases[0].procs[0].tgid, 30));
	cr_assert(eq(u64, p->running_idle_ns[1], 0));
	par__free(p);
}

/* Two compiles in parallel for 1 s, then a 2 s link on one CPU. */
Test(parallelism, serial_link_step_is_the_top_phase)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_RUN, 20, 0, 1 * S);
	iv(p, PAR_RUN, 30, 1 * S, 3 * S);
	iv(p, PAR_IDLE, 0, 1 * S, 3 * S);
	cr_assert(eq(int, par__finish(p, T0 + 3 * S), 0));
	cr_assert(eq(sz, p->nr_phases, 1));
	cr_assert(eq(u64, p->phases[0].start_ns, T0 + 1 * S));
	cr_assert(eq(u64, p->phases[0].end_ns, T0 + 3 * S));
	cr_assert(eq(u32, p->phases[0].procs[0].tgid, 30));
	cr_assert(eq(u64, p->running_idle_ns[1], 2 * S));
	par__free(p);
}

/* A moment of overlap does not cut a phase; a long one does. */
Test(parallelism, short_overlaps_are_bridged_long_ones_split)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_IDLE, 0, 0, 1 * S);
	iv(p, PAR_RUN, 20, 1 * S - 5 * MS, 1 * S); /* 5 ms overlap: bridged */
	iv(p, PAR_RUN, 20, 1 * S, 2 * S);
	iv(p, PAR_IDLE, 0, 1 * S, 2 * S);
	iv(p, PAR_RUN, 30, 2 * S, 3 * S);	   /* 1 s of two processes */
	iv(p, PAR_RUN, 40, 2 * S, 3 * S);
	iv(p, PAR_RUN, 50, 3 * S, 3500 * MS);
	iv(p, PAR_IDLE, 0, 3 * S, 3500 * MS);
	cr_assert(eq(int, par__finish(p, T0 + 3500 * MS), 0));
	cr_assert(eq(sz, p->nr_phases, 2));
	cr_assert(eq(u64, p->phases[0].start_ns, T0));
	cr_assert(eq(u64, p->phases[0].end_ns, T0 + 2 * S));
	cr_assert(eq(sz, p->phases[0].nr_procs, 2));
	cr_assert(eq(u32, p->phases[0].procs[0].tgid, 20));
	cr_assert(eq(u64, p->phases[0].procs[0].on_cpu_ns, 1 * S));
	cr_assert(eq(u32, p->phases[0].procs[1].tgid, 10));
	cr_assert(eq(u64, p->phases[0].procs[1].on_cpu_ns, 1 * S - 5 * MS));
	cr_assert(eq(u64, p->phases[1].start_ns, T0 + 3 * S));
	cr_assert(eq(u64, p->phases[1].end_ns, T0 + 3500 * MS));
	par__free(p);
}

/* Sweeping early gives the same figures; a wait behind the sweep is counted late. */
Test(parallelism, sweeps_below_a_watermark_are_exact_and_late_waits_counted)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_RUN, 20, 0, 2 * S);
	cr_assert(eq(int, par__sweep(p, T0 + 1 * S + 1), 0));
	iv(p, PAR_IDLE, 0, 1 * S, 2 * S);
	iv(p, PAR_WAIT, 0, 500 * MS, 1500 * MS); /* 0.5..1 s already swept */
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(eq(u64, p->running_ns[2], 1 * S));
	cr_assert(eq(u64, p->running_ns[1], 1 * S));
	cr_assert(eq(u64, p->running_idle_ns[1], 1 * S));
	cr_assert(eq(u64, p->late_ns, 500 * MS));
	cr_assert(eq(u64, p->runnable_ns[1], 500 * MS));
	cr_assert(eq(u64, p->runnable_ns[0], 1500 * MS));
	par__free(p);
}

/* tgid (one thread, tid == tgid) ran on cpu during [start, end) from T0. */
static void slice(struct sched_model *s, __u32 cpu, __u32 tgid, __u64 start, __u64 end, __u64 wait)
{
	synth_cpu_slice(s, cpu, tgid, tgid, T0 + start, T0 + end, wait);
}

/* The sched model feeds every interval, so SUMMARY and FULL agree exactly. */
Test(parallelism, sched_model_histograms_are_exact_at_every_level)
{
	enum sched_level levels[] = { SCHED_SUMMARY, SCHED_FULL };
	size_t l, i;

	for (l = 0; l < 2; l++) {
		struct sched_model *s = sched_model__new(levels[l], 0, 2, T0);

		cr_assert(not(eq(ptr, s, NULL)));
		/* 300 short alternations on cpu 0 with waits; cpu 1 idle, then busy. */
		for (i = 0; i < 300; i++)
			slice(s, 0, i % 2 ? 10 : 20, i * 3 * MS, (i + 1) * 3 * MS, i ? 1 * MS : 0);
		synth_cpu_idle(s, 1, T0, T0 + 600 * MS);
		slice(s, 1, 30, 600 * MS, 900 * MS, 0);
		cr_assert(eq(int, sched_model__finish(s, T0 + 900 * MS), 0));
		cr_assert(eq(u64, s->par->running_ns[1], 600 * MS), "level %zu", l);
		cr_assert(eq(u64, s->par->running_ns[2], 300 * MS), "level %zu", l);
		cr_assert(eq(u64, s->par->running_idle_ns[1], 600 * MS), "level %zu", l);
		cr_assert(eq(u64, s->par->wait_thread_ns, 299 * MS), "level %zu", l);
		cr_assert(eq(u64, s->par->runnable_ns[1], 299 * MS), "level %zu", l);
		cr_assert(eq(u64, s->par->late_ns, 0), "level %zu", l);
		/* Two processes alternate on cpu 0, the next one waiting 1 ms of
		 * every 3: bridged into one phase, which ends where the wait
		 * before cpu 1 got busy began. */
		cr_assert(eq(sz, s->par->nr_phases, 1), "level %zu", l);
		cr_assert(eq(u64, s->par->phases[0].start_ns, T0), "level %zu", l);
		cr_assert(eq(u64, s->par->phases[0].end_ns, T0 + 599 * MS), "level %zu", l);
		sched_model__free(s);
	}
}

/* A possible but offline CPU sends nothing: not idle, not outside work. */
Test(parallelism, an_offline_cpu_is_not_counted_as_left_to_others)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	sched_model__set_absent(s, 1);
	slice(s, 0, 10, 0, 1000 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 1000 * MS), 0));
	cr_assert(eq(u64, s->par->running_ns[1], 1000 * MS));
	cr_assert(eq(sz, s->par->nr_phases, 0));
	cr_assert(eq(u64, s->par->noisy_ns, 0));
	cr_assert(eq(u64, s->cpus[1].other_ns, 1000 * MS)); /* drawn as before */
	sched_model__free(s);
}

/* An online CPU that sends nothing ran outside work all along: a neighbour. */
Test(parallelism, a_silent_online_cpu_is_outside_work)
{
	struct sched_model *s = sched_model__new(SCHED_SUMMARY, 0, 2, T0);

	cr_assert(not(eq(ptr, s, NULL)));
	slice(s, 0, 10, 0, 1000 * MS, 0);
	cr_assert(eq(int, sched_model__finish(s, T0 + 1000 * MS), 0));
	cr_assert(eq(sz, s->par->nr_phases, 1));
	sched_model__free(s);
}

/* The sweep does not wait for an offline CPU: memory stays bounded. */
Test(parallelism, sweeps_do_not_wait_for_an_offline_cpu)
{
	struct sched_model *s = sched_model__new(SCHED_FULL, 0, 2, T0);
	size_t i;

	cr_assert(not(eq(ptr, s, NULL)));
	sched_model__set_absent(s, 1);
	for (i = 0; i < 200000; i++)
		slice(s, 0, 10 + i % 2 * 10, i * MS, (i + 1) * MS, 0);
	/* Swept as it went: the phases so far are final, and nothing was late. */
	cr_assert(lt(u64, 100000 * MS, s->par->running_ns[1]));
	cr_assert(eq(int, sched_model__finish(s, T0 + 200000 * MS), 0));
	cr_assert(eq(u64, s->par->running_ns[1], 200000 * MS));
	cr_assert(eq(u64, s->par->late_ns, 0));
	sched_model__free(s);
}

/* An interval wholly before the start, once the sweep has moved on: nothing
 * late, nothing counted (it used to underflow late_ns to ~1.8e19). */
Test(parallelism, an_interval_before_the_start_is_not_late)
{
	struct parallelism *p = new_par(2);

	iv(p, PAR_RUN, 10, 0, 1 * S);
	cr_assert(eq(int, par__sweep(p, T0 + 1 * S + 1), 0));
	cr_assert(eq(int, par__interval(p, PAR_WAIT, 10, T0 - 500 * MS, T0 - 200 * MS), 0));
	cr_assert(eq(int, par__interval(p, PAR_WAIT, 10, T0 - 200 * MS, T0), 0));
	cr_assert(eq(int, par__interval(p, PAR_WAIT, 10, T0 - 200 * MS, T0 + 1), 0));
	cr_assert(eq(int, par__finish(p, T0 + 1 * S), 0));
	cr_assert(eq(u64, p->late_ns, 1));
	cr_assert(eq(u64, p->wait_thread_ns, 0));
	cr_assert(eq(u64, p->running_ns[1], 1 * S));
	par__free(p);
}

/* Two compiles with short stalls (serial blips) right after a serial step:
 * the blips must not stretch the phase over the parallel work. */
Test(parallelism, serial_blips_in_parallel_work_do_not_extend_a_phase)
{
	struct parallelism *p = new_par(2);
	__u64 t;

	iv(p, PAR_RUN, 10, 0, 1 * S);
	iv(p, PAR_IDLE, 0, 0, 1 * S);
	/* From 1 s two processes run, each stalling 1 ms every 10 ms in turn. */
	for (t = 1 * S; t < 2 * S; t += 10 * MS) {
		iv(p, PAR_RUN, 20, t, t + 9 * MS);
		iv(p, PAR_IDLE, 0, t + 9 * MS, t + 10 * MS);
		iv(p, PAR_RUN, 30, t, t + 4 * MS);
		iv(p, PAR_IDLE, 0, t + 4 * MS, t + 5 * MS);
		iv(p, PAR_RUN, 30, t + 5 * MS, t + 10 * MS);
	}
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(ge(sz, p->nr_phases, 1));
	cr_assert(eq(u64, p->phases[0].start_ns, T0));
	cr_assert(le(u64, p->phases[0].parallel_ns, par__phase_tolerance_ns(p->phases[0].end_ns - T0)));
	cr_assert(lt(u64, p->phases[0].end_ns, T0 + 1 * S + 100 * MS), "phase ends at %llu ms",
		  (unsigned long long)(p->phases[0].end_ns - T0) / MS);
	cr_assert(eq(u32, p->phases[0].procs[0].tgid, 10));
	cr_assert(eq(u64, p->phases[0].cpu_ns, p->phases[0].procs[0].on_cpu_ns + p->phases[0].procs[1].on_cpu_ns +
						   p->phases[0].procs[2].on_cpu_ns));
	par__free(p);
}

/* One process's two threads on two of four CPUs are not a serial step. */
Test(parallelism, two_threads_running_are_not_serial)
{
	struct parallelism *p = new_par(4);

	iv(p, PAR_RUN, 10, 0, 2 * S);
	iv(p, PAR_RUN, 10, 0, 2 * S);
	iv(p, PAR_IDLE, 0, 0, 2 * S);
	iv(p, PAR_IDLE, 0, 0, 2 * S);
	cr_assert(eq(int, par__finish(p, T0 + 2 * S), 0));
	cr_assert(eq(sz, p->nr_phases, 0));
	par__free(p);
}

/* A tiny deterministic generator: the same sweeps on every run. */
static __u64 rng_next(__u64 *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

struct rand_iv {
	__u64 from, to;
	__u32 tgid;
	enum par_kind kind;
};

static int cmp_rand_iv(const void *a, const void *b)
{
	const struct rand_iv *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* Time in [from, to) with two or more RUN intervals, by brute force. */
static __u64 parallel_time(const struct rand_iv *ivs, size_t n, __u64 from, __u64 to)
{
	__u64 total = 0, t, next;
	size_t i;
	int running;

	for (t = from; t < to; t = next) {
		next = to;
		running = 0;
		for (i = 0; i < n; i++) {
			if (ivs[i].kind != PAR_RUN)
				continue;
			if (ivs[i].from <= t && t < ivs[i].to) {
				running++;
				if (ivs[i].to < next)
					next = ivs[i].to;
			} else if (ivs[i].from > t && ivs[i].from < next) {
				next = ivs[i].from;
			}
		}
		if (running >= 2)
			total += next - t;
	}
	return total;
}

/*
 * Property, over random sweeps: no reported phase holds more time with two
 * or more build threads running than its tolerance, and its processes'
 * CPU time is within the phase's.
 */
Test(parallelism, random_sweeps_keep_phases_serial)
{
	enum { NR_IVS = 1200 };
	struct rand_iv *ivs = calloc(NR_IVS, sizeof(*ivs));
	__u64 seed, state;

	cr_assert(not(eq(ptr, ivs, NULL)));
	for (seed = 1; seed <= 150; seed++) {
		size_t nr_cpus = 2 + seed % 3, n = 0, i, k, c;
		struct parallelism *p = new_par(nr_cpus);

		state = seed;
		for (c = 0; c < nr_cpus; c++) {
			__u64 t = 0;

			while (t < 3 * S && n < NR_IVS - 1) {
				__u64 r = rng_next(&state) % 100, len;

				/* Mostly blips and short slices, some long serial stretches. */
				len = r < 50 ? rng_next(&state) % (2 * MS) + 1 :
				      r < 90 ? rng_next(&state) % (30 * MS) + 1 : rng_next(&state) % (600 * MS) + 1;
				r = rng_next(&state) % 100;
				ivs[n++] = (struct rand_iv){
					.from = t, .to = t + len, .tgid = 1 + rng_next(&state) % 3,
					/* A CPU other than the first is mostly idle: serial stretches. */
					.kind = r < (c ? 35 : 80) ? PAR_RUN : r < 92 ? PAR_IDLE : PAR_OTHER,
				};
				if (rng_next(&state) % 20 == 0 && n < NR_IVS)
					ivs[n++] = (struct rand_iv){ .from = t, .to = t + len / 2 + 1, .kind = PAR_WAIT,
								     .tgid = 1 + rng_next(&state) % 3 };
				t += len;
			}
		}
		qsort(ivs, n, sizeof(*ivs), cmp_rand_iv);
		for (i = 0; i < n; i++) {
			/* Sweep now and then: nothing later starts before ivs[i]. */
			if (i && rng_next(&state) % 50 == 0)
				cr_assert(eq(int, par__sweep(p, T0 + ivs[i].from), 0));
			iv(p, ivs[i].kind, ivs[i].tgid, ivs[i].from, ivs[i].to);
		}
		cr_assert(eq(int, par__finish(p, T0 + 3 * S), 0));
		for (k = 0; k < p->nr_phases; k++) {
			const struct par_phase *ph = &p->phases[k];
			__u64 len = ph->end_ns - ph->start_ns, par_ns, procs_ns = 0;

			par_ns = parallel_time(ivs, n, ph->start_ns - T0, ph->end_ns - T0);
			cr_assert(le(u64, par_ns, par__phase_tolerance_ns(len)),
				  "seed %llu: phase %zu at %llu-%llu ms holds %llu ms with two or more running",
				  (unsigned long long)seed, k, (unsigned long long)(ph->start_ns - T0) / MS,
				  (unsigned long long)(ph->end_ns - T0) / MS, (unsigned long long)par_ns / MS);
			cr_assert(eq(u64, par_ns, ph->parallel_ns), "seed %llu phase %zu", (unsigned long long)seed, k);
			for (i = 0; i < ph->nr_procs; i++)
				procs_ns += ph->procs[i].on_cpu_ns;
			cr_assert(le(u64, procs_ns, ph->cpu_ns), "seed %llu phase %zu", (unsigned long long)seed, k);
			cr_assert(le(u64, ph->cpu_ns, len), "seed %llu phase %zu", (unsigned long long)seed, k);
		}
		par__free(p);
	}
	free(ivs);
}
