// SPDX-License-Identifier: GPL-2.0
/*
 * CPU lanes and parallelism counters from the scheduler records.
 *
 * Each CPU emits its own records with preemption off, so the records of one
 * CPU arrive in time order while different CPUs interleave arbitrarily.
 * Everything here is therefore per CPU and streaming: a lane's cursor says
 * how far its time is classified (build thread, other, idle), and the
 * classified stretches arrive contiguous, from the trace start on.  The
 * counters are integrals per bucket; addition does not care in which order
 * the CPUs deliver.
 *
 * FULL draws every stretch (one pending slice absorbs an exactly adjacent
 * one of the same thread).  SUMMARY cuts each lane into buckets of the
 * resolution and draws, per bucket, only the kind that held the CPU most:
 * with threads trading a CPU every few ms, a slice per switch would make an
 * hour-long trace too big to open, and folding short slices away would leave
 * a busy CPU looking empty.  A run of buckets with the same dominant kind is
 * one slice, so a compiler holding a CPU for seconds is one slice, whatever
 * the resolution.  The slice starts where that kind first ran in the run's
 * first bucket and ends where it last ran in the last one, never claiming
 * time before or after its own.  Everything else in the buckets is folded.
 *
 * The trace end is known only at sched_model__finish(), but the last
 * records of every CPU straddle it: a CPU's final idle period is reported
 * when the next task switches in, after the command has exited.  So each
 * lane holds its newest HOLD_BACK records unclassified, and finish() clips
 * them to the end exactly.  Only a CPU with more records than that past the
 * end is clipped approximately (lane_clip_overshoot()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "model/cpu_sched.h"
#include "model/parallelism.h"

#define NSEC_PER_MSEC 1000000ull
#define FULL_BUCKET_NS NSEC_PER_MSEC
/* Records held back per CPU: more than a CPU emits between the command's
 * exit and the final drain of the ring buffer. */
#define HOLD_BACK 256
/* Build threads a SUMMARY bucket tells apart; see bucket_share(). */
#define BUCKET_THREADS 8
/* Counter buckets kept at most (3 MiB): past it they double in width, so a
 * long recording costs coarser counters, not memory per bucket of its span. */
#define COUNTER_BUCKETS_MAX (1u << 16)
/* Pieces a gap's summed idle is spread over at most (see lane_gap()). */
#define GAP_PIECES_MAX 64

/* What a stretch of a CPU's time was: cpu_slice_kind, plus idle. */
enum interval_kind {
	IV_BUILD = CPU_SLICE_BUILD,
	IV_OTHER = CPU_SLICE_OTHER,
	IV_MANY = CPU_SLICE_MANY, /* only ever drawn: a SUMMARY bucket's build threads together */
	IV_IDLE,
};

enum counter {
	CNT_RUNNING,
	CNT_RUNNABLE,
	CNT_IDLE,
	NR_COUNTERS,
};

/* A record as it waits in a lane's hold-back ring. */
struct held_record {
	__u64 start_ns, end_ns;		/* on CPU or idle; already clamped to the lane's order */
	__u64 wait_start, wait_end;	/* runnable before it (build only) */
	__u64 short_idle_ns;		/* idle summed by the kernel in the gap before it */
	__u32 kind;			/* IV_BUILD or IV_IDLE */
	__u32 tid, tgid;
	__u32 __pad;
};

struct interval {
	__u64 start_ns, end_ns;
	__u32 kind; /* enum interval_kind */
	__u32 tid, tgid;
};

/*
 * The slice being extended, not yet drawn: FULL's last interval, or
 * SUMMARY's open run of buckets.  An idle one is never drawn.
 */
struct pending_slice {
	__u64 start_ns, end_ns;
	__u32 kind; /* enum interval_kind */
	__u32 tid, tgid;
	__u32 nr;   /* intervals merged into it */
};

/* One kind's share of a SUMMARY bucket. */
struct kind_share {
	__u64 ns;		 /* its time in the bucket */
	__u64 first_ns, last_ns; /* where it first started and last stopped there */
	__u32 kind;		 /* enum interval_kind */
	__u32 tid, tgid;
	__u32 starts; /* its intervals that began in the bucket */
	bool cont;    /* its first piece continues an interval from the bucket before */
};

