// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "graph/job_slots.h"
#include "lib/with_slots.h"

int with_slots__graph_run(struct graph_run *r, const struct model *m, const struct file_log *fl,
			  struct start_wakes *w, enum graph_step *failed)
{
	return with_slots__graph_run_env(r, m, NULL, 0, fl, w, failed);
}

int with_slots__graph_run_env(struct graph_run *r, const struct model *m, const struct jobs_env *env,
			      size_t nr_cpus, const struct file_log *fl, struct start_wakes *w,
			      enum graph_step *failed)
{
	struct job_slots slots;
	int err;

	if (job_slots__init(&slots, m, env, nr_cpus)) {
		*r = (struct graph_run){}; /* freed and empty, as graph_run__compute() leaves it */
		*failed = GRAPH_DATA;
		return -ENOMEM;
	}
	err = graph_run__compute(r, m, &slots, fl, w, failed);
	job_slots__free(&slots);
	return err;
}

int with_slots__audit(struct audit *a, const struct model *m, const struct sched_model *s,
		      const struct audit_input *in)
{
	struct audit_input with = *in;
	struct job_slots slots;
	int err;

	if (job_slots__init(&slots, m, &in->jobs_env, in->nr_cpus))
		return -ENOMEM;
	with.slots = &slots;
	err = audit__compute(a, m, s, &with);
	job_slots__free(&slots);
	return err;
}
