// SPDX-License-Identifier: GPL-2.0
/* The kernel's CPU list format. */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/cpu_list.h"

Test(cpu_list, ranges_and_singles)
{
	bool set[8];

	cr_assert(eq(int, cpu_list__parse("0-1,4,6-7\n", set, 8), 0));
	cr_assert(set[0] && set[1] && !set[2] && !set[3] && set[4] && !set[5] && set[6] && set[7]);
	cr_assert(eq(int, cpu_list__parse("0\n", set, 8), 0));
	cr_assert(set[0] && !set[1]);
	/* CPUs beyond the possible ones are ignored. */
	cr_assert(eq(int, cpu_list__parse("0-63", set, 2), 0));
	cr_assert(set[0] && set[1]);
}

Test(cpu_list, malformed_is_refused)
{
	bool set[4];

	cr_assert(eq(int, cpu_list__parse("x", set, 4), -EINVAL));
	cr_assert(eq(int, cpu_list__parse("3-1", set, 4), -EINVAL));
	cr_assert(eq(int, cpu_list__parse("1-", set, 4), -EINVAL));
	cr_assert(eq(int, cpu_list__parse("1;2", set, 4), -EINVAL));
}

Test(cpu_list, this_machine_has_cpu0_online)
{
	char text[4096];
	bool set[1];

	cr_assert(eq(int, cpu_list__read_online(text, sizeof(text)), 0));
	cr_assert(eq(int, cpu_list__parse(text, set, 1), 0), "%s", text);
	cr_assert(set[0]);
}