struct bucket {
	__u64 start_ns, end_ns; /* nominal: the last one is cut at the trace end */
	__u64 ns;		/* time classified into it so far */
	__u64 busy_ns;		/* of which build or other */
	struct kind_share other, idle;
	struct kind_share threads[BUCKET_THREADS];
	size_t nr_threads;
	struct kind_share spill; /* threads evicted from threads[]: folded, never drawn */
	struct kind_share *tail; /* the share of the newest piece */
};

struct lane_state {
	__u64 cursor;	  /* the lane's time before it is classified */
	__u64 queued_end; /* end of its newest record: where the next may start */
	struct pending_slice pending;
	bool has_pending;
	struct bucket bucket; /* SUMMARY: the one the cursor is in */
	/* SUMMARY: the interval crossing into the current bucket is counted
	 * in lane->folded already, folded in a bucket before. */
	bool tail_counted;
	size_t slices_cap;
	struct held_record *held; /* ring; contiguous from 0 until first full */
	size_t held_head, held_len, held_cap;
	/* An offline CPU (sched_model__set_absent): it sends no record, so
	 * its lane is filled as outside work for drawing, but the parallelism
	 * figures must not count it as a CPU the build could have had, nor
	 * wait for it before sweeping. */
	bool absent;
};

/*
 * One counter bucket's integrals.  An interval covering whole buckets adds
 * to its first and last only, +1/-1 in whole[] (a difference array), so its
 * cost does not grow with its length; counters_settle() folds whole[] in.
 */
struct counter_bucket {
	__u64 ns[NR_COUNTERS];
	__s64 whole[NR_COUNTERS]; /* intervals covering it whole, minus the bucket before's */
};

struct sched_priv {
	struct lane_state *lanes;
	struct counter_bucket *buckets; /* from start_ns, s->bucket_ns wide */
	size_t nr_buckets, buckets_cap;
	size_t samples_cap;
	bool finished;
};

static __u64 min_u64(__u64 a, __u64 b)
{
	return a < b ? a : b;
}

static __u64 max_u64(__u64 a, __u64 b)
{
	return a > b ? a : b;
}

/* a + b, held at UINT64_MAX: a bucket edge past it is never reached. */
static __u64 add_sat(__u64 a, __u64 b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

void sched_model__free(struct sched_model *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_cpus; i++) {
		free(s->cpus[i].slices);
		if (s->priv && s->priv->lanes)
			free(s->priv->lanes[i].held);
	}
	free(s->cpus);
	if (s->priv) {
		free(s->priv->lanes);
		free(s->priv->buckets);
	}
	free(s->priv);
	free(s->samples);
	par__free(s->par);
	free(s);
}

static void bucket_reset(struct bucket *b, __u64 start_ns, __u64 width)
{
	memset(b, 0, sizeof(*b));
	b->start_ns = start_ns;
	b->end_ns = add_sat(start_ns, width);
}

struct sched_model *sched_model__new(enum sched_level level, __u64 resolution_ns, size_t nr_cpus, __u64 start_ns)
{
	struct sched_model *s;
	size_t i;

	if (level != SCHED_OFF && level != SCHED_SUMMARY && level != SCHED_FULL) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->priv = calloc(1, sizeof(*s->priv));
	if (!s->priv)
		goto cleanup;
	s->level = level;
	s->start_ns = start_ns;
	s->end_ns = start_ns;
	if (level == SCHED_OFF)
		return s;

	if (level == SCHED_FULL) {
		s->resolution_ns = 0;
		s->bucket_ns = FULL_BUCKET_NS;
	} else {
		s->resolution_ns = resolution_ns ? resolution_ns : SCHED_DEFAULT_RESOLUTION_NS;
		s->bucket_ns = s->resolution_ns > UINT64_MAX / 10 ? UINT64_MAX : s->resolution_ns * 10;
	}
	s->par = par__new(nr_cpus, start_ns);
	if (!s->par)
		goto cleanup;
	if (!nr_cpus)
		return s;
	s->cpus = calloc(nr_cpus, sizeof(*s->cpus));
	s->priv->lanes = calloc(nr_cpus, sizeof(*s->priv->lanes));
	if (!s->cpus || !s->priv->lanes)
		goto cleanup;
	s->nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++) {
		s->cpus[i].cpu = i;
		s->priv->lanes[i].cursor = start_ns;
		s->priv->lanes[i].queued_end = start_ns;
		bucket_reset(&s->priv->lanes[i].bucket, start_ns, s->resolution_ns);
	}
	return s;

cleanup:
	sched_model__free(s);
	return NULL;
}

