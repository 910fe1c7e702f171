// SPDX-License-Identifier: GPL-2.0
/*
 * Merging a tool's own Chrome trace into the build trace: parse (json-c,
 * depth-limited, UTF-8 checked), attribute to the process instance that
 * wrote it, align its clock to CLOCK_MONOTONIC, clamp into that process's
 * slice.  See include/trace_merge.h and docs/merging.md.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "util/json_lazy.h"
#include "util/json_write.h"
#include "merge/trace_merge.h"
#include "util/base_name.h"
#include "util/sorted_search.h"
#include "util/utf8.h"

/* A relative ts or dur beyond this (microseconds, ~3000 years) is garbage. */
#define MAX_ABS_US 1e17
/* beginningOfTime outside [2001, 2255] (microseconds since the epoch) is not
 * a wall clock; the bound keeps it in nanoseconds within an __s64. */
#define BOT_MIN_US 1e15
#define BOT_MAX_US 9e15
/* Events with no anchor are read as CLOCK_MONOTONIC or CLOCK_REALTIME
 * microseconds when they all fall in the trace, widened by this. */
#define ABS_CLOCK_SLACK_NS 1000000000ll
/* A writer found by pid is one alive at the file's first event, give or take
 * this much clock skew (the events are clamped into its slice anyway). */
#define ALIVE_SLACK_NS 100000000ll
/* Times are saturated this far around the model before any clamping. */
#define SATURATE_NS 86400000000000.0
#define ARGS_MAX_DEPTH 8

enum align_clock {
	ALIGN_BEGINNING_OF_TIME,
	ALIGN_MONOTONIC,
	ALIGN_REALTIME,
	ALIGN_WRITER_EXEC,
	ALIGN_TRACE_START,
};

static const char *const clock_names[] = {
	[ALIGN_BEGINNING_OF_TIME] = "beginningOfTime",
	[ALIGN_MONOTONIC] = "monotonic timestamps",
	[ALIGN_REALTIME] = "wall-clock timestamps",
	[ALIGN_WRITER_EXEC] = "first event at the writer's exec",
	[ALIGN_TRACE_START] = "first event at the trace start",
};

/* One event of the file that passed the type checks, in the file's units. */
struct raw_event {
	struct json_object *ev; /* borrowed from the parsed file */
	size_t order;		/* position in the file: B/E at one ts keep it */
	char ph;
	const char *name; /* NULL only for E/e */
	const char *cat;
	__s64 pid, tid;
	double ts, dur; /* microseconds in the file's clock */
};

/* A slice bound in trace microseconds, for the nesting pass. */
struct nest_item {
	__s64 ts, end;
	long event; /* index in tm->events; -1: a process slice */
};

/* One file while it is merged; nothing reaches tm before the commit. */
struct file_ctx {
	struct trace_merge *tm;
	const struct model *m;
	struct raw_event *raw;
	size_t nr_raw, cap_raw;
	struct merged_event *out;
	size_t nr_out, cap_out;
	struct json_object *thread_names; /* tid (text) -> name */
	struct json_object *totals;	  /* "Total X" -> {dur_ms, count} */
	struct json_object *open;	  /* B stacks by tid, b stacks by (cat, id) */
	struct json_object *async_ids;	  /* (cat, id) -> id in the merge */
	bool multi_tid;
	double bot_us; /* beginningOfTime; < 0: none */
	__s64 base_ns; /* monotonic ns = base_ns + (ts - shift_us) * 1000 */
	double shift_us;
	enum align_clock clock;
	long proc;	   /* the writer, or -1 */
	const char *attributed_by;
	__s64 box_lo_ns, box_hi_ns; /* the slice the file's events must stay in */
	char *label;	   /* the writer's name for counter tracks */
	size_t clamped, bad, unpaired, unsupported, nr_totals;
};

/* Trace microseconds of a time that may lie (saturated) before the epoch. */
static __s64 merge_us(const struct model *m, __s64 ns)
{
	return trace_us(m, ns < 0 ? 0 : (__u64)ns);
}

/* ---- parsing ---- */

