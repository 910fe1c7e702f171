// SPDX-License-Identifier: GPL-2.0
/*
 * Parallelism by sweeping interval ends in time order.
 *
 * Between two consecutive ends nothing changes, so each stretch between
 * them adds its length to exactly one bin of each histogram: the figures
 * are exact, not sampled.  Intervals arrive per CPU in order but across
 * CPUs in any order, so ends are buffered and swept only below a watermark
 * the caller vouches for (every CPU lane is classified past it).  A wait is
 * reported when its thread gets a CPU, so one can reach behind the
 * watermark; its swept part is counted in late_ns rather than misplaced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "model/parallelism.h"

#define SWEEP_FIRST_AT 65536
/* Processes whose CPU time a phase keeps apart while it is open. */
#define PHASE_TRACKED 16

struct par_end {
	__u64 ts;
	__u32 tgid;
	__u8 kind;   /* enum par_kind */
	__s8 delta;  /* +1: an interval starts, -1: it ends */
	__u8 __pad[2];
};

/* A process with threads running or waiting now: it is making progress. */
struct tgid_count {
	__u32 tgid;
	int run;  /* its threads on a CPU; negative only within one timestamp */
	int wait; /* its threads runnable, waiting for one */
};

struct par_priv {
	struct par_end *ends;
	size_t nr_ends, ends_cap, sweep_at;
	/* ends[0, nr_sorted) are in time order: what the last sweep left */
	size_t nr_sorted;
	struct par_end *scratch; /* ends_cap of them, for merging */
	size_t scratch_cap;
	__u64 swept; /* figures are final before this */
	int count[PAR_NR_KINDS];
	struct tgid_count *running; /* processes with threads running or waiting */
	size_t nr_running, running_cap;
	bool in_phase;
	__u64 phase_start;
	__u64 nonserial_since; /* in a phase: where a non-serial stretch began; 0: none */
	__u64 phase_parallel_ns;  /* bridged time with >= 2 build threads running */
	__u64 bridge_parallel_ns; /* ... of the open non-serial stretch, not yet bridged */
	__u64 phase_cpu_ns;	  /* build CPU time in the phase's serial stretches */
	struct par_phase_proc phase_procs[PHASE_TRACKED];
	size_t nr_phase_procs;
	bool finished;
};

void par__free(struct parallelism *p)
{
	if (!p)
		return;
	if (p->priv) {
		free(p->priv->ends);
		free(p->priv->scratch);
		free(p->priv->running);
	}
	free(p->priv);
	free(p->running_ns);
	free(p->running_idle_ns);
	free(p->running_idle_cpu_ns);
	free(p->runnable_ns);
	free(p);
}

struct parallelism *par__new(size_t nr_cpus, __u64 start_ns)
{
	struct parallelism *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nr_cpus = nr_cpus;
	p->start_ns = p->end_ns = start_ns;
	/* Waiting threads beyond four per CPU are one bin: "that many or more". */
	p->nr_runnable = 4 * nr_cpus + 2;
	p->priv = calloc(1, sizeof(*p->priv));
	p->running_ns = calloc(nr_cpus + 1, sizeof(*p->running_ns));
	p->running_idle_ns = calloc(nr_cpus + 1, sizeof(*p->running_idle_ns));
	p->running_idle_cpu_ns = calloc(nr_cpus + 1, sizeof(*p->running_idle_cpu_ns));
	p->runnable_ns = calloc(p->nr_runnable, sizeof(*p->runnable_ns));
	if (!p->priv || !p->running_ns || !p->running_idle_ns || !p->running_idle_cpu_ns || !p->runnable_ns) {
		par__free(p);
		return NULL;
	}
	p->priv->swept = start_ns;
	p->priv->sweep_at = SWEEP_FIRST_AT;
	return p;
}

static int push_end(struct par_priv *pv, __u64 ts, enum par_kind kind, __u32 tgid, int delta)
{
	if (array_grow((void **)&pv->ends, &pv->ends_cap, pv->nr_ends + 1, sizeof(*pv->ends)))
		return -ENOMEM;
	pv->ends[pv->nr_ends++] = (struct par_end){ .ts = ts, .tgid = tgid, .kind = kind, .delta = delta };
	return 0;
}