/* Folds the whole-bucket counts into the integrals. */
static void counters_settle(struct sched_model *s)
{
	struct sched_priv *pv = s->priv;
	__s64 covering[NR_COUNTERS] = {};
	size_t i, c;

	for (i = 0; i < pv->nr_buckets; i++) {
		for (c = 0; c < NR_COUNTERS; c++) {
			covering[c] += pv->buckets[i].whole[c];
			pv->buckets[i].ns[c] += (__u64)covering[c] * s->bucket_ns;
			pv->buckets[i].whole[c] = 0;
		}
	}
}

/* Doubles the counter buckets' width: bucket k becomes k / 2. */
static void counters_coarsen(struct sched_model *s)
{
	struct sched_priv *pv = s->priv;
	size_t i, c;

	counters_settle(s);
	for (i = 0; i < pv->nr_buckets; i++) {
		if (i % 2 == 0) {
			pv->buckets[i / 2] = pv->buckets[i];
			continue;
		}
		for (c = 0; c < NR_COUNTERS; c++)
			pv->buckets[i / 2].ns[c] += pv->buckets[i].ns[c];
	}
	pv->nr_buckets = (pv->nr_buckets + 1) / 2;
	s->bucket_ns *= 2;
}

/* Adds [from, to) to one counter, split exactly across the buckets it spans. */
static int counter_add(struct sched_model *s, enum counter c, __u64 from, __u64 to)
{
	struct sched_priv *pv = s->priv;
	size_t idx, last;

	if (from >= to)
		return 0;
	/* The span is at most a week, so the width never nears UINT64_MAX. */
	while ((to - 1 - s->start_ns) / s->bucket_ns >= COUNTER_BUCKETS_MAX && s->bucket_ns <= UINT64_MAX / 2)
		counters_coarsen(s);
	idx = (from - s->start_ns) / s->bucket_ns;
	last = (to - 1 - s->start_ns) / s->bucket_ns;
	if (last >= pv->nr_buckets) {
		if (last == SIZE_MAX ||
		    array_grow((void **)&pv->buckets, &pv->buckets_cap, last + 1, sizeof(*pv->buckets)))
			return -ENOMEM;
		memset(pv->buckets + pv->nr_buckets, 0, (last + 1 - pv->nr_buckets) * sizeof(*pv->buckets));
		pv->nr_buckets = last + 1;
	}
	if (idx == last) {
		pv->buckets[idx].ns[c] += to - from;
		return 0;
	}
	/* The edges lie before `to`, so they do not overflow. */
	pv->buckets[idx].ns[c] += s->start_ns + (idx + 1) * s->bucket_ns - from;
	pv->buckets[last].ns[c] += to - (s->start_ns + last * s->bucket_ns);
	if (last > idx + 1) {
		pv->buckets[idx + 1].whole[c]++;
		pv->buckets[last].whole[c]--;
	}
	return 0;
}

static bool same_owner(const struct pending_slice *p, __u32 kind, __u32 tid, __u32 tgid)
{
	return p->kind == kind && (kind != IV_BUILD || (p->tid == tid && p->tgid == tgid));
}

/* Draws the pending slice, unless it is idle. */
static int lane_flush(struct cpu_lane *lane, struct lane_state *ls)
{
	struct pending_slice *p = &ls->pending;
	struct cpu_slice *slice;

	if (!ls->has_pending)
		return 0;
	ls->has_pending = false;
	if (p->kind == IV_IDLE)
		return 0;
	if (array_grow((void **)&lane->slices, &ls->slices_cap, lane->nr_slices + 1, sizeof(*lane->slices)))
		return -ENOMEM;
	slice = &lane->slices[lane->nr_slices++];
	slice->start_ns = p->start_ns;
	slice->end_ns = p->end_ns;
	slice->kind = p->kind;
	slice->tid = p->tid;
	slice->tgid = p->tgid;
	slice->merged = p->nr;
	return 0;
}

/* Ends the pending slice and opens another; nr counts the intervals in it. */
static int lane_open(struct cpu_lane *lane, struct lane_state *ls, __u64 start_ns, __u64 end_ns, __u32 kind,
		     __u32 tid, __u32 tgid, __u32 nr)
{
	int err = lane_flush(lane, ls);

	if (err)
		return err;
	ls->pending = (struct pending_slice){
		.start_ns = start_ns, .end_ns = end_ns, .kind = kind, .tid = tid, .tgid = tgid, .nr = nr,
	};
	ls->has_pending = true;
	return 0;
}

