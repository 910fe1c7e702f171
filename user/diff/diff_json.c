// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "diff/diff_json.h"
#include "model/proc_name.h"
#include "report/audit_json.h"
#include "report/compiler_cache_report.h"
#include "util/json_write.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

/* A relative change; null from 0 (no finite percentage). */
static int put_percent(struct json_object *o, const char *key, double pct)
{
	return isfinite(pct) ? json_put_double(o, key, pct) : json_put_null(o, key);
}

static struct json_object *figures_json(const struct diff *d)
{
	struct json_object *o = json_object_new_object();
	int err = o ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; k < DIFF_NR_METRICS && !err; k++) {
		const struct diff_value *v = &d->values[k];
		struct json_object *f;

		if (!v->known) {
			err = json_put_null(o, diff_metric__name(k));
			continue;
		}
		f = json_object_new_object();
		err = json_put_double(f, "old", v->old_v) ?: json_put_double(f, "new", v->new_v)
			?: json_put_double(f, "change", diff_value__change(v))
			?: put_percent(f, "percent", diff_value__percent(v));
		err = json_put(o, diff_metric__name(k), json_done(f, err)) ?: err;
	}
	return json_done(o, err);
}

/* Each build's -j as its audit's JSON has it, and whether it changed. */
static struct json_object *jobs_json(const struct diff *d)
{
	struct json_object *o = json_object_new_object();
	int err = json_put(o, "old", audit_json__jobs(d->old_b->a)) ?: json_put(o, "new", audit_json__jobs(d->new_b->a))
		?: json_put_bool(o, "changed", d->jobs_changed);

	return json_done(o, err);
}

static struct json_object *programs_json(const struct diff *d)
{
	struct json_object *arr = json_object_new_array();
	int err = arr ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; k < d->nr_programs && !err; k++) {
		const struct diff_program *p = &d->programs[k];
		struct json_object *o = json_object_new_object();

		err = json_put_str(o, "name", p->name) ?: json_put_ms(o, "old_cpu_ms", p->old_cpu_ns)
			?: json_put_ms(o, "new_cpu_ms", p->new_cpu_ns) ?: json_put_uint(o, "old_procs", p->old_procs)
			?: json_put_uint(o, "new_procs", p->new_procs);
		err = json_append(arr, json_done(o, err)) ?: err;
	}
	return json_done(arr, err);
}

static struct json_object *steps_json(const struct diff *d, const struct diff_step *top, size_t nr)
{
	struct json_object *arr = json_object_new_array();
	int err = arr ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; k < nr && !err; k++) {
		const struct proc_instance *op = &d->old_b->m->procs[top[k].old_proc];
		const struct proc_instance *np = &d->new_b->m->procs[top[k].new_proc];
		char *name = proc_display_name(d->new_b->m, np);
		struct json_object *o = json_object_new_object();

		err = name ? 0 : -ENOMEM;
		err = err ?: json_put_str(o, "name", name) ?: json_put_uint(o, "old_pid", op->pid)
			?: json_put_uint(o, "new_pid", np->pid) ?: json_put_ms(o, "old_ms", top[k].old_ns)
			?: json_put_ms(o, "new_ms", top[k].new_ns);
		free(name);
		err = json_append(arr, json_done(o, err)) ?: err;
	}
	return json_done(arr, err);
}

static struct json_object *only_json(const struct diff_only *only, size_t nr)
{
	struct json_object *arr = json_object_new_array();
	int err = arr ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; k < nr && !err; k++) {
		struct json_object *o = json_object_new_object();

		err = json_put_str(o, "program", only[k].program) ?: json_put_uint(o, "count", only[k].count);
		err = json_append(arr, json_done(o, err)) ?: err;
	}
	return json_done(arr, err);
}

