// SPDX-License-Identifier: GPL-2.0
/*
 * The audit as JSON, built with json-c (escaping included).  Figures that
 * were not recorded (--sched=off) are null and listed in "unavailable",
 * never 0.  Times are milliseconds; start_ms/end_ms count from the trace
 * start like the trace's own timestamps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/memory.h"
#include "report/answer_rows.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "report/compiler_cache_report.h"
#include "report/jobs_fit_report.h"
#include "util/json_lazy.h"
#include "util/json_stream.h"
#include "util/json_write.h"
#include "model/proc_name.h"

/* Chain members listed: those that held the path longest (the what-if's longest step among them), in path order. */
#define JSON_CHAIN_MAX 64
#define JSON_PROGRAMS_MAX 32

/* A share in [0, 1] with four decimals. */
static struct json_object *new_share(double v)
{
	char text[32];

	snprintf(text, sizeof(text), "%.4f", v);
	return json_object_new_double_s(strtod(text, NULL), text);
}

static struct json_object *new_proc_name(const struct model *m, long idx)
{
	struct json_object *str;
	char *name;

	if (idx < 0 || (size_t)idx >= m->nr_procs)
		return json_new_str("?");
	name = proc_display_name(m, &m->procs[idx]);
	if (!name)
		return NULL;
	str = json_new_str(name);
	free(name);
	return str;
}

/* The command line of p's last image, whole (its comm before any exec). */
static struct json_object *new_command_line(const struct proc_instance *p)
{
	const struct exec_image *im = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	struct json_object *str;
	char *line;

	if (!im)
		return json_new_clean_string(p->comm, strlen(p->comm));
	line = argv_display_name(im->argv, im->argc, 0);
	if (!line)
		return NULL;
	str = json_new_str(line);
	free(line);
	return str;
}

static struct json_object *new_ms_array(const __u64 *bins, size_t nr)
{
	struct json_object *arr = json_object_new_array();
	size_t i;
	int err = 0;

	for (i = 0; !err && i < nr; i++)
		err = json_append(arr, json_new_ms(bins[i]));
	return json_done(arr, err);
}

static struct json_object *new_unavailable(const struct audit *a)
{
	static const char *const fields[] = { "parallelism", "runqueue", "serial_phases", "top.runqueue_wait",
					      "outside_work" };
	struct json_object *arr = json_object_new_array();
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && !a->par && i < sizeof(fields) / sizeof(fields[0]); i++)
		err = json_append(arr, json_new_str(fields[i]));
	return json_done(arr, err);
}

static struct json_object *new_parallelism(const struct audit *a)
{
	const struct parallelism *par = a->par;
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put(o, "running_ms", new_ms_array(par->running_ns, par->nr_cpus + 1)) ?:
	      json_put(o, "running_with_idle_cpu_ms", new_ms_array(par->running_idle_ns, par->nr_cpus + 1)) ?:
	      json_put(o, "runnable_ms", new_ms_array(par->runnable_ns, par->nr_runnable)) ?:
	      json_put(o, "average_running", new_share(a->avg_running)) ?:
	      json_put_int(o, "peak_running", par->peak_running) ?:
	      json_put_int(o, "peak_runnable", par->peak_runnable) ?:
	      json_put_ms(o, "lost_ms", a->lost_ns) ?:
	      json_put(o, "lost_share", new_share(a->wall_ns ? (double)a->lost_ns / a->wall_ns : 0)) ?:
	      json_put_ms(o, "lost_idle_cpu_ms", a->lost_cpu_ns) ?:
	      json_put(o, "lost_idle_cpu_share", new_share(a->wall_ns && a->jobs_target ?
	      (double)a->lost_cpu_ns / ((double)a->wall_ns * a->jobs_target) : 0)) ?:
	      json_put_ms(o, "late_wait_ms", par->late_ns);
	return json_done(o, err);
}

/* tool, requested, unlimited, source (config_file with cargo_config, go_env): a -j as read from a command line. */
static int put_jobs(struct json_object *o, const struct tool_jobs *j)
{
	static const char *const sources[] = {
		[JOBS_UNKNOWN] = "unknown", [JOBS_ARGUMENT] = "argument", [JOBS_MAKEFLAGS] = "makeflags",
		[JOBS_TOOL_DEFAULT] = "default", [JOBS_CARGO_BUILD_JOBS] = "cargo_build_jobs",
		[JOBS_CARGO_CONFIG] = "cargo_config", [JOBS_GOFLAGS] = "goflags", [JOBS_GO_ENV] = "go_env",
	};

	return (j->tool[0] ? json_put_str(o, "tool", j->tool) : json_put_null(o, "tool")) ?:
	       (j->jobs > 0 ? json_put_int(o, "requested", j->jobs) : json_put_null(o, "requested")) ?:
	       json_put_bool(o, "unlimited", j->jobs < 0) ?:
	       json_put_str(o, "source", sources[j->source]) ?:
	       (j->config_file ? json_put_str(o, "config_file", j->config_file) : 0);
}