/* FULL: every stretch drawn; the same thread back without a gap is one slice. */
static int full_interval(struct cpu_lane *lane, struct lane_state *ls, const struct interval *iv)
{
	struct pending_slice *p = &ls->pending;

	/* Stretches arrive contiguous, so the pending one ends where iv starts. */
	if (ls->has_pending && same_owner(p, iv->kind, iv->tid, iv->tgid)) {
		p->end_ns = iv->end_ns;
		p->nr++;
		return 0;
	}
	return lane_open(lane, ls, iv->start_ns, iv->end_ns, iv->kind, iv->tid, iv->tgid, 1);
}

/*
 * The share of a bucket that a piece of iv goes to.  A bucket seldom sees
 * more than a few build threads, so their shares are a fixed table.  When a
 * new thread finds it full, the thread with the least time so far (of
 * equals, the one that came latest) moves to the spill share and the
 * newcomer takes its place: the running thread is always in the table, and
 * the thread that held the CPU most keeps its place unless more than
 * BUCKET_THREADS others outran it at some point of the bucket.  The spill is
 * folded, never drawn; if it would have held the most time, the best thread
 * in the table is drawn instead.  An evicted thread that comes back starts a
 * new share, so only then can its time be split and the dominance be off.
 */
static struct kind_share *bucket_share(struct bucket *b, const struct interval *iv)
{
	struct kind_share *sh, *victim;
	size_t i;

	if (iv->kind == IV_OTHER)
		return &b->other;
	if (iv->kind == IV_IDLE)
		return &b->idle;
	for (i = 0; i < b->nr_threads; i++) {
		sh = &b->threads[i];
		if (sh->tid == iv->tid && sh->tgid == iv->tgid)
			return sh;
	}
	if (b->nr_threads < BUCKET_THREADS) {
		sh = &b->threads[b->nr_threads++];
	} else {
		victim = &b->threads[0];
		for (i = 1; i < BUCKET_THREADS; i++) {
			sh = &b->threads[i];
			if (sh->ns < victim->ns || (sh->ns == victim->ns && sh->first_ns > victim->first_ns))
				victim = sh;
		}
		if (!b->spill.ns || victim->first_ns < b->spill.first_ns)
			b->spill.first_ns = victim->first_ns;
		if (victim->last_ns > b->spill.last_ns)
			b->spill.last_ns = victim->last_ns;
		b->spill.ns += victim->ns;
		b->spill.starts += victim->starts;
		b->spill.cont |= victim->cont;
		sh = victim;
	}
	*sh = (struct kind_share){ .kind = IV_BUILD, .tid = iv->tid, .tgid = iv->tgid };
	return sh;
}

/* Adds the piece [from, to) of iv to the current bucket; begins: it is iv's start. */
static void bucket_add(struct bucket *b, const struct interval *iv, __u64 from, __u64 to, bool begins)
{
	struct kind_share *sh = bucket_share(b, iv);

	if (!sh->ns) {
		sh->kind = iv->kind;
		sh->first_ns = from;
		sh->cont = !begins;
	}
	sh->ns += to - from;
	sh->last_ns = to;
	sh->starts += begins;
	b->ns += to - from;
	if (iv->kind != IV_IDLE)
		b->busy_ns += to - from;
	b->tail = sh;
}

/* The bucket's build threads, the spill included, as one share. */
static void bucket_many(const struct bucket *b, struct kind_share *many)
{
	const struct kind_share *sh;
	size_t i;

	*many = (struct kind_share){ .kind = IV_MANY };
	for (i = 0; i <= b->nr_threads; i++) {
		sh = i < b->nr_threads ? &b->threads[i] : &b->spill;
		if (!sh->ns)
			continue;
		if (!many->ns || sh->first_ns < many->first_ns) {
			many->first_ns = sh->first_ns;
			many->cont = sh->cont;
		}
		if (sh->last_ns > many->last_ns)
			many->last_ns = sh->last_ns;
		many->ns += sh->ns;
		many->starts += sh->starts;
	}
}

/*
 * What the bucket is drawn as (see struct sched_model): idle when it is at
 * least half idle; else the thread or outside work with most time (of
 * equals, the one that ran first; never the spill) when it holds half the
 * busy time; else the build's threads together (*many), or outside work.
 */
