// SPDX-License-Identifier: GPL-2.0
/* The -j that fits the machine's memory; the model is stated in audit/jobs_fit.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"
#include "audit/jobs_fit.h"
#include "util/str_key.h"

/* One job step: a process that is neither long-lived nor a wrapper. */
struct step {
	__u64 key; /* the program's str_key() */
	const char *program;
	__u64 peak_kb;
	__u64 start_ns, end_ns;
};

/* By program, then by peak: each program's steps together, smallest peak first. */
static int cmp_step(const void *a, const void *b)
{
	const struct step *x = a, *y = b;
	int c = str_key_cmp(x->key, x->program, y->key, y->program);

	if (c)
		return c;
	return x->peak_kb < y->peak_kb ? -1 : x->peak_kb > y->peak_kb;
}

static bool same_program(const struct step *x, const struct step *y)
{
	return !str_key_cmp(x->key, x->program, y->key, y->program);
}

/* A start (+1) or an end (-1) of a step, for the sweep that counts them at once. */
struct edge {
	__u64 ns;
	int delta;
};

/* In time order; at one instant ends before starts: back to back is not at once. */
static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->delta - y->delta;
}

/* The most of steps[0..n) alive at one time. */
static int most_at_once(const struct step *steps, size_t n, size_t *most)
{
	struct edge *edges = malloc(2 * n * sizeof(*edges));
	size_t i;
	long now = 0;

	*most = 0;
	if (!edges)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		edges[2 * i] = (struct edge){ steps[i].start_ns, 1 };
		edges[2 * i + 1] = (struct edge){ steps[i].end_ns, -1 };
	}
	qsort(edges, 2 * n, sizeof(*edges), cmp_edge);
	for (i = 0; i < 2 * n; i++) {
		now += edges[i].delta;
		if (now > 0 && (size_t)now > *most)
			*most = now;
	}
	free(edges);
	return 0;
}

/* The base: the long-lived processes' peaks; the rest, steps[] of the job steps. */
static void split_processes(struct jobs_fit *f, const struct model *m, const bool *wrapper, struct step *steps,
			    size_t *nr_steps)
{
	__u64 wall = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 0;
	__u64 base_max = 0;
	size_t i;

	*nr_steps = 0;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		__u64 alive = p->end_ns > p->start_ns ? p->end_ns - p->start_ns : 0;

		if (alive >= wall / 1000 * JOBS_FIT_LONG_LIVED_PERMILLE) {
			f->base_kb += p->peak_rss_kb;
			f->nr_base++;
			if (f->base_proc < 0 || p->peak_rss_kb > base_max) {
				f->base_proc = i;
				base_max = p->peak_rss_kb;
			}
			continue;
		}
		if ((wrapper && wrapper[i]) || !p->peak_rss_exact || !p->peak_rss_kb)
			continue;
		steps[(*nr_steps)++] = (struct step){ str_key(proc_program(p)), proc_program(p), p->peak_rss_kb, p->start_ns,
						      p->end_ns };
	}
}

int jobs_fit__compute(struct jobs_fit *f, const struct model *m, const bool *wrapper)
{
	struct step *steps;
	size_t nr = 0, i, first, best_first = 0, best_n = 0;
	__u64 best_sum = 0;
	int err;

	memset(f, 0, sizeof(*f));
	f->base_proc = -1;
	f->ram_kb = m->nr_mem_samples ? m->mem_peak.ram_kb : 0;
	f->limit_kb = f->ram_kb * JOBS_FIT_RAM_PERMILLE / 1000;
	steps = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	split_processes(f, m, wrapper, steps, &nr);
	qsort(steps, nr, sizeof(*steps), cmp_step);
	/* The program whose steps' peaks add up to the most: the build's memory is mostly its. */
	for (first = 0; first < nr; first += i) {
		__u64 sum = 0;

		for (i = 0; first + i < nr && same_program(&steps[first + i], &steps[first]); i++)
			sum += steps[first + i].peak_kb;
		if (sum > best_sum) {
			best_sum = sum;
			best_first = first;
			best_n = i;
		}
	}
	err = 0;
	if (!best_n) {
		f->verdict = JOBS_FIT_NO_PEAKS;
		goto cleanup;
	}
	f->program = steps[best_first].program;
	f->runs = best_n;
	/* Nearest rank: the smallest peak at or above 95 % of the runs. */
	f->job_kb = steps[best_first + (best_n * JOBS_FIT_PERCENTILE + 99) / 100 - 1].peak_kb;
	/* Each program's largest step is its last: name the largest of those above one job. */
	for (first = 0; first < nr; first += i) {
		for (i = 0; first + i < nr && same_program(&steps[first + i], &steps[first]); i++)
			;
		if (first != best_first && steps[first + i - 1].peak_kb > f->job_kb &&
		    steps[first + i - 1].peak_kb > f->larger_kb) {
			f->larger_program = steps[first].program;
			f->larger_kb = steps[first + i - 1].peak_kb;
			f->larger_runs = i;
		}
	}
	err = most_at_once(steps + best_first, best_n, &f->at_once);
	if (err)
		goto cleanup;
	if (!f->ram_kb)
		f->verdict = JOBS_FIT_NO_RAM;
	else if (best_n < JOBS_FIT_MIN_RUNS)
		f->verdict = JOBS_FIT_TOO_FEW;
	else
		f->verdict = JOBS_FIT_OK;
	if (f->verdict == JOBS_FIT_OK) {
		f->jobs = f->limit_kb > f->base_kb ? (long)((f->limit_kb - f->base_kb) / f->job_kb) : 0;
		f->expected_kb = f->base_kb + (__u64)f->jobs * f->job_kb;
	}
cleanup:
	free(steps);
	return err;
}
