// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's figures.  Whole-build times come from the process model (the
 * kernel's per-process totals); everything about how many threads ran or
 * waited at once comes from the exact sweep in the sched model, so with
 * --sched=off those figures stay unset rather than zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "model/memory.h"
#include "model/tool_kind.h"
#include "util/interval.h"
#include "audit/audit.h"

/* Inserts (proc, value) into a top list kept largest first. */
static void top_offer(struct audit_top *t, size_t proc, __u64 value)
{
	size_t i;

	if (!value)
		return;
	for (i = 0; i < t->nr; i++)
		if (value > t->items[i].value)
			break;
	if (i >= AUDIT_TOP)
		return;
	if (t->nr < AUDIT_TOP)
		t->nr++;
	memmove(&t->items[i + 1], &t->items[i], (t->nr - 1 - i) * sizeof(t->items[0]));
	t->items[i] = (struct audit_rank){ .proc = proc, .value = value };
}

/* The instance of tgid that overlaps [start, end) most: pids are reused. */
static long find_instance(const struct model *m, __u32 tgid, __u64 start, __u64 end)
{
	__u64 best_ns = 0, ns;
	long best = -1;
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		if (m->procs[i].pid != tgid)
			continue;
		ns = interval_overlap(m->procs[i].start_ns, m->procs[i].end_ns, start, end);
		if (best < 0 || ns > best_ns) {
			best = i;
			best_ns = ns;
		}
	}
	return best;
}

static bool *leaf_flags(const struct model *m)
{
	bool *leaf = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*leaf));
	size_t i;

	if (!leaf)
		return NULL;
	for (i = 0; i < m->nr_procs; i++)
		leaf[i] = true;
	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].parent >= 0)
			leaf[m->procs[i].parent] = false;
	return leaf;
}

/* A phase where no process ran: name the leaf process alive through most of it. */
static void phase_waiter(struct audit_phase *ph, const struct model *m, const bool *leaf)
{
	__u64 best_ns = 0, ns;
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		if (!leaf[i])
			continue;
		ns = interval_overlap(m->procs[i].start_ns, m->procs[i].end_ns, ph->start_ns, ph->end_ns);
		if (ns > best_ns) {
			best_ns = ns;
			ph->procs[0] = (struct audit_phase_proc){ .proc = i, .pid = m->procs[i].pid };
			ph->nr_procs = 1;
		}
	}
}

static void compute_phases(struct audit *a, const struct model *m, const bool *leaf)
{
	const struct parallelism *par = a->par;
	size_t i, k;

	for (i = 0; i < par->nr_phases && a->nr_phases < AUDIT_MAX_PHASES; i++) {
		const struct par_phase *pp = &par->phases[i];
		struct audit_phase *ph = &a->phases[a->nr_phases];

		if (pp->end_ns - pp->start_ns < a->serial_threshold_ns)
			break; /* longest first: the rest are shorter */
		memset(ph, 0, sizeof(*ph));
		ph->start_ns = pp->start_ns;
		ph->end_ns = pp->end_ns;
		ph->cpu_ns = pp->cpu_ns;
		ph->parallel_ns = pp->parallel_ns;
		for (k = 0; k < pp->nr_procs; k++) {
			ph->procs[k].pid = pp->procs[k].tgid;
			ph->procs[k].on_cpu_ns = pp->procs[k].on_cpu_ns;
			ph->procs[k].proc = find_instance(m, pp->procs[k].tgid, pp->start_ns, pp->end_ns);
		}
		ph->nr_procs = pp->nr_procs;
		if (!ph->nr_procs)
			phase_waiter(ph, m, leaf);
		a->nr_phases++;
	}
}

static int cmp_leaf_end(const void *x, const void *y, void *ctx)
{
	const struct model *m = ctx;
	const struct proc_instance *p = &m->procs[*(const size_t *)x], *q = &m->procs[*(const size_t *)y];

	if (p->end_ns != q->end_ns)
		return p->end_ns < q->end_ns ? -1 : 1;
	if (p->start_ns != q->start_ns)
		return p->start_ns < q->start_ns ? -1 : 1;
	return p->id < q->id ? -1 : p->id > q->id;
}

