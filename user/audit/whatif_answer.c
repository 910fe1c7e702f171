// SPDX-License-Identifier: GPL-2.0
#include "audit/audit.h"
#include "audit/whatif_answer.h"

bool whatif_answer__helps(__u64 from_ns, __u64 to_ns)
{
	return to_ns < from_ns && (from_ns - to_ns) >= from_ns / 1000 * AUDIT_ANSWER_PERMILLE;
}

/* The fastest quiet row that passes keep against base; of equal ones the fewer jobs, then the first. */
static int fastest(const struct audit_whatif *w, const struct whatif_row *base,
		   bool (*keep)(const struct whatif_row *r, const struct whatif_row *base))
{
	int best = -1;
	size_t i;

	for (i = 0; i < w->nr_rows; i++) {
		const struct whatif_row *r = &w->rows[i];

		if (!r->quiet || !keep(r, base))
			continue;
		if (best < 0 || r->wall_ns < w->rows[best].wall_ns ||
		    (r->wall_ns == w->rows[best].wall_ns && r->jobs < w->rows[best].jobs))
			best = (int)i;
	}
	return best;
}

static bool more_jobs_here(const struct whatif_row *r, const struct whatif_row *base)
{
	return r->cpus == base->cpus && r->jobs > base->jobs;
}

/* More CPUs, counted: the unlimited row (cpus 0) is the data path, not a machine. */
static bool more_cpus(const struct whatif_row *r, const struct whatif_row *base)
{
	return r->cpus && r->cpus > base->cpus;
}

/* The simulated chain entry of the shortest wall without it; of equal ones the one that held longest. */
static long best_step(const struct audit_whatif *w, const struct audit *a)
{
	long best = -1;
	size_t i;

	for (i = 0; i < a->nr_chain; i++) {
		if (!w->without_ns[i])
			continue;
		if (best < 0 || w->without_ns[i] < w->without_ns[best] ||
		    (w->without_ns[i] == w->without_ns[best] &&
		     audit_whatif__step_held(a, i) > audit_whatif__step_held(a, (size_t)best)))
			best = (long)i;
	}
	return best;
}

void whatif_answer__compute(struct whatif_answer *ans, const struct audit_whatif *w, const struct audit *a)
{
	const struct whatif_row *base;
	__u64 best_here;

	*ans = (struct whatif_answer){ .base = -1, .as_run = -1, .more_jobs = -1, .more_cpus = -1, .step = -1 };
	if (!w->nr_rows)
		return;
	ans->base = (int)audit_whatif__base(w);
	base = &w->rows[ans->base];
	if (ans->base)
		ans->as_run = 0;
	ans->confined = ans->base && w->rows[0].cpus < base->cpus;
	ans->more_jobs = fastest(w, base, more_jobs_here);
	ans->more_cpus = fastest(w, base, more_cpus);
	ans->quieter_helps = ans->as_run >= 0 && whatif_answer__helps(w->rows[0].wall_ns, base->wall_ns);
	ans->more_jobs_help = ans->more_jobs >= 0 && whatif_answer__helps(base->wall_ns, w->rows[ans->more_jobs].wall_ns);
	best_here = ans->more_jobs >= 0 && w->rows[ans->more_jobs].wall_ns < base->wall_ns ?
			    w->rows[ans->more_jobs].wall_ns : base->wall_ns;
	ans->more_cpus_help = ans->more_cpus >= 0 && whatif_answer__helps(best_here, w->rows[ans->more_cpus].wall_ns);
	ans->step = w->without_ns ? best_step(w, a) : -1;
	ans->step_helps = ans->step >= 0 && whatif_answer__helps(base->wall_ns, w->without_ns[ans->step]);
}
