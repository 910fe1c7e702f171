/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which ready job a runner starts first, for the what-if
 * (graph/cpu_sim.h): cargo starts, of the units it may start, the one the
 * most of its units depend on, itself counted, transitively
 * (DependencyQueue: every unit of one cost); its recorded start order
 * breaks ties.  make, ninja and go keep the order their jobs started in
 * (a job's rank 0).  A unit's dependents are the jobs of the same cargo
 * that read what it wrote (the data edges), waited for its end (the
 * runners' order, graph/run_order.h), or, by their command lines, ran the
 * build script it compiled or built the crate of the package whose build
 * script it ran; and theirs.  Pure: the jobs, their links and the model's
 * process tree in.
 */
#ifndef BUILDBPF_GRAPH_READY_RANK_H
#define BUILDBPF_GRAPH_READY_RANK_H

#include "graph/job_graph.h"
#include "model/model.h"

/*
 * A cargo of more units than this is ranked as it started them: the
 * dependents are counted as one set of units per unit (its square / 8
 * bytes), 32 MiB here.
 */
#define READY_RANK_MAX_UNITS 16384

/* Sets jg->jobs[].rank (jg's jobs and links built).  0, or -ENOMEM. */
int ready_rank__fill(struct job_graph *jg, const struct model *m);

#endif /* BUILDBPF_GRAPH_READY_RANK_H */