struct json_object *audit_json__jobs(const struct audit *a)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = put_jobs(o, &a->jobs) ?: json_put_int(o, "target", a->jobs_target);
	return json_done(o, err);
}

static struct json_object *new_phase_runner(const struct audit_cmd_phase *ph, const struct model *m)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put(o, "name", new_proc_name(m, ph->runner)) ?: json_put_int(o, "pid", m->procs[ph->runner].pid) ?:
	      put_jobs(o, &ph->jobs);
	return json_done(o, err);
}

/* The command's phases (audit/cmd_phases.h), in time order. */
static struct json_object *new_cmd_phase(const struct audit *a, const struct audit_cmd_phase *ph,
					 const struct model *m)
{
	struct json_object *o = json_object_new_object();
	__u64 wall = ph->end_ns - ph->start_ns;
	int err;

	err = json_put(o, "name", new_proc_name(m, ph->proc)) ?:
	      json_put(o, "command", new_command_line(&m->procs[ph->proc])) ?:
	      json_put_int(o, "pid", m->procs[ph->proc].pid) ?:
	      json_put_int(o, "commands", ph->nr_commands) ?:
	      json_put_ms(o, "start_ms", ph->start_ns - m->start_ns) ?:
	      json_put_ms(o, "end_ms", ph->end_ns - m->start_ns) ?:
	      json_put_ms(o, "wall_ms", wall) ?:
	      json_put(o, "wall_share", new_share(a->wall_ns ? (double)wall / a->wall_ns : 0)) ?:
	      json_put_ms(o, "cpu_ms", ph->cpu_ns) ?:
	      json_put(o, "average_cpus", new_share(wall ? (double)ph->cpu_ns / wall : 0)) ?:
	      json_put(o, "average_steps", new_share(wall ? (double)ph->step_ns / wall : 0)) ?:
	      json_put_bool(o, "serial", ph->serial) ?:
	      (ph->runner >= 0 ? json_put(o, "runner", new_phase_runner(ph, m)) : json_put_null(o, "runner"));
	return json_done(o, err);
}

static struct json_object *new_cmd_phases(const struct audit *a, const struct model *m)
{
	struct json_object *arr = json_object_new_array();
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < a->nr_cmd_phases; i++)
		err = json_append(arr, new_cmd_phase(a, &a->cmd_phases[i], m));
	return json_done(arr, err);
}

static struct json_object *new_runqueue(const struct audit *a)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_ms(o, "wait_ms", a->runq_wait_ns) ?: json_put_ms(o, "waiting_wall_ms", a->runq_wall_ns) ?:
	      json_put_ms(o, "noisy_neighbour_ms", a->noisy_ns) ?: json_put_ms(o, "jobs_for_every_cpu_ms", a->ready_full_ns);
	return json_done(o, err);
}

static struct json_object *new_phase(const struct audit_phase *ph, const struct model *m)
{
	struct json_object *procs = json_object_new_array(), *p, *o;
	size_t k;
	int err = 0;

	for (k = 0; !err && k < ph->nr_procs; k++) {
		p = json_object_new_object();
		err = json_put(p, "name", new_proc_name(m, ph->procs[k].proc)) ?:
		      json_put_int(p, "pid", ph->procs[k].pid) ?:
		      json_put_ms(p, "cpu_ms", ph->procs[k].on_cpu_ns) ?:
		      json_put(p, "share", new_share(ph->cpu_ns ? (double)ph->procs[k].on_cpu_ns / ph->cpu_ns : 0));
		err = json_append(procs, json_done(p, err));
	}
	procs = json_done(procs, err);
	o = json_object_new_object();
	err = json_put_ms(o, "start_ms", ph->start_ns - m->start_ns) ?:
	      json_put_ms(o, "end_ms", ph->end_ns - m->start_ns) ?:
	      json_put_ms(o, "duration_ms", ph->end_ns - ph->start_ns) ?:
	      json_put_ms(o, "cpu_ms", ph->cpu_ns) ?:
	      json_put_ms(o, "parallel_ms", ph->parallel_ns) ?:
	      json_put_ms(o, "tolerated_parallel_ms", par__phase_tolerance_ns(ph->end_ns - ph->start_ns)) ?:
	      json_put(o, "processes", procs);
	return json_done(o, err);
}

