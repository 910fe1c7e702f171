// SPDX-License-Identifier: GPL-2.0
/* Lane packing: nesting, lane count against real concurrency, determinism. */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/lanes.h"
#include "lib/seeded_random.h"

static void span(struct proc_instance *procs, size_t i, long parent, __u64 start, __u64 end)
{
	memset(&procs[i], 0, sizeof(procs[i]));
	procs[i].id = i;
	procs[i].parent = parent;
	procs[i].pid = 100 + i;
	procs[i].start_ns = start;
	procs[i].end_ns = end;
}

/* The slices the exporter draws for p: its span, and one per image if >= 2. */
static size_t drawn_slices(const struct proc_instance *p, __u64 (*out)[2])
{
	size_t n = 0, i;

	out[n][0] = p->start_ns;
	out[n++][1] = p->end_ns;
	if (p->nr_execs >= 2)
		for (i = 0; i < p->nr_execs; i++) {
			out[n][0] = p->execs[i].start_ns;
			out[n++][1] = p->execs[i].end_ns;
		}
	return n;
}

/* Every pair of slices on one lane either nests or does not overlap. */
static void assert_lanes_nest(const struct proc_instance *procs, size_t nr)
{
	__u64 a[9][2], b[9][2];
	size_t i, j, x, y, na, nb;

	for (i = 0; i < nr; i++) {
		na = drawn_slices(&procs[i], a);
		for (j = i; j < nr; j++) {
			if (procs[i].lane != procs[j].lane)
				continue;
			nb = drawn_slices(&procs[j], b);
			for (x = 0; x < na; x++)
				for (y = 0; y < nb; y++) {
					if (i == j && x == y)
						continue;
					__u64 s1 = a[x][0], e1 = a[x][1], s2 = b[y][0], e2 = b[y][1];
					bool disjoint = e1 <= s2 || e2 <= s1;
					bool nested = (s1 <= s2 && e2 <= e1) || (s2 <= s1 && e1 <= e2);

					cr_assert(disjoint || nested, "lane %u: [%llu,%llu) and [%llu,%llu) overlap",
						  procs[i].lane, (unsigned long long)s1, (unsigned long long)e1,
						  (unsigned long long)s2, (unsigned long long)e2);
				}
		}
	}
}

static size_t peak_concurrency(const struct proc_instance *procs, size_t nr)
{
	size_t i, j, peak = 0, live;

	for (i = 0; i < nr; i++) {
		live = 0;
		for (j = 0; j < nr; j++)
			live += procs[j].start_ns <= procs[i].start_ns && procs[i].start_ns < procs[j].end_ns;
		if (live > peak)
			peak = live;
	}
	return peak;
}

Test(lanes, child_stacks_under_its_parent)
{
	struct proc_instance p[3];

	span(p, 0, -1, 0, 100);
	span(p, 1, 0, 10, 90);
	span(p, 2, 1, 20, 80);
	cr_assert(eq(sz, lanes__assign(p, 3), 1));
	cr_assert(eq(u32, p[2].lane, 0));
}

/*
 * make -j2: make runs the whole time, two recipe shells at a time, each
 * with a compiler under it.  Two lanes, like the two jobs.
 */
Test(lanes, make_j2_uses_two_lanes)
{
	struct proc_instance p[9];

	span(p, 0, -1, 0, 1000);  /* make */
	span(p, 1, 0, 10, 500);	  /* sh 1 */
	span(p, 2, 1, 11, 499);	  /* cc 1 */
	span(p, 3, 0, 20, 600);	  /* sh 2 */
	span(p, 4, 3, 21, 599);	  /* cc 2 */
	span(p, 5, 0, 510, 900);  /* sh 3: sh 1 has ended */
	span(p, 6, 5, 511, 899);  /* cc 3 */
	span(p, 7, 0, 610, 950);  /* sh 4: sh 2 has ended */
	span(p, 8, 7, 611, 949);  /* cc 4 */
	cr_assert(eq(sz, lanes__assign(p, 9), 2));
	cr_assert(eq(u32, p[1].lane, 0));
	cr_assert(eq(u32, p[3].lane, 1));
	cr_assert(eq(u32, p[4].lane, 1)); /* under its sh, in sh's lane */
	cr_assert(eq(u32, p[5].lane, 0));
	cr_assert(eq(u32, p[7].lane, 1)); /* lane 1 is free again */
	assert_lanes_nest(p, 9);
}