/*
 * Walking back from the leaf process that exited last, each step takes the
 * leaf that exited last before the current one started: what it plausibly
 * waited for.  Leaves only, because a parent (make, a compiler driver) spans
 * its children and would always be "the last to exit".  An estimate: the
 * real dependencies are in the build graph, which a tracer does not see.
 */
/* The build graph's critical path, without the steps too short to list. */
static int chain_from_graph(struct audit *a, const struct graph_run *g)
{
	size_t i;

	a->chain = malloc((g->path.nr ? g->path.nr : 1) * sizeof(*a->chain));
	a->chain_step = malloc((g->path.nr ? g->path.nr : 1) * sizeof(*a->chain_step));
	if (!a->chain || !a->chain_step)
		return -ENOMEM;
	a->graph = g;
	a->chain_busy_ns = g->path.held_ns;
	a->chain_wait_ns = g->path.wait_ns;
	for (i = 0; i < g->path.nr; i++) {
		if (g->jobs.nr_jobs && g->jobs.proc_job[g->path.steps[i].proc] < 0)
			a->chain_no_job_ns += g->path.steps[i].to_ns - g->path.steps[i].from_ns;
		/* A short step is listed still when a file links it to the next or the one before. */
		bool linked = g->path.steps[i].via == LINK_INPUT || (i && g->path.steps[i - 1].via == LINK_INPUT);

		if (g->path.steps[i].to_ns - g->path.steps[i].from_ns < AUDIT_STEP_MIN_NS && !linked)
			continue;
		a->chain_step[a->nr_chain] = i;
		a->chain[a->nr_chain++] = g->path.steps[i].proc;
	}
	return 0;
}

__u64 audit__chain_wait_before(const struct audit *a, size_t i, size_t *named)
{
	const struct graph_run *g = a->graph;
	size_t k, from = i ? a->chain_step[i - 1] + 1 : 1;
	__u64 sum = 0, longest = 0;

	*named = g ? a->chain_step[i] : 0;
	for (k = from; g && k <= a->chain_step[i] && k < g->path.nr; k++) {
		const struct critical_step *st = &g->path.steps[k], *before = st - 1;
		__u64 gap = st->from_ns > before->to_ns ? st->from_ns - before->to_ns : 0;

		sum += gap;
		if (gap > longest) {
			longest = gap;
			*named = k;
		}
	}
	return sum;
}

__u64 audit__chain_held(const struct audit *a, const struct model *m, size_t i)
{
	const struct proc_instance *p = &m->procs[a->chain[i]];

	return a->graph ? audit_whatif__step_held(a, i) : p->end_ns - p->start_ns;
}

size_t audit__chain_longest(const struct audit *a, const struct model *m, size_t max,
			    bool (*keep)(const struct audit *a, size_t i), bool *listed)
{
	size_t i, k, best;

	/* max passes, each marking the longest left: lists are short, so O(chain * max). */
	for (k = 0; k < max; k++) {
		best = a->nr_chain;
		for (i = 0; i < a->nr_chain; i++)
			if (!listed[i] && (!keep || keep(a, i)) &&
			    (best == a->nr_chain || audit__chain_held(a, m, i) > audit__chain_held(a, m, best)))
				best = i;
		if (best == a->nr_chain)
			break;
		listed[best] = true;
	}
	return k;
}

