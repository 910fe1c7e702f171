// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff.h"
#include "util/array_grow.h"

/* label: the report's row, where the short name alone would be misread ("lost" what?). */
static const struct {
	const char *name, *unit, *label;
} metrics[DIFF_NR_METRICS] = {
	[DIFF_WALL] = { "wall", "s", "wall" },
	[DIFF_CPU] = { "cpu", "s", "cpu" },
	[DIFF_UTILISATION] = { "utilisation", "%", "utilisation" },
	[DIFF_PARALLELISM] = { "parallelism", "", "parallelism" },
	[DIFF_PEAK] = { "peak", "", "peak" },
	[DIFF_LOST] = { "lost", "s", "lost parallelism" },
	[DIFF_PROCESSES] = { "processes", "", "processes" },
	[DIFF_LOST_EVENTS] = { "lost_events", "", "events the kernel dropped" },
};

const char *diff_metric__name(enum diff_metric k)
{
	return k < DIFF_NR_METRICS ? metrics[k].name : "?";
}

const char *diff_metric__label(enum diff_metric k)
{
	return k < DIFF_NR_METRICS ? metrics[k].label : "?";
}

const char *diff_metric__unit(enum diff_metric k)
{
	return k < DIFF_NR_METRICS ? metrics[k].unit : "";
}

double diff_value__change(const struct diff_value *v)
{
	return v->new_v - v->old_v;
}

double diff_value__percent(const struct diff_value *v)
{
	if (v->old_v == 0)
		return v->new_v == 0 ? 0 : (v->new_v > 0 ? INFINITY : -INFINITY);
	return 100.0 * (v->new_v - v->old_v) / fabs(v->old_v);
}

__u64 diff__longer_wall_ns(const struct diff *d)
{
	__u64 o = d->old_b->a->wall_ns, n = d->new_b->a->wall_ns;

	return o > n ? o : n;
}

__u64 diff__proc_cpu_ns(const struct proc_instance *p)
{
	return p->utime_ns + p->stime_ns;
}

__u64 diff__proc_wall_ns(const struct proc_instance *p)
{
	return p->end_ns > p->start_ns ? p->end_ns - p->start_ns : 0;
}

bool diff__above_noise(__u64 old_ns, __u64 new_ns, bool wall)
{
	__u64 delta = new_ns > old_ns ? new_ns - old_ns : old_ns - new_ns;
	__u64 min_ns = wall ? DIFF_WALL_NOISE_MIN_NS : DIFF_CPU_NOISE_MIN_NS;
	__u64 percent = wall ? DIFF_WALL_NOISE_PERCENT : DIFF_CPU_NOISE_PERCENT;

	return delta >= min_ns && delta * 100 >= percent * old_ns;
}

static void side_values(struct diff_value *values, const struct diff_side *b, bool is_new)
{
	const struct audit *a = b->a;
	bool sched = a->sched != SCHED_OFF && a->par;
	double v[DIFF_NR_METRICS] = {
		[DIFF_WALL] = a->wall_ns / 1e9,
		[DIFF_CPU] = a->cpu_ns / 1e9,
		[DIFF_UTILISATION] = 100.0 * a->utilisation,
		[DIFF_PARALLELISM] = sched ? a->avg_running : 0,
		[DIFF_PEAK] = sched ? a->par->peak_running : 0,
		[DIFF_LOST] = sched ? a->lost_ns / 1e9 : 0,
		[DIFF_PROCESSES] = (double)b->m->nr_procs,
		[DIFF_LOST_EVENTS] = (double)a->lost_events,
	};
	size_t k;

	for (k = 0; k < DIFF_NR_METRICS; k++) {
		bool needs_sched = k == DIFF_PARALLELISM || k == DIFF_PEAK || k == DIFF_LOST;

		*(is_new ? &values[k].new_v : &values[k].old_v) = v[k];
		if (!is_new)
			values[k].known = true;
		if (needs_sched && !sched)
			values[k].known = false;
	}
}

/* One side's program, for the join. */
struct side_program {
	const struct audit_program *ap;
	size_t side; /* 0 old, 1 new */
};

static int cmp_side_program(const void *x, const void *y)
{
	const struct side_program *a = x, *b = y;
	int c = strcmp(a->ap->name, b->ap->name);

	return c ? c : a->side < b->side ? -1 : a->side > b->side;
}

/*
 * The audit's per-program CPU times of both builds, joined by name: both
 * sides' programs sorted by name, so a name meets its partner without a
 * search (n programs of one process each made it n^2).
 */
static int join_programs(struct diff *d)
{
	const struct audit *sides[2] = { d->old_b->a, d->new_b->a };
	size_t cap = 0, nr = 0, s, i, k;
	struct side_program *all = malloc((sides[0]->nr_programs + sides[1]->nr_programs + 1) * sizeof(*all));

	if (!all)
		return -ENOMEM;
	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->nr_programs; i++)
			all[nr++] = (struct side_program){ &sides[s]->programs[i], s };
	qsort(all, nr, sizeof(*all), cmp_side_program);
	for (i = 0; i < nr; i++) {
		const struct audit_program *ap = all[i].ap;

		k = d->nr_programs;
		if (!k || strcmp(d->programs[k - 1].name, ap->name)) {
			if (array_grow((void **)&d->programs, &cap, k + 1, sizeof(*d->programs)))
				goto nomem;
			d->programs[k] = (struct diff_program){ .name = strdup(ap->name) };
			if (!d->programs[k].name)
				goto nomem;
			d->nr_programs++;
		}
		k = d->nr_programs - 1;
		if (all[i].side) {
			d->programs[k].new_cpu_ns = ap->cpu_ns;
			d->programs[k].new_procs = ap->nr_procs;
		} else {
			d->programs[k].old_cpu_ns = ap->cpu_ns;
			d->programs[k].old_procs = ap->nr_procs;
		}
	}
	free(all);
	return 0;