static struct json_object *new_phases(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	size_t i;
	int err = 0;

	for (i = 0; !err && i < a->nr_phases; i++)
		err = json_append(arr, new_phase(&a->phases[i], m));
	arr = json_done(arr, err);
	err = json_put_ms(o, "threshold_ms", a->serial_threshold_ns) ?: json_put(o, "phases", arr);
	return json_done(o, err);
}

bool audit_json__start_fields(const struct start_causes *sc, const struct model *m, size_t proc,
			      struct start_fields *f, char *text, size_t size)
{
	const struct start_cause *c = sc && proc < sc->nr_procs ? &sc->procs[proc] : NULL;

	if (!c || c->wait == START_UNKNOWN)
		return false;
	f->waited_for = start_cause__text(c, m, text, size);
	f->waited_kind = start_wait__name(c->wait);
	f->ready_ns = c->ready_ns - m->start_ns;
	f->waited_ns = c->start_ns - c->ready_ns;
	return true;
}

int audit_json__put_start(struct json_object *o, const struct start_causes *sc, const struct model *m,
			  size_t proc)
{
	struct start_fields f;
	char text[START_TEXT_BYTES];

	if (!audit_json__start_fields(sc, m, proc, &f, text, sizeof(text)))
		return 0;
	return json_put_str(o, "waited_for", f.waited_for) ?:
	       json_put_str(o, "waited_kind", f.waited_kind) ?:
	       json_put_ms(o, "ready_ms", f.ready_ns) ?:
	       json_put_ms(o, "waited_ms", f.waited_ns);
}

/* How many processes waited for what before they started, and how long in all. */
static struct json_object *new_start_waits(const struct start_causes *sc)
{
	struct json_object *o = json_object_new_object(), *counts = json_object_new_object(),
			   *ms = json_object_new_object();
	int err = 0, k;

	for (k = START_NONE; !err && k <= START_UNEXPLAINED; k++)
		err = json_put_int(counts, start_wait__name(k), sc->counts[k]) ?:
		      json_put_ms(ms, start_wait__name(k), sc->waited_ns[k]);
	counts = json_done(counts, err);
	ms = json_done(ms, err);
	err = err ?: json_put_int(o, "records", sc->records) ?:
	      json_put_int(o, "unmatched", sc->unmatched) ?:
	      json_put_int(o, "shell_calls", sc->shell_calls) ?:
	      json_put(o, "processes", counts) ?:
	      json_put(o, "waited_ms", ms);
	return json_done(o, err);
}

static struct json_object *new_chain(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array(), *p;
	bool *listed = calloc(a->nr_chain ? a->nr_chain : 1, sizeof(*listed));
	const char *cache;
	size_t i, named;
	int err = listed ? 0 : -ENOMEM;

	/* The longest build step first: the one the what-if names, however many runner's parts held longer. */
	if (listed)
		audit__chain_longest(a, m, JSON_CHAIN_MAX - audit__chain_longest(a, m, 1, audit_whatif__is_step, listed),
				     NULL, listed);
	for (i = 0; !err && i < a->nr_chain; i++) {
		const struct proc_instance *pi = &m->procs[a->chain[i]];

		if (!listed[i])
			continue;
		p = json_object_new_object();
		err = json_put(p, "name", new_proc_name(m, a->chain[i])) ?:
		      json_put_int(p, "pid", pi->pid) ?:
		      json_put_ms(p, "start_ms", pi->start_ns - m->start_ns) ?:
		      json_put_ms(p, "end_ms", pi->end_ns - m->start_ns);
		if (!err && a->graph) {
			/* The part of the process that held the path, and how the next step followed. */
			const struct critical_step *s = &a->graph->path.steps[a->chain_step[i]];

			err = json_put_ms(p, "path_from_ms", s->from_ns - m->start_ns) ?:
			      json_put_ms(p, "path_to_ms", s->to_ns - m->start_ns) ?:
			      json_put_str(p, "then", graph_link__name(s->via));
			if (!err && s->via == LINK_INPUT)
				err = json_put_str(p, "file", a->graph->data.edges[s->edge].path);
			err = err ?: json_put_ms(p, "path_wait_before_ms", audit__chain_wait_before(a, i, &named));
			err = err ?: json_put_double(p, "wall_share", a->wall_ns ? (double)(s->to_ns - s->from_ns) /
										   (double)a->wall_ns : 0);
			err = err ?: json_put_bool(p, "step", audit_whatif__is_step(a, i));
			if (!err && a->whatif.known && a->whatif.without_ns[i])
				err = json_put_ms(p, "wall_without_ms", a->whatif.without_ns[i]);
		}
		err = err ?: audit_json__put_start(p, a->starts, m, a->chain[i]);
		if (!err && (cache = compiler_cache__word(compiler_cache__step(&a->cache, a->chain[i]))))
			err = json_put_str(p, "cache", cache);
		err = json_append(arr, json_done(p, err));
	}
	free(listed);
	arr = json_done(arr, err);
	if (!err && a->graph)
		err = json_put_int(o, "file_edges", a->graph->data.nr_edges);
	err = err ?: json_put_bool(o, "estimate", !a->graph) ?:
	      json_put_int(o, "count", a->nr_chain) ?:
	      json_put_int(o, "steps", audit_whatif__nr_steps(a)) ?:
	      json_put_ms(o, "busy_ms", a->chain_busy_ns) ?:
	      json_put_ms(o, "waits_ms", a->chain_wait_ns) ?:
	      json_put_ms(o, "outside_jobs_ms", a->chain_no_job_ns) ?:
	      json_put(o, "processes", arr);
	return json_done(o, err);
}

