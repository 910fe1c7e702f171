// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/job_slots.h"
#include "graph/recipe_lines.h"
#include "model/make_args.h"
#include "model/shell_call.h"
#include "model/tool_jobs.h"
#include "model/tool_kind.h"

/* A runner by its comm, exactly, as the job graph finds them (graph/job_graph.c). */
static enum tool_kind runner_kind(const struct proc_instance *p)
{
	enum tool_kind kind = tool_kind__lookup(p->comm);

	return tool_kind__is_runner(kind) ? kind : TOOL_OTHER;
}

/* Whether make p starts a pool of its own: a -j on the argv of its last image. */
static bool own_jobs(const struct proc_instance *p)
{
	const struct exec_image *x = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;

	return x && make_args__jobs(x->argv, x->argc) != 0;
}

/* The -j cargo or go m's process proc was asked for; 0 unknown. */
static long tool_asked(const struct model *m, size_t proc, const struct jobs_env *env, size_t nr_cpus)
{
	struct tool_jobs j;

	tool_jobs__of_proc(&j, m, proc, env, nr_cpus);
	return j.jobs;
}

static int by_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* What the steps are built from and looked up with: s's own indexes. */
static struct slot_pools pools_of(const struct job_slots *s)
{
	return (struct slot_pools){ .m = s->m, .pool = s->pool, .runner = s->runner, .via = s->via,
				    .child_off = s->child_off, .children = s->children, .starts = s->starts,
				    .ends = s->ends, .sub_off = s->sub_off, .subs = s->subs };
}

size_t job_slots__held(const struct job_slots *s, size_t pool, __u64 ts)
{
	struct slot_pools sp = pools_of(s);

	return pool < s->m->nr_procs ? slot_steps__held(&s->steps, &sp, pool, ts) : 0;
}

size_t job_slots__limit(const struct job_slots *s, size_t pool)
{
	if (pool >= s->m->nr_procs)
		return 0;
	return s->limit[pool] > 0 ? (size_t)s->limit[pool] : s->peak[pool];
}

bool job_slots__shared(const struct job_slots *s, size_t runner, size_t proc)
{
	const struct model *m = s->m;
	long parent = proc < m->nr_procs ? m->procs[proc].parent : -1;

	return runner < m->nr_procs && parent >= 0 && s->is_make[runner] && s->is_make[parent] &&
	       s->pool[runner] == s->pool[parent];
}

bool job_slots__run_by_cargo(const struct job_slots *s, size_t proc)
{
	long runner = proc < s->m->nr_procs ? s->runner[proc] : -1;

	return runner >= 0 && runner_kind(&s->m->procs[runner]) == TOOL_CARGO;
}