static bool get_number(struct json_object *ev, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(ev, key, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

/* An optional integer field: absent is 0; false when it has another type. */
static bool get_opt_int(struct json_object *ev, const char *key, __s64 *out)
{
	struct json_object *v;

	*out = 0;
	if (!json_object_object_get_ex(ev, key, &v) || json_object_is_type(v, json_type_null))
		return true;
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static const char *get_string(struct json_object *ev, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(ev, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/*
 * args as we write them back, numbers finite, depth bounded: into *out,
 * NULL for a JSON null (json-c's null is the NULL pointer, so a null in a
 * tool's args must not read as a failed allocation).  0 or -ENOMEM.
 */
static int copy_value(struct json_object *v, int depth, struct json_object **out)
{
	struct json_object *copy = NULL, *item;
	double d;
	size_t i;

	*out = NULL;
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		copy = json_object_new_boolean(json_object_get_boolean(v));
		break;
	case json_type_int:
		copy = json_object_new_int64(json_object_get_int64(v));
		break;
	case json_type_double:
		d = json_object_get_double(v);
		if (!isfinite(d))
			return 0;
		copy = json_object_new_double(d);
		break;
	case json_type_string:
		copy = json_new_clean_string(json_object_get_string(v), json_object_get_string_len(v));
		break;
	case json_type_array:
		if (depth >= ARGS_MAX_DEPTH) {
			copy = json_new_str("...");
			break;
		}
		copy = json_object_new_array();
		for (i = 0; copy && i < json_object_array_length(v); i++) {
			if (copy_value(json_object_array_get_idx(v, i), depth + 1, &item) ||
			    json_object_array_add(copy, item)) {
				json_object_put(item);
				json_object_put(copy);
				return -ENOMEM;
			}
		}
		break;
	case json_type_object:
		if (depth >= ARGS_MAX_DEPTH) {
			copy = json_new_str("...");
			break;
		}
		copy = json_object_new_object();
		json_object_object_foreach(v, key, val)
		{
			if (!copy)
				break;
			/* Copied keys: the parsed file goes before the copy. */
			if (copy_value(val, depth + 1, &item) || json_object_object_add(copy, key, item)) {
				json_object_put(item);
				json_object_put(copy);
				return -ENOMEM;
			}
		}
		break;
	default:
		return 0;
	}
	*out = copy;
	return copy ? 0 : -ENOMEM;
}

/* The event's args object copied, or a new empty one; NULL: no memory. */
static struct json_object *copy_args(struct json_object *ev)
{
	struct json_object *args, *copy;

	if (json_object_object_get_ex(ev, "args", &args) && json_object_is_type(args, json_type_object))
		return copy_value(args, 0, &copy) ? NULL : copy;
	return json_object_new_object();
}

static bool is_total(const struct raw_event *r)
{
	return r->ph == 'X' && r->ts == 0 && !strncmp(r->name, "Total ", 6);
}

/* clang's "Total X" aggregates: kept per file as {dur_ms, count}. */
static int add_total(struct file_ctx *fc, const struct raw_event *r)
{
	struct json_object *total = json_object_new_object(), *args;
	__s64 count = 1;

	if (!total)
		return -ENOMEM;
	if (json_object_object_get_ex(r->ev, "args", &args))
		get_opt_int(args, "count", &count);
	fc->nr_totals++;
	total = json_done(total, json_put_double(total, "dur_ms", r->dur / 1000.0) ?:
					 json_put_int(total, "count", count));
	return json_replace(fc->totals, r->name + 6, total);
}

static int remember_thread_name(struct file_ctx *fc, struct json_object *ev)
{
	struct json_object *args;
	const char *name = get_string(ev, "name"), *thread;
	char key[32];
	__s64 tid;

	if (!name || strcmp(name, "thread_name") || !json_object_object_get_ex(ev, "args", &args) ||
	    !(thread = get_string(args, "name")) || !get_opt_int(ev, "tid", &tid))
		return 0;
	snprintf(key, sizeof(key), "%lld", (long long)tid);
	return json_replace(fc->thread_names, key, json_new_str(thread));
}

/*
 * The type checks: every phase needs a one-character ph and a finite ts;
 * all but E/e a string name; X a dur >= 0.  Anything else is a bad event,
 * counted, not a reason to drop the file.
 */
static int collect_event(struct file_ctx *fc, struct json_object *ev, size_t order)
{
	struct raw_event r = { .ev = ev, .order = order };
	const char *ph;
	int err;

	if (!json_object_is_type(ev, json_type_object) || !(ph = get_string(ev, "ph")) || strlen(ph) != 1) {
		fc->bad++;
		return 0;
	}
	r.ph = ph[0];
	if (r.ph == 'M')
		return remember_thread_name(fc, ev);
	r.name = get_string(ev, "name");
	r.cat = get_string(ev, "cat");
	if (!get_number(ev, "ts", &r.ts) || fabs(r.ts) > MAX_ABS_US || !get_opt_int(ev, "pid", &r.pid) ||
	    !get_opt_int(ev, "tid", &r.tid) || (!r.name && r.ph != 'E' && r.ph != 'e')) {
		fc->bad++;
		return 0;
	}
	if (r.ph == 'X' && (!get_number(ev, "dur", &r.dur) || r.dur < 0 || r.dur > MAX_ABS_US)) {
		fc->bad++;
		return 0;
	}
	if (is_total(&r))
		return add_total(fc, &r);
	if (!strchr("XBEbeiIC", r.ph)) {
		fc->unsupported++;
		return 0;
	}
	if (fc->nr_raw && r.tid != fc->raw[0].tid)
		fc->multi_tid = true;
	err = array_grow((void **)&fc->raw, &fc->cap_raw, fc->nr_raw + 1, sizeof(*fc->raw));
	if (err)
		return err;
	fc->raw[fc->nr_raw++] = r;
	return 0;
}

static int cmp_raw(const void *a, const void *b)
{
	const struct raw_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_s64(const void *a, const void *b)
{
	__s64 x = *(const __s64 *)a, y = *(const __s64 *)b;

	return x < y ? -1 : x > y;
}

/* The pid most of the file's events carry: the writer, for clang. */
static __s64 main_pid(const struct file_ctx *fc)
{
	__s64 *pids = malloc(fc->nr_raw * sizeof(*pids)), best = 0;
	size_t i, run = 0, best_run = 0;

	if (!pids)
		return fc->raw[0].pid;
	for (i = 0; i < fc->nr_raw; i++)
		pids[i] = fc->raw[i].pid;
	qsort(pids, fc->nr_raw, sizeof(*pids), cmp_s64);
	for (i = 0; i < fc->nr_raw; i++) {
		run = i && pids[i] == pids[i - 1] ? run + 1 : 1;
		if (run > best_run) {
			best_run = run;
			best = pids[i];
		}
	}
	free(pids);
	return best;
}

/* ---- clock and attribution ---- */

/* base_ns + (us - shift_us) µs, saturated far outside the model. */
static __s64 to_mono_ns(const struct file_ctx *fc, double us)
{
	double rel = (us - fc->shift_us) * 1000.0;
	double t = (double)fc->base_ns + rel;
	double lo = (double)fc->m->start_ns - SATURATE_NS, hi = (double)fc->m->end_ns + SATURATE_NS;

	if (t < lo)
		return (__s64)lo;
	if (t > hi)
		return (__s64)hi;
	return fc->base_ns + (__s64)(rel < 0 ? rel - 0.5 : rel + 0.5);
}

/* Whether [lo_us, hi_us] read with base/shift lies within the trace, give or take the slack. */
static bool fits_trace(struct file_ctx *fc, __s64 base_ns, double lo_us, double hi_us)
{
	__s64 saved_base = fc->base_ns, lo, hi;

	fc->base_ns = base_ns;
	lo = to_mono_ns(fc, lo_us);
	hi = to_mono_ns(fc, hi_us);
	fc->base_ns = saved_base;
	return lo >= (__s64)fc->m->start_ns - ABS_CLOCK_SLACK_NS &&
	       hi <= (__s64)fc->tm->layout->end_ns + ABS_CLOCK_SLACK_NS;
}

/* The file's extent in its own microseconds. */
static void file_extent(const struct file_ctx *fc, double *lo, double *hi)
{
	size_t i;

	*lo = fc->raw[0].ts;
	*hi = fc->raw[0].ts;
	for (i = 0; i < fc->nr_raw; i++) {
		double end = fc->raw[i].ts + (fc->raw[i].ph == 'X' ? fc->raw[i].dur : 0);

		if (fc->raw[i].ts < *lo)
			*lo = fc->raw[i].ts;
		if (end > *hi)
			*hi = end;
	}
}

/* An absolute clock for the file, if it has one: false when it has none. */
static bool anchor_clock(struct file_ctx *fc, double lo_us, double hi_us)
{
	__s64 real_minus_mono = fc->tm->real_minus_mono_ns;

	fc->shift_us = 0;
	/* In integers: beginningOfTime in ns needs 63 bits, and the recording's
	 * clock offset is whatever its log says. */
	if (fc->bot_us >= 0 && !__builtin_sub_overflow((__s64)fc->bot_us * 1000, real_minus_mono, &fc->base_ns)) {
		fc->clock = ALIGN_BEGINNING_OF_TIME;
		return true;
	}
	if (fits_trace(fc, 0, lo_us, hi_us)) {
		fc->base_ns = 0;
		fc->clock = ALIGN_MONOTONIC;
		return true;
	}
	if (real_minus_mono != INT64_MIN && fits_trace(fc, -real_minus_mono, lo_us, hi_us)) {
		fc->base_ns = -real_minus_mono;
		fc->clock = ALIGN_REALTIME;
		return true;
	}
	return false;
}

/*
 * The instance of pid alive at t_ns (timed), else the last instance of pid.
 * The kernel reuses pids, so an untimed match is a guess; a pid in the
 * build's own PID namespace (ns_pid) counts as well.
 */
static long find_proc(const struct trace_merge *tm, __s64 pid, bool timed, __s64 t_ns)
{
	const struct trace_layout *tl = tm->layout;
	size_t lo_k = 0, hi_k = tm->nr_pids, k;
	long near = -1;

	if (pid <= 0 || pid > UINT32_MAX)
		return -1;
	/* The processes of that pid or namespace pid, in model order. */
	while (lo_k < hi_k) {
		size_t mid = lo_k + (hi_k - lo_k) / 2;

		if (tm->pids[mid].pid < (__u32)pid)
			lo_k = mid + 1;
		else
			hi_k = mid;
	}
	for (k = lo_k; k < tm->nr_pids && tm->pids[k].pid == (__u32)pid; k++) {
		size_t i = tm->pids[k].proc;
		__s64 lo = (__s64)tl->procs[i].start_ns, hi = (__s64)tl->procs[i].end_ns;

		if (!timed)
			near = i;
		else if (t_ns >= lo && t_ns <= hi)
			return i;
		else if (t_ns >= lo - ALIVE_SLACK_NS && t_ns <= hi + ALIVE_SLACK_NS)
			near = i;
	}
	return near;
}

/* A pid in the file name, e.g. "sh-4242.json": the last digit run that names a traced process. */
static long find_proc_by_name(const struct trace_merge *tm, const char *path, bool timed, __s64 t_ns)
{
	const char *name = base_name(path), *end = name + strlen(name), *p = end;
	long proc;

	while (p > name) {
		const char *digits_end;
		__s64 pid = 0, scale = 1;

		while (p > name && !isdigit((unsigned char)p[-1]))
			p--;
		digits_end = p;
		while (p > name && isdigit((unsigned char)p[-1]))
			p--;
		if (digits_end - p < 1 || digits_end - p > 10)
			continue;
		for (const char *d = digits_end; d > p; d--, scale *= 10)
			pid += (d[-1] - '0') * scale;
		proc = find_proc(tm, pid, timed, t_ns);
		if (proc >= 0)
			return proc;
	}
	return -1;
}

static char *writer_label(const struct model *m, long proc, const char *path)
{
	char buf[64];

	if (proc < 0)
		return utf8_sanitize(base_name(path), strlen(base_name(path)));
	snprintf(buf, sizeof(buf), "%.*s %u", BB_COMM_LEN, m->procs[proc].comm, m->procs[proc].pid);
	return utf8_sanitize(buf, strlen(buf));
}

/* Who wrote the file, and how its clock maps on ours. */
static int attribute(struct file_ctx *fc, const char *path)
{
	const struct trace_layout *tl = fc->tm->layout;
	const struct model *m = fc->m;
	const struct proc_instance *p;
	double lo_us, hi_us;
	bool timed;
	__s64 first_ns = 0;

	file_extent(fc, &lo_us, &hi_us);
	timed = anchor_clock(fc, lo_us, hi_us);
	if (timed)
		first_ns = to_mono_ns(fc, lo_us);
	fc->attributed_by = "pid field";
	fc->proc = find_proc(fc->tm, main_pid(fc), timed, first_ns);
	if (fc->proc < 0) {
		fc->attributed_by = "file name";
		fc->proc = find_proc_by_name(fc->tm, path, timed, first_ns);
	}
	if (fc->proc < 0)
		fc->attributed_by = "own track";
	if (!timed) {
		/* No absolute time: the first event is when the writer started. */
		fc->shift_us = lo_us;
		if (fc->proc >= 0) {
			p = &m->procs[fc->proc];
			fc->base_ns = (__s64)(p->nr_execs ? p->execs[p->nr_execs - 1].start_ns : p->start_ns);
			fc->clock = ALIGN_WRITER_EXEC;
		} else {
			fc->base_ns = (__s64)m->start_ns;
			fc->clock = ALIGN_TRACE_START;
		}
		first_ns = fc->base_ns;
	}
	if (fc->proc >= 0) {
		__u64 lo, hi;

		trace_layout__box_at(tl, fc->proc, first_ns, &lo, &hi);
		fc->box_lo_ns = (__s64)lo;
		fc->box_hi_ns = (__s64)hi;
	} else {
		fc->box_lo_ns = (__s64)m->start_ns;
		fc->box_hi_ns = (__s64)tl->end_ns;
	}
	fc->label = writer_label(m, fc->proc, path);
	return fc->label ? 0 : -ENOMEM;
}

/* ---- events out ---- */

/* An event at [s_ns, e_ns] clamped into the writer's slice (counted). */
static int add_out(struct file_ctx *fc, enum merged_kind kind, const struct raw_event *r, __s64 s_ns, __s64 e_ns,
		   __s64 id)
{
	struct merged_event *out;
	struct json_object *args = NULL;
	int err;

	if (e_ns < s_ns || s_ns < fc->box_lo_ns || e_ns > fc->box_hi_ns)
		fc->clamped++;
	s_ns = s_ns < fc->box_lo_ns ? fc->box_lo_ns : s_ns > fc->box_hi_ns ? fc->box_hi_ns : s_ns;
	e_ns = e_ns < s_ns ? s_ns : e_ns > fc->box_hi_ns ? fc->box_hi_ns : e_ns;
	err = array_grow((void **)&fc->out, &fc->cap_out, fc->nr_out + 1, sizeof(*fc->out));
	if (err)
		return err;
	out = &fc->out[fc->nr_out];
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	out->proc = fc->proc;
	out->ts = merge_us(fc->m, s_ns);
	out->dur = merge_us(fc->m, e_ns) - out->ts;
	out->id = id;
	out->box_ts = merge_us(fc->m, fc->box_lo_ns);
	out->box_end = merge_us(fc->m, fc->box_hi_ns);
	if (kind == MERGED_COUNTER) {
		char *name;

		if (asprintf(&name, "%s: %s", fc->label, r->name) < 0)
			return -ENOMEM;
		out->name = name;
	} else {
		out->name = strdup(r->name);
	}
	out->cat = r->cat && *r->cat ? strdup(r->cat) : NULL;
	fc->nr_out++;
	if (!out->name || (r->cat && *r->cat && !out->cat))
		return -ENOMEM;
	if (kind == MERGED_COUNTER) {
		struct json_object *src;

		args = json_object_new_object();
		if (!args)
			return -ENOMEM;
		out->args = args;
		if (!json_object_object_get_ex(r->ev, "args", &src) || !json_object_is_type(src, json_type_object))
			return 0;
		json_object_object_foreach(src, key, val)
		{
			double d;

			if (!json_object_is_type(val, json_type_int) && !json_object_is_type(val, json_type_double))
				continue;
			d = json_object_get_double(val);
			/* key lives in the parsed file, which args outlives: copied. */
			if (isfinite(d) && json_replace(args, key, json_object_new_double(d)))
				return -ENOMEM;
		}
		return 0;
	}
	args = copy_args(r->ev);
	out->args = args;
	if (!args)
		return -ENOMEM;
	/* The trace's cat is "merged" (see chrome_trace.c): the writer's goes in args. */
	if (out->cat && !json_object_object_get_ex(args, "category", NULL) &&
	    json_put_str(args, "category", out->cat))
		return -ENOMEM;
	if (fc->multi_tid) {
		/* The writer's threads share its lane: say which one it was. */
		struct json_object *name;
		char key[32];

		snprintf(key, sizeof(key), "%lld", (long long)r->tid);
		if (json_object_object_get_ex(fc->thread_names, key, &name))
			err = json_replace(args, "thread", json_object_get(name));
		else
			err = json_replace(args, "tid", json_object_new_int64(r->tid));
		if (err)
			return err;
	}
	return 0;
}

/* The stack of open B (by tid) or b (by cat and id) events, made on first use. */
static struct json_object *open_stack(struct file_ctx *fc, const char *key)
{
	struct json_object *stack;

	if (json_object_object_get_ex(fc->open, key, &stack))
		return stack;
	stack = json_object_new_array();
	if (json_replace(fc->open, key, stack))
		return NULL;
	return stack;
}

/* (cat, id) of an async event: id, or id2's local or global one. */
static bool async_key(const struct raw_event *r, char *key, size_t size)
{
	struct json_object *id, *id2;

	if (!json_object_object_get_ex(r->ev, "id", &id) &&
	    !(json_object_object_get_ex(r->ev, "id2", &id2) && json_object_is_type(id2, json_type_object) &&
	      (json_object_object_get_ex(id2, "local", &id) || json_object_object_get_ex(id2, "global", &id))))
		return false;
	if (!json_object_is_type(id, json_type_int) && !json_object_is_type(id, json_type_string))
		return false;
	snprintf(key, size, "a\x1f%s\x1f%s", r->cat ? r->cat : "", json_object_get_string(id));
	return true;
}

static int begin_end(struct file_ctx *fc, const struct raw_event *r, size_t i)
{
	struct json_object *stack, *id;
	const struct raw_event *begin;
	char key[256];
	size_t n;

	if (r->ph == 'B' || r->ph == 'E') {
		snprintf(key, sizeof(key), "t\x1f%lld", (long long)r->tid);
	} else if (!async_key(r, key, sizeof(key))) {
		fc->bad++;
		return 0;
	}
	stack = open_stack(fc, key);
	if (!stack)
		return -ENOMEM;
	if (r->ph == 'B' || r->ph == 'b')
		return json_object_array_add(stack, json_object_new_int64(i)) ? -ENOMEM : 0;
	n = json_object_array_length(stack);
	if (!n) {
		fc->unpaired++;
		return 0;
	}
	begin = &fc->raw[json_object_get_int64(json_object_array_get_idx(stack, n - 1))];
	json_object_array_del_idx(stack, n - 1, 1);
	if (r->ph == 'E')
		return add_out(fc, MERGED_SLICE, begin, to_mono_ns(fc, begin->ts), to_mono_ns(fc, r->ts), 0);
	/* One id in the merge per (cat, id) of this file: ids never collide across files. */
	if (!json_object_object_get_ex(fc->async_ids, key, &id)) {
		id = json_object_new_int64(++fc->tm->last_async_id);
		if (json_replace(fc->async_ids, key, id))
			return -ENOMEM;
	}
	return add_out(fc, MERGED_ASYNC, begin, to_mono_ns(fc, begin->ts), to_mono_ns(fc, r->ts),
		       json_object_get_int64(id));
}

static int convert_events(struct file_ctx *fc)
{
	size_t i;
	int err = 0;

	/* B/E pair in time order, as a viewer reads them. */
	qsort(fc->raw, fc->nr_raw, sizeof(*fc->raw), cmp_raw);
	for (i = 0; !err && i < fc->nr_raw; i++) {
		const struct raw_event *r = &fc->raw[i];
		__s64 s = to_mono_ns(fc, r->ts);

		switch (r->ph) {
		case 'X':
			err = add_out(fc, MERGED_SLICE, r, s, to_mono_ns(fc, r->ts + r->dur), 0);
			break;
		case 'i':
		case 'I':
			err = add_out(fc, MERGED_INSTANT, r, s, s, 0);
			break;
		case 'C':
			err = add_out(fc, MERGED_COUNTER, r, s, s, 0);
			break;
		default:
			err = begin_end(fc, r, i);
			break;
		}
	}
	if (err)
		return err;
	/* B or b never closed: the writer's intent is unknown, drop them. */
	json_object_object_foreach(fc->open, key, stack)
	{
		(void)key;
		fc->unpaired += json_object_array_length(stack);
	}
	return 0;
}

static void free_events(struct merged_event *events, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(events[i].name);
		free(events[i].cat);
		json_object_put(events[i].args);
	}
}

/* The file's line in merged_files, kept as a struct: its JSON is made when printed (file_json()). */
static int file_summary(struct trace_merge *tm, const struct file_ctx *fc, const char *path)
{
	struct merged_file *f;

	if (array_grow((void **)&tm->files, &tm->cap_files, tm->nr_files + 1, sizeof(*tm->files)))
		return -ENOMEM;
	f = &tm->files[tm->nr_files];
	*f = (struct merged_file){
		.path = strdup(path),
		.attributed_by = fc->attributed_by,
		.clock = clock_names[fc->clock],
		.events = fc->nr_out,
		.clamped = fc->clamped,
		.writer_pid = fc->proc >= 0 ? (long)fc->m->procs[fc->proc].pid : -1,
		.totals = fc->nr_totals ? json_object_get(fc->totals) : NULL,
	};
	if (!f->path) {
		json_object_put(f->totals);
		return -ENOMEM;
	}
	tm->nr_files++;
	return 0;
}

/* merged_files[i] (json_lazy_item_fn; ctx: the merge). */
static struct json_object *file_json(size_t i, const void *ctx)
{
	const struct merged_file *f = &(*(const struct trace_merge *const *)ctx)->files[i];
	struct json_object *file = json_object_new_object();
	int err;

	err = json_put_str(file, "path", f->path) ?:
	      json_put_str(file, "attributed_by", f->attributed_by) ?:
	      json_put_str(file, "clock", f->clock) ?:
	      json_put_int(file, "events", f->events) ?:
	      json_put_int(file, "clamped", f->clamped);
	if (!err && f->writer_pid >= 0)
		err = json_put_int(file, "writer_pid", f->writer_pid);
	if (!err && f->totals)
		err = json_put(file, "totals", json_object_get(f->totals));
	return json_done(file, err);
}

/* The file's events become the merge's. */
static int commit(struct file_ctx *fc, const char *clean_path)
{
	struct trace_merge *tm = fc->tm;
	size_t i, track = 0;
	int err;

	err = array_grow((void **)&tm->events, &tm->cap_events, tm->nr_events + fc->nr_out, sizeof(*tm->events));
	if (!err && fc->proc < 0) {
		err = array_grow((void **)&tm->tracks, &tm->cap_tracks, tm->nr_tracks + 1, sizeof(*tm->tracks));
		if (!err) {
			tm->tracks[tm->nr_tracks] = strdup(fc->label);
			err = tm->tracks[tm->nr_tracks] ? 0 : -ENOMEM;
		}
		track = tm->nr_tracks;
	}
	if (err || file_summary(tm, fc, clean_path)) {
		if (fc->proc < 0 && !err)
			free(tm->tracks[tm->nr_tracks]);
		return -ENOMEM;
	}
	if (fc->proc < 0)
		tm->nr_tracks++;
	for (i = 0; i < fc->nr_out; i++) {
		fc->out[i].track = track;
		fc->out[i].file = tm->nr_files - 1;
		tm->events[tm->nr_events++] = fc->out[i];
	}
	fc->nr_out = 0;
	tm->stats.files++;
	tm->stats.events += i;
	tm->stats.clamped += fc->clamped;
	tm->stats.bad_events += fc->bad;
	tm->stats.unpaired += fc->unpaired;
	tm->stats.unsupported += fc->unsupported;
	tm->stats.totals += fc->nr_totals;
	return 0;
}

/* The traceEvents array, beginningOfTime, or a reason the file is no trace. */
static const char *trace_events(struct json_object *root, struct json_object **events, double *bot_us)
{
	struct json_object *v;
	double bot;

	*bot_us = -1;
	if (json_object_is_type(root, json_type_array)) {
		*events = root;
		return NULL;
	}
	if (!json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, "traceEvents", events) ||
	    !json_object_is_type(*events, json_type_array))
		return "not a Chrome trace (no traceEvents array)";
	if (json_object_object_get_ex(root, "beginningOfTime", &v)) {
		if (!get_number(root, "beginningOfTime", &bot) || bot < BOT_MIN_US || bot > BOT_MAX_US)
			return "beginningOfTime is not microseconds since the epoch";
		*bot_us = bot;
	}
	return NULL;
}

/* Parses the bytes; NULL with why filled when they are not one JSON value. */
static struct json_object *parse(const char *bytes, size_t len, char *why, size_t why_size)
{
	struct json_tokener *tok = json_tokener_new_ex(MERGE_JSON_DEPTH);
	struct json_object *root;
	enum json_tokener_error jerr;

	if (!tok) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	/* Strict: no trailing data, no lenient syntax; UTF-8 checked. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, bytes, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		json_object_put(root);
		root = NULL;
		snprintf(why, why_size, "truncated JSON");
	} else if (!root || jerr != json_tokener_success) {
		json_object_put(root);
		root = NULL;
		snprintf(why, why_size, "invalid JSON (%s at byte %zu)", json_tokener_error_desc(jerr),
			 json_tokener_get_parse_end(tok));
	} else {
		size_t end = json_tokener_get_parse_end(tok);

		while (end < len && isspace((unsigned char)bytes[end]))
			end++;
		if (end < len) {
			json_object_put(root);
			root = NULL;
			snprintf(why, why_size, "data after the JSON value at byte %zu", end);
		}
	}
	json_tokener_free(tok);
	return root;
}

int trace_merge__add(struct trace_merge *tm, const char *path, const char *bytes, size_t len, char *why,
		     size_t why_size)
{
	struct file_ctx fc = { .tm = tm, .m = tm->m, .proc = -1 };
	struct json_object *root = NULL, *events;
	char *clean_path = utf8_sanitize(path, strlen(path));
	const char *reason;
	size_t i;
	int err = 1;

	snprintf(why, why_size, "skipped");
	if (!clean_path)
		return -ENOMEM;
	if (len > tm->limits.file_max_bytes) {
		snprintf(why, why_size, "larger than %zu bytes (--merge-max-file)", tm->limits.file_max_bytes);
		goto cleanup;
	}
	/* json-c takes an int length. */
	if (len > INT32_MAX) {
		snprintf(why, why_size, "larger than 2 GiB");
		goto cleanup;
	}
	root = parse(bytes, len, why, why_size);
	if (!root)
		goto cleanup;
	reason = trace_events(root, &events, &fc.bot_us);
	if (reason) {
		snprintf(why, why_size, "%s", reason);
		goto cleanup;
	}
	fc.thread_names = json_object_new_object();
	fc.totals = json_object_new_object();
	fc.open = json_object_new_object();
	fc.async_ids = json_object_new_object();
	if (!fc.thread_names || !fc.totals || !fc.open || !fc.async_ids) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < json_object_array_length(events); i++) {
		err = collect_event(&fc, json_object_array_get_idx(events, i), i);
		if (err)
			goto cleanup;
	}
	err = 1;
	if (!fc.nr_raw) {
		snprintf(why, why_size, "no trace events%s", fc.bad ? " of a known shape" : "");
		goto cleanup;
	}
	err = attribute(&fc, path) ?: convert_events(&fc);
	if (err)
		goto cleanup;
	err = 1;
	if (tm->nr_events + fc.nr_out > tm->limits.max_events) {
		snprintf(why, why_size, "its %zu events would pass the limit of %zu merged events (--merge-max-events)",
			 fc.nr_out, tm->limits.max_events);
		goto cleanup;
	}
	err = commit(&fc, clean_path);
cleanup:
	if (err == 1)
		tm->stats.skipped++;
	free_events(fc.out, fc.nr_out);
	free(fc.out);
	free(fc.raw);
	free(fc.label);
	free(clean_path);
	json_object_put(fc.thread_names);
	json_object_put(fc.totals);
	json_object_put(fc.open);
	json_object_put(fc.async_ids);
	json_object_put(root);
	return err;
}

/* ---- nesting ---- */

static int cmp_nest(const void *a, const void *b)
{
	const struct nest_item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	/* Equal bounds: the process slice outside, then file order. */
	return x->event < y->event ? -1 : x->event > y->event;
}

/* A slice moved by the nesting pass: counted in all and for its file. */
static void count_clamp(struct trace_merge *tm, const struct merged_event *ev)
{
	tm->stats.clamped++;
	tm->files[ev->file].clamped++;
}

/* Slices of one writer (or one own track) are contiguous in this order. */
static int cmp_writer(const void *a, const void *b, void *ctx)
{
	const struct merged_event *events = ctx;
	const struct merged_event *x = &events[*(const size_t *)a], *y = &events[*(const size_t *)b];

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

struct kids_at {
	const struct nest_item *kids;
	__s64 t;
};

static bool kid_starts_before(const void *key, size_t i)
{
	const struct kids_at *at = key;

	return at->kids[i].ts < at->t;
}

/* The child process slice strictly around t_us, or NULL (children sorted, disjoint). */
static const struct nest_item *child_around(const struct nest_item *kids, size_t n, __s64 t)
{
	struct kids_at at = { kids, t };
	size_t lo = sorted_first_not_before(0, n, kid_starts_before, &at);

	return lo > 0 && t < kids[lo - 1].end ? &kids[lo - 1] : NULL;
}

/* The process slices drawn directly below each process: those of procs[i] at kids[off[i] .. off[i + 1]), sorted. */
struct nest_kids {
	size_t *off;
	struct nest_item *kids;
};

/* One pass over the processes, not one per writer: n writers of n processes cost n^2. */
static int nest_kids__init(struct nest_kids *nk, const struct model *m, const struct proc_layout *procs)
{
	size_t i, n = m->nr_procs, *fill;

	nk->off = calloc(n + 1, sizeof(*nk->off));
	nk->kids = malloc((n ? n : 1) * sizeof(*nk->kids));
	fill = malloc((n + 1) * sizeof(*fill));
	if (!nk->off || !nk->kids || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (procs[i].above >= 0 && (size_t)procs[i].above < n)
			nk->off[procs[i].above + 1]++;
	for (i = 0; i < n; i++)
		nk->off[i + 1] += nk->off[i];
	memcpy(fill, nk->off, (n + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (procs[i].above >= 0 && (size_t)procs[i].above < n)
			nk->kids[fill[procs[i].above]++] = (struct nest_item){ procs[i].span.ts, procs[i].span.end, -1 };
	for (i = 0; i < n; i++)
		qsort(nk->kids + nk->off[i], nk->off[i + 1] - nk->off[i], sizeof(*nk->kids), cmp_nest);
	free(fill);
	return 0;
}

/*
 * Makes one writer's slices nest on its lane.  First each slice that
 * starts or ends inside a child process slice (drawn on the same lane,
 * directly below the writer) grows to cover it: process slices never move.
 * Then a sweep in (start, longest first) order cuts a slice that sticks
 * out of the one around it at that one's end.
 */
static int nest_writer(struct trace_merge *tm, const struct nest_kids *nk, const size_t *idx, size_t n)
{
	struct nest_item *items = NULL, **stack = NULL;
	const struct nest_item *kids = NULL;
	long proc = tm->events[idx[0]].proc;
	size_t i, nr_kids = 0, nr_items, depth = 0;
	int err = -ENOMEM;

	if (proc >= 0 && (size_t)proc < tm->m->nr_procs) {
		kids = nk->kids + nk->off[proc];
		nr_kids = nk->off[proc + 1] - nk->off[proc];
	}
	items = malloc((n + nr_kids) * sizeof(*items));
	stack = malloc((n + nr_kids) * sizeof(*stack));
	if (!items || !stack)
		goto cleanup;
	if (nr_kids) /* kids is NULL when there are none */
		memcpy(items + n, kids, nr_kids * sizeof(*items));
	for (i = 0; i < n; i++) {
		struct merged_event *ev = &tm->events[idx[i]];
		__s64 ts = ev->ts, end = ev->ts + ev->dur;
		const struct nest_item *k;

		/* A child around the writer's whole exec sub-slice is no obstacle. */
		if ((k = child_around(kids, nr_kids, ts)) && k->ts < ts && ev->box_ts <= k->ts && k->end <= ev->box_end)
			ts = k->ts;
		if ((k = child_around(kids, nr_kids, end)) && k->ts < end && ev->box_ts <= k->ts &&
		    k->end <= ev->box_end)
			end = k->end;
		if (ts != ev->ts || end != ev->ts + ev->dur)
			count_clamp(tm, ev);
		items[i] = (struct nest_item){ ts, end, (long)idx[i] };
	}
	nr_items = n + nr_kids;
	qsort(items, nr_items, sizeof(*items), cmp_nest);
	for (i = 0; i < nr_items; i++) {
		struct nest_item *it = &items[i];

		while (depth && stack[depth - 1]->end <= it->ts)
			depth--;
		if (depth && it->end > stack[depth - 1]->end && it->event >= 0) {
			it->end = stack[depth - 1]->end;
			count_clamp(tm, &tm->events[it->event]);
		}
		stack[depth++] = it;
		if (it->event >= 0) {
			tm->events[it->event].ts = it->ts;
			tm->events[it->event].dur = it->end - it->ts;
		}
	}
	err = 0;
cleanup:
	free(items);
	free(stack);
	return err;
}

int trace_merge__finish(struct trace_merge *tm)
{
	struct nest_kids nk = {};
	size_t *idx = NULL, i, n = 0, start;
	int err = -ENOMEM;

	idx = malloc((tm->nr_events ? tm->nr_events : 1) * sizeof(*idx));
	if (!idx || nest_kids__init(&nk, tm->m, tm->layout->procs))
		goto cleanup;
	for (i = 0; i < tm->nr_events; i++) {
		if (tm->events[i].kind == MERGED_SLICE)
			idx[n++] = i;
	}
	qsort_r(idx, n, sizeof(*idx), cmp_writer, tm->events);
	err = 0;
	for (start = 0, i = 1; !err && start < n; i++) {
		if (i < n && tm->events[idx[i]].proc == tm->events[idx[start]].proc &&
		    tm->events[idx[i]].track == tm->events[idx[start]].track)
			continue;
		err = nest_writer(tm, &nk, idx + start, i - start);
		start = i;
	}
cleanup:
	free(idx);
	free(nk.off);
	free(nk.kids);
	return err;
}

/* ---- life cycle ---- */

static int cmp_merge_pid(const void *a, const void *b)
{
	const struct merge_pid *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/* tm->pids: every process under its pid, and under its namespace pid when that differs. */
static int index_pids(struct trace_merge *tm)
{
	const struct model *m = tm->m;
	size_t i;

	tm->pids = malloc((2 * m->nr_procs + 1) * sizeof(*tm->pids));
	if (!tm->pids)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++) {
		tm->pids[tm->nr_pids++] = (struct merge_pid){ m->procs[i].pid, i };
		if (m->procs[i].ns_pid && m->procs[i].ns_pid != m->procs[i].pid)
			tm->pids[tm->nr_pids++] = (struct merge_pid){ m->procs[i].ns_pid, i };
	}
	qsort(tm->pids, tm->nr_pids, sizeof(*tm->pids), cmp_merge_pid);
	return 0;
}

struct trace_merge *trace_merge__new(const struct model *m, const struct trace_layout *tl, __s64 real_minus_mono_ns,
				     const struct merge_limits *limits)
{
	struct trace_merge *tm = calloc(1, sizeof(*tm));

	if (!tm)
		return NULL;
	tm->m = m;
	tm->real_minus_mono_ns = real_minus_mono_ns;
	tm->limits = limits ? *limits
			    : (struct merge_limits){ MERGE_DEFAULT_FILE_MAX_BYTES, MERGE_DEFAULT_MAX_EVENTS };
	if (!tl)
		tl = tm->own_layout = trace_layout__new(m);
	tm->layout = tl;
	if (!tm->layout || index_pids(tm)) {
		trace_merge__free(tm);
		return NULL;
	}
	return tm;
}

struct json_object *trace_merge__summary(const struct trace_merge *tm)
{
	struct json_object *s = json_object_new_object();
	int err;

	if (!s)
		return NULL;
	err = json_put_int(s, "files", tm->stats.files) ?:
	      json_put_int(s, "skipped", tm->stats.skipped) ?:
	      json_put_int(s, "events", tm->stats.events) ?:
	      json_put_int(s, "clamped", tm->stats.clamped) ?:
	      json_put_int(s, "bad_events", tm->stats.bad_events) ?:
	      json_put_int(s, "unpaired", tm->stats.unpaired) ?:
	      json_put_int(s, "unsupported", tm->stats.unsupported) ?:
	      json_put_int(s, "totals", tm->stats.totals) ?:
	      json_put(s, "merged_files", json_lazy_array(tm->nr_files, file_json, &tm, sizeof(tm)));
	if (err) {
		json_object_put(s);
		return NULL;
	}
	return s;
}

void trace_merge__free(struct trace_merge *tm)
{
	size_t i;

	if (!tm)
		return;
	free_events(tm->events, tm->nr_events);
	free(tm->events);
	for (i = 0; i < tm->nr_tracks; i++)
		free(tm->tracks[i]);
	free(tm->tracks);
	for (i = 0; i < tm->nr_files; i++) {
		free(tm->files[i].path);
		json_object_put(tm->files[i].totals);
	}
	free(tm->files);
	trace_layout__free(tm->own_layout);
	free(tm->pids);
	free(tm);
}