int par__interval(struct parallelism *p, enum par_kind kind, __u32 tgid, __u64 from, __u64 to)
{
	struct par_priv *pv = p->priv;

	if (kind >= PAR_NR_KINDS || pv->finished)
		return -EINVAL;
	if (kind != PAR_RUN && kind != PAR_WAIT)
		tgid = 0;
	if (from < p->start_ns)
		from = p->start_ns;
	/* Wholly before the start (or empty): nothing to count, and the
	 * late sum below must never see to < from. */
	if (from >= to)
		return 0;
	if (from < pv->swept) {
		p->late_ns += (to < pv->swept ? to : pv->swept) - from;
		from = pv->swept;
	}
	if (from >= to)
		return 0;
	return push_end(pv, from, kind, tgid, 1) ?: push_end(pv, to, kind, tgid, -1);
}

bool par__wants_sweep(const struct parallelism *p)
{
	return p->priv->nr_ends >= p->priv->sweep_at;
}

/* Merges the time-ordered a[0, na) and b[0, nb) into out, a's first at equal times (stable). */
static void merge_ends(const struct par_end *a, size_t na, const struct par_end *b, size_t nb, struct par_end *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = b[j].ts < a[i].ts ? b[j++] : a[i++];
	memcpy(out + k, a + i, (na - i) * sizeof(*a));
	memcpy(out + k + na - i, b + j, (nb - j) * sizeof(*b));
}

#define INSERTION_RUN 16
#define RADIX_BITS 11
#define RADIX_BINS (1u << RADIX_BITS)

/* e[0, n) by time, stably, in place: for a few ends. */
static void insertion_sort_ends(struct par_end *e, size_t n)
{
	size_t j, k;

	for (j = 1; j < n; j++) {
		struct par_end x = e[j];

		for (k = j; k > 0 && x.ts < e[k - 1].ts; k--)
			e[k] = e[k - 1];
		e[k] = x;
	}
}

/*
 * Sorts e[0, n) by time, stably (the order of one instant's changes is the
 * order they came in), using tmp (n of them); returns which of the two
 * holds the result, or NULL without memory.  A least-significant-digit
 * radix sort on the time since the earliest end: one pass per 11 bits of
 * the batch's span, where a merge sort took one per doubling of its length
 * and a mispredicted branch per end at each.
 */
static struct par_end *sort_ends(struct par_end *e, struct par_end *tmp, size_t n)
{
	struct par_end *from = e, *to = tmp, *t;
	__u64 min = UINT64_MAX, max = 0;
	size_t i, *count;
	unsigned shift;

