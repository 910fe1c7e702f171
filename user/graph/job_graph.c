// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "graph/build_graph.h"
#include "graph/job_graph.h"
#include "model/shell_call.h"
#include "model/tool_kind.h"

/* A runner by its comm, exactly: a renamed or prefixed one is not taken for make. */
static bool is_runner(const struct proc_instance *p)
{
	return tool_kind__is_runner(tool_kind__lookup(p->comm));
}

/* A job edge: reader, writer, and how long before the writer's job's end it was ready. */
struct job_pair {
	size_t reader, writer;
	__u64 early_ns;
};

/* By reader, then writer, the latest ready (the least early) first. */
static int by_pair(const void *a, const void *b)
{
	const struct job_pair *x = a, *y = b;

	if (x->reader != y->reader)
		return x->reader < y->reader ? -1 : 1;
	if (x->writer != y->writer)
		return x->writer < y->writer ? -1 : 1;
	return x->early_ns < y->early_ns ? -1 : x->early_ns > y->early_ns;
}

/*
 * How long before the end of job w edge e was ready: 0 unless its writer
 * published it while running on (ready_ns within the writer's own run, a
 * rename: graph/build_graph.h); a writer's end inside its job is the job's.
 */
static __u64 early_ns(const struct job_graph *jg, const struct model *m, const struct graph_edge *e, size_t w)
{
	const struct proc_instance *writer = &m->procs[e->writer];

	if (e->ready_ns <= writer->start_ns || e->ready_ns >= writer->end_ns || e->ready_ns >= jg->jobs[w].end_ns)
		return 0;
	return jg->jobs[w].end_ns - e->ready_ns;
}

/*
 * Job -> job data edges, distinct, as CSR over the reader.  An edge counts
 * only when it was ready by the reader's start: a reader that started
 * earlier did not wait for it.  That also keeps every predecessor at a
 * smaller index, so the graph has no cycle.  Of two edges between one pair
 * the later ready holds the reader.
 */