static int compute_chain(struct audit *a, const struct model *m, const bool *leaf)
{
	size_t *leaves = NULL, nr = 0, i, lo, hi, cur, n;
	int err = 0;

	if (!m->nr_procs)
		return 0;
	leaves = malloc(m->nr_procs * sizeof(*leaves));
	a->chain = malloc(m->nr_procs * sizeof(*a->chain));
	if (!leaves || !a->chain) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < m->nr_procs; i++)
		if (leaf[i])
			leaves[nr++] = i;
	qsort_r(leaves, nr, sizeof(*leaves), cmp_leaf_end, (void *)m);
	n = 0;
	cur = nr; /* position in leaves of the current chain member */
	if (nr)
		cur = nr - 1;
	while (cur < nr) {
		const struct proc_instance *p = &m->procs[leaves[cur]];

		a->chain[n++] = leaves[cur];
		a->chain_busy_ns += p->end_ns - p->start_ns;
		/* The last leaf with end <= p->start: ends are sorted. */
		lo = 0;
		hi = cur; /* every earlier position has end <= p->end */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (m->procs[leaves[mid]].end_ns <= p->start_ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* Always an earlier position than cur: the walk ends. */
		cur = lo ? lo - 1 : nr;
	}
	/* Oldest first. */
	for (i = 0; i < n / 2; i++) {
		size_t t = a->chain[i];

		a->chain[i] = a->chain[n - 1 - i];
		a->chain[n - 1 - i] = t;
	}
	a->nr_chain = n;
cleanup:
	free(leaves);
	return err;
}

static int cmp_program(const void *x, const void *y)
{
	const struct audit_program *p = x, *q = y;

	if (p->cpu_ns != q->cpu_ns)
		return p->cpu_ns > q->cpu_ns ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* Wall time covered by intervals sorted by start: their union's length. */
struct coverage {
	__u64 covered, reach;
};

static void coverage_add(struct coverage *c, __u64 from, __u64 to)
{
	if (from < c->reach)
		from = c->reach;
	if (to > from) {
		c->covered += to - from;
		c->reach = to;
	}
}

static int cmp_parent_start(const void *x, const void *y, void *ctx)
{
	const struct model *m = ctx;
	const struct proc_instance *p = &m->procs[*(const size_t *)x], *q = &m->procs[*(const size_t *)y];

	if (p->parent != q->parent)
		return p->parent < q->parent ? -1 : 1;
	if (p->start_ns != q->start_ns)
		return p->start_ns < q->start_ns ? -1 : 1;
	return p->id < q->id ? -1 : p->id > q->id;
}

/* Flags every wrapper (audit.h): its children's lifetimes, clipped to its own, merged. */
static int compute_wrappers(struct audit *a, const struct model *m)
{
	size_t *kids, nr = 0, i;

	a->wrapper = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*a->wrapper));
	kids = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*kids));
	if (!a->wrapper || !kids) {
		free(kids);
		return -ENOMEM;
	}
	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].parent >= 0)
			kids[nr++] = i;
	qsort_r(kids, nr, sizeof(*kids), cmp_parent_start, (void *)m);
	for (i = 0; i < nr;) {
		long parent = m->procs[kids[i]].parent;
		const struct proc_instance *p = &m->procs[parent];
		struct coverage cov = { .reach = p->start_ns };
		__u64 wall = p->end_ns - p->start_ns;

		for (; i < nr && m->procs[kids[i]].parent == parent; i++) {
			const struct proc_instance *c = &m->procs[kids[i]];

			coverage_add(&cov, c->start_ns, c->end_ns < p->end_ns ? c->end_ns : p->end_ns);
		}
		a->wrapper[parent] = (wall && cov.covered >= wall / 1000 * AUDIT_WRAPPER_COVER_PERMILLE &&
				      p->utime_ns + p->stime_ns <=
					      AUDIT_WRAPPER_CPU_NS + wall / 1000 * AUDIT_WRAPPER_CPU_PERMILLE) ||
				     tool_kind__wraps(proc_program(p));
	}
	/* A followed daemon and its workers, found running, serve the build
	 * throughout: the steps are what they start. */
	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].run_by_daemon && m->procs[i].found)
			a->wrapper[i] = true;
	free(kids);
	return 0;
}

bool audit__is_step(const struct audit *a, size_t proc)
{
	return !a->wrapper[proc];
}

struct program_order {
	const struct model *m;
	const size_t *program; /* per process: its index in a->programs */
};

