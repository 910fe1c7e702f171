// SPDX-License-Identifier: GPL-2.0
/*
 * Slots held by step function (graph/slot_steps.h) against the definition
 * walked at each time (graph/job_slots.h), on random process trees: makes
 * with and without their own -j, shells, compilers, $(shell) calls that run
 * sub-makes, jobs that outlive their make, jobs of no length.  Every pool,
 * at every start and end and beside them.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <string.h>
#include "graph/job_slots.h"
#include "lib/seeded_random.h"
#include "lib/synth.h"
#include "model/shell_call.h"

#define TOP 100
#define MAX_PROCS 400

struct tree {
	struct model *m;
	__u64 random;
	__u32 next_pid;
};

static bool alive_at(const struct proc_instance *p, __u64 ts)
{
	return p->start_ns <= ts && p->end_ns > ts;
}

static size_t count_at_most(const __u64 *times, size_t n, __u64 ts)
{
	size_t k = 0;

	while (k < n && times[k] <= ts)
		k++;
	return k;
}

/* The definition, recursive as it was first written: the oracle. */
static size_t held_by(const struct job_slots *s, size_t p, __u64 ts)
{
	size_t lo = s->child_off[p], hi = s->child_off[p + 1], held, k = s->sub_off[p];

	held = count_at_most(s->starts + lo, hi - lo, ts) - count_at_most(s->ends + lo, hi - lo, ts);
	while (k < s->sub_off[p + 1]) {
		long via = s->via[s->subs[k]];
		size_t within = 0;

		for (; k < s->sub_off[p + 1] && s->via[s->subs[k]] == via; k++)
			if (alive_at(&s->m->procs[s->subs[k]], ts))
				within += held_by(s, s->subs[k], ts);
		if (alive_at(&s->m->procs[via], ts))
			held += within > 1 ? within - 1 : 0;
		else
			held += within;
	}
	return held;
}

static __u64 below(struct tree *t, __u64 n)
{
	return n ? seeded_random(&t->random) % n : 0;
}

static void exec(struct tree *t, __u64 ts, __u32 pid, __u32 parent, const char *file, const char *const argv[],
		 __u32 flags)
{
	char args[256];
	size_t len = 0;

	for (; *argv; argv++) {
		strcpy(args + len, *argv);
		len += strlen(*argv) + 1;
	}
	synth_exec_raw(t->m, ts, pid, parent, file, args, len, flags);
}

/* A process under parent during [start, end], and its children, to depth levels more. */
static void spawn(struct tree *t, __u32 parent, __u64 start, __u64 end, int depth)
{
	__u32 pid = t->next_pid++;
	/* Mostly makes and the shells that run them: chains of sub-makes. */
	static const unsigned kinds[] = { 0, 0, 0, 1, 2, 2, 2, 3, 4, 5 };
	unsigned kind = depth ? kinds[below(t, 10)] : 3 + below(t, 2);
	size_t children = kind <= 2 || kind == 5 ? below(t, 4) : 0, i;

	synth_fork(t->m, start, parent, pid, pid, false);
	if (kind == 0)
		exec(t, start + 1, pid, parent, "/usr/bin/make", (const char *[]){ "make", "-C", "d", NULL }, 0);
	else if (kind == 1)
		exec(t, start + 1, pid, parent, "/usr/bin/make", (const char *[]){ "make", "-j4", NULL }, 0);
	else if (kind == 2)
		exec(t, start + 1, pid, parent, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "make", NULL }, 0);
	else if (kind == 5)
		exec(t, start + 1, pid, parent, "/bin/sh", (const char *[]){ "/bin/sh", "-c", "make", NULL },
		     BB_EXEC_OUTPUT_CAPTURED);
	else
		exec(t, start + 1, pid, parent, "/usr/bin/gcc", (const char *[]){ "gcc", "-c", "a.c", NULL }, 0);
	for (i = 0; i < children && t->next_pid < TOP + MAX_PROCS - 8; i++) {
		__u64 from = start + 2 + below(t, end - start), to = from + below(t, end - start);

		/* Some end with their parent, some outlive it, some take no time. */
		to = below(t, 4) == 0 ? end : below(t, 8) == 0 ? to + end - start : to;
		spawn(t, pid, from, below(t, 16) ? to : from, depth - 1);
	}
	synth_exit(t->m, end, pid, pid, true, 0);
}

static void compare(__u64 seed)
{
	struct tree t = { .m = model__new(TOP, 0), .random = seed, .next_pid = TOP + 1 };
	struct job_slots s;
	size_t i, j, k;
	__u64 ts;

	cr_assert_not_null(t.m);
	synth_exec(t.m, 1, TOP, 1, "/usr/bin/make", (const char *[]){ "make", "-j3", NULL });
	for (i = below(&t, 6) + 1; i; i--)
		spawn(&t, TOP, 10 + below(&t, 1000), 1000 + below(&t, 1000), 6);
	synth_exit(t.m, 3000, TOP, TOP, true, 0);
	cr_assert(eq(int, model__finish(t.m, 4000), 0));
	cr_assert(eq(int, job_slots__init(&s, t.m, NULL, 0), 0));
	for (i = 0; i < t.m->nr_procs; i++) {
		size_t pool = s.pool[i], peak = 0;

		if (pool != i)
			continue;
		for (j = 0; j < t.m->nr_procs; j++)
			for (k = 0; k < 6; k++) {
				ts = (k < 3 ? t.m->procs[j].start_ns : t.m->procs[j].end_ns) + k % 3 - 1;
				cr_assert(eq(sz, job_slots__held(&s, pool, ts), held_by(&s, pool, ts)),
					  "seed %llu, pool %zu at %llu", (unsigned long long)seed, pool,
					  (unsigned long long)ts);
			}
		for (j = 0; j < t.m->nr_procs; j++)
			if (t.m->procs[j].parent >= 0 && s.pool[t.m->procs[j].parent] == pool && !shell_call__is(t.m, j))
				peak = held_by(&s, pool, t.m->procs[j].start_ns) > peak ?
					       held_by(&s, pool, t.m->procs[j].start_ns) :
					       peak;
		cr_assert(eq(sz, s.peak[pool], peak), "seed %llu, pool %zu", (unsigned long long)seed, pool);
	}
	job_slots__free(&s);
	model__free(t.m);
}

Test(slot_steps, random_trees_hold_what_the_definition_holds)
{
	for (__u64 seed = 1; seed <= 300; seed++)
		compare(seed);
}
