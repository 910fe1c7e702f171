// SPDX-License-Identifier: GPL-2.0
#include "graph/schedule_sim.h"

/* The replay is the CPU simulation with every job a fixed time: one list scheduler. */
int schedule_sim__run(const struct job_graph *jg, size_t slots, const __u64 *dur, __u64 *wall_ns)
{
	struct cpu_machine mc = { .slots = slots, .replay = true, .dur = dur };

	return cpu_sim__run(jg, NULL, &mc, wall_ns);
}