static int job_edges(struct job_graph *jg, const struct model *m, const struct graph_edge *edges, size_t nr_edges)
{
	struct job_pair *pairs = malloc((nr_edges ? nr_edges : 1) * sizeof(*pairs));
	size_t n = 0, i, k = 0;

	jg->pred_off = calloc(jg->nr_jobs + 1, sizeof(*jg->pred_off));
	if (!pairs || !jg->pred_off) {
		free(pairs);
		return -ENOMEM;
	}
	for (i = 0; i < nr_edges; i++) {
		long w = jg->proc_job[edges[i].writer], r = jg->proc_job[edges[i].reader];
		__u64 early;

		if (w < 0 || r < 0 || w >= r)
			continue;
		early = early_ns(jg, m, &edges[i], (size_t)w);
		if (jg->jobs[w].end_ns - early > jg->jobs[r].start_ns)
			continue;
		pairs[n++] = (struct job_pair){ (size_t)r, (size_t)w, early };
	}
	qsort(pairs, n, sizeof(*pairs), by_pair);
	jg->preds = malloc((n ? n : 1) * sizeof(*jg->preds));
	jg->pred_early_ns = malloc((n ? n : 1) * sizeof(*jg->pred_early_ns));
	if (!jg->preds || !jg->pred_early_ns) {
		free(pairs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (i && pairs[i].reader == pairs[i - 1].reader && pairs[i].writer == pairs[i - 1].writer)
			continue;
		jg->preds[k] = pairs[i].writer;
		jg->pred_early_ns[k++] = pairs[i].early_ns;
		jg->pred_off[pairs[i].reader + 1]++;
	}
	for (i = 0; i < jg->nr_jobs; i++)
		jg->pred_off[i + 1] += jg->pred_off[i];
	jg->nr_data_edges = k;
	free(pairs);
	return 0;
}

static int by_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Most jobs alive at once: starts (in order) against ends (sorted); an end at a start frees first. */
static int job_peak(struct job_graph *jg)
{
	__u64 *ends = malloc((jg->nr_jobs ? jg->nr_jobs : 1) * sizeof(*ends));
	size_t i, e = 0, alive = 0;

	if (!ends)
		return -ENOMEM;
	for (i = 0; i < jg->nr_jobs; i++)
		ends[i] = jg->jobs[i].end_ns;
	qsort(ends, jg->nr_jobs, sizeof(*ends), by_u64);
	for (i = 0; i < jg->nr_jobs; i++) {
		for (; e < jg->nr_jobs && ends[e] <= jg->jobs[i].start_ns; e++)
			alive--;
		if (++alive > jg->peak_jobs)
			jg->peak_jobs = alive;
	}
	free(ends);
	return 0;
}

/* The one-at-a-time order of each runner's jobs, and the tail. */
static int job_timing(struct job_graph *jg, const struct model *m)
{
	size_t n = m->nr_procs ? m->nr_procs : 1, i;
	long *last_job = malloc(n * sizeof(*last_job));
	bool *overlap = calloc(n, sizeof(*overlap));
	__u64 last_end = 0;

	if (!last_job || !overlap) {
		free(overlap);
		return -ENOMEM;
	}
	for (i = 0; i < m->nr_procs; i++)
		last_job[i] = -1;
	for (i = 0; i < m->nr_procs; i++)
		if (jg->proc_job[i] < 0 && m->procs[i].end_ns > last_end)
			last_end = m->procs[i].end_ns; /* a mark's */
	for (i = 0; i < jg->nr_jobs; i++) {
		struct sim_job *j = &jg->jobs[i];
		long r = m->procs[j->proc].parent;

		/* last_job[r]: the one of r's earlier jobs that ended last. */
		if (last_job[r] >= 0 && jg->jobs[last_job[r]].end_ns > j->start_ns)
			overlap[r] = true;
		if (last_job[r] < 0 || jg->jobs[last_job[r]].end_ns < j->end_ns)
			last_job[r] = (long)i;
		if (j->end_ns > last_end)
			last_end = j->end_ns;
	}
	/* prev_in_turn only where the runner never ran two jobs at once. */
	for (i = 0; i < m->nr_procs; i++)
		last_job[i] = -1;
	for (i = 0; i < jg->nr_jobs; i++) {
		long r = m->procs[jg->jobs[i].proc].parent;

		jg->jobs[i].prev_in_turn = overlap[r] ? -1 : last_job[r];
		last_job[r] = (long)i;
	}
	jg->tail_ns = m->end_ns > last_end ? m->end_ns - last_end : 0;
	free(last_job);
	free(overlap);
	return job_peak(jg);
}

struct job_comm {
	const char *comm; /* of its costliest process */
	size_t job;
};

static int by_comm(const void *a, const void *b)
{
	const struct job_comm *x = a, *y = b;
	int c = strcmp(x->comm, y->comm);

	return c ? c : (x->job > y->job) - (x->job < y->job);
}

/* Each job's scheduler time, and the program that cost it most (jobs of one program are compared). */
static int job_cpu(struct job_graph *jg, const struct model *m)
{
	struct job_comm *by = malloc((jg->nr_jobs ? jg->nr_jobs : 1) * sizeof(*by));
	__u64 *most = calloc(jg->nr_jobs ? jg->nr_jobs : 1, sizeof(*most));
	size_t i;

	if (!by || !most) {
		free(by);
		free(most);
		return -ENOMEM;
	}
	for (i = 0; i < jg->nr_jobs; i++)
		by[i] = (struct job_comm){ m->procs[jg->jobs[i].proc].comm, i };
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		long j = jg->proc_job[i];

		if (j < 0)
			continue;
		jg->jobs[j].cpu_ns += p->sched.on_cpu_ns;
		jg->jobs[j].runq_ns += p->sched.runq_ns;
		jg->cpu_known |= p->sched.on_cpu_ns > 0;
		if (p->sched.on_cpu_ns > most[j]) {
			most[j] = p->sched.on_cpu_ns;
			by[j].comm = p->comm;
		}
	}
	/* Sorted by program, then job: each run's first job names the program. */
	qsort(by, jg->nr_jobs, sizeof(*by), by_comm);
	for (i = 0; i < jg->nr_jobs; i++)
		jg->jobs[by[i].job].program = i && !strcmp(by[i].comm, by[i - 1].comm) ?
						      jg->jobs[by[i - 1].job].program : by[i].job;
	free(by);
	free(most);
	return 0;
}

