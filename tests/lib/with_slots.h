/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graph stage and the audit as a recording runs them: each with the
 * model's job slots (graph/job_slots.h), computed for the call and freed
 * after it (neither keeps them).  Plain C: 0, or -ENOMEM.
 */
#ifndef BUILDBPF_TESTS_WITH_SLOTS_H
#define BUILDBPF_TESTS_WITH_SLOTS_H

#include "graph/graph_run.h"
#include "audit/audit.h"

int with_slots__graph_run(struct graph_run *r, const struct model *m, const struct file_log *fl,
			  struct start_wakes *w, enum graph_step *failed);
/* The same, cargo's and go's -j read with what the command inherited (env) and nr_cpus, as a recording's. */
int with_slots__graph_run_env(struct graph_run *r, const struct model *m, const struct jobs_env *env,
			      size_t nr_cpus, const struct file_log *fl, struct start_wakes *w,
			      enum graph_step *failed);
/* in's slots are set for the call: what it says of the graph and the rest is kept. */
int with_slots__audit(struct audit *a, const struct model *m, const struct sched_model *s,
		      const struct audit_input *in);

#endif /* BUILDBPF_TESTS_WITH_SLOTS_H */
