// SPDX-License-Identifier: GPL-2.0
/*
 * The command's phases (audit/cmd_phases.h).  Every process belongs to the
 * phase of its topmost ancestor below the command; a phase's figures are
 * its processes' sums, and its -j is read from the runner whose subtree did
 * at least half of its CPU work, so that configure's probe makes (a few ms
 * each) never speak for the build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_tree.h"
#include "model/tool_kind.h"
#include "util/base_name.h"
#include "util/interval.h"
#include "audit/cmd_phases.h"

struct phase_scan {
	const struct model *m;
	const struct cmd_phases_input *in; /* its slots: which makes share a jobserver, and its -j */
	__u32 *order;	 /* the processes, parents before their children (32-bit, as proc_instance's indices) */
	size_t nr_order;
	__s32 *phase_of; /* per process: its candidate phase; -1: none */
	__u64 *sub_cpu;	 /* per process: CPU time of it and its descendants */
	bool *topmost;	 /* per process: a runner with no runner above it in its phase */
	struct audit_cmd_phase *cands;
	size_t nr_cands;
};

static enum tool_kind kind_of_image(const struct exec_image *im)
{
	return tool_kind__lookup(base_name(im->filename));
}

static bool is_runner(const struct proc_instance *p)
{
	return tool_kind__is_runner(tool_kind__lookup(proc_program(p)));
}

static __u64 cpu_of(const struct proc_instance *p)
{
	return p->utime_ns + p->stime_ns;
}

/* Parents before children: the depth-first order of model/proc_tree.h. */
static int scan_order(struct phase_scan *sc)
{
	struct proc_tree t;
	size_t i;

	if (proc_tree__init(&t, sc->m))
		return -ENOMEM;
	for (i = 0; i < t.nr; i++)
		if (t.enter[i] != PROC_TREE_UNREACHED)
			sc->order[t.enter[i]] = i;
	for (i = 0; i < t.nr; i++)
		sc->nr_order += t.enter[i] != PROC_TREE_UNREACHED;
	proc_tree__free(&t);
	return 0;
}

static struct audit_cmd_phase *new_cand(struct phase_scan *sc, long proc, __u64 start, __u64 end)
{
	struct audit_cmd_phase *c = &sc->cands[sc->nr_cands++];

	*c = (struct audit_cmd_phase){ .proc = proc, .nr_commands = 1, .start_ns = start, .end_ns = end,
				       .runner = -1 };
	return c;
}

/*
 * The candidates: the command's children, those that overlapped grouped
 * (a child that starts before the group's last end joins it), and the
 * runner the command exec'd last, from that exec.  None: the command.
 */
static void find_candidates(struct phase_scan *sc)
{
	const struct model *m = sc->m;
	const struct proc_instance *root = &m->procs[m->root];
	__u64 runner_from = ~0ull;
	struct audit_cmd_phase *c = NULL;
	long runner_cand = -1;
	size_t i;

	if (root->nr_execs) {
		const struct exec_image *last = &root->execs[root->nr_execs - 1];
		enum tool_kind k = kind_of_image(last);

		/* A runner or cmake is one phase: its jobs are not phases. */
		if (tool_kind__is_runner(k) || k == TOOL_CMAKE)
			runner_from = root->nr_execs == 1 ? root->start_ns : last->start_ns;
	}
	for (i = 0; i < m->nr_procs; i++) { /* by start */
		const struct proc_instance *p = &m->procs[i];

		if (p->parent != m->root || p->start_ns >= runner_from)
			continue;
		if (c && p->start_ns < c->end_ns) {
			c->nr_commands++;
			if (p->end_ns > c->end_ns)
				c->end_ns = p->end_ns;
			/* The command that did the most work names the group. */
			if (sc->sub_cpu[i] > sc->sub_cpu[c->proc])
				c->proc = i;
		} else {
			c = new_cand(sc, i, p->start_ns, p->end_ns);
		}
		sc->phase_of[i] = c - sc->cands;
	}
	if (runner_from != ~0ull && root->end_ns > runner_from) {
		runner_cand = sc->nr_cands;
		new_cand(sc, m->root, runner_from, root->end_ns);
	}
	if (!sc->nr_cands) {
		runner_cand = 0;
		new_cand(sc, m->root, root->start_ns, root->end_ns);
	}
	if (runner_cand < 0)
		return;
	sc->phase_of[m->root] = runner_cand;
	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].parent == m->root && m->procs[i].start_ns >= runner_from)
			sc->phase_of[i] = runner_cand;
}