static const struct kind_share *bucket_drawn(const struct bucket *b, struct kind_share *many)
{
	const struct kind_share *best = NULL, *sh;
	size_t i;

	if (b->idle.ns >= b->busy_ns)
		return &b->idle;
	for (i = 0; i <= b->nr_threads; i++) {
		sh = i == 0 ? &b->other : &b->threads[i - 1];
		if (sh->ns && (!best || sh->ns > best->ns || (sh->ns == best->ns && sh->first_ns < best->first_ns)))
			best = sh;
	}
	if (best && best->ns * 2 >= b->busy_ns)
		return best;
	bucket_many(b, many);
	return many->ns >= b->other.ns ? many : &b->other;
}

/* Whether a share's time is drawn by the bucket's drawn share. */
static bool share_drawn(const struct kind_share *sh, const struct kind_share *drawn)
{
	if (drawn->kind == IV_IDLE)
		return false;
	return drawn->kind == IV_MANY ? sh->kind == IV_BUILD : sh == drawn;
}

/* Build or other time of a share that is not drawn: its intervals, each once. */
static void lane_fold(struct cpu_lane *lane, const struct lane_state *ls, const struct kind_share *sh)
{
	if (!sh->ns || sh->kind == IV_IDLE)
		return;
	lane->folded += sh->starts + (sh->cont && !ls->tail_counted);
}

/*
 * The current bucket is complete: its dominant kind extends the open run
 * or starts a new one; idle ends it.  Then the bucket after it is current.
 */
static int bucket_close(struct sched_model *s, struct cpu_lane *lane, struct lane_state *ls)
{
	struct bucket *b = &ls->bucket;
	struct kind_share many;
	const struct kind_share *dom = bucket_drawn(b, &many);
	struct pending_slice *run = &ls->pending;
	size_t i;
	int err = 0;

	for (i = 0; i < 3 + b->nr_threads; i++) {
		const struct kind_share *sh = i == 0 ? &b->other : i == 1 ? &b->idle : i == 2 ? &b->spill :
						  &b->threads[i - 3];

		if (!share_drawn(sh, dom))
			lane_fold(lane, ls, sh);
	}
	lane->folded_ns += b->busy_ns - (dom->kind == IV_IDLE ? 0 : dom->ns);
	/* A tail share with no start of its own is one interval filling the
	 * bucket: it is drawn, and whether it was counted stays as it was. */
	if (b->tail->starts)
		ls->tail_counted = b->tail->kind != IV_IDLE && !share_drawn(b->tail, dom);

	if (dom->kind == IV_IDLE) {
		err = lane_flush(lane, ls);
	} else if (ls->has_pending && same_owner(run, dom->kind, dom->tid, dom->tgid)) {
		run->end_ns = dom->last_ns;
		run->nr += dom->starts;
	} else {
		err = lane_open(lane, ls, dom->first_ns, dom->last_ns, dom->kind, dom->tid, dom->tgid,
				dom->starts + dom->cont);
	}
	bucket_reset(b, b->end_ns, s->resolution_ns);
	return err;
}

/* SUMMARY: iv, cut at the bucket edges it crosses. */
static int summary_interval(struct sched_model *s, struct cpu_lane *lane, struct lane_state *ls,
			    const struct interval *iv)
{
	struct bucket *b = &ls->bucket;
	__u64 from = iv->start_ns, to, skip;
	bool begins = true, filled = false, whole;
	int err;

	/* Stretches arrive contiguous from the trace start, which is a bucket
	 * edge, so each piece starts inside the current bucket.  A bucket is
	 * complete when the lane's time reaches its end. */
	while (from < iv->end_ns) {
		/* After one bucket that iv filled alone, the next ones it fills
		 * change nothing but the run's end: skipped, so a long interval
		 * costs what a short one does. */
		if (filled && iv->end_ns - from >= s->resolution_ns) {
			skip = (iv->end_ns - from) / s->resolution_ns * s->resolution_ns;
			from += skip;
			if (iv->kind != IV_IDLE)
				ls->pending.end_ns = from;
			bucket_reset(b, from, s->resolution_ns);
			filled = false;
			continue;
		}
		to = min_u64(iv->end_ns, b->end_ns);
		whole = !begins && !b->ns && to == b->end_ns;
		bucket_add(b, iv, from, to, begins);
		begins = false;
		from = to;
		if (to < b->end_ns)
			break;
		err = bucket_close(s, lane, ls);
		if (err)
			return err;
		filled = whole;
	}
	return 0;
}