static int cmp_program_start(const void *x, const void *y, void *ctx)
{
	const struct program_order *o = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;

	if (o->program[i] != o->program[j])
		return o->program[i] < o->program[j] ? -1 : 1;
	if (o->m->procs[i].start_ns != o->m->procs[j].start_ns)
		return o->m->procs[i].start_ns < o->m->procs[j].start_ns ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Each program's wall time: the union of its steps' (not its wrappers') lifetimes. */
static int compute_program_wall(struct audit *a, const struct model *m, const size_t *program)
{
	struct program_order order = { .m = m, .program = program };
	size_t *steps = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*steps)), nr = 0, i;

	if (!steps)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++)
		if (audit__is_step(a, i))
			steps[nr++] = i;
	qsort_r(steps, nr, sizeof(*steps), cmp_program_start, &order);
	for (i = 0; i < nr;) {
		size_t k = program[steps[i]];
		struct coverage cov = {};

		for (; i < nr && program[steps[i]] == k; i++)
			coverage_add(&cov, m->procs[steps[i]].start_ns, m->procs[steps[i]].end_ns);
		a->programs[k].wall_ns = cov.covered;
	}
	free(steps);
	return 0;
}

static int compute_programs(struct audit *a, const struct model *m)
{
	size_t i, j, k, cap = 0, *program, *by_name;
	int err = 0;

	program = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*program));
	by_name = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*by_name));
	if (!program || !by_name) {
		err = -ENOMEM;
		goto cleanup;
	}
	/* By name, each program's processes come together: no search of the
	 * programs so far, which n programs of one process each made n^2. */
	for (i = 0; i < m->nr_procs; i++)
		by_name[i] = i;
	if (model__sort_by_program(m, by_name, m->nr_procs)) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (j = 0; j < m->nr_procs; j++) {
		const struct proc_instance *p = &m->procs[by_name[j]];
		const char *name = proc_program(p);

		k = a->nr_programs;
		if (!k || strcmp(a->programs[k - 1].name, name)) {
			if (array_grow((void **)&a->programs, &cap, k + 1, sizeof(*a->programs))) {
				err = -ENOMEM;
				goto cleanup;
			}
			a->programs[k] = (struct audit_program){ .name = strdup(name) };
			if (!a->programs[k].name) {
				err = -ENOMEM;
				goto cleanup;
			}
			a->nr_programs++;
		}
		k = a->nr_programs - 1;
		a->programs[k].cpu_ns += p->utime_ns + p->stime_ns;
		a->programs[k].nr_procs++;
		io__sum(&a->programs[k].io, p);
		program[by_name[j]] = k;
	}
	/* Before the sort: program[] holds indexes in name order. */
	err = compute_program_wall(a, m, program);
	if (!err && a->nr_programs)
		qsort(a->programs, a->nr_programs, sizeof(*a->programs), cmp_program);
cleanup:
	free(by_name);
	free(program);
	return err;
}

static __u64 minus(__u64 a, __u64 b)
{
	return a > b ? a - b : 0;
}

static void compute_parallelism(struct audit *a, const struct sched_model *s)
{
	const struct parallelism *par = a->par;
	size_t k;

	a->avg_running = a->wall_ns ? (double)par->run_thread_ns / a->wall_ns : 0;
	for (k = 0; k < a->jobs_target && k <= par->nr_cpus; k++) {
		__u64 room = (__u64)(a->jobs_target - k) * par->running_idle_ns[k];

		a->lost_ns += par->running_idle_ns[k];
		a->lost_cpu_ns += par->running_idle_cpu_ns[k] < room ? par->running_idle_cpu_ns[k] : room;
	}
	a->noisy_ns = par->noisy_ns;
	a->ready_full_ns = par->ready_full_ns;
	for (k = 1; k < par->nr_runnable; k++)
		a->runq_wall_ns += par->runnable_ns[k];
	/* Waiting while a CPU ran outside work is the machine's doing; the
	 * rest of the waiting is the build's jobs outnumbering the CPUs. */
	a->starved_ns = minus(a->runq_wall_ns, a->noisy_ns);
	if (a->jobs.jobs > 0 && a->jobs_target < par->nr_cpus)
		a->at_jobs_idle_ns = par->running_idle_ns[a->jobs_target];
	for (k = 0; k < s->nr_cpus; k++)
		a->other_ns += s->cpus[k].other_ns;
	/* A CPU counts from 1 % of the build's CPU time: a -j1 build migrates over all of them, a taskset one not. */
	for (k = 0; k < s->nr_cpus; k++)
		a->cpus_build_ran += s->cpus[k].build_ns * 100 >= par->run_thread_ns && s->cpus[k].build_ns > 0;
	a->other_share = a->wall_ns ? (double)a->other_ns / ((double)a->wall_ns * a->nr_cpus) : 0;
}

