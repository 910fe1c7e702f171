// SPDX-License-Identifier: GPL-2.0
/*
 * The text check of the answers (tests/lib/answers_check.c) on reports
 * written by hand: the shapes the audit prints and the real-build suites
 * meet, each once as it agrees and once with a figure that does not.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/answers_check.h"

/*
 * A build confined by taskset to 1 of 2 CPUs: its quiet row is "with all the
 * CPUs", and the speed-up answer sets a step's "without it" against that row.
 */
#define PINNED_ROWS                                                                     \
	"buildbpf: what-if rows (predicted, what each assumes):\n"                       \
	"buildbpf:   -j2 on 1 CPU 6.97 s: as run (measured 6.97 s)\n"                    \
	"buildbpf:   -j2 on 2 CPUs 3.47 s: its own -j on a quiet machine\n"              \
	"buildbpf: critical path steps (2 of 2, path order):\n"                          \
	"buildbpf:   cc1 src/big.c 0.30 s, 9 %, without it 3.37 s\n"                     \
	"buildbpf:   ld libjson-c.so 0.10 s, 3 %, without it 3.44 s\n"

Test(answers_check, a_pinned_builds_speed_up_is_against_all_the_cpus)
{
	static const char report[] = "buildbpf: speed up? no single step stands out: cc1 src/big.c, without it 3.37 s "
				     "against 3.47 s with all the CPUs (-3 %)\n" PINNED_ROWS;
	char why[512] = "";

	cr_assert(bb_answers_agree(report, why, sizeof(why)), "%s", why);
}

Test(answers_check, a_pinned_builds_wrong_gain_is_refused)
{
	static const char report[] = "buildbpf: speed up? no single step stands out: cc1 src/big.c, without it 3.37 s "
				     "against 3.47 s with all the CPUs (-30 %)\n" PINNED_ROWS;
	char why[512] = "";

	cr_assert(not(bb_answers_agree(report, why, sizeof(why))));
	cr_assert(strstr(why, "the gain is not 3.37 s against 3.47 s") != NULL, "%s", why);
}

Test(answers_check, a_speed_up_against_no_row_is_refused)
{
	static const char report[] = "buildbpf: speed up? no single step stands out: cc1 src/big.c, without it 3.37 s "
				     "against 3.47 s somewhere else (-3 %)\n" PINNED_ROWS;
	char why[512] = "";

	cr_assert(not(bb_answers_agree(report, why, sizeof(why))));
	cr_assert(strstr(why, "no 'X s against Y") != NULL, "%s", why);
}

/* gen200k's -v, without a what-if: 15.38 of 16 CPUs ran the build, one idled a quarter of the wall. */
#define ONE_IDLE_OF_16                                                                                       \
	"buildbpf:   lost parallelism: 88.01 s (25 % of wall) with fewer than 16 running while a CPU idled; "    \
	"idle then 127.30 s of CPU time (2 % of 16 CPUs over the wall)\n"

Test(answers_check, the_orders_share_is_of_the_cpus_it_left_idle)
{
	static const char agrees[] = "buildbpf: more CPUs or jobs? neither is clearly the limit: jobs waited for a CPU 9 % "
				     "of the time,\nbuildbpf:   CPUs idled with fewer jobs running than allowed 2 % of their "
				     "time\n" ONE_IDLE_OF_16;
	static const char by_wall[] = "buildbpf: more CPUs or jobs? no: a CPU idled 25 % of the time with fewer jobs running "
				      "than -j\nbuildbpf:   allowed: the build's own order held it back\n" ONE_IDLE_OF_16;
	static const char too_few[] = "buildbpf: more CPUs or jobs? no: CPUs idled 2 % of their time with fewer jobs running "
				      "than -j\nbuildbpf:   allowed: the build's own order held it back\n" ONE_IDLE_OF_16;
	char why[512] = "";

	cr_assert(bb_answers_agree(agrees, why, sizeof(why)), "%s", why);
	cr_assert(not(bb_answers_agree(by_wall, why, sizeof(why))));
	cr_assert(strstr(why, "gives no share of the CPUs") != NULL, "%s", why);
	cr_assert(not(bb_answers_agree(too_few, why, sizeof(why))));
	cr_assert(strstr(why, "the CPUs idled 2 % of their time, the verdict says the order held it back") != NULL, "%s",
		  why);
}
