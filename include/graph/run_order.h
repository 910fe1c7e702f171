/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runners' own order, as links the what-if (graph/cpu_sim.h) follows
 * instead of the wall clock: every process outside any job (a make, a
 * shell, configure, the command) is two marks, its start and its end, and
 * each job or mark is released when what it really waited for is done in
 * the simulation:
 *
 *   a shell ran its children one after another: each child starts its
 *     measured gap (the shell's own work) after the one before it ended;
 *   a runner (make, ninja) starts each child its parse time after it
 *     started; slots and data edges order them from there, a later line
 *     of one recipe (graph/job_slots.h) after the line before it, and a
 *     child after the last of its siblings that ended while the runner's
 *     pool had a slot free (it was not ready yet: make's prerequisite
 *     order, unless a data edge already says it);
 *   a make runs its $(shell) calls (model/shell_call.h) one at a time:
 *     each its own work after the one before (the first after its start,
 *     its end after the last), and a child it forked right after a call
 *     starts after that call;
 *   other parents start each child at its measured offset from their start;
 *   a parent ends its measured tail after its last child ended; one with
 *     no child lasts its measured wall (a probe of configure: a fixed cost);
 *   of its ready jobs a runner starts first the one it ranks highest
 *     (graph/ready_rank.h: cargo, the unit the most others need).
 *
 * Pure: the model, the jobs and the slot structure in, links out.
 */
#ifndef BUILDBPF_GRAPH_RUN_ORDER_H
#define BUILDBPF_GRAPH_RUN_ORDER_H

#include "graph/job_graph.h"
#include "graph/job_slots.h"

/*
 * Fills jg->marks, jg->links and the jobs' ranks (jg's jobs built); 0, or
 * -ENOMEM (job_graph__free() frees what it filled).
 */
int run_order__build(struct job_graph *jg, const struct model *m, const struct job_slots *s);

#endif /* BUILDBPF_GRAPH_RUN_ORDER_H */