/* races_new: the new build's races the old one did not have; null unless both have the build graph. */
static int put_races(struct json_object *parent, const struct diff *d)
{
	struct json_object *arr;
	int err;
	size_t k;

	if (!d->races.known)
		return json_put_null(parent, "races_new");
	arr = json_object_new_array();
	err = arr ? 0 : -ENOMEM;
	for (k = 0; k < d->races.nr_fresh && !err; k++) {
		const struct race *x = &d->new_b->a->graph->races.items[d->races.fresh[k]];
		struct json_object *o = json_object_new_object();

		err = json_put_str(o, "kind", race_kind__key(x->kind)) ?: json_put_str(o, "file", x->file)
			?: json_put_str(o, "writer", x->writer_name) ?: json_put_str(o, "other", x->other_name)
			?: json_put_str(o, "advice", x->advice);
		err = json_append(arr, json_done(o, err)) ?: err;
	}
	return json_put(parent, "races_new", json_done(arr, err)) ?: err;
}

/*
 * One build's critical path: its length and every entry the audit lists,
 * with the time it held the path; step: false for a runner's part, as the
 * audit's critical_chain.processes[] says.
 */
static struct json_object *path_json(const struct diff_side *b)
{
	const struct audit *a = b->a;
	struct json_object *o = json_object_new_object(), *steps = json_object_new_array();
	int err = o && steps ? 0 : -ENOMEM;
	size_t i;

	for (i = 0; i < a->nr_chain && !err; i++) {
		const struct critical_step *s = &a->graph->path.steps[a->chain_step[i]];
		const struct proc_instance *p = &b->m->procs[s->proc];
		struct json_object *step = json_object_new_object();
		char *name = proc_display_name(b->m, p);

		err = name ? 0 : -ENOMEM;
		err = err ?: json_put_str(step, "name", name) ?: json_put_uint(step, "pid", p->pid)
			?: json_put_ms(step, "ms", s->to_ns - s->from_ns)
			?: json_put_bool(step, "step", audit_whatif__is_step(a, i));
		free(name);
		err = json_append(steps, json_done(step, err)) ?: err;
	}
	err = err ?: json_put_ms(o, "length_ms", a->chain_busy_ns);
	err = json_put(o, "steps", json_done(steps, err)) ?: err;
	return json_done(o, err);
}

/* Steps that moved onto (is_on) or off the path; a pid is null in the build that did not run the step. */
static struct json_object *moved_json(const struct diff *d, const struct diff_path_step *moved, size_t nr, bool is_on)
{
	struct json_object *arr = json_object_new_array();
	int err = arr ? 0 : -ENOMEM;
	size_t k;

	for (k = 0; k < nr && !err; k++) {
		const struct diff_path_step *s = &moved[k];
		const struct diff_side *b = is_on ? d->new_b : d->old_b;
		char *name = proc_display_name(b->m, &b->m->procs[is_on ? s->new_proc : s->old_proc]);
		struct json_object *o = json_object_new_object();

		err = name ? 0 : -ENOMEM;
		err = err ?: json_put_str(o, "name", name)
			?: (s->old_proc >= 0 ? json_put_uint(o, "old_pid", d->old_b->m->procs[s->old_proc].pid)
					     : json_put_null(o, "old_pid"))
			?: (s->new_proc >= 0 ? json_put_uint(o, "new_pid", d->new_b->m->procs[s->new_proc].pid)
					     : json_put_null(o, "new_pid"))
			?: json_put_ms(o, "old_ms", s->old_ns) ?: json_put_ms(o, "new_ms", s->new_ns);
		free(name);
		err = json_append(arr, json_done(o, err)) ?: err;
	}
	return json_done(arr, err);
}

