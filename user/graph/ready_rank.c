// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "graph/ready_rank.h"
#include "model/image_args.h"
#include "model/tool_kind.h"

/* A job of a ranking runner, or an edge between two of its jobs (to waited for from). */
struct ranked {
	long runner;
	size_t from, to; /* a job: from == to */
};

/* By runner, then the later job first: a unit's dependents are all counted before it is. */
static int by_runner_then_later(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->runner != y->runner)
		return x->runner < y->runner ? -1 : 1;
	if (x->to != y->to)
		return x->to > y->to ? -1 : 1;
	return (x->from > y->from) - (x->from < y->from);
}

/* Per job: the runner that ranks it (its parent, when it starts the most needed first); -1: none. */
static long ranking_runner(const struct job_graph *jg, const struct model *m, size_t j)
{
	long r = m->procs[jg->jobs[j].proc].parent;

	return r >= 0 && tool_kind__starts_most_needed_first(tool_kind__lookup(m->procs[r].comm)) ? r : -1;
}

static void add(struct ranked *all, size_t *n, const long *runner, size_t from, size_t to)
{
	if (from < to && runner[from] >= 0 && runner[from] == runner[to])
		all[(*n)++] = (struct ranked){ runner[to], from, to };
}

/* What a unit of cargo is, for the edges of its unit graph the files do not show. */
struct unit_role {
	enum { UNIT_OTHER, UNIT_SCRIPT_COMPILE, UNIT_SCRIPT_RUN, UNIT_CRATE } role;
	const char *text; /* the compile's --out-dir, the run's program path, the crate's name */
	size_t len;	  /* of the directory: text up to its last '/' (a run), all of it (a compile) */
};

static struct unit_role unit_role(const struct proc_instance *p)
{
	const struct exec_image *im = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	enum tool_kind tool = im ? image_tool(im) : TOOL_OTHER;
	const char *crate = NULL, *out_dir = NULL, *v, *slash;
	size_t i;

	if (tool == TOOL_BUILD_SCRIPT && (v = im->filename ? im->filename : im->argc ? im->argv[0] : NULL) &&
	    (slash = strrchr(v, '/')))
		return (struct unit_role){ UNIT_SCRIPT_RUN, v, (size_t)(slash - v) };
	for (i = 1; tool == TOOL_RUSTC && i < im->argc && im->argv[i]; i++)
		if ((v = image_option_value(im, &i, "--crate-name", NULL)))
			crate = v;
		else if ((v = image_option_value(im, &i, "--out-dir", NULL)))
			out_dir = v;
	if (!crate)
		return (struct unit_role){ UNIT_OTHER, NULL, 0 };
	/* cargo compiles build.rs as build_script_build, another script file as build_script_STEM */
	if (!strncmp(crate, "build_script_", 13) && out_dir)
		return (struct unit_role){ UNIT_SCRIPT_COMPILE, out_dir, strlen(out_dir) };
	return (struct unit_role){ UNIT_CRATE, crate, strlen(crate) };
}

/* A unit named for script_edges(): by what it makes or needs (a directory, a package), its role, its job. */
struct named_unit {
	long runner;
	int space;	  /* 0: a script's directory; 1: a package's crate */
	const char *text; /* the directory, or the package (dashes read as '_', cargo's lib name) */
	size_t len;
	int role;	  /* what the unit gives in its space (1) or takes (2) */
	size_t job;
};

/* a against b, a package's '-' as '_'. */
static int name_cmp(const struct named_unit *a, const struct named_unit *b)
{
	size_t i, n = a->len < b->len ? a->len : b->len;

	for (i = 0; i < n; i++) {
		char x = a->text[i] == '-' ? '_' : a->text[i], y = b->text[i] == '-' ? '_' : b->text[i];

		if (x != y)
			return (unsigned char)x < (unsigned char)y ? -1 : 1;
	}
	return (a->len > b->len) - (a->len < b->len);
}

/* By runner, space and name, then in start order. */
static int by_name_then_job(const void *x, const void *y)
{
	const struct named_unit *a = x, *b = y;
	int c;

	if (a->runner != b->runner)
		return a->runner < b->runner ? -1 : 1;
	if (a->space != b->space)
		return a->space - b->space;
	if ((c = name_cmp(a, b)))
		return c;
	return (a->job > b->job) - (a->job < b->job);
}

/* The package of a run from .../build/PKG-HASH (its directory's last /build/ part up to its last dash). */
static bool run_package(const struct unit_role *run, const char **pkg, size_t *len)
{
	const char *dir = run->text, *at = NULL, *c, *dash = NULL;

	for (c = dir; (c = strstr(c, "/build/")) && c < dir + run->len; c++)
		at = c + 7;
	for (c = at; c && c < dir + run->len; c++)
		dash = *c == '-' ? c : dash;
	if (!dash || dash == at)
		return false;
	*pkg = at;
	*len = (size_t)(dash - at);
	return true;
}

