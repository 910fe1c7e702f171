/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Job slots as make counts them.  A recursive make's sub-makes share one
 * pool of -jN slots through the jobserver the top make passes in
 * MAKEFLAGS; a sub-make with its own -j on its argv starts a new pool.
 * Every other process is a pool of its own children (a shell, ninja).
 *
 * Slots held in a pool at a time: each child alive of each make in it,
 * where a child that runs sub-makes of the pool holds what they hold, and
 * at least its own slot (a sub-make that is parsing, or between jobs,
 * keeps the slot its parent ran it in).  A job is a recipe, not each
 * shell of it: line_before links each later line to the one before, and
 * a shell or a script, which holds no slots, runs each command after the
 * one before (order_before; graph/recipe_lines.h).  A make's $(shell)
 * call is make's own work: no job, no slot (model/shell_call.h).  Pure.
 *
 *   struct job_slots s;
 *   job_slots__init(&s, model, &jobs_env, nr_cpus);
 *   if (job_slots__held(&s, s.pool[p], ts) >= job_slots__limit(&s, s.pool[p])) ...
 *   job_slots__free(&s);
 */
#ifndef BUILDBPF_GRAPH_JOB_SLOTS_H
#define BUILDBPF_GRAPH_JOB_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/slot_steps.h"
#include "model/model.h"
#include "model/tool_jobs.h"

/* The per-process arrays hold process indices in 32 bits, as proc_instance does (model/model_types.h). */
struct job_slots {
	const struct model *m;
	/* per process: the process whose pool its children's slots are in (itself, or the top make) */
	__u32 *pool;
	/* per process: the nearest make or ninja above it, -1: none; and the child of that runner it is within */
	__s32 *runner, *via;
	bool *is_make;
	/* CSR: children of proc i at children[child_off[i] ..), make's $(shell) calls left out (they hold no
	 * slot: model/shell_call.h); the same ranges' starts and ends, each sorted */
	__u32 *child_off, *children;
	__u64 *starts, *ends;
	/* CSR: per make, the sub-makes of its pool it runs directly (their runner is it), by via */
	__u32 *sub_off, *subs;
	struct slot_steps steps; /* each pool's slots held over time, built from the fields above (graph/slot_steps.h) */
	__s32 *line_before; /* per process: the line before it in its make recipe (graph/recipe_lines.h), -1: none */
	/* per process: what it followed in its parent's own order: its line before, or, its parent running no
	 * jobs (a shell, a script), the child that ended last by its fork; -1: none */
	__s32 *order_before;
	/* per pool: the -j its top make's argv gives (0: none, -1: no limit), or its cargo's or go's as
	 * model/tool_jobs.h finds it (their default, the CPUs, included) */
	long *limit;
	size_t *peak; /* per pool: most slots held at once */
};

/*
 * 0, or -ENOMEM (s empty).  The model must not change while s is used.
 * env: what the command inherited, for the -j of its cargo and go (NULL:
 * nothing); nr_cpus: the CPUs online, their default (0: unknown).
 */
int job_slots__init(struct job_slots *s, const struct model *m, const struct jobs_env *env, size_t nr_cpus);
void job_slots__free(struct job_slots *s);

/* Slots held in pool (a pool's top make, s->pool[x]) at ts: by jobs started by ts and not ended by then. */
size_t job_slots__held(const struct job_slots *s, size_t pool, __u64 ts);
/* How many slots pool has: its top make's -j when its argv says, else the most it held at once. */
size_t job_slots__limit(const struct job_slots *s, size_t pool);
/* Whether runner and proc's parent share a pool of make slots (a jobserver token passes between them). */
bool job_slots__shared(const struct job_slots *s, size_t runner, size_t proc);
/* Whether proc's nearest runner is cargo, which pipelines: it starts a dependent once rustc has renamed
 * the dependency's .rmeta into place, while that rustc generates code on (graph/build_graph.h). */
bool job_slots__run_by_cargo(const struct job_slots *s, size_t proc);

#endif /* BUILDBPF_GRAPH_JOB_SLOTS_H */