/* One classified stretch of a lane, starting where the previous one ended. */
static int lane_interval(struct sched_model *s, struct cpu_lane *lane, struct lane_state *ls,
			 const struct interval *iv)
{
	__u64 len = iv->end_ns - iv->start_ns;
	int err = 0;

	switch (iv->kind) {
	case IV_BUILD:
		lane->build_ns += len;
		err = counter_add(s, CNT_RUNNING, iv->start_ns, iv->end_ns) ?:
		      par__interval(s->par, PAR_RUN, iv->tgid, iv->start_ns, iv->end_ns);
		break;
	case IV_IDLE:
		lane->idle_ns += len;
		err = counter_add(s, CNT_IDLE, iv->start_ns, iv->end_ns) ?:
		      par__interval(s->par, PAR_IDLE, 0, iv->start_ns, iv->end_ns);
		break;
	default:
		lane->other_ns += len;
		err = ls->absent ? 0 : par__interval(s->par, PAR_OTHER, 0, iv->start_ns, iv->end_ns);
		break;
	}
	if (err)
		return err;
	if (s->level == SCHED_FULL)
		return full_interval(lane, ls, iv);
	return summary_interval(s, lane, ls, iv);
}

/*
 * The lane's time in [from, to) before a record: neither the build nor a
 * streamed idle period, so outside work, except short_idle of it that the
 * kernel summed instead of streaming (periods below idle_min_ns).  Where in
 * the gap that idle lay is not known: it is spread evenly, piece by piece
 * at bucket edges, so the totals are exact and each bucket gets its share.
 * A gap of more than GAP_PIECES_MAX buckets is cut at every few bucket
 * edges instead, so one record costs at most that many pieces.
 */
static int lane_gap(struct sched_model *s, struct cpu_lane *lane, struct lane_state *ls, __u64 from, __u64 to,
		    __u64 short_idle)
{
	__u64 len = to - from, idle = min_u64(short_idle, len), idle_done = 0, a = from, b, edge, share, step = 0;
	struct interval iv = {};
	int err;

	if (idle && s->resolution_ns) {
		step = len / s->resolution_ns / GAP_PIECES_MAX + 1;
		step = step > UINT64_MAX / s->resolution_ns ? UINT64_MAX : step * s->resolution_ns;
	}
	while (a < to) {
		b = to;
		if (step) {
			edge = add_sat(s->start_ns, ((a - s->start_ns) / step + 1) * step);
			b = min_u64(edge, to);
		}
		/* The idle owed up to b: the pieces add up to idle exactly. */
		share = (__u64)((unsigned __int128)idle * (b - from) / len) - idle_done;
		idle_done += share;
		iv.start_ns = a;
		iv.end_ns = b - share;
		iv.kind = IV_OTHER;
		if (iv.end_ns > iv.start_ns) {
			err = lane_interval(s, lane, ls, &iv);
			if (err)
				return err;
		}
		iv.start_ns = b - share;
		iv.end_ns = b;
		iv.kind = IV_IDLE;
		if (share) {
			err = lane_interval(s, lane, ls, &iv);
			if (err)
				return err;
		}
		a = b;
	}
	return 0;
}

/* Classifies a held record, clipped to limit: the gap before it, then itself. */
static int lane_commit(struct sched_model *s, size_t cpu, const struct held_record *h, __u64 limit)
{
	struct lane_state *ls = &s->priv->lanes[cpu];
	struct cpu_lane *lane = &s->cpus[cpu];
	struct interval iv = {};
	__u64 end = min_u64(h->end_ns, limit), gap_end = min_u64(h->start_ns, limit), idle;
	int err;

	err = counter_add(s, CNT_RUNNABLE, h->wait_start, min_u64(h->wait_end, limit)) ?:
	      par__interval(s->par, PAR_WAIT, h->tgid, h->wait_start, min_u64(h->wait_end, limit));
	if (err)
		return err;
	if (gap_end > ls->cursor) {
		/* A gap cut at the limit keeps its share of the summed idle. */
		idle = h->short_idle_ns;
		if (gap_end < h->start_ns)
			idle = (__u64)((unsigned __int128)idle * (gap_end - ls->cursor) / (h->start_ns - ls->cursor));
		err = lane_gap(s, lane, ls, ls->cursor, gap_end, idle);
		if (err)
			return err;
		ls->cursor = gap_end;
	}
	if (h->start_ns >= end)
		return 0;
	iv.start_ns = h->start_ns;
	iv.end_ns = end;
	iv.kind = h->kind;
	iv.tid = h->tid;
	iv.tgid = h->tgid;
	ls->cursor = end;
	return lane_interval(s, lane, ls, &iv);
}

