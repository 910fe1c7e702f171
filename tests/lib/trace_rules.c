// SPDX-License-Identifier: GPL-2.0
/*
 * Each check is linear or O(n log n) in the number of events: the
 * integration suites write traces of hundreds of thousands of CPU slices.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/sorted_search.h"
#include "util/utf8.h"
#include "json_fields.h"
#include "trace_rules.h"

void check_trace_text(const char *text, size_t len)
{
	char *clean;
	size_t i;

	cr_assert(ge(sz, len, 2));
	cr_assert(eq(chr, text[len - 1], '\n'));
	for (i = 0; i + 1 < len; i++)
		cr_assert(ge(u8, (unsigned char)text[i], 0x20), "rule 1: raw control byte at offset %zu", i);
	cr_assert(eq(sz, strlen(text), len), "rule 1: a NUL byte in the trace");
	clean = utf8_sanitize(text, len);
	cr_assert(eq(int, strcmp(clean, text), 0), "rule 1: the trace is not valid UTF-8");
	free(clean);
}

struct json_object *parse_trace_text(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, text, (int)len - 1);
	cr_assert(not(eq(ptr, root, NULL)), "JSON parse error: %s",
		  json_tokener_error_desc(json_tokener_get_error(tok)));
	cr_assert(eq(int, (int)json_tokener_get_parse_end(tok), (int)len - 1));
	json_tokener_free(tok);
	return root;
}

/* A named track: process_name gives (pid, -1), thread_name (pid, tid). */
struct track {
	int64_t pid, tid;
};

struct track_names {
	struct track *tracks;
	size_t nr;
};

static int cmp_track(const void *a, const void *b)
{
	const struct track *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Gathered and sorted once, so that the lookup per event is a bsearch. */
static struct track_names collect_names(struct json_object *events)
{
	struct track_names names = { calloc(json_object_array_length(events) + 1, sizeof(struct track)), 0 };
	size_t i;

	cr_assert(not(eq(ptr, names.tracks, NULL)));
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (!str_field_is(ev, "ph", "M"))
			continue;
		if (str_field_is(ev, "name", "process_name"))
			names.tracks[names.nr++] = (struct track){ int_field(ev, "pid"), -1 };
		else if (str_field_is(ev, "name", "thread_name") && has_int_field(ev, "tid"))
			names.tracks[names.nr++] = (struct track){ int_field(ev, "pid"), int_field(ev, "tid") };
	}
	qsort(names.tracks, names.nr, sizeof(*names.tracks), cmp_track);
	return names;
}

static bool has_track_name(const struct track_names *names, int64_t pid, int64_t tid)
{
	struct track key = { pid, tid };

	return bsearch(&key, names->tracks, names->nr, sizeof(key), cmp_track) != NULL;
}

/* Rule 7: a counter's args is an object whose values are all numbers. */
static void check_counter_args(struct json_object *ev)
{
	struct json_object *args = field(ev, "args");

	cr_assert(not(eq(ptr, args, NULL)), "rule 7: C event without args");
	cr_assert(json_object_is_type(args, json_type_object));
	cr_assert(ge(int, json_object_object_length(args), 1), "rule 7: C event with empty args");
	json_object_object_foreach(args, key, val)
	{
		cr_assert(json_object_is_type(val, json_type_double) || json_object_is_type(val, json_type_int),
			  "rule 7: counter %s.%s is not a number", str_field(ev, "name"), key);
	}
}

