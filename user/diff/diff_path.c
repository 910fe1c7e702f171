// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff_path.h"

bool diff_path__has_graph(const struct audit *a)
{
	return a->graph && a->chain_step;
}

/*
 * The time each process held the path the audit lists, summed over its
 * steps (make holds it when it forks a step and again when it waits for
 * one), and whether it holds it at all: a short step a file links is
 * listed though it held the path for no measurable time.
 */
static int held_times(const struct model *m, const struct audit *a, __u64 **held, bool **on)
{
	size_t i;

	*held = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(**held));
	*on = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(**on));
	if (!*held || !*on)
		return -ENOMEM;
	for (i = 0; i < a->nr_chain; i++) {
		const struct critical_step *s = &a->graph->path.steps[a->chain_step[i]];

		(*held)[s->proc] += s->to_ns - s->from_ns;
		(*on)[s->proc] = true;
	}
	return 0;
}

static int cmp_moved_on(const void *x, const void *y)
{
	const struct diff_path_step *a = x, *b = y;

	if (a->new_ns != b->new_ns)
		return a->new_ns > b->new_ns ? -1 : 1;
	return a->new_proc < b->new_proc ? -1 : a->new_proc > b->new_proc;
}

static int cmp_moved_off(const void *x, const void *y)
{
	const struct diff_path_step *a = x, *b = y;

	if (a->old_ns != b->old_ns)
		return a->old_ns > b->old_ns ? -1 : 1;
	return a->old_proc < b->old_proc ? -1 : a->old_proc > b->old_proc;
}

/*
 * The processes on one build's path (on, held) whose partner is not on the
 * other build's path (other_on), as steps (their time on the other path is
 * 0); is_new: this build is the new one.
 */
static int moved(const struct model *m, const long *partner, const bool *on, const __u64 *held,
		 const bool *other_on, bool is_new, struct diff_path_step **out, size_t *nr)
{
	size_t i;

	*out = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++) {
		long j = partner[i];
		struct diff_path_step s;

		if (!on[i] || (j >= 0 && other_on[j]))
			continue;
		if (is_new)
			s = (struct diff_path_step){ .old_proc = j, .new_proc = (long)i, .new_ns = held[i] };
		else
			s = (struct diff_path_step){ .old_proc = (long)i, .new_proc = j, .old_ns = held[i] };
		(*out)[(*nr)++] = s;
	}
	if (*nr)
		qsort(*out, *nr, sizeof(**out), is_new ? cmp_moved_on : cmp_moved_off);
	return 0;
}

int diff_path__compute(struct diff_path *p, const struct model *old_m, const struct audit *old_a,
		       const struct model *new_m, const struct audit *new_a, const struct proc_match *pm)
{
	__u64 *old_held = NULL, *new_held = NULL;
	bool *old_on = NULL, *new_on = NULL;
	int err;

	memset(p, 0, sizeof(*p));
	if (!diff_path__has_graph(old_a) || !diff_path__has_graph(new_a))
		return 0;
	p->known = true;
	err = held_times(old_m, old_a, &old_held, &old_on) ?: held_times(new_m, new_a, &new_held, &new_on)
		?: moved(old_m, pm->old_to_new, old_on, old_held, new_on, false, &p->moved_off,
			 &p->nr_moved_off)
		?: moved(new_m, pm->new_to_old, new_on, new_held, old_on, true, &p->moved_on,
			 &p->nr_moved_on);
	free(old_held);
	free(new_held);
	free(old_on);
	free(new_on);
	if (err)
		diff_path__free(p);
	return err;
}

void diff_path__free(struct diff_path *p)
{
	if (!p)
		return;
	free(p->moved_on);
	free(p->moved_off);
	memset(p, 0, sizeof(*p));
}