/*
 * The edges cargo's unit graph has and the files do not show: a build
 * script's run after its compile (it runs the program the compile wrote,
 * by exec, no open), its package's crate after the run (cargo reads what
 * the run printed and passes it on).  Each run after the last compile of
 * its directory that started before it, each crate after the last run of
 * its package that started before it (cargo starts neither sooner).
 */
static int script_edges(const struct job_graph *jg, const struct model *m, const long *runner, struct ranked *all,
			size_t *n)
{
	struct named_unit *u = malloc((2 * jg->nr_jobs + 1) * sizeof(*u));
	size_t i, k = 0;
	long given = -1;

	if (!u)
		return -ENOMEM;
	for (i = 0; i < jg->nr_jobs; i++) {
		struct unit_role r = runner[i] >= 0 ? unit_role(&m->procs[jg->jobs[i].proc]) : (struct unit_role){};
		const char *pkg;
		size_t len;

		if (r.role == UNIT_SCRIPT_COMPILE)
			u[k++] = (struct named_unit){ runner[i], 0, r.text, r.len, 1, i };
		if (r.role == UNIT_SCRIPT_RUN) {
			u[k++] = (struct named_unit){ runner[i], 0, r.text, r.len, 2, i };
			if (run_package(&r, &pkg, &len))
				u[k++] = (struct named_unit){ runner[i], 1, pkg, len, 1, i };
		}
		if (r.role == UNIT_CRATE)
			u[k++] = (struct named_unit){ runner[i], 1, r.text, r.len, 2, i };
	}
	qsort(u, k, sizeof(*u), by_name_then_job);
	for (i = 0; i < k; i++) {
		if (i && (u[i - 1].runner != u[i].runner || u[i - 1].space != u[i].space || name_cmp(&u[i - 1], &u[i])))
			given = -1; /* another name */
		if (u[i].role == 1)
			given = (long)u[i].job;
		else if (given >= 0)
			add(all, n, runner, (size_t)given, u[i].job);
	}
	free(u);
	return 0;
}

/*
 * The ranks of one runner's jobs: all[0 .. n), its jobs and edges, the
 * later job first.  Each set holds a unit and its dependents; a unit's is
 * whole once every later unit's has been added to those it waited for.
 */
static int rank_runner(struct job_graph *jg, const struct ranked *all, size_t n, size_t *local)
{
	size_t units = 0, words, i, w;
	uint64_t *sets;

	for (i = 0; i < n; i++)
		if (all[i].from == all[i].to)
			local[all[i].to] = units++;
	if (units > READY_RANK_MAX_UNITS)
		return 0; /* ranked as they started (ready_rank.h) */
	words = (units + 63) / 64;
	sets = calloc(units ? units * words : 1, sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	for (i = 0; i < units; i++)
		sets[i * words + i / 64] |= 1ull << (i % 64);
	for (i = 0; i < n; i++) {
		uint64_t *from = &sets[local[all[i].from] * words], *to = &sets[local[all[i].to] * words];

		for (w = 0; all[i].from != all[i].to && w < words; w++)
			from[w] |= to[w];
	}
	for (i = 0; i < n; i++) {
		size_t u = local[all[i].to], count = 0;

		if (all[i].from != all[i].to)
			continue;
		for (w = 0; w < words; w++)
			count += (size_t)__builtin_popcountll(sets[u * words + w]);
		jg->jobs[all[i].to].rank = count;
	}
	free(sets);
	return 0;
}

int ready_rank__fill(struct job_graph *jg, const struct model *m)
{
	size_t nj = jg->nr_jobs ? jg->nr_jobs : 1, n = 0, i, k, from;
	long *runner = malloc(nj * sizeof(*runner));
	size_t *local = malloc(nj * sizeof(*local));
	/* Its jobs, their data edges and links, and at most one script edge into each job. */
	struct ranked *all = malloc((2 * jg->nr_jobs + jg->nr_data_edges + jg->nr_links + 1) * sizeof(*all));
	int err = -ENOMEM;

	if (!runner || !local || !all)
		goto out;
	for (i = 0; i < jg->nr_jobs; i++) {
		runner[i] = ranking_runner(jg, m, i);
		if (runner[i] >= 0)
			all[n++] = (struct ranked){ runner[i], i, i };
	}
	for (i = 0; n && i < jg->nr_jobs; i++)
		for (k = jg->pred_off[i]; k < jg->pred_off[i + 1]; k++)
			add(all, &n, runner, jg->preds[k], i);
	for (k = 0; n && k < jg->nr_links; k++)
		if (jg->links[k].from < jg->nr_jobs && jg->links[k].to < jg->nr_jobs)
			add(all, &n, runner, jg->links[k].from, jg->links[k].to);
	if (n && script_edges(jg, m, runner, all, &n))
		goto out;
	/* Within a runner its job comes after the edges into it, before those out of it. */
	qsort(all, n, sizeof(*all), by_runner_then_later);
	err = 0;
	for (from = 0, i = 1; i <= n && !err; i++)
		if (i == n || all[i].runner != all[from].runner) {
			err = rank_runner(jg, all + from, i - from, local);
			from = i;
		}
out:
	free(runner);
	free(local);
	free(all);
	return err;
}