/*
 * The answers.  Parallel: "yes" from 3/4 of the CPUs busy with the build
 * on average; else "starved" when jobs enough for every CPU were ready
 * (running or waiting for a CPU) half the wall or more: the build was
 * parallel, the CPUs were not its to use; else "no" below 1.25 (about one
 * thing at a time).  Help: of the
 * four causes, each a stretch of wall time (they do not overlap; the
 * order's weighed by the CPUs it left idle), the longest, if it held 10 %
 * of the wall.
 */
static void compute_answers(struct audit *a)
{
	double avg = a->par ? a->avg_running : a->wall_ns ? (double)a->cpu_ns / a->wall_ns : 0;
	const struct {
		enum audit_help help;
		__u64 ns;
	} causes[] = {
		{ AUDIT_HELP_CPUS, a->starved_ns },
		{ AUDIT_HELP_QUIETER, a->noisy_ns },
		{ AUDIT_HELP_JOBS, a->at_jobs_idle_ns },
		/* As the wall of every CPU it could use idle: one CPU of 16 idle a
		 * quarter of the wall cost the build 2 % of its CPUs, not 25 %. */
		{ AUDIT_HELP_ORDER, a->jobs_target ? a->lost_cpu_ns / a->jobs_target : 0 },
	};
	size_t i;

	if (avg >= 0.75 * a->nr_cpus && a->nr_cpus > 1)
		a->parallel = AUDIT_PARALLEL_YES;
	else if (a->par && a->nr_cpus > 1 && a->ready_full_ns && a->ready_full_ns >= a->wall_ns / 2)
		a->parallel = AUDIT_PARALLEL_STARVED;
	else if (avg >= AUDIT_ONE_AT_A_TIME)
		a->parallel = AUDIT_PARALLEL_PARTLY;
	else
		a->parallel = AUDIT_PARALLEL_NO;
	if (!a->par) {
		a->help = AUDIT_HELP_UNKNOWN;
		return;
	}
	a->help = AUDIT_HELP_NONE;
	for (i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		if (causes[i].ns < a->wall_ns / 1000 * AUDIT_ANSWER_PERMILLE || causes[i].ns <= a->help_ns)
			continue;
		a->help = causes[i].help;
		a->help_ns = causes[i].ns;
	}
}

/* --follow's per-daemon split, and the waits outside the trace. */
static int compute_daemons(struct audit *a, const struct model *m, const struct audit_input *in)
{
	if (in->nr_follow) {
		a->daemons = calloc(in->nr_follow, sizeof(*a->daemons));
		if (!a->daemons)
			return -ENOMEM;
		a->nr_daemons = in->nr_follow;
		daemons__shares(m, in->follow, in->nr_follow, a->daemons);
	}
	if (daemons__outside_wait(m, &a->outside_wait))
		return -ENOMEM;
	a->mostly_elsewhere = daemons__mostly_elsewhere(&a->outside_wait, a->cpu_ns, a->wall_ns);
	return 0;
}

struct audit_input audit_input__of_replay(const struct replay *rp)
{
	const struct event_log_info *info = rp->info;