Test(lanes, child_outliving_its_parent_takes_another_lane)
{
	struct proc_instance p[2];

	span(p, 0, -1, 0, 100);
	span(p, 1, 0, 50, 150); /* a daemon */
	cr_assert(eq(sz, lanes__assign(p, 2), 2));
	cr_assert(eq(u32, p[1].lane, 1));
}

Test(lanes, child_straddling_an_exec_takes_another_lane)
{
	struct proc_instance p[3];
	struct exec_image images[2] = {
		{ .start_ns = 5, .end_ns = 50 },
		{ .start_ns = 50, .end_ns = 100 },
	};

	span(p, 0, -1, 0, 100);
	p[0].execs = images;
	p[0].nr_execs = 2;
	span(p, 1, 0, 10, 60); /* crosses the image boundary at 50 */
	span(p, 2, 0, 60, 70); /* fits inside the second image */
	lanes__assign(p, 3);
	cr_assert(ne(u32, p[1].lane, p[0].lane));
	cr_assert(eq(u32, p[2].lane, p[0].lane));
	assert_lanes_nest(p, 3);
}

Test(lanes, a_lane_is_free_once_its_spans_end)
{
	struct proc_instance p[3];

	span(p, 0, -1, 0, 10);
	span(p, 1, -1, 10, 20); /* touches, does not overlap */
	span(p, 2, -1, 15, 30);
	cr_assert(eq(sz, lanes__assign(p, 3), 2));
	cr_assert(eq(u32, p[1].lane, 0));
	cr_assert(eq(u32, p[2].lane, 1));
}

/* Random trees: children within or beyond their parent, some exec'ing twice. */
static size_t random_tree(struct proc_instance *p, struct exec_image (*images)[2], size_t nr, __u64 seed)
{
	__u64 rnd = seed;
	size_t i;

	span(p, 0, -1, 0, 1000000);
	for (i = 1; i < nr; i++) {
		long parent = seeded_random(&rnd) % i;
		__u64 start = p[i - 1].start_ns + seeded_random(&rnd) % 3000;
		__u64 len = 1 + seeded_random(&rnd) % 20000;

		/* Parents must be alive at the fork; pick the latest live one. */
		while (parent > 0 && p[parent].end_ns <= start)
			parent--;
		if (start < p[parent].start_ns)
			start = p[parent].start_ns;
		span(p, i, parent, start, start + len);
		if (seeded_random(&rnd) % 4 == 0 && len > 10) {
			images[i][0] = (struct exec_image){ .start_ns = start + 1, .end_ns = start + len / 2 };
			images[i][1] = (struct exec_image){ .start_ns = start + len / 2, .end_ns = start + len };
			p[i].execs = images[i];
			p[i].nr_execs = 2;
		}
	}
	return nr;
}

Test(lanes, random_trees_nest_are_deterministic_and_bounded_by_concurrency)
{
	enum { N = 300 };
	static struct proc_instance a[N], b[N];
	static struct exec_image images_a[N][2], images_b[N][2];
	__u64 seed;

	for (seed = 1; seed <= 20; seed++) {
		size_t lanes_a, lanes_b, i;

		random_tree(a, images_a, N, seed);
		random_tree(b, images_b, N, seed);
		lanes_a = lanes__assign(a, N);
		lanes_b = lanes__assign(b, N);
		cr_assert(eq(sz, lanes_a, lanes_b));
		for (i = 0; i < N; i++)
			cr_assert(eq(u32, a[i].lane, b[i].lane));
		assert_lanes_nest(a, N);
		cr_assert(le(sz, lanes_a, peak_concurrency(a, N)), "seed %llu: %zu lanes for peak %zu",
			  (unsigned long long)seed, lanes_a, peak_concurrency(a, N));
	}
}