/* One step of a race: the job's process, its name and lifetime. */
static struct json_object *new_race_step(const struct model *m, const struct job_graph *jg, size_t job,
					 size_t step, const char *name)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_str(o, "name", name) ?:
	      json_put_int(o, "pid", m->procs[step].pid) ?:
	      json_put_ms(o, "start_ms", jg->jobs[job].start_ns - m->start_ns) ?:
	      json_put_ms(o, "end_ms", jg->jobs[job].end_ns - m->start_ns);
	return json_done(o, err);
}

/* What the races' items are made from. */
struct races_ctx {
	const struct audit *a;
	const struct model *m;
};

/* Race i of the audit's graph (json_lazy_item_fn). */
static struct json_object *new_race(size_t i, const void *ctx)
{
	const struct races_ctx *c = ctx;
	const struct model *m = c->m;
	const struct job_graph *jg = &c->a->graph->jobs;
	const struct race *x = &c->a->graph->races.items[i];
	struct json_object *p = json_object_new_object();
	int err;

	err = json_put_str(p, "kind", race_kind__key(x->kind)) ?:
	      json_put_str(p, "file", x->file) ?:
	      json_put(p, "writer", new_race_step(m, jg, x->writer_job, x->writer_step, x->writer_name)) ?:
	      json_put(p, "other", new_race_step(m, jg, x->other_job, x->other_step, x->other_name)) ?:
	      json_put_ms(p, "write_ms", x->write_ns - m->start_ns) ?:
	      json_put_ms(p, "other_ms", x->other_ns - m->start_ns) ?:
	      json_put_bool(p, "by_rename", x->by_rename) ?:
	      json_put_str(p, "advice", x->advice);
	return json_done(p, err);
}

/*
 * races: undeclared dependencies between jobs (graph/races.h); null
 * without a build graph.  Made as it is printed (util/json_lazy.h): a
 * generated build of a million processes has 50,000 of them, whose trees
 * took 144 MB at once.
 */
static struct json_object *new_races(const struct audit *a, const struct model *m)
{
	const struct races_ctx ctx = { a, m };

	return json_lazy_array(a->graph->races.nr, new_race, &ctx, sizeof(ctx));
}

/* what_if's model: what it took from the recording (docs/audit.md). */
static int put_what_if_model(struct json_object *o, const struct audit_whatif *w)
{
	const struct job_contention *c = &w->contention;

	if (!w->cpu_model)
		return json_put_str(o, "model", "measured_wall") ?:
		       json_put_str(o, "ignores", "disk, memory, CPU contention beyond the job slots");
	return json_put_str(o, "model", "cpu_and_blocked") ?:
	       json_put_ms(o, "cpu_ms", w->cpu_ns) ?:
	       json_put_ms(o, "blocked_ms", w->blocked_ns) ?:
	       json_put_ms(o, "runq_wait_left_out_ms", w->runq_ns) ?:
	       json_put_double(o, "outside_cpus", w->outside_cpus) ?:
	       json_put_double(o, "outside_threads", w->outside_threads) ?:
	       json_put_double(o, "burst_threads", w->burst_threads) ?:
	       json_put_int(o, "cpus_as_run", w->cpus_as_run) ?:
	       json_put_bool(o, "machine_was_quiet", w->was_quiet) ?:
	       json_put_bool(o, "slowdown_learned", c->learned) ?:
	       json_put_bool(o, "slowdown_too_noisy", c->noisy) ?:
	       json_put_double(o, "slowdown_per_busy_cpu", c->slowdown) ?:
	       json_put_double(o, "slowdown_standard_error", c->slowdown_se) ?:
	       json_put_int(o, "slowdown_fitted_jobs", c->nr_fitted) ?:
	       json_put_str(o, "ignores", "disk, memory");
}