	return (struct audit_input){
		/* The CPUs the audit counts (audit__compute()'s fallback too): cargo's and go's default
		 * -j in the job slots is the same figure. */
		.nr_cpus = info->online_cpus > 0 ? (size_t)info->online_cpus : rp->sched ? rp->sched->nr_cpus : 0,
		.cmd_argv = info->cmd_argv,
		.cmd_argc = info->cmd_argc,
		.jobs_env = tool_jobs__env_of_log(info),
		.lost_events = rp->lost_events,
		.partial_reason = rp->partial_reason,
		.follow = info->follow,
		.nr_follow = info->nr_follow,
		.deps_hook = info->deps_hook,
		.mem_hook = info->mem_hook,
	};
}

/*
 * The build's -j: the first of these that names one.
 *   0. A cargo or go the command ran below a make, when it did the
 *      build phase's work (its own pool: `make` whose recipe runs cargo).
 *   1. The traced command's own (make -j8, ninja: its default).
 *   2. A wrapper (sh -c, env) hides it: the runner of the phase that did
 *      the build work, never a make that configure ran to probe.
 *   3. No phases (no root process: --cgroup): the first make or ninja the
 *      build ran, by start.
 * a's phases are computed.  jobs 0 (all of it zero): none named one.
 */
static struct tool_jobs choose_jobs(const struct audit *a, const struct model *m, const struct audit_input *in)
{
	const struct audit_cmd_phase *build = cmd_phases__build_phase(a->cmd_phases, a->nr_cmd_phases);
	struct tool_jobs j = {};
	size_t i;

	/* A make that ran a cargo or go for its work (cmd_phases.h) does not speak for it: the tool's own pool did. */
	if (build && build->runner != m->root && (!strcmp(build->jobs.tool, "cargo") || !strcmp(build->jobs.tool, "go")))
		return build->jobs;
	if (in->cmd_argc > 0)
		tool_jobs__from_argv(&j, in->cmd_argv, in->cmd_argc, &in->jobs_env, a->nr_cpus);
	if (!j.jobs && build)
		return build->jobs;
	for (i = 0; !j.jobs && !a->nr_cmd_phases && i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		if (p->nr_execs && p->execs[0].argc)
			tool_jobs__from_argv(&j, p->execs[0].argv, p->execs[0].argc, &in->jobs_env, a->nr_cpus);
	}
	return j;
}

/* The command's phases (audit/cmd_phases.h) into a->cmd_phases: a's wrappers, wall and CPUs are set. */
static int compute_cmd_phases(struct audit *a, const struct model *m, const struct audit_input *in)
{
	const struct cmd_phases_input pin = {
		.wrapper = a->wrapper,
		.slots = in->slots,
		.wall_ns = a->wall_ns,
		.nr_cpus = a->nr_cpus,
		.jobs_env = in->jobs_env,
	};

	return cmd_phases__compute(a->cmd_phases, &a->nr_cmd_phases, m, &pin);
}

