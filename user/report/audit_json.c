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
#include <unistd.h>
#include "report/audit_json.h"
#include "util/json_put.h"
#include "model/proc_name.h"
#include "util/utf8.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)
/* Chain members listed: the latest ones, which set the end time. */
#define JSON_CHAIN_MAX 64
#define JSON_PROGRAMS_MAX 32

/* obj with key: val added; NULL, both freed, on failure.  Chains. */
static struct json_object *with(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!obj || (!val && key[0] != '?')) {
		json_object_put(obj);
		json_object_put(val);
		return NULL;
	}
	/* A key starting with '?' may take a JSON null. */
	if (key[0] == '?')
		key++;
	if (json_object_object_add_ex(obj, key, val, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY)) {
		json_object_put(obj);
		json_object_put(val);
		return NULL;
	}
	return obj;
}

/* arr with val appended; NULL, both freed, on failure. */
static struct json_object *push(struct json_object *arr, struct json_object *val)
{
	if (!arr || !val || json_object_array_add(arr, val)) {
		json_object_put(arr);
		json_object_put(val);
		return NULL;
	}
	return arr;
}

/* A share in [0, 1] with four decimals. */
static struct json_object *new_share(double v)
{
	char text[32];

	snprintf(text, sizeof(text), "%.4f", v);
	return json_object_new_double_s(strtod(text, NULL), text);
}

static struct json_object *new_clean(const char *raw)
{
	struct json_object *str;
	char *clean = utf8_sanitize(raw, strlen(raw));

	if (!clean)
		return NULL;
	str = json_object_new_string(clean);
	free(clean);
	return str;
}

static struct json_object *new_proc_name(const struct model *m, long idx)
{
	struct json_object *str;
	char *name;

	if (idx < 0 || (size_t)idx >= m->nr_procs)
		return json_object_new_string("?");
	name = proc_display_name(&m->procs[idx]);
	if (!name)
		return NULL;
	str = json_object_new_string(name);
	free(name);
	return str;
}

static struct json_object *new_ms_array(const __u64 *bins, size_t nr)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < nr; i++)
		arr = push(arr, json_new_ms(bins[i]));
	return arr;
}

static struct json_object *new_unavailable(const struct audit *a)
{
	static const char *const fields[] = { "parallelism", "runqueue", "serial_phases", "top.runqueue_wait" };
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && !a->par && i < sizeof(fields) / sizeof(fields[0]); i++)
		arr = push(arr, json_object_new_string(fields[i]));
	return arr;
}

static struct json_object *new_parallelism(const struct audit *a)
{
	const struct parallelism *par = a->par;
	struct json_object *o = json_object_new_object();

	o = with(o, "running_ms", new_ms_array(par->running_ns, par->nr_cpus + 1));
	o = with(o, "running_with_idle_cpu_ms", new_ms_array(par->running_idle_ns, par->nr_cpus + 1));
	o = with(o, "runnable_ms", new_ms_array(par->runnable_ns, par->nr_runnable));
	o = with(o, "average_running", new_share(a->avg_running));
	o = with(o, "peak_running", json_object_new_int64(par->peak_running));
	o = with(o, "peak_runnable", json_object_new_int64(par->peak_runnable));
	o = with(o, "lost_ms", json_new_ms(a->lost_ns));
	o = with(o, "lost_share", new_share(a->wall_ns ? (double)a->lost_ns / a->wall_ns : 0));
	return with(o, "late_wait_ms", json_new_ms(par->late_ns));
}

static struct json_object *new_jobs(const struct audit *a)
{
	static const char *const sources[] = {
		[JOBS_UNKNOWN] = "unknown", [JOBS_ARGUMENT] = "argument", [JOBS_MAKEFLAGS] = "makeflags",
		[JOBS_TOOL_DEFAULT] = "default",
	};
	struct json_object *o = json_object_new_object();

	o = with(o, "?tool", a->jobs.tool[0] ? new_clean(a->jobs.tool) : NULL);
	o = with(o, "?requested", a->jobs.jobs > 0 ? json_object_new_int64(a->jobs.jobs) : NULL);
	o = with(o, "unlimited", json_object_new_boolean(a->jobs.jobs < 0));
	o = with(o, "source", json_object_new_string(sources[a->jobs.source]));
	return with(o, "target", json_object_new_int64(a->jobs_target));
}

static struct json_object *new_runqueue(const struct audit *a)
{
	struct json_object *o = json_object_new_object();

	o = with(o, "wait_ms", json_new_ms(a->runq_wait_ns));
	return with(o, "noisy_neighbour_ms", json_new_ms(a->noisy_ns));
}

static struct json_object *new_phases(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	size_t i, k;

	for (i = 0; arr && i < a->nr_phases; i++) {
		const struct audit_phase *ph = &a->phases[i];
		struct json_object *procs = json_object_new_array(), *p;

		for (k = 0; procs && k < ph->nr_procs; k++) {
			p = with(json_object_new_object(), "name", new_proc_name(m, ph->procs[k].proc));
			p = with(p, "pid", json_object_new_int64(ph->procs[k].pid));
			p = with(p, "cpu_ms", json_new_ms(ph->procs[k].on_cpu_ns));
			procs = push(procs, p);
		}
		p = with(json_object_new_object(), "start_ms", json_new_ms(ph->start_ns - m->start_ns));
		p = with(p, "end_ms", json_new_ms(ph->end_ns - m->start_ns));
		p = with(p, "duration_ms", json_new_ms(ph->end_ns - ph->start_ns));
		p = with(p, "processes", procs);
		arr = push(arr, p);
	}
	o = with(o, "threshold_ms", json_new_ms(a->serial_threshold_ns));
	return with(o, "phases", arr);
}