/*
 * The job a later line of a make recipe belongs to: its line before's (the
 * recipe is one job in one slot, graph/job_slots.h), or -1.  The line
 * before started earlier, so its job is numbered already.
 */
static long recipe_line(const struct job_slots *s, const struct job_graph *jg, size_t i)
{
	long before = s->line_before[i];

	return before >= 0 ? jg->proc_job[before] : -1;
}

int job_graph__build(struct job_graph *jg, const struct model *m, const struct job_slots *slots,
		     const struct graph_edge *edges, size_t nr_edges)
{
	size_t n = m->nr_procs ? m->nr_procs : 1, i;
	bool *runs_runner = calloc(n, sizeof(*runs_runner));
	int err = -ENOMEM;

	memset(jg, 0, sizeof(*jg));
	jg->origin_ns = m->start_ns;
	jg->wall_ns = m->end_ns > m->start_ns ? m->end_ns - m->start_ns : 0;
	jg->proc_job = malloc(n * sizeof(*jg->proc_job));
	jg->jobs = calloc(n, sizeof(*jg->jobs));
	if (!runs_runner || !jg->proc_job || !jg->jobs)
		goto out;
	/* A parent starts, and sorts, before its children: one pass up the tree. */
	for (i = m->nr_procs; i-- > 0;) {
		runs_runner[i] |= is_runner(&m->procs[i]);
		if (m->procs[i].parent >= 0)
			runs_runner[m->procs[i].parent] |= runs_runner[i];
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		jg->proc_job[i] = -1;
		if (p->parent < 0)
			continue;
		if (shell_call__is(m, i)) {
			/* make's own work, with its subtree (model/shell_call.h). */
			jg->nr_shell_calls++;
		} else if (is_runner(&m->procs[p->parent]) && !runs_runner[i] && recipe_line(slots, jg, i) >= 0) {
			/* A later line of a recipe: the recipe's job runs on to its end. */
			struct sim_job *j = &jg->jobs[recipe_line(slots, jg, i)];

			jg->proc_job[i] = (long)(j - jg->jobs);
			if (p->end_ns > j->end_ns)
				j->end_ns = p->end_ns;
		} else if (is_runner(&m->procs[p->parent]) && !runs_runner[i]) {
			jg->jobs[jg->nr_jobs] = (struct sim_job){ i, p->start_ns, p->end_ns, 0, -1, 0, 0, jg->nr_jobs, 0 };
			jg->proc_job[i] = (long)jg->nr_jobs++;
		} else {
			jg->proc_job[i] = jg->proc_job[p->parent];
		}
		if (is_runner(&m->procs[i]))
			jg->nr_runners++;
	}
	if (m->root >= 0 && is_runner(&m->procs[m->root]))
		jg->nr_runners++;
	err = job_cpu(jg, m) ?: job_timing(jg, m) ?: job_edges(jg, m, edges, nr_edges);
out:
	free(runs_runner);
	if (err)
		job_graph__free(jg);
	return err;
}

void job_graph__free(struct job_graph *jg)
{
	if (!jg)
		return;
	free(jg->jobs);
	free(jg->proc_job);
	free(jg->pred_off);
	free(jg->preds);
	free(jg->pred_early_ns);
	free(jg->marks);
	free(jg->links);
	memset(jg, 0, sizeof(*jg));
}