/* Each process takes its parent's phase; each runner learns whether one is above it. */
static void spread(struct phase_scan *sc)
{
	const struct model *m = sc->m;
	size_t k;

	for (k = 0; k < sc->nr_order; k++) {
		size_t i = sc->order[k];
		long parent = m->procs[i].parent;
		bool above = false;

		if (sc->phase_of[i] < 0 && parent >= 0 && parent != m->root) {
			sc->phase_of[i] = sc->phase_of[parent];
			above = is_runner(&m->procs[parent]) || !sc->topmost[parent];
		} else if (parent == m->root && sc->phase_of[i] >= 0 && sc->phase_of[parent] == sc->phase_of[i]) {
			above = is_runner(&m->procs[parent]); /* the command is this phase's runner */
		}
		/* topmost[] is true for a runner with none above, false for a
		 * runner below one; other processes pass "none above" down. */
		sc->topmost[i] = !above;
	}
}

static void subtree_cpu(struct phase_scan *sc)
{
	const struct model *m = sc->m;
	size_t k;

	for (k = sc->nr_order; k-- > 0;) {
		size_t i = sc->order[k];

		sc->sub_cpu[i] += cpu_of(&m->procs[i]);
		if (m->procs[i].parent >= 0)
			sc->sub_cpu[m->procs[i].parent] += sc->sub_cpu[i];
	}
}

/*
 * Is process i one of the commands that make its phase, not a step within
 * it?  The command's children are, except the jobs of a command that is
 * the phase's runner.
 */
static bool is_command(const struct phase_scan *sc, size_t i)
{
	const struct model *m = sc->m;

	return (long)i == m->root || (m->procs[i].parent == m->root && sc->cands[sc->phase_of[i]].proc != m->root);
}

/* Whether process i is a cargo or go (a pool of its own) and runner a make or ninja. */
static bool own_pool_below(const struct model *m, long runner, size_t i)
{
	enum tool_kind k = tool_kind__lookup(proc_program(&m->procs[i]));

	if (k != TOOL_CARGO && k != TOOL_GO)
		return false;
	k = tool_kind__lookup(proc_program(&m->procs[runner]));
	return k == TOOL_MAKE || k == TOOL_NINJA;
}

static void sum_figures(struct phase_scan *sc)
{
	const struct model *m = sc->m;
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		struct audit_cmd_phase *c;

		if (sc->phase_of[i] < 0)
			continue;
		c = &sc->cands[sc->phase_of[i]];
		c->cpu_ns += cpu_of(p);
		if (!is_command(sc, i) && !sc->in->wrapper[i] && !is_runner(p))
			c->step_ns += interval_overlap(p->start_ns, p->end_ns, c->start_ns, c->end_ns);
		if (is_runner(p) && sc->topmost[i] && (c->runner < 0 || sc->sub_cpu[i] > sc->sub_cpu[c->runner]))
			c->runner = i;
	}
	/* A cargo or go below a make (a recipe's `cargo build`) holds a pool of its own: when its subtree did
	 * half the phase's work, its -j is the phase's. */
	for (i = 0; i < m->nr_procs; i++) {
		struct audit_cmd_phase *c = sc->phase_of[i] >= 0 ? &sc->cands[sc->phase_of[i]] : NULL;

		if (c && c->runner >= 0 && own_pool_below(m, c->runner, i) && sc->sub_cpu[i] * 2 >= c->cpu_ns)
			c->runner = (long)i;
	}
}

/* Any of its images is ./configure, run as a program or by a shell ("bash ./configure"). */
static bool is_configure(const struct proc_instance *p)
{
	size_t k;

	for (k = 0; k < p->nr_execs; k++) {
		const struct exec_image *im = &p->execs[k];

		if (!strcmp(base_name(im->filename), "configure") ||
		    (im->argc > 1 && kind_of_image(im) == TOOL_SHELL && !strcmp(base_name(im->argv[1]), "configure")))
			return true;
	}
	return false;
}