/* Rules 2, 3, 7 and 8 on one event; our writer uses no phase but M, X, C, i (races), s and f. */
static void check_event_fields(const struct track_names *names, struct json_object *ev)
{
	const char *ph = str_field(ev, "ph");
	struct json_object *args;

	cr_assert(eq(sz, strlen(ph), 1));
	str_field(ev, "name");
	cr_assert(ge(i64, int_field(ev, "pid"), 1), "rule 2: pid < 1");
	cr_assert(lt(i64, int_field(ev, "pid"), INT64_C(1) << 31), "rule 2: pid >= 2^31");
	if (!strcmp(ph, "M")) {
		args = field(ev, "args");
		cr_assert(not(eq(ptr, args, NULL)), "rule 8: M event without args");
		if (strstr(str_field(ev, "name"), "sort_index"))
			int_field(args, "sort_index");
		else
			str_field(args, "name");
		return;
	}
	cr_assert(ge(i64, int_field(ev, "tid"), 1), "rule 2: tid < 1");
	cr_assert(lt(i64, int_field(ev, "tid"), INT64_C(1) << 31), "rule 2: tid >= 2^31");
	cr_assert(ge(i64, int_field(ev, "ts"), 1), "rule 2: ts < 1");
	cr_assert(has_track_name(names, int_field(ev, "pid"), -1), "rule 8: pid %lld without process_name",
		  (long long)int_field(ev, "pid"));
	cr_assert(has_track_name(names, int_field(ev, "pid"), int_field(ev, "tid")),
		  "rule 8: pid %lld tid %lld without thread_name", (long long)int_field(ev, "pid"),
		  (long long)int_field(ev, "tid"));
	if (!strcmp(ph, "X"))
		cr_assert(ge(i64, int_field(ev, "dur"), 0), "rule 3: negative dur");
	else if (!strcmp(ph, "C"))
		check_counter_args(ev);
	else if (!strcmp(ph, "i"))
		cr_assert(strchr("gpt", str_field(ev, "s")[0]) && strlen(str_field(ev, "s")) == 1,
			  "rule 7: instant scope %s", str_field(ev, "s"));
	else
		cr_assert(ph[0] == 's' || ph[0] == 'f', "unexpected phase %s", ph);
}

struct slice {
	int64_t pid, tid, ts, end;
	const char *cat;
};