/* what_if: the jobs replayed on slots and CPUs; null without a build graph or jobs. */
static struct json_object *new_what_if(const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;
	struct json_object *o = json_object_new_object(), *rows = json_object_new_array(), *r;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < w->nr_rows; i++) {
		const struct whatif_row *row = &w->rows[i];

		r = json_object_new_object();
		err = json_put_str(r, "kind", audit_whatif__kind_name(row->kind)) ?:
		      (row->jobs == SIM_UNLIMITED ? json_put_null(r, "jobs") : json_put_int(r, "jobs", row->jobs)) ?:
		      (row->cpus ? json_put_int(r, "cpus", row->cpus) : json_put_null(r, "cpus")) ?:
		      json_put_bool(r, "own", row->own) ?:
		      json_put_bool(r, "quiet", row->quiet) ?:
		      json_put_str(r, "assumes", audit_whatif__assumes(row->kind)) ?:
		      json_put_ms(r, "wall_ms", row->wall_ns);
		err = json_append(rows, json_done(r, err));
	}
	rows = json_done(rows, err);
	err = err ?: json_put_int(o, "jobs_simulated", w->nr_jobs) ?:
	      json_put_int(o, "shell_calls", w->nr_shell_calls) ?:
	      json_put_int(o, "job_edges", w->nr_job_edges) ?:
	      json_put_str(o, "own_jobs_from", w->from == WHATIF_JOBS_PEAK ? "observed_peak" : "jobs") ?:
	      json_put_ms(o, "measured_wall_ms", a->wall_ns) ?:
	      json_put_ms(o, "runner_held_ms", a->chain_no_job_ns) ?:
	      put_what_if_model(o, w) ?:
	      json_put(o, "rows", rows);
	return json_done(o, err);
}

static struct json_object *new_top(const struct audit_top *t, const struct model *m, bool kb)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < t->nr; i++) {
		p = json_object_new_object();
		err = json_put(p, "name", new_proc_name(m, t->items[i].proc)) ?:
		      json_put_int(p, "pid", m->procs[t->items[i].proc].pid) ?:
		      (kb ? json_put_int(p, "kb", t->items[i].value) : json_put_ms(p, "ms", t->items[i].value));
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

static struct json_object *new_tops(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put(o, "wall", new_top(&a->top_wall, m, false)) ?:
	      json_put(o, "cpu", new_top(&a->top_cpu, m, false)) ?:
	      json_put(o, "peak_rss", new_top(&a->top_rss, m, true)) ?:
	      (a->par ? json_put(o, "runqueue_wait", new_top(&a->top_wait, m, false))
		      : json_put_null(o, "runqueue_wait"));
	return json_done(o, err);
}

static struct json_object *new_programs(const struct audit *a)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < a->nr_programs && i < JSON_PROGRAMS_MAX; i++) {
		p = json_object_new_object();
		err = json_put_str(p, "program", a->programs[i].name) ?:
		      json_put_ms(p, "cpu_ms", a->programs[i].cpu_ns) ?:
		      json_put(p, "share", new_share(a->cpu_ns ? (double)a->programs[i].cpu_ns / a->cpu_ns : 0)) ?:
		      json_put_int(p, "processes", a->programs[i].nr_procs) ?:
		      json_put_ms(p, "wall_ms", a->programs[i].wall_ns);
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

static struct json_object *new_outside_work(const struct audit *a)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_ms(o, "cpu_ms", a->other_ns) ?: json_put(o, "share", new_share(a->other_share));
	return json_done(o, err);
}

static int put_answer_figure(struct json_object *o, const struct answer_figure *f)
{
	switch (f->unit) {
	case ANSWER_NS:
		return json_put_ms(o, f->key, (__u64)f->value);
	case ANSWER_COUNT:
	case ANSWER_KIB:
		return json_put_int(o, f->key, (__s64)f->value);
	case ANSWER_SHARE:
	case ANSWER_CPUS:
		break;
	}
	return json_put(o, f->key, new_share(f->value));
}

/* answers.brief[]: the brief report's answers as data (report/answer_rows.h). */
static struct json_object *new_brief_answers(const struct audit *a, const struct model *m)
{
	struct answer_row rows[AUDIT_ANSWERS_MAX];
	struct json_object *arr, *o, *figs;
	size_t nr, i, k;
	int err;

	if (answer_rows__compute(rows, &nr, a, m))
		return NULL;
	arr = json_object_new_array();
	err = arr ? 0 : -ENOMEM;
	for (i = 0; !err && i < nr; i++) {
		o = json_object_new_object();
		figs = json_object_new_object();
		for (k = 0; !err && k < rows[i].nr_figures; k++)
			err = put_answer_figure(figs, &rows[i].figures[k]);
		figs = json_done(figs, err);
		err = json_put_str(o, "id", rows[i].id) ?: json_put_str(o, "question", rows[i].question) ?:
		      json_put_str(o, "text", rows[i].text) ?: json_put_bool(o, "shown", rows[i].shown) ?:
		      (rows[i].step ? json_put_str(o, "step_name", rows[i].step) : json_put_null(o, "step_name")) ?:
		      json_put(o, "figures", figs);
		err = json_append(arr, json_done(o, err));
	}
	answer_rows__free(rows, nr);
	return json_done(arr, err);
}