static int by_via(const void *a, const void *b, void *slots)
{
	const struct job_slots *s = slots;
	size_t x = *(const __u32 *)a, y = *(const __u32 *)b;

	if (s->via[x] != s->via[y])
		return s->via[x] < s->via[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Per make, the sub-makes of its pool whose runner it is (CSR), grouped by the child they run within. */
static int index_subs(struct job_slots *s)
{
	const struct model *m = s->m;
	size_t i, n = m->nr_procs;
	__u32 *fill;

	s->sub_off = calloc(n + 1, sizeof(*s->sub_off));
	s->subs = calloc(n ? n : 1, sizeof(*s->subs));
	fill = calloc(n + 1, sizeof(*fill));
	if (!s->sub_off || !s->subs || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (s->is_make[i] && s->runner[i] >= 0 && s->pool[i] != i)
			s->sub_off[s->runner[i] + 1]++;
	for (i = 0; i < n; i++)
		s->sub_off[i + 1] += s->sub_off[i];
	memcpy(fill, s->sub_off, (n + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (s->is_make[i] && s->runner[i] >= 0 && s->pool[i] != i)
			s->subs[fill[s->runner[i]]++] = i;
	for (i = 0; i < n; i++)
		qsort_r(s->subs + s->sub_off[i], s->sub_off[i + 1] - s->sub_off[i], sizeof(*s->subs), by_via, s);
	free(fill);
	return 0;
}

/*
 * The tree without make's $(shell) calls (model/shell_call.h): make's own
 * work, they hold no slot, are no line of a recipe and no unit of its
 * order.  Compacted in place, each range keeping its order.
 */
static void drop_shell_calls(struct job_slots *s)
{
	const struct model *m = s->m;
	size_t i, k, kept = 0, from = 0;

	for (i = 0; i < m->nr_procs; i++) {
		size_t to = s->child_off[i + 1];

		for (k = from; k < to; k++)
			if (!shell_call__is(m, s->children[k]))
				s->children[kept++] = s->children[k];
		from = to;
		s->child_off[i + 1] = kept;
	}
}

/* Children's starts and ends per process, each range sorted. */
static int index_children(struct job_slots *s)
{
	const struct model *m = s->m;
	size_t i, k, n = m->nr_procs;

	s->starts = calloc(n ? n : 1, sizeof(*s->starts));
	s->ends = calloc(n ? n : 1, sizeof(*s->ends));
	if (!s->starts || !s->ends || model__index_children(m, &s->child_off, &s->children))
		return -ENOMEM;
	drop_shell_calls(s);
	for (i = 0; i < n; i++) {
		size_t from = s->child_off[i], to = s->child_off[i + 1];

		for (k = from; k < to; k++) {
			s->starts[k] = m->procs[s->children[k]].start_ns;
			s->ends[k] = m->procs[s->children[k]].end_ns;
		}
		qsort(s->starts + from, to - from, sizeof(*s->starts), by_u64);
		qsort(s->ends + from, to - from, sizeof(*s->ends), by_u64);
	}
	return 0;
}

/* Each pool's peak: slots held are highest at some child's start. */
static void pool_peaks(struct job_slots *s)
{
	const struct model *m = s->m;
	struct slot_pools sp = pools_of(s);
	size_t i, held;

	for (i = 0; i < m->nr_procs; i++) {
		long parent = m->procs[i].parent;
		size_t pool;

		if (parent < 0 || shell_call__is(m, i))
			continue;
		pool = s->pool[parent];
		held = slot_steps__held(&s->steps, &sp, pool, m->procs[i].start_ns);
		if (held > s->peak[pool])
			s->peak[pool] = held;
	}
}

int job_slots__init(struct job_slots *s, const struct model *m, const struct jobs_env *env, size_t nr_cpus)
{
	struct slot_pools sp;
	size_t i, n = m->nr_procs;

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->pool = calloc(n ? n : 1, sizeof(*s->pool));
	s->runner = calloc(n ? n : 1, sizeof(*s->runner));
	s->via = calloc(n ? n : 1, sizeof(*s->via));
	s->is_make = calloc(n ? n : 1, sizeof(*s->is_make));
	s->limit = calloc(n ? n : 1, sizeof(*s->limit));
	s->peak = calloc(n ? n : 1, sizeof(*s->peak));
	s->line_before = malloc((n ? n : 1) * sizeof(*s->line_before));
	s->order_before = malloc((n ? n : 1) * sizeof(*s->order_before));
	if (!s->pool || !s->runner || !s->via || !s->is_make || !s->limit || !s->peak || !s->line_before ||
	    !s->order_before)
		goto nomem;
	/* A parent sorts before its children (model order is start order):
	 * one pass down the tree; a parent out of that order is not followed. */
	for (i = 0; i < n; i++) {
		const struct proc_instance *p = &m->procs[i];
		long parent = p->parent >= 0 && (size_t)p->parent < i ? p->parent : -1;
		enum tool_kind kind = runner_kind(p);

		s->pool[i] = i;
		s->runner[i] = s->via[i] = -1;
		s->is_make[i] = kind == TOOL_MAKE;
		if (parent >= 0) {
			bool parent_runs = runner_kind(&m->procs[parent]) != TOOL_OTHER;

			s->runner[i] = parent_runs ? parent : s->runner[parent];
			s->via[i] = parent_runs ? (__s32)i : s->via[parent];
		}
		if (s->is_make[i] && s->runner[i] >= 0 && s->is_make[s->runner[i]] && !own_jobs(p))
			s->pool[i] = s->pool[s->runner[i]];
		if (s->is_make[i] && s->pool[i] == i && p->nr_execs)
			s->limit[i] = make_args__jobs(p->execs[p->nr_execs - 1].argv, p->execs[p->nr_execs - 1].argc);
		/* cargo's jobserver and go's -p, each its own pool: as many jobs at once as the tool was asked
		 * for, wherever it took that from, as the audit says it (model/tool_jobs.h). */
		else if (kind == TOOL_CARGO || kind == TOOL_GO)
			s->limit[i] = tool_asked(m, i, env, nr_cpus);
	}
	if (index_children(s) || index_subs(s))
		goto nomem;
	sp = pools_of(s);
	if (slot_steps__build(&s->steps, &sp))
		goto nomem;
	pool_peaks(s);
	if (recipe_lines__find(m, s->child_off, s->children, s->is_make, s->line_before, s->order_before))
		goto nomem;
	return 0;
nomem:
	job_slots__free(s);
	return -ENOMEM;
}

void job_slots__free(struct job_slots *s)
{
	if (!s)
		return;
	free(s->pool);
	free(s->runner);
	free(s->via);
	free(s->is_make);
	free(s->child_off);
	free(s->children);
	free(s->starts);
	free(s->ends);
	free(s->sub_off);
	free(s->subs);
	slot_steps__free(&s->steps);
	free(s->limit);
	free(s->peak);
	free(s->line_before);
	free(s->order_before);
	memset(s, 0, sizeof(*s));
}