/* (pid, tid, ts), then the outer slice first. */
static int cmp_slice(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

/*
 * Rule 5: on every pid/tid, X slices contain one another or do not overlap.
 * In cmp_slice() order a stack of open slices finds any pair that partially
 * overlaps.
 */
static void check_nesting(const struct slice *sorted, size_t nr)
{
	size_t *open = malloc((nr + 1) * sizeof(*open)), depth = 0, i;

	cr_assert(not(eq(ptr, open, NULL)));
	for (i = 0; i < nr; i++) {
		const struct slice *b = &sorted[i];

		while (depth > 0) {
			const struct slice *a = &sorted[open[depth - 1]];

			if (a->pid == b->pid && a->tid == b->tid && b->ts < a->end)
				break;
			depth--;
		}
		if (depth > 0) {
			const struct slice *a = &sorted[open[depth - 1]];

			cr_assert(le(i64, b->end, a->end),
				  "rule 5: X [%lld,%lld) and [%lld,%lld) overlap on pid %lld tid %lld",
				  (long long)a->ts, (long long)a->end, (long long)b->ts, (long long)b->end,
				  (long long)a->pid, (long long)a->tid);
		}
		open[depth++] = i;
	}
	free(open);
}

struct slice_at {
	const struct slice *sorted;
	struct slice key;
};

/* Whether slice i starts before (pid, tid, ts): cmp_slice() without the end. */
static bool slice_before(const void *key, size_t i)
{
	const struct slice_at *at = key;
	const struct slice *s = &at->sorted[i];

	return s->pid < at->key.pid ||
	       (s->pid == at->key.pid && (s->tid < at->key.tid || (s->tid == at->key.tid && s->ts < at->key.ts)));
}

/* Rule 9: DevTools binds a flow end to the slice with the same ts, pid, tid and cat. */
static bool binds(const struct slice *sorted, size_t nr, struct json_object *flow)
{
	const struct slice key = { int_field(flow, "pid"), int_field(flow, "tid"), int_field(flow, "ts"), 0, NULL };
	const struct slice_at at = { sorted, key };
	const char *cat = str_field(flow, "cat");
	size_t lo = sorted_first_not_before(0, nr, slice_before, &at);

	for (; lo < nr && sorted[lo].pid == key.pid && sorted[lo].tid == key.tid && sorted[lo].ts == key.ts; lo++) {
		if (!strcmp(sorted[lo].cat, cat))
			return true;
	}
	return false;
}

struct flow_end {
	int64_t id;
	struct json_object *ev;
};

static int cmp_flow_end(const void *a, const void *b)
{
	const struct flow_end *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Rule 9: one s and one f per id, never reused, bound to slices, paired by cat and name. */
static void check_flows(struct json_object *events, const struct slice *sorted, size_t nr_x)
{
	size_t i, j, n = json_object_array_length(events), nr = 0;
	struct flow_end *ends = calloc(n + 1, sizeof(*ends));

	cr_assert(not(eq(ptr, ends, NULL)));
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "s") || str_field_is(ev, "ph", "f"))
			ends[nr++] = (struct flow_end){ int_field(ev, "id"), ev };
	}
	qsort(ends, nr, sizeof(*ends), cmp_flow_end);
	for (i = 0; i < nr; i = j) {
		struct json_object *s, *f;

		for (j = i + 1; j < nr && ends[j].id == ends[i].id; j++)
			;
		cr_assert(ge(sz, j - i, 2), "rule 9: flow id %lld has one end", (long long)ends[i].id);
		cr_assert(not(eq(str, (char *)str_field(ends[i].ev, "ph"), (char *)str_field(ends[i + 1].ev, "ph"))),
			  "rule 9: flow id %lld reused", (long long)ends[i].id);
		cr_assert(eq(sz, j - i, 2), "rule 9: flow id %lld has more than two ends", (long long)ends[i].id);
		s = str_field_is(ends[i].ev, "ph", "s") ? ends[i].ev : ends[i + 1].ev;
		f = s == ends[i].ev ? ends[i + 1].ev : ends[i].ev;
		cr_assert(binds(sorted, nr_x, s), "rule 9: flow s id %lld binds to no slice", (long long)ends[i].id);
		cr_assert(binds(sorted, nr_x, f), "rule 9: flow f id %lld binds to no slice", (long long)ends[i].id);
		/* DevTools pairs the ends by cat, name and id. */
		cr_assert(eq(str, (char *)str_field(f, "cat"), (char *)str_field(s, "cat")));
		cr_assert(eq(str, (char *)str_field(f, "name"), (char *)str_field(s, "name")));
		cr_assert(ge(i64, int_field(f, "ts"), int_field(s, "ts")), "rule 9: flow id %lld ends before it starts",
			  (long long)ends[i].id);
		cr_assert(str_field_is(f, "bp", "e"), "rule 9: flow id %lld: f without bp e", (long long)ends[i].id);
	}
	free(ends);
}

void check_trace_rules(struct json_object *trace)
{
	struct json_object *events = trace_events(trace);
	size_t i, n = json_object_array_length(events), nr_x = 0;
	struct slice *x = calloc(n + 1, sizeof(*x));
	struct track_names names = collect_names(events);

	cr_assert(not(eq(ptr, x, NULL)));
	cr_assert(eq(str, (char *)str_field(trace, "displayTimeUnit"), "ms"));
	cr_assert(not(eq(ptr, field(trace, "otherData"), NULL)), "the trace has no otherData");
	cr_assert(has_track_name(&names, 1, -1), "rule 8: the trace process has no name");
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		check_event_fields(&names, ev);
		if (!str_field_is(ev, "ph", "X"))
			continue;
		x[nr_x++] = (struct slice){
			.pid = int_field(ev, "pid"),
			.tid = int_field(ev, "tid"),
			.ts = int_field(ev, "ts"),
			.end = int_field(ev, "ts") + int_field(ev, "dur"),
			.cat = str_field(ev, "cat"),
		};
	}
	qsort(x, nr_x, sizeof(*x), cmp_slice);
	check_nesting(x, nr_x);
	check_flows(events, x, nr_x);
	free(names.tracks);
	free(x);
}