static struct json_object *new_chain(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array(), *p;
	size_t i = a->nr_chain > JSON_CHAIN_MAX ? a->nr_chain - JSON_CHAIN_MAX : 0;

	for (; arr && i < a->nr_chain; i++) {
		const struct proc_instance *pi = &m->procs[a->chain[i]];

		p = with(json_object_new_object(), "name", new_proc_name(m, a->chain[i]));
		p = with(p, "pid", json_object_new_int64(pi->pid));
		p = with(p, "start_ms", json_new_ms(pi->start_ns - m->start_ns));
		p = with(p, "end_ms", json_new_ms(pi->end_ns - m->start_ns));
		arr = push(arr, p);
	}
	o = with(o, "estimate", json_object_new_boolean(true));
	o = with(o, "count", json_object_new_int64(a->nr_chain));
	o = with(o, "busy_ms", json_new_ms(a->chain_busy_ns));
	return with(o, "processes", arr);
}

static struct json_object *new_top(const struct audit_top *t, const struct model *m, bool kb)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;

	for (i = 0; arr && i < t->nr; i++) {
		p = with(json_object_new_object(), "name", new_proc_name(m, t->items[i].proc));
		p = with(p, "pid", json_object_new_int64(m->procs[t->items[i].proc].pid));
		if (kb)
			p = with(p, "kb", json_object_new_int64(t->items[i].value));
		else
			p = with(p, "ms", json_new_ms(t->items[i].value));
		arr = push(arr, p);
	}
	return arr;
}

static struct json_object *new_tops(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();

	o = with(o, "wall", new_top(&a->top_wall, m, false));
	o = with(o, "cpu", new_top(&a->top_cpu, m, false));
	o = with(o, "peak_rss", new_top(&a->top_rss, m, true));
	return with(o, "?runqueue_wait", a->par ? new_top(&a->top_wait, m, false) : NULL);
}

static struct json_object *new_programs(const struct audit *a)
{
	struct json_object *arr = json_object_new_array(), *p;
	size_t i;

	for (i = 0; arr && i < a->nr_programs && i < JSON_PROGRAMS_MAX; i++) {
		p = with(json_object_new_object(), "program", new_clean(a->programs[i].name));
		p = with(p, "cpu_ms", json_new_ms(a->programs[i].cpu_ns));
		p = with(p, "share", new_share(a->cpu_ns ? (double)a->programs[i].cpu_ns / a->cpu_ns : 0));
		p = with(p, "processes", json_object_new_int64(a->programs[i].nr_procs));
		arr = push(arr, p);
	}
	return arr;
}

static const char *level_name(enum sched_level level)
{
	return level == SCHED_FULL ? "full" : level == SCHED_SUMMARY ? "summary" : "off";
}

struct json_object *audit_json__new(const struct audit *a, const struct model *m)
{
	struct json_object *o = json_object_new_object();

	o = with(o, "version", json_object_new_int(AUDIT_JSON_VERSION));
	o = with(o, "wall_ms", json_new_ms(a->wall_ns));
	o = with(o, "cpu_count", json_object_new_int64(a->nr_cpus));
	o = with(o, "cpu_ms", json_new_ms(a->cpu_ns));
	o = with(o, "utilisation", new_share(a->utilisation));
	o = with(o, "sched", json_object_new_string(level_name(a->sched)));
	o = with(o, "unavailable", new_unavailable(a));
	o = with(o, "?parallelism", a->par ? new_parallelism(a) : NULL);
	o = with(o, "jobs", new_jobs(a));
	o = with(o, "?runqueue", a->par ? new_runqueue(a) : NULL);
	o = with(o, "?serial_phases", a->par ? new_phases(a, m) : NULL);
	o = with(o, "critical_chain", new_chain(a, m));
	o = with(o, "top", new_tops(a, m));
	o = with(o, "programs", new_programs(a));
	o = with(o, "lost_events", json_object_new_int64(a->lost_events));
	o = with(o, "partial", json_object_new_boolean(a->partial_reason != NULL));
	return with(o, "?partial_reason", a->partial_reason ? new_clean(a->partial_reason) : NULL);
}

int audit_json__write(const struct audit *a, const struct model *m, int fd)
{
	struct json_object *o = audit_json__new(a, m);
	const char *text;
	size_t len, done = 0;
	ssize_t n;
	int err = 0;

	if (!o)
		return -ENOMEM;
	text = json_object_to_json_string_length(o, JSON_FLAGS, &len);
	if (!text) {
		err = -ENOMEM;
		goto cleanup;
	}
	while (done < len + 1) {
		/* The text and then its newline. */
		n = done < len ? write(fd, text + done, len - done) : write(fd, "\n", 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			goto cleanup;
		}
		done += n;
	}
cleanup:
	json_object_put(o);
	return err;
}