/* The critical paths compared; null unless both builds have the build graph. */
static int put_critical_path(struct json_object *parent, const struct diff *d)
{
	const struct diff_path *p = &d->path;
	struct json_object *o;
	int err;

	if (!p->known)
		return json_put_null(parent, "critical_path");
	o = json_object_new_object();
	err = o ? 0 : -ENOMEM;
	err = err ?: json_put(o, "old", path_json(d->old_b)) ?: json_put(o, "new", path_json(d->new_b))
		?: json_put(o, "moved_on", moved_json(d, p->moved_on, p->nr_moved_on, true))
		?: json_put(o, "moved_off", moved_json(d, p->moved_off, p->nr_moved_off, false));
	return json_put(parent, "critical_path", json_done(o, err)) ?: err;
}

/* One build's calls as its --summary-json has them; null without a call. */
static int put_cache_side(struct json_object *o, const char *key, const struct compiler_cache *c)
{
	return c->nr_calls ? json_put(o, key, compiler_cache_report__json(c)) : json_put_null(o, key);
}

/* Both builds' compiler-cache calls and what the new one's hits saved; null when neither called a cache. */
static int put_cache(struct json_object *parent, const struct diff *d)
{
	const struct diff_cache *dc = &d->cache;
	struct json_object *o;
	int err;

	if (!dc->known)
		return json_put_null(parent, "compiler_cache");
	o = json_object_new_object();
	err = o ? 0 : -ENOMEM;
	err = err ?: put_cache_side(o, "old", &d->old_b->a->cache) ?: put_cache_side(o, "new", &d->new_b->a->cache)
		?: json_put_uint(o, "saved_against_old_hits", dc->nr_saved)
		?: json_put_ms(o, "saved_against_old_cpu_ms", dc->saved_cpu_ns)
		?: json_put_ms(o, "saved_against_old_wall_ms", dc->saved_wall_ns);
	return json_put(parent, "compiler_cache", json_done(o, err)) ?: err;
}

struct json_object *diff_json__new(const struct diff *d)
{
	struct json_object *o = json_object_new_object(), *floor = json_object_new_object();
	int err;

	err = json_put_ms(floor, "cpu_min_ms", DIFF_CPU_NOISE_MIN_NS)
		?: json_put_int(floor, "cpu_percent", DIFF_CPU_NOISE_PERCENT)
		?: json_put_ms(floor, "wall_min_ms", DIFF_WALL_NOISE_MIN_NS)
		?: json_put_int(floor, "wall_percent", DIFF_WALL_NOISE_PERCENT);
	err = json_put(o, "noise_floor", json_done(floor, err)) ?: err;
	err = err ?: json_put_int(o, "version", DIFF_JSON_VERSION) ?: json_put_str(o, "old", d->old_b->name)
		?: json_put_str(o, "new", d->new_b->name) ?: json_put_uint(o, "matched", d->match.matched)
		?: json_put_uint(o, "matched_by_name", d->match.matched_by_name)
		?: json_put_uint(o, "only_in_old_count", d->nr_only_old_procs)
		?: json_put_uint(o, "only_in_new_count", d->nr_only_new_procs)
		?: json_put(o, "figures", figures_json(d)) ?: json_put(o, "jobs", jobs_json(d)) ?: json_put(o, "programs", programs_json(d))
		?: json_put(o, "steps_by_cpu", steps_json(d, d->top_cpu, d->nr_top_cpu))
		?: json_put(o, "steps_by_wall", steps_json(d, d->top_wall, d->nr_top_wall))
		?: json_put(o, "only_in_old", only_json(d->only_old, d->nr_only_old))
		?: json_put(o, "only_in_new", only_json(d->only_new, d->nr_only_new)) ?: put_critical_path(o, d)
		?: put_races(o, d) ?: put_cache(o, d);
	return json_done(o, err);
}

int diff_json__write(const struct diff *d, FILE *out)
{
	struct json_object *o = diff_json__new(d);
	const char *text;
	int err = 0;

	if (!o)
		return -ENOMEM;
	text = json_object_to_json_string_ext(o, JSON_FLAGS);
	if (!text)
		err = -ENOMEM;
	else if (fputs(text, out) == EOF || fputc('\n', out) == EOF)
		err = -EIO;
	json_object_put(o);
	return err;
}