static struct json_object *new_answers(const struct audit *a, const struct model *m)
{
	static const char *const parallel[] = {
		[AUDIT_PARALLEL_NO] = "no", [AUDIT_PARALLEL_PARTLY] = "partly", [AUDIT_PARALLEL_YES] = "yes",
		[AUDIT_PARALLEL_STARVED] = "starved",
	};
	static const char *const help[] = {
		[AUDIT_HELP_NONE] = "none", [AUDIT_HELP_CPUS] = "more_cpus", [AUDIT_HELP_JOBS] = "more_jobs",
		[AUDIT_HELP_ORDER] = "build_order", [AUDIT_HELP_QUIETER] = "quieter_machine",
		[AUDIT_HELP_UNKNOWN] = "unknown",
	};
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_str(o, "parallel", parallel[a->parallel]) ?: json_put_str(o, "limit", help[a->help]) ?:
	      json_put_ms(o, "limit_ms", a->help_ns) ?: json_put(o, "brief", new_brief_answers(a, m));
	return json_done(o, err);
}

/* --follow: each daemon's share of the figures (the audit counts its work with the build's). */
static struct json_object *new_daemons(const struct audit *a, const struct model *m)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t k;
	int err = arr ? 0 : -ENOMEM;

	for (k = 0; !err && k < a->nr_daemons; k++) {
		const struct daemon_share *d = &a->daemons[k];

		p = json_object_new_object();
		err = json_put_int(p, "pid", d->pid) ?:
		      (d->proc >= 0 ? json_put(p, "name", new_proc_name(m, (size_t)d->proc)) : json_put_null(p, "name")) ?:
		      json_put_int(p, "processes", d->nr_procs) ?:
		      json_put_ms(p, "cpu_ms", d->cpu_ns) ?:
		      json_put(p, "share", new_share(a->cpu_ns ? (double)d->cpu_ns / a->cpu_ns : 0));
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

/* Waits with nothing traced running for the waiter (model/daemons.h). */
static struct json_object *new_outside_wait(const struct audit *a, const struct model *m)
{
	const struct outside_wait *w = &a->outside_wait;
	struct json_object *o = json_object_new_object(), *top = NULL;
	int err;

	if (w->top >= 0) {
		top = json_object_new_object();
		top = json_done(top, json_put(top, "name", new_proc_name(m, (size_t)w->top)) ?:
				     json_put_int(top, "pid", m->procs[w->top].pid) ?:
				     json_put_ms(top, "ms", w->top_wait_ns));
	}
	err = json_put_ms(o, "wait_ms", w->wait_ns) ?:
	      json_put_int(o, "processes", w->nr_procs) ?:
	      (top ? json_put(o, "longest", top) : json_put_null(o, "longest")) ?:
	      json_put_bool(o, "mostly_elsewhere", a->mostly_elsewhere);
	return json_done(o, err);
}

static const char *level_name(enum sched_level level)
{
	return level == SCHED_FULL ? "full" : level == SCHED_SUMMARY ? "summary" : "off";
}

/* What memory did to the build (model/memory.h). */
/* The processes that held most of the build's memory at its peak. */
static struct json_object *new_peak_top(const struct model *m)
{
	const struct bb_mem_sample_event *peak = &m->mem_peak;
	struct json_object *arr = json_object_new_array(), *p;
	__u32 i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < peak->nr_top; i++) {
		p = json_object_new_object();
		err = json_put(p, "name", new_proc_name(m, memory__proc_at(m, peak->top[i].tgid, peak->hdr.ts_ns))) ?:
		      json_put_int(p, "pid", peak->top[i].tgid) ?:
		      json_put_int(p, "kb", peak->top[i].rss_kb);
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

/* The -j that fits the RAM (audit/jobs_fit.h): the figures behind it, or why there is none. */
static struct json_object *new_jobs_fit(const struct jobs_fit *f)
{
	struct json_object *o = json_object_new_object();
	bool ok = f->verdict == JOBS_FIT_OK;
	int err;

	err = (ok ? json_put_int(o, "jobs", f->jobs) ?: json_put_int(o, "expected_peak_kb", f->expected_kb) ?:
			    json_put_null(o, "reason")
		  : json_put_null(o, "jobs") ?: json_put_null(o, "expected_peak_kb") ?:
			    json_put_str(o, "reason", jobs_fit_report__reason(f->verdict))) ?:
	      (f->program ? json_put_str(o, "program", f->program) : json_put_null(o, "program")) ?:
	      json_put_int(o, "runs", f->runs) ?:
	      json_put_int(o, "min_runs", JOBS_FIT_MIN_RUNS) ?:
	      json_put_int(o, "job_peak_kb", f->job_kb) ?:
	      json_put_int(o, "percentile", JOBS_FIT_PERCENTILE) ?:
	      json_put_int(o, "most_at_once", f->at_once) ?:
	      json_put_int(o, "base_kb", f->base_kb) ?:
	      json_put_int(o, "base_processes", f->nr_base) ?:
	      (f->ram_kb ? json_put_int(o, "ram_kb", f->ram_kb) : json_put_null(o, "ram_kb")) ?:
	      json_put(o, "ram_share", new_share(JOBS_FIT_RAM_PERMILLE / 1000.0)) ?:
	      (f->larger_program ? json_put_str(o, "larger_program", f->larger_program) ?:
					   json_put_int(o, "larger_peak_kb", f->larger_kb) ?:
					   json_put_int(o, "larger_runs", f->larger_runs)
				 : json_put_null(o, "larger_program") ?: json_put_null(o, "larger_peak_kb") ?:
					   json_put_null(o, "larger_runs"));
	return json_done(o, err);
}

static struct json_object *new_memory(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();
	bool sampled = m->nr_mem_samples > 0;
	int err;

	err = (sampled ? json_put_int(o, "peak_kb", m->mem_peak.total_kb) ?:
				 json_put_ms(o, "peak_at_ms", m->mem_peak.hdr.ts_ns - m->start_ns) ?:
				 json_put_int(o, "ram_kb", m->mem_peak.ram_kb) ?:
				 json_put(o, "peak_top", new_peak_top(m))
		       : json_put_null(o, "peak_kb") ?: json_put_null(o, "peak_at_ms") ?:
				 json_put_null(o, "ram_kb") ?: json_put_null(o, "peak_top")) ?:
	      json_put_int(o, "oom_killed", a->oom_killed) ?:
	      (a->psi_known ? json_put_ms(o, "stall_some_ms", a->psi_some_us * 1000) ?:
				      json_put_ms(o, "stall_full_ms", a->psi_full_us * 1000)
			    : json_put_null(o, "stall_some_ms") ?: json_put_null(o, "stall_full_ms")) ?:
	      json_put(o, "jobs_fit", new_jobs_fit(&a->fit));
	return json_done(o, err);
}

/* I/O (model/io.h): one sum's figures; the ones the kernel does not count are null. */
static int put_io_figures(struct json_object *o, const struct io_totals *t)
{
	const struct bb_io_acct *io = &t->io;
	bool storage = t->flags & BB_IO_STORAGE, syscalls = t->flags & BB_IO_SYSCALLS;

	return (storage ? json_put_uint(o, "read_bytes", io->read_bytes) ?:
				  json_put_uint(o, "write_bytes", io->write_bytes) ?:
				  json_put_uint(o, "cancelled_write_bytes", io->cancelled_write_bytes)
			: json_put_null(o, "read_bytes") ?: json_put_null(o, "write_bytes") ?:
				  json_put_null(o, "cancelled_write_bytes")) ?:
	       (syscalls ? json_put_uint(o, "rchar", io->rchar) ?: json_put_uint(o, "wchar", io->wchar) ?:
				   json_put_uint(o, "syscr", io->syscr) ?: json_put_uint(o, "syscw", io->syscw)
			 : json_put_null(o, "rchar") ?: json_put_null(o, "wchar") ?: json_put_null(o, "syscr") ?:
				   json_put_null(o, "syscw"));
}

static struct json_object *new_io_top(const struct audit *a, const struct model *m)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < a->top_write.nr; i++) {
		p = json_object_new_object();
		err = json_put(p, "name", new_proc_name(m, a->top_write.items[i].proc)) ?:
		      json_put_int(p, "pid", m->procs[a->top_write.items[i].proc].pid) ?:
		      json_put_uint(p, "write_bytes", a->top_write.items[i].value);
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

/* Per program, in the order of "programs" (most CPU first): those with figures. */
static struct json_object *new_io_programs(const struct audit *a)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < a->nr_programs && i < JSON_PROGRAMS_MAX; i++) {
		if (!a->programs[i].io.nr_procs)
			continue;
		p = json_object_new_object();
		err = json_put_str(p, "program", a->programs[i].name) ?:
		      json_put_int(p, "processes", a->programs[i].io.nr_procs) ?:
		      put_io_figures(p, &a->programs[i].io);
		err = json_append(arr, json_done(p, err));
	}
	return json_done(arr, err);
}