/* The runner speaks for the phase when its subtree did half its work, or it is the phase's command. */
static void read_jobs(struct phase_scan *sc, struct audit_cmd_phase *c)
{
	const struct job_slots *slots = sc->in->slots;
	const struct proc_instance *r;

	if (c->runner < 0)
		return;
	r = &sc->m->procs[c->runner];
	if ((c->runner != c->proc && sc->sub_cpu[c->runner] * 2 < c->cpu_ns) || !r->nr_execs) {
		c->runner = -1;
		return;
	}
	tool_jobs__of_proc(&c->jobs, sc->m, (size_t)c->runner, &sc->in->jobs_env, sc->in->nr_cpus);
	/* A sub-make without its own -j takes the jobserver of the make above (in MAKEFLAGS). */
	if (c->jobs.source == JOBS_TOOL_DEFAULT && slots->is_make[c->runner] &&
	    slots->pool[c->runner] != (size_t)c->runner && slots->limit[slots->pool[c->runner]]) {
		c->jobs.jobs = slots->limit[slots->pool[c->runner]];
		c->jobs.source = JOBS_MAKEFLAGS;
	}
	if (!c->jobs.jobs)
		c->runner = -1;
}

static int cmp_longest(const void *x, const void *y)
{
	const struct audit_cmd_phase *p = x, *q = y;
	__u64 a = p->end_ns - p->start_ns, b = q->end_ns - q->start_ns;

	if (a != b)
		return a > b ? -1 : 1;
	return p->start_ns < q->start_ns ? -1 : p->start_ns > q->start_ns;
}

static int cmp_start(const void *x, const void *y)
{
	const struct audit_cmd_phase *p = x, *q = y;

	return p->start_ns < q->start_ns ? -1 : p->start_ns > q->start_ns;
}

/* The candidates from 1 % of the wall, at most AUDIT_MAX_CMD_PHASES of the longest, in time order. */
static void keep(struct phase_scan *sc, struct audit_cmd_phase *phases, size_t *nr)
{
	__u64 min_ns = sc->in->wall_ns / 1000 * AUDIT_CMD_PHASE_MIN_PERMILLE;
	size_t i, n = 0;

	for (i = 0; i < sc->nr_cands; i++)
		if (sc->cands[i].end_ns - sc->cands[i].start_ns >= min_ns)
			sc->cands[n++] = sc->cands[i];
	qsort(sc->cands, n, sizeof(*sc->cands), cmp_longest);
	if (n > AUDIT_MAX_CMD_PHASES)
		n = AUDIT_MAX_CMD_PHASES;
	qsort(sc->cands, n, sizeof(*sc->cands), cmp_start);
	for (i = 0; i < n; i++) {
		struct audit_cmd_phase *c = &sc->cands[i];
		__u64 wall = c->end_ns - c->start_ns;

		read_jobs(sc, c);
		c->configure = is_configure(&sc->m->procs[c->proc]);
		c->serial = c->step_ns < AUDIT_ONE_AT_A_TIME * wall && c->cpu_ns < AUDIT_ONE_AT_A_TIME * wall;
		phases[(*nr)++] = *c;
	}
}

int cmd_phases__compute(struct audit_cmd_phase *phases, size_t *nr, const struct model *m,
			const struct cmd_phases_input *in)
{
	struct phase_scan sc = { .m = m, .in = in };
	size_t n = m->nr_procs ? m->nr_procs : 1, i;
	int err = 0;

	*nr = 0;
	if (m->root < 0)
		return 0;
	sc.order = malloc(n * sizeof(*sc.order));
	sc.phase_of = malloc(n * sizeof(*sc.phase_of));
	sc.sub_cpu = calloc(n, sizeof(*sc.sub_cpu));
	sc.topmost = calloc(n, sizeof(*sc.topmost));
	sc.cands = malloc((n + 1) * sizeof(*sc.cands));
	if (!sc.order || !sc.phase_of || !sc.sub_cpu || !sc.topmost || !sc.cands || scan_order(&sc)) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < m->nr_procs; i++)
		sc.phase_of[i] = -1;
	/* Subtree CPU first: it names a group of overlapping commands. */
	subtree_cpu(&sc);
	find_candidates(&sc);
	spread(&sc);
	sum_figures(&sc);
	keep(&sc, phases, nr);
cleanup:
	free(sc.order);
	free(sc.phase_of);
	free(sc.sub_cpu);
	free(sc.topmost);
	free(sc.cands);
	return err;
}

const struct audit_cmd_phase *cmd_phases__build_phase(const struct audit_cmd_phase *phases, size_t nr)
{
	const struct audit_cmd_phase *best = NULL;
	size_t i;

	for (i = 0; i < nr; i++)
		if (phases[i].runner >= 0 && (!best || phases[i].cpu_ns > best->cpu_ns))
			best = &phases[i];
	return best;
}