nomem:
	free(all);
	return -ENOMEM;
}

static __u64 abs_delta(__u64 a, __u64 b)
{
	return a > b ? a - b : b - a;
}

static int cmp_program(const void *x, const void *y)
{
	const struct diff_program *a = x, *b = y;
	__u64 da = abs_delta(a->old_cpu_ns, a->new_cpu_ns), db = abs_delta(b->old_cpu_ns, b->new_cpu_ns);

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Keeps step in the top list (largest change first, ties in old order). */
static void rank_step(struct diff_step *top, size_t *nr, const struct diff_step *step)
{
	__u64 delta = abs_delta(step->old_ns, step->new_ns);
	size_t at = *nr;

	while (at > 0 && abs_delta(top[at - 1].old_ns, top[at - 1].new_ns) < delta)
		at--;
	if (at >= DIFF_TOP_STEPS)
		return;
	if (*nr < DIFF_TOP_STEPS)
		(*nr)++;
	memmove(&top[at + 1], &top[at], (*nr - 1 - at) * sizeof(*top));
	top[at] = *step;
}

/*
 * The matched steps whose wall or CPU time changed past the noise floor.
 * A step by the audit's rule in both builds (audit__is_step): a compile
 * is its cc1, not also its sh -c, its cc and the make or ninja above, which
 * only waited for it; the whole build's wall is the Build table's.
 */
static void rank_steps(struct diff *d)
{
	const struct model *om = d->old_b->m, *nm = d->new_b->m;
	size_t i;

	for (i = 0; i < om->nr_procs; i++) {
		long j = d->match.old_to_new[i];
		struct diff_step step = { .old_proc = i };

		if (j < 0 || !audit__is_step(d->old_b->a, i) || !audit__is_step(d->new_b->a, (size_t)j))
			continue;
		step.new_proc = (size_t)j;
		step.old_ns = diff__proc_wall_ns(&om->procs[i]);
		step.new_ns = diff__proc_wall_ns(&nm->procs[j]);
		if (diff__above_noise(step.old_ns, step.new_ns, true))
			rank_step(d->top_wall, &d->nr_top_wall, &step);
		step.old_ns = diff__proc_cpu_ns(&om->procs[i]);
		step.new_ns = diff__proc_cpu_ns(&nm->procs[j]);
		if (diff__above_noise(step.old_ns, step.new_ns, false))
			rank_step(d->top_cpu, &d->nr_top_cpu, &step);
	}
}

static int cmp_only(const void *x, const void *y)
{
	const struct diff_only *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->program, b->program);
}

/* The unmatched processes of m (partner[i] < 0), counted per program: by name, without a search. */
static int group_unmatched(const struct model *m, const long *partner, struct diff_only **out, size_t *nr,
			   size_t *procs)
{
	size_t cap = 0, i, k, nr_unmatched = 0, *unmatched = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*unmatched));

	if (!unmatched)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++)
		if (partner[i] < 0)
			unmatched[nr_unmatched++] = i;
	*procs += nr_unmatched;
	if (model__sort_by_program(m, unmatched, nr_unmatched)) {
		free(unmatched);
		return -ENOMEM;
	}
	for (i = 0; i < nr_unmatched; i++) {
		const char *program = proc_program(&m->procs[unmatched[i]]);

		k = *nr;
		if (!k || strcmp((*out)[k - 1].program, program)) {
			if (array_grow((void **)out, &cap, k + 1, sizeof(**out))) {
				free(unmatched);
				return -ENOMEM;
			}
			(*out)[k] = (struct diff_only){ .program = program };
			(*nr)++;
		}
		(*out)[*nr - 1].count++;
	}
	free(unmatched);
	if (*nr)
		qsort(*out, *nr, sizeof(**out), cmp_only);
	return 0;
}

int diff__compute(struct diff *d, const struct diff_side *old_b, const struct diff_side *new_b)
{
	memset(d, 0, sizeof(*d));
	d->old_b = old_b;
	d->new_b = new_b;
	side_values(d->values, old_b, false);
	side_values(d->values, new_b, true);
	if (proc_match__compute(&d->match, old_b->m, new_b->m) || join_programs(d) ||
	    group_unmatched(old_b->m, d->match.old_to_new, &d->only_old, &d->nr_only_old, &d->nr_only_old_procs) ||
	    group_unmatched(new_b->m, d->match.new_to_old, &d->only_new, &d->nr_only_new, &d->nr_only_new_procs) ||
	    diff_path__compute(&d->path, old_b->m, old_b->a, new_b->m, new_b->a, &d->match) ||
	    diff_races__compute(&d->races, old_b->a, new_b->a)) {
		diff__free(d);
		return -ENOMEM;
	}
	if (d->nr_programs)
		qsort(d->programs, d->nr_programs, sizeof(*d->programs), cmp_program);
	rank_steps(d);
	diff_cache__compute(&d->cache, old_b->m, old_b->a, new_b->m, new_b->a, &d->match);
	d->jobs_changed = old_b->a->jobs.jobs != new_b->a->jobs.jobs;
	return 0;
}

void diff__free(struct diff *d)
{
	size_t i;

	if (!d)
		return;
	proc_match__free(&d->match);
	diff_path__free(&d->path);
	diff_races__free(&d->races);
	for (i = 0; i < d->nr_programs; i++)
		free(d->programs[i].name);
	free(d->programs);
	free(d->only_old);
	free(d->only_new);
	memset(d, 0, sizeof(*d));
}