static struct json_object *new_io(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_int(o, "processes", a->io.nr_procs) ?: put_io_figures(o, &a->io) ?:
	      json_put(o, "top_written", new_io_top(a, m)) ?: json_put(o, "programs", new_io_programs(a));
	return json_done(o, err);
}

/* A build that compiled nothing: its runner, what it counted (fresh units or jobs) and the report's sentence. */
static struct json_object *new_nothing_compiled(const struct audit *a)
{
	struct json_object *o = json_object_new_object();
	char *text = audit_report__nothing_compiled_text(a);
	int err = text ? 0 : -ENOMEM;

	err = err ?: json_put_str(o, "runner", a->fresh.runner) ?:
	      json_put_str(o, "found", a->fresh.by_units ? "every_unit_fresh" : "no_job") ?:
	      json_put_int(o, "probes", a->fresh.nr_probes) ?: json_put_str(o, "text", text);
	free(text);
	return json_done(o, err);
}

struct json_object *audit_json__new(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_int(o, "version", AUDIT_JSON_VERSION) ?:
	      json_put_ms(o, "wall_ms", a->wall_ns) ?:
	      json_put_int(o, "cpu_count", a->nr_cpus) ?:
	      json_put_ms(o, "cpu_ms", a->cpu_ns) ?:
	      json_put(o, "utilisation", new_share(a->utilisation)) ?:
	      json_put_str(o, "sched", level_name(a->sched)) ?:
	      json_put(o, "unavailable", new_unavailable(a)) ?:
	      (a->par ? json_put(o, "parallelism", new_parallelism(a)) : json_put_null(o, "parallelism")) ?:
	      json_put(o, "jobs", audit_json__jobs(a)) ?:
	      (fresh_build__nothing_compiled(&a->fresh) ? json_put(o, "nothing_compiled", new_nothing_compiled(a))
							: json_put_null(o, "nothing_compiled")) ?:
	      json_put(o, "phases", new_cmd_phases(a, m)) ?:
	      (a->par ? json_put(o, "runqueue", new_runqueue(a)) : json_put_null(o, "runqueue")) ?:
	      (a->par ? json_put(o, "serial_phases", new_phases(a, m)) : json_put_null(o, "serial_phases")) ?:
	      json_put(o, "critical_chain", new_chain(a, m)) ?:
	      json_put(o, "top", new_tops(a, m)) ?:
	      json_put(o, "programs", new_programs(a)) ?:
	      json_put_int(o, "lost_events", a->lost_events) ?:
	      json_put_bool(o, "partial", a->partial_reason != NULL) ?:
	      (a->partial_reason ? json_put_str(o, "partial_reason", a->partial_reason)
				 : json_put_null(o, "partial_reason")) ?:
	      (a->par ? json_put(o, "outside_work", new_outside_work(a)) : json_put_null(o, "outside_work")) ?:
	      json_put(o, "answers", new_answers(a, m)) ?:
	      json_put(o, "memory", new_memory(a, m)) ?:
	      json_put(o, "daemons", new_daemons(a, m)) ?:
	      json_put(o, "outside_wait", new_outside_wait(a, m)) ?:
	      json_put(o, "io", new_io(a, m)) ?:
	      (a->cache.nr_calls ? json_put(o, "compiler_cache", compiler_cache_report__json(&a->cache))
				 : json_put_null(o, "compiler_cache")) ?:
	      (a->whatif.known ? json_put(o, "what_if", new_what_if(a)) : json_put_null(o, "what_if")) ?:
	      (a->starts ? json_put(o, "start_waits", new_start_waits(a->starts)) : json_put_null(o, "start_waits")) ?:
	      (a->graph ? json_put(o, "races", new_races(a, m)) : json_put_null(o, "races")) ?:
	      (deps_hook_name(a->deps_hook) ? json_put_str(o, "deps_hook", deps_hook_name(a->deps_hook))
					    : json_put_null(o, "deps_hook")) ?:
	      (mem_hook_name(a->mem_hook) ? json_put_str(o, "mem_hook", mem_hook_name(a->mem_hook))
					  : json_put_null(o, "mem_hook"));
	return json_done(o, err);
}

int audit_json__write(const struct audit *a, const struct model *m, int fd)
{
	struct json_object *o = audit_json__new(a, m);
	/* Streamed: at a million processes its text is tens of megabytes, never held whole. */
	struct json_stream *js = o ? json_stream__new(fd) : NULL;
	int err;

	if (!js) {
		json_object_put(o);
		return -ENOMEM;
	}
	json_stream__pretty(js, o);
	json_stream__raw(js, "\n", 1);
	err = json_stream__flush(js);
	json_stream__free(js);
	json_object_put(o);
	return err;
}
