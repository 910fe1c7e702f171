// SPDX-License-Identifier: GPL-2.0
/* The binary search (util/sorted_search.h) and the count built on it (util/sorted_count.h). */
#include <stddef.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/sorted_count.h"
#include "util/sorted_search.h"
#include "lib/seeded_random.h"

struct ints_key {
	const int *v;
	int sought;
	size_t *calls; /* how many elements the search looked at, or NULL */
};

static bool int_below(const void *key, size_t i)
{
	const struct ints_key *k = key;

	if (k->calls)
		(*k->calls)++;
	return k->v[i] < k->sought;
}

static bool int_at_most(const void *key, size_t i)
{
	const struct ints_key *k = key;

	return k->v[i] <= k->sought;
}

static size_t first_not_below(const int *v, size_t n, int sought)
{
	struct ints_key key = { v, sought, NULL };

	return sorted_first_not_before(0, n, int_below, &key);
}

static size_t first_above(const int *v, size_t n, int sought)
{
	struct ints_key key = { v, sought, NULL };

	return sorted_first_not_before(0, n, int_at_most, &key);
}

static bool never_called(const void *key, size_t i)
{
	(void)key;
	cr_fail("an empty range was looked into, at %zu", i);
	return false;
}

Test(sorted_search, an_empty_range_is_its_own_end)
{
	cr_assert(eq(sz, sorted_first_not_before(0, 0, never_called, NULL), 0));
	cr_assert(eq(sz, sorted_first_not_before(7, 7, never_called, NULL), 7));
}

Test(sorted_search, one_element_before_or_not)
{
	static const int v[] = { 5 };

	cr_assert(eq(sz, first_not_below(v, 1, 4), 0));
	cr_assert(eq(sz, first_not_below(v, 1, 5), 0));
	cr_assert(eq(sz, first_not_below(v, 1, 6), 1));
	cr_assert(eq(sz, first_above(v, 1, 5), 1));
}

Test(sorted_search, all_equal_elements_are_all_found_or_all_passed)
{
	static const int v[] = { 3, 3, 3, 3, 3, 3 };
	size_t n = sizeof(v) / sizeof(v[0]);

	cr_assert(eq(sz, first_not_below(v, n, 3), 0));
	cr_assert(eq(sz, first_above(v, n, 3), n));
	cr_assert(eq(sz, first_not_below(v, n, 2), 0));
	cr_assert(eq(sz, first_above(v, n, 4), n));
}

Test(sorted_search, the_first_and_the_last_element)
{
	static const int v[] = { 1, 4, 4, 9, 12 };
	size_t n = sizeof(v) / sizeof(v[0]);

	cr_assert(eq(sz, first_not_below(v, n, 1), 0));
	cr_assert(eq(sz, first_not_below(v, n, 12), n - 1));
	cr_assert(eq(sz, first_above(v, n, 9), n - 1));
	cr_assert(eq(sz, first_above(v, n, 12), n));
	cr_assert(eq(sz, first_not_below(v, n, 13), n));
	cr_assert(eq(sz, first_not_below(v, n, 0), 0));
	/* Between equal runs: the run's first, and one past its last. */
	cr_assert(eq(sz, first_not_below(v, n, 4), 1));
	cr_assert(eq(sz, first_above(v, n, 4), 3));
}

Test(sorted_search, a_part_of_the_array_is_searched_alone)
{
	static const int v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct ints_key key = { v, 3, NULL };

	/* [4, 7) holds 5, 6, 7: everything is at or after 3, the answer is the range's start, not 2. */
	cr_assert(eq(sz, sorted_first_not_before(4, 7, int_below, &key), 4));
	key.sought = 100;
	cr_assert(eq(sz, sorted_first_not_before(4, 7, int_below, &key), 7));
	key.sought = 6;
	cr_assert(eq(sz, sorted_first_not_before(4, 7, int_below, &key), 5));
}

/* Random sorted arrays with long runs: every answer is the linear scan's, in at most log2(n) + 1 looks. */
Test(sorted_search, answers_as_a_linear_scan_in_logarithmic_looks)
{
	enum { MAX_N = 300 };
	int v[MAX_N];
	__u64 seed = 35;
	size_t round, n, i, want, bound;

	for (round = 0; round < 200; round++) {
		n = seeded_random(&seed) % MAX_N;
		for (i = 0; i < n; i++)
			v[i] = (i ? v[i - 1] : -5) + (int)(seeded_random(&seed) % 3);
		for (int sought = -7; sought < (n ? v[n - 1] + 2 : 0); sought++) {
			size_t calls = 0;
			struct ints_key key = { v, sought, &calls };

			for (want = 0; want < n && v[want] < sought; want++)
				;
			cr_assert(eq(sz, sorted_first_not_before(0, n, int_below, &key), want), "n %zu, %d", n, sought);
			for (bound = 0; (size_t)1 << bound <= n; bound++)
				; /* n's bits: floor(log2(n)) + 1 */
			cr_assert(le(sz, calls, bound), "n %zu: %zu looks", n, calls);
		}
	}
}

Test(sorted_count, how_many_are_at_most_a_time)
{
	static const __u64 t[] = { 10, 20, 20, 20, 35 };
	static const __u64 same[] = { 7, 7, 7 };

	cr_assert(eq(sz, sorted_count_at_most(t, 0, 100), 0));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 9), 0));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 10), 1));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 19), 1));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 20), 4));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 34), 4));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, 35), 5));
	cr_assert(eq(sz, sorted_count_at_most(t, 5, ~0ull), 5));
	cr_assert(eq(sz, sorted_count_at_most(same, 3, 6), 0));
	cr_assert(eq(sz, sorted_count_at_most(same, 3, 7), 3));
}