	if (n <= INSERTION_RUN) {
		insertion_sort_ends(e, n);
		return e;
	}
	for (i = 0; i < n; i++) {
		min = e[i].ts < min ? e[i].ts : min;
		max = e[i].ts > max ? e[i].ts : max;
	}
	count = malloc(RADIX_BINS * sizeof(*count));
	if (!count)
		return NULL;
	for (shift = 0; shift < 64 && (max - min) >> shift; shift += RADIX_BITS) {
		size_t sum = 0, c;

		memset(count, 0, RADIX_BINS * sizeof(*count));
		for (i = 0; i < n; i++)
			count[((from[i].ts - min) >> shift) & (RADIX_BINS - 1)]++;
		for (i = 0; i < RADIX_BINS; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[((from[i].ts - min) >> shift) & (RADIX_BINS - 1)]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	free(count);
	return from;
}

/*
 * Puts ends[0, nr_ends) in time order: only what came since the last sweep
 * is sorted, then merged with what that sweep left (already in order).
 */
static int order_ends(struct par_priv *pv)
{
	size_t s = pv->nr_sorted, n = pv->nr_ends;
	struct par_end *sorted, *t;

	if (array_grow((void **)&pv->scratch, &pv->scratch_cap, n, sizeof(*pv->scratch)))
		return -ENOMEM;
	sorted = sort_ends(pv->ends + s, pv->scratch + s, n - s);
	if (!sorted)
		return -ENOMEM;
	if (sorted != pv->ends + s)
		memcpy(pv->ends + s, sorted, (n - s) * sizeof(*sorted));
	if (s && n > s && pv->ends[s].ts < pv->ends[s - 1].ts) {
		merge_ends(pv->ends, s, pv->ends + s, n - s, pv->scratch);
		/* The scratch holds the result: swap the buffers (and capacities). */
		t = pv->ends;
		pv->ends = pv->scratch;
		pv->scratch = t;
		n = pv->ends_cap;
		pv->ends_cap = pv->scratch_cap;
		pv->scratch_cap = n;
	}
	pv->nr_sorted = pv->nr_ends;
	return 0;
}

static int running_add(struct par_priv *pv, __u32 tgid, bool wait, int delta)
{
	struct tgid_count *tc;
	size_t i;

	for (i = 0; i < pv->nr_running; i++) {
		tc = &pv->running[i];
		if (tc->tgid != tgid)
			continue;
		*(wait ? &tc->wait : &tc->run) += delta;
		if (!tc->run && !tc->wait)
			*tc = pv->running[--pv->nr_running];
		return 0;
	}
	if (array_grow((void **)&pv->running, &pv->running_cap, pv->nr_running + 1, sizeof(*pv->running)))
		return -ENOMEM;
	pv->running[pv->nr_running++] = (struct tgid_count){ .tgid = tgid, .run = wait ? 0 : delta,
							     .wait = wait ? delta : 0 };
	return 0;
}

/* A closed phase joins the longest ones, which stay sorted longest first. */
static void phase_keep(struct parallelism *p, __u64 start, __u64 end)
{
	struct par_priv *pv = p->priv;
	struct par_phase *ph;
	size_t i, j, k;

	for (i = 0; i < p->nr_phases; i++)
		if (end - start > p->phases[i].end_ns - p->phases[i].start_ns)
			break;
	if (i >= PAR_MAX_PHASES)
		return;
	if (p->nr_phases < PAR_MAX_PHASES)
		p->nr_phases++;
	memmove(&p->phases[i + 1], &p->phases[i], (p->nr_phases - 1 - i) * sizeof(p->phases[0]));
	ph = &p->phases[i];
	memset(ph, 0, sizeof(*ph));
	ph->start_ns = start;
	ph->end_ns = end;
	ph->cpu_ns = pv->phase_cpu_ns;
	ph->parallel_ns = pv->phase_parallel_ns;
	/* The processes with most CPU time in it, by selection. */
	for (k = 0; k < PAR_PHASE_PROCS; k++) {
		struct par_phase_proc *best = NULL;

		for (j = 0; j < pv->nr_phase_procs; j++)
			if (pv->phase_procs[j].on_cpu_ns && (!best || pv->phase_procs[j].on_cpu_ns > best->on_cpu_ns))
				best = &pv->phase_procs[j];
		if (!best)
			break;
		ph->procs[ph->nr_procs++] = *best;
		best->on_cpu_ns = 0;
	}
}

static void phase_charge(struct par_priv *pv, __u32 tgid, __u64 ns)
{
	struct par_phase_proc *least = NULL;
	size_t i;

	for (i = 0; i < pv->nr_phase_procs; i++) {
		if (pv->phase_procs[i].tgid == tgid) {
			pv->phase_procs[i].on_cpu_ns += ns;
			return;
		}
		if (!least || pv->phase_procs[i].on_cpu_ns < least->on_cpu_ns)
			least = &pv->phase_procs[i];
	}
	if (pv->nr_phase_procs < PHASE_TRACKED)
		least = &pv->phase_procs[pv->nr_phase_procs++];
	else if (least->on_cpu_ns >= ns)
		return; /* a serial phase sees few processes; this one hardly ran */
	*least = (struct par_phase_proc){ .tgid = tgid, .on_cpu_ns = ns };
}

/* The open phase ends where its non-serial stretch began (or at end_ns). */
static void phase_close(struct parallelism *p)
{
	struct par_priv *pv = p->priv;

	phase_keep(p, pv->phase_start, pv->nonserial_since ? pv->nonserial_since : p->end_ns);
	pv->in_phase = false;
	pv->nonserial_since = 0;
	pv->bridge_parallel_ns = 0;
}

/* The state held unchanged over [a, b): add it to every figure. */
static void account(struct parallelism *p, __u64 a, __u64 b)
{
	struct par_priv *pv = p->priv;
	__u64 d = b - a;
	int running = pv->count[PAR_RUN], runnable = pv->count[PAR_WAIT];
	int idle = pv->count[PAR_IDLE], other = pv->count[PAR_OTHER];
	size_t rbin, wbin;
	bool serial;

	if (!d)
		return;
	running = running < 0 ? 0 : running;
	runnable = runnable < 0 ? 0 : runnable;
	rbin = (size_t)running > p->nr_cpus ? p->nr_cpus : (size_t)running;
	wbin = (size_t)runnable >= p->nr_runnable ? p->nr_runnable - 1 : (size_t)runnable;
	p->running_ns[rbin] += d;
	if (idle > 0) {
		p->running_idle_ns[rbin] += d;
		p->running_idle_cpu_ns[rbin] += (__u64)idle * d;
	}
	p->runnable_ns[wbin] += d;
	p->run_thread_ns += (__u64)running * d;
	p->wait_thread_ns += (__u64)runnable * d;
	if (runnable > 0 && other > 0)
		p->noisy_ns += d;
	if ((size_t)(running + runnable) >= p->nr_cpus)
		p->ready_full_ns += d;
	if ((__u32)running > p->peak_running)
		p->peak_running = running;
	if ((__u32)runnable > p->peak_runnable)
		p->peak_runnable = runnable;

	/* One process at most made progress on one thread at most, and the
	 * build left a CPU to idle or to others: a busy neighbour must not hide
	 * a serial step.  (Not running < nr_cpus: an offline CPU is neither
	 * idle nor other.) */
	serial = pv->nr_running <= 1 && running <= 1 && idle + other > 0;
	if (serial) {
		/* A non-serial stretch ends: bridged, unless the phase would then
		 * hold more parallel time than it tolerates. */
		if (pv->in_phase && pv->nonserial_since &&
		    pv->phase_parallel_ns + pv->bridge_parallel_ns > par__phase_tolerance_ns(a - pv->phase_start))
			phase_close(p);
		if (!pv->in_phase) {
			pv->in_phase = true;
			pv->phase_start = a;
			pv->nr_phase_procs = 0;
			pv->phase_parallel_ns = pv->phase_cpu_ns = 0;
		}
		pv->phase_parallel_ns += pv->bridge_parallel_ns;
		pv->bridge_parallel_ns = 0;
		pv->nonserial_since = 0;
		pv->phase_cpu_ns += (__u64)running * d;
		if (pv->nr_running == 1 && pv->running[0].run > 0)
			phase_charge(pv, pv->running[0].tgid, (__u64)pv->running[0].run * d);
		return;
	}
	if (!pv->in_phase)
		return;
	if (!pv->nonserial_since)
		pv->nonserial_since = a;
	if (running >= 2)
		pv->bridge_parallel_ns += d;
	if (b - pv->nonserial_since >= PAR_SERIAL_BRIDGE_NS)
		phase_close(p);
}

/* Sweeps the sorted ends[0, n) whose time is before limit; returns how many. */
static int sweep_sorted(struct parallelism *p, __u64 limit, size_t *done)
{
	struct par_priv *pv = p->priv;
	size_t i = 0;
	int err;

	while (i < pv->nr_ends && pv->ends[i].ts < limit) {
		__u64 ts = pv->ends[i].ts;

		account(p, pv->swept, ts);
		pv->swept = ts;
		/* Every change at one instant first, then the state counts. */
		for (; i < pv->nr_ends && pv->ends[i].ts == ts; i++) {
			pv->count[pv->ends[i].kind] += pv->ends[i].delta;
			if (pv->ends[i].kind == PAR_RUN || pv->ends[i].kind == PAR_WAIT) {
				err = running_add(pv, pv->ends[i].tgid, pv->ends[i].kind == PAR_WAIT, pv->ends[i].delta);
				if (err)
					return err;
			}
		}
	}
	*done = i;
	return 0;
}

int par__sweep(struct parallelism *p, __u64 watermark)
{
	struct par_priv *pv = p->priv;
	size_t done;
	int err;

	if (pv->finished)
		return -EINVAL;
	if (!pv->nr_ends)
		return 0;
	err = order_ends(pv) ?: sweep_sorted(p, watermark, &done);
	if (err)
		return err;
	memmove(pv->ends, pv->ends + done, (pv->nr_ends - done) * sizeof(*pv->ends));
	pv->nr_ends -= done;
	pv->nr_sorted = pv->nr_ends;
	/* A CPU that stays idle holds the watermark back: sweep less often. */
	if (pv->nr_ends * 2 > pv->sweep_at)
		pv->sweep_at *= 2;
	return 0;
}

int par__finish(struct parallelism *p, __u64 end_ns)
{
	struct par_priv *pv = p->priv;
	size_t done;
	int err;

	if (pv->finished)
		return -EINVAL;
	p->end_ns = end_ns > p->start_ns ? end_ns : p->start_ns;
	err = pv->nr_ends ? order_ends(pv) : 0; /* ends is NULL until the first */
	err = err ?: sweep_sorted(p, p->end_ns, &done);
	if (err)
		return err;
	if (p->end_ns > pv->swept)
		account(p, pv->swept, p->end_ns);
	pv->swept = p->end_ns;
	if (pv->in_phase)
		phase_close(p);
	pv->finished = true;
	free(pv->ends);
	free(pv->scratch);
	pv->ends = pv->scratch = NULL;
	pv->nr_ends = pv->ends_cap = pv->nr_sorted = pv->scratch_cap = 0;
	return 0;
}