/* Every lane is classified up to here: no interval will start before it. */
static __u64 classified_until(const struct sched_model *s)
{
	__u64 until = UINT64_MAX;
	size_t i;

	for (i = 0; i < s->nr_cpus; i++)
		if (!s->priv->lanes[i].absent)
			until = min_u64(until, s->priv->lanes[i].cursor);
	return until;
}

static int lane_hold(struct sched_model *s, size_t cpu, const struct held_record *h)
{
	struct lane_state *ls = &s->priv->lanes[cpu];
	struct held_record *ring;
	size_t cap;
	int err;

	if (ls->held_len == HOLD_BACK) {
		err = lane_commit(s, cpu, &ls->held[ls->held_head], UINT64_MAX);
		if (err)
			return err;
		ls->held_head = (ls->held_head + 1) % ls->held_cap;
		ls->held_len--;
		if (par__wants_sweep(s->par)) {
			err = par__sweep(s->par, classified_until(s));
			if (err)
				return err;
		}
	} else if (ls->held_len == ls->held_cap) {
		/* Nothing has left the ring yet, so it is still contiguous. */
		cap = ls->held_cap ? ls->held_cap * 2 : 16;
		if (cap > HOLD_BACK)
			cap = HOLD_BACK;
		ring = realloc(ls->held, cap * sizeof(*ring));
		if (!ring)
			return -ENOMEM;
		ls->held = ring;
		ls->held_cap = cap;
	}
	ls->held[(ls->held_head + ls->held_len) % ls->held_cap] = *h;
	ls->held_len++;
	return 0;
}

void sched_model__set_absent(struct sched_model *s, size_t cpu)
{
	if (s->priv->lanes && cpu < s->nr_cpus)
		s->priv->lanes[cpu].absent = true;
}

int sched_model__add_event(struct sched_model *s, const void *rec, size_t len)
{
	struct bb_cpu_slice_event slice;
	struct bb_cpu_idle_event idle;
	struct bb_event_header hdr;
	struct held_record h = {};
	struct lane_state *ls;
	__u64 start;

	if (s->level == SCHED_OFF)
		return 0;
	if (s->priv->finished || len < sizeof(hdr))
		goto malformed;
	/* Copied out: a caller's buffer need not be aligned for the u64s. */
	memcpy(&hdr, rec, sizeof(hdr));
	switch (hdr.type) {
	case BB_EV_CPU_SLICE:
		if (len < sizeof(slice))
			goto malformed;
		memcpy(&slice, rec, sizeof(slice));
		start = slice.start_ns;
		h.kind = IV_BUILD;
		h.tid = hdr.pid;
		h.tgid = hdr.tgid;
		/* The thread's wait, independent of what the lane did meanwhile. */
		h.wait_end = start;
		h.wait_start = max_u64(start > slice.wait_ns ? start - slice.wait_ns : 0, s->start_ns);
		h.short_idle_ns = slice.short_idle_ns;
		break;
	case BB_EV_CPU_IDLE:
		if (len < sizeof(idle))
			goto malformed;
		memcpy(&idle, rec, sizeof(idle));
		start = idle.start_ns;
		h.kind = IV_IDLE;
		h.short_idle_ns = idle.short_idle_ns;
		break;
	default:
		return 0;
	}
	if (hdr.cpu >= s->nr_cpus || hdr.ts_ns < start)
		goto malformed;

	ls = &s->priv->lanes[hdr.cpu];
	h.start_ns = max_u64(start, s->start_ns);
	if (h.start_ns < ls->queued_end) {
		s->reordered++;
		h.start_ns = ls->queued_end;
	}
	h.end_ns = max_u64(hdr.ts_ns, h.start_ns);
	ls->queued_end = h.end_ns;
	s->records++;
	if (h.start_ns == h.end_ns && h.wait_start >= h.wait_end && !h.short_idle_ns)
		return 0;
	return lane_hold(s, hdr.cpu, &h);

malformed:
	s->malformed++;
	return -EINVAL;
}

/*
 * The lane was classified past the end: more than HOLD_BACK records of the
 * CPU came after it.  Drawn slices are cut exactly, but which kinds the time
 * past the end was is no longer known; it is taken from idle first, what a
 * CPU mostly does once the build is over, so the totals still add up.  At
 * SUMMARY the buckets around the end were decided and folded with that time
 * in them, so the folded time is only held within the totals.
 */