int audit__compute(struct audit *a, const struct model *m, const struct sched_model *s,
		   const struct audit_input *in)
{
	bool *leaf = NULL;
	size_t i, cpus;
	int err;

	memset(a, 0, sizeof(*a));
	a->start_ns = m->start_ns;
	a->wall_ns = m->end_ns - m->start_ns;
	a->nr_cpus = in->nr_cpus ? in->nr_cpus : s ? s->nr_cpus : 1;
	a->lost_events = in->lost_events;
	a->oom_killed = memory__oom_killed(m);
	a->psi_known = memory__psi_stall(m, &a->psi_some_us, &a->psi_full_us);
	io__build_totals(m, &a->io);
	a->partial_reason = in->partial_reason;
	a->starts = in->starts;
	a->deps_hook = in->deps_hook;
	a->mem_hook = in->mem_hook;
	a->sched = s ? s->level : SCHED_OFF;
	a->par = s ? s->par : NULL;
	if (!a->par)
		a->sched = SCHED_OFF;

	fresh_build__compute(&a->fresh, m);
	err = compute_wrappers(a, m) ?: jobs_fit__compute(&a->fit, m, a->wrapper) ?:
	      compiler_cache__compute(&a->cache, m);
	if (err)
		goto cleanup;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		a->cpu_ns += p->utime_ns + p->stime_ns;
		a->runq_wait_ns += p->sched.runq_ns;
		if (!audit__is_step(a, i))
			continue; /* one entry per step in the top lists */
		top_offer(&a->top_wall, i, p->end_ns - p->start_ns);
		top_offer(&a->top_cpu, i, p->utime_ns + p->stime_ns);
		top_offer(&a->top_rss, i, p->peak_rss_kb);
		if (p->io_seen && (p->io_flags & BB_IO_STORAGE) && p->io.write_bytes)
			top_offer(&a->top_write, i, p->io.write_bytes);
		if (a->par)
			top_offer(&a->top_wait, i, p->sched.runq_ns);
	}
	if (!a->par)
		a->runq_wait_ns = 0;
	a->utilisation = a->wall_ns ? (double)a->cpu_ns / ((double)a->wall_ns * a->nr_cpus) : 0;

	err = compute_cmd_phases(a, m, in);
	if (err)
		goto cleanup;
	a->jobs = choose_jobs(a, m, in);
	cpus = a->nr_cpus;
	a->jobs_target = a->jobs.jobs > 0 && (size_t)a->jobs.jobs < cpus ? (size_t)a->jobs.jobs : cpus;

	a->serial_threshold_ns = a->wall_ns / 1000 * AUDIT_SERIAL_WALL_PERMILLE;
	if (a->serial_threshold_ns > AUDIT_SERIAL_MIN_NS)
		a->serial_threshold_ns = AUDIT_SERIAL_MIN_NS;

	leaf = leaf_flags(m);
	if (!leaf) {
		err = -ENOMEM;
		goto cleanup;
	}
	if (a->par) {
		compute_parallelism(a, s);
		compute_phases(a, m, leaf);
	}
	compute_answers(a);
	err = compute_daemons(a, m, in);
	if (err)
		goto cleanup;
	err = (in->graph && in->graph->path.nr ? chain_from_graph(a, in->graph) : compute_chain(a, m, leaf)) ?:
	      compute_programs(a, m) ?: audit_whatif__compute(&a->whatif, a);
	if (!err && a->whatif.known)
		whatif_answer__compute(&a->whatif.answer, &a->whatif, a);
cleanup:
	free(leaf);
	if (err)
		audit__free(a);
	return err;
}

bool audit__cmd_phase_stands_out(const struct audit *a, const struct audit_cmd_phase *ph)
{
	return a->nr_cmd_phases > 1 && ph->serial &&
	       ph->end_ns - ph->start_ns >= a->wall_ns / 1000 * AUDIT_ANSWER_PERMILLE;
}

bool audit__mostly_within_standing_phase(const struct audit *a, __u64 start_ns, __u64 end_ns)
{
	size_t i;

	for (i = 0; i < a->nr_cmd_phases; i++)
		if (audit__cmd_phase_stands_out(a, &a->cmd_phases[i]) &&
		    2 * interval_overlap(start_ns, end_ns, a->cmd_phases[i].start_ns, a->cmd_phases[i].end_ns) >
			    end_ns - start_ns)
			return true;
	return false;
}

void audit__free(struct audit *a)
{
	size_t i;

	for (i = 0; i < a->nr_programs; i++)
		free(a->programs[i].name);
	free(a->programs);
	free(a->chain);
	free(a->wrapper);
	free(a->chain_step);
	free(a->daemons);
	a->daemons = NULL;
	a->nr_daemons = 0;
	audit_whatif__free(&a->whatif);
	compiler_cache__free(&a->cache);
	a->programs = NULL;
	a->chain = NULL;
	a->wrapper = NULL;
	a->chain_step = NULL;
	a->graph = NULL;
	a->starts = NULL;
	a->nr_programs = a->nr_chain = 0;
}