static void lane_clip_overshoot(struct cpu_lane *lane, struct lane_state *ls, __u64 end)
{
	__u64 *totals[] = { &lane->idle_ns, &lane->other_ns, &lane->build_ns };
	struct cpu_slice *last;
	__u64 over = ls->cursor - end, take;
	size_t i;

	for (i = 0; i < sizeof(totals) / sizeof(totals[0]) && over; i++) {
		take = min_u64(over, *totals[i]);
		*totals[i] -= take;
		over -= take;
	}
	lane->folded_ns = min_u64(lane->folded_ns, lane->build_ns + lane->other_ns);
	while (lane->nr_slices && lane->slices[lane->nr_slices - 1].start_ns >= end)
		lane->nr_slices--;
	last = lane->nr_slices ? &lane->slices[lane->nr_slices - 1] : NULL;
	if (last && last->end_ns > end)
		last->end_ns = end;
	ls->cursor = end;
}

static int lane_finish(struct sched_model *s, size_t cpu)
{
	struct lane_state *ls = &s->priv->lanes[cpu];
	struct cpu_lane *lane = &s->cpus[cpu];
	struct interval gap = { .kind = IV_OTHER };
	int err;

	for (; ls->held_len; ls->held_len--) {
		err = lane_commit(s, cpu, &ls->held[ls->held_head], s->end_ns);
		if (err)
			return err;
		ls->held_head = (ls->held_head + 1) % ls->held_cap;
	}
	free(ls->held);
	ls->held = NULL;
	ls->held_cap = 0;
	if (ls->cursor < s->end_ns) {
		gap.start_ns = ls->cursor;
		gap.end_ns = s->end_ns;
		ls->cursor = s->end_ns;
		err = lane_interval(s, lane, ls, &gap);
		if (err)
			return err;
	}
	/* The last bucket, cut at the end (or past it, see below). */
	if (s->level == SCHED_SUMMARY && ls->bucket.ns) {
		err = bucket_close(s, lane, ls);
		if (err)
			return err;
	}
	err = lane_flush(lane, ls);
	if (err)
		return err;
	if (ls->cursor > s->end_ns)
		lane_clip_overshoot(lane, ls, s->end_ns);
	return 0;
}

/* Bucket integrals to averages; equal neighbours become one sample. */
static int build_samples(struct sched_model *s)
{
	struct sched_priv *pv = s->priv;
	__u64 span = s->end_ns - s->start_ns, ts, width;
	size_t i, nr = span / s->bucket_ns + (span % s->bucket_ns != 0);
	struct counter_sample sample, *last;
	static const __u64 none[NR_COUNTERS];
	const __u64 *sum;

	counters_settle(s);
	/* Past the last bucket every sample is zero: one says so. */
	if (nr > pv->nr_buckets + 1)
		nr = pv->nr_buckets + 1;
	for (i = 0; i < nr; i++) {
		ts = s->start_ns + i * s->bucket_ns;
		width = min_u64(s->bucket_ns, s->end_ns - ts);
		sum = i < pv->nr_buckets ? pv->buckets[i].ns : none;
		sample.ts_ns = ts;
		sample.running = (double)sum[CNT_RUNNING] / width;
		sample.runnable = (double)sum[CNT_RUNNABLE] / width;
		sample.idle_cpus = (double)sum[CNT_IDLE] / width;
		last = s->nr_samples ? &s->samples[s->nr_samples - 1] : NULL;
		if (last && last->running == sample.running && last->runnable == sample.runnable &&
		    last->idle_cpus == sample.idle_cpus)
			continue;
		if (array_grow((void **)&s->samples, &pv->samples_cap, s->nr_samples + 1, sizeof(*s->samples)))
			return -ENOMEM;
		s->samples[s->nr_samples++] = sample;
	}
	return 0;
}

int sched_model__finish(struct sched_model *s, __u64 end_ns)
{
	size_t i;
	int err;

	if (s->priv->finished)
		return -EINVAL;
	s->priv->finished = true;
	s->end_ns = end_ns > s->start_ns ? end_ns : s->start_ns;
	if (s->level == SCHED_OFF)
		return 0;
	for (i = 0; i < s->nr_cpus; i++) {
		err = lane_finish(s, i);
		if (err)
			return err;
	}
	err = par__finish(s->par, s->end_ns);
	if (err)
		return err;
	return build_samples(s);
}
