// SPDX-License-Identifier: GPL-2.0
/*
 * Merging tools' own traces: attribution, clock alignment, clamping and
 * nesting from small hand-written trace files on hand-made models; hostile
 * files; the written trace; the file finder ('**', symlinks, the trace
 * directory's life).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/written_trace.h"
#include "report/chrome_trace.h"
#include "merge/trace_files.h"
#include "record/trace_dir.h"
#include "merge/trace_merge.h"

#define MS 1000000ll
/* A machine up for 1000 s: monotonic times far from small file timestamps. */
#define T0 (1000000 * MS)
/* CLOCK_REALTIME - CLOCK_MONOTONIC on the pretend machine. */
#define REAL_MINUS_MONO (1700000000000 * MS)

static struct exec_image images[4];

/*
 * make (pid 100, lane 0) from T0 to T0+100ms; cc (pid 101, lane 0, directly
 * under make) forked at +10ms, exec at +11ms, exit at +60ms; its child as
 * (pid 102, lane 0) from +30 to +40ms; pid 103 on lane 1 execs twice.
 */
static struct model test_model(struct proc_instance procs[4])
{
	struct model m = { .procs = procs, .nr_procs = 4, .nr_lanes = 2, .start_ns = T0, .end_ns = T0 + 100 * MS,
			   .root_pid = 100, .root = 0 };

	memset(procs, 0, 4 * sizeof(*procs));
	memset(images, 0, sizeof(images));
	procs[0] = (struct proc_instance){ .id = 0, .parent = -1, .pid = 100, .start_ns = T0, .end_ns = T0 + 100 * MS,
					   .exited = true, .comm = "make" };
	procs[1] = (struct proc_instance){ .id = 1, .parent = 0, .pid = 101, .start_ns = T0 + 10 * MS,
					   .end_ns = T0 + 60 * MS, .exited = true, .comm = "cc" };
	images[0] = (struct exec_image){ .start_ns = T0 + 11 * MS, .end_ns = T0 + 60 * MS };
	procs[1].execs = &images[0];
	procs[1].nr_execs = 1;
	procs[2] = (struct proc_instance){ .id = 2, .parent = 1, .pid = 102, .start_ns = T0 + 30 * MS,
					   .end_ns = T0 + 40 * MS, .exited = true, .comm = "as" };
	procs[3] = (struct proc_instance){ .id = 3, .parent = 0, .pid = 103, .start_ns = T0 + 20 * MS,
					   .end_ns = T0 + 90 * MS, .exited = true, .comm = "sh", .lane = 1 };
	images[1] = (struct exec_image){ .start_ns = T0 + 21 * MS, .end_ns = T0 + 50 * MS };
	images[2] = (struct exec_image){ .start_ns = T0 + 50 * MS, .end_ns = T0 + 90 * MS };
	procs[3].execs = &images[1];
	procs[3].nr_execs = 2;
	return m;
}

/* Trace microseconds of a monotonic time, as the writer computes them. */
static long long us(long long mono_ns)
{
	return (mono_ns - T0) / 1000 + 1;
}

static struct trace_merge *tm_of(const struct model *m)
{
	struct trace_merge *tm = trace_merge__new(m, NULL, REAL_MINUS_MONO, NULL);

	cr_assert_not_null(tm);
	return tm;
}

static int add(struct trace_merge *tm, const char *path, const char *text, char *why, size_t why_size)
{
	return trace_merge__add(tm, path, text, strlen(text), why, why_size);
}

static void add_ok(struct trace_merge *tm, const char *path, const char *text)
{
	char why[160];
	int rc = add(tm, path, text, why, sizeof(why));

	cr_assert(eq(int, rc, 0), "%s skipped: %s", path, why);
}

static const struct merged_event *find_event(const struct trace_merge *tm, const char *name)
{
	size_t i;

	for (i = 0; i < tm->nr_events; i++)
		if (!strcmp(tm->events[i].name, name))
			return &tm->events[i];
	cr_assert(false, "no merged event %s", name);
	return NULL;
}

/* merged_files[i] as the trace prints it (its JSON is made then): printed, parsed; the caller puts it. */
static struct json_object *file_summary(const struct trace_merge *tm, size_t i)
{
	struct json_object *s = trace_merge__summary(tm), *read, *file;

	cr_assert(not(eq(ptr, s, NULL)));
	read = json_tokener_parse(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN));
	json_object_put(s);
	cr_assert(not(eq(ptr, read, NULL)));
	file = json_object_get(json_object_array_get_idx(json_object_object_get(read, "merged_files"), i));
	json_object_put(read);
	cr_assert(not(eq(ptr, file, NULL)), "no merged_files[%zu]", i);
	return file;
}

static void assert_summary_str(const struct trace_merge *tm, size_t i, const char *key, const char *want)
{
	struct json_object *file = file_summary(tm, i), *v;

	cr_assert(json_object_object_get_ex(file, key, &v), "no %s", key);
	cr_assert(eq(str, (char *)json_object_get_string(v), (char *)want));
	json_object_put(file);
}

/* beginningOfTime (µs since the epoch) of a writer that started at mono_ns. */
static long long bot_at(long long mono_ns)
{
	return (mono_ns + REAL_MINUS_MONO) / 1000;
}

Test(merge, clang_time_trace_lands_in_the_clang_slice)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	const struct merged_event *fe, *be;
	struct json_object *file, *totals, *t;
	char text[2048];

	/* clang: its pid, ts from beginningOfTime, Total aggregates at ts 0. */
	snprintf(text, sizeof(text),
		 "{\"traceEvents\":["
		 "{\"pid\":101,\"tid\":101,\"ph\":\"X\",\"ts\":2000,\"dur\":5000,\"name\":\"Frontend\"},"
		 "{\"pid\":101,\"tid\":101,\"ph\":\"X\",\"ts\":8000,\"dur\":10000,\"name\":\"Backend\"},"
		 "{\"pid\":101,\"tid\":101,\"ph\":\"X\",\"ts\":3000,\"dur\":1000,\"name\":\"Source\","
		 "\"args\":{\"detail\":\"a.h\"}},"
		 "{\"pid\":101,\"tid\":102,\"ph\":\"X\",\"ts\":0,\"dur\":5000,\"name\":\"Total Frontend\","
		 "\"args\":{\"count\":1,\"avg ms\":5}},"
		 "{\"cat\":\"\",\"pid\":101,\"tid\":101,\"ts\":0,\"ph\":\"M\",\"name\":\"thread_name\","
		 "\"args\":{\"name\":\"clang\"}}],"
		 "\"beginningOfTime\":%lld}",
		 bot_at(T0 + 12 * MS));
	add_ok(tm, "build/a.json", text);
	cr_assert(eq(int, trace_merge__finish(tm), 0));

	cr_assert(eq(sz, tm->nr_events, 3));
	fe = find_event(tm, "Frontend");
	be = find_event(tm, "Backend");
	cr_assert(eq(long, fe->proc, 1));
	cr_assert(eq(i64, fe->ts, us(T0 + 14 * MS)));
	cr_assert(eq(i64, fe->dur, 5000));
	cr_assert(eq(i64, be->ts, us(T0 + 20 * MS)));
	/* Backend runs over the child as (30-40ms, same lane): it contains it. */
	cr_assert(eq(i64, be->dur, 10000));
	assert_summary_str(tm, 0, "attributed_by", "pid field");
	assert_summary_str(tm, 0, "clock", "beginningOfTime");
	cr_assert(eq(sz, tm->stats.totals, 1));
	cr_assert(eq(sz, tm->stats.clamped, 0));
	file = file_summary(tm, 0);
	cr_assert(json_object_object_get_ex(file, "totals", &totals));
	cr_assert(json_object_object_get_ex(totals, "Frontend", &t));
	json_object_put(file);
	trace_merge__free(tm);
}

Test(merge, no_anchor_first_event_at_the_writer_exec_pid_from_file_name)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	const struct merged_event *ev;

	/* No pid field, no absolute clock: "cc-101.json" and its exec at +11ms. */
	add_ok(tm, "/tmp/x/cc-101.json",
	       "[{\"ph\":\"B\",\"name\":\"step\",\"ts\":500},{\"ph\":\"E\",\"ts\":2500},"
	       "{\"ph\":\"i\",\"name\":\"mark\",\"ts\":1500,\"s\":\"g\"}]");
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	cr_assert(eq(sz, tm->nr_events, 2));
	ev = find_event(tm, "step");
	cr_assert(eq(int, ev->kind, MERGED_SLICE));
	cr_assert(eq(long, ev->proc, 1));
	cr_assert(eq(i64, ev->ts, us(T0 + 11 * MS)));
	cr_assert(eq(i64, ev->dur, 2000));
	ev = find_event(tm, "mark");
	cr_assert(eq(int, ev->kind, MERGED_INSTANT));
	cr_assert(eq(i64, ev->ts, us(T0 + 12 * MS)));
	assert_summary_str(tm, 0, "attributed_by", "file name");
	assert_summary_str(tm, 0, "clock", "first event at the writer's exec");
	trace_merge__free(tm);
}

Test(merge, wall_clock_timestamps_are_recognised)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	char text[512];

	/* A script writing `date +%s%6N`: realtime µs, its pid in the field. */
	snprintf(text, sizeof(text), "[{\"ph\":\"X\",\"name\":\"s\",\"pid\":103,\"ts\":%lld,\"dur\":1000}]",
		 bot_at(T0 + 60 * MS));
	add_ok(tm, "x.json", text);
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	cr_assert(eq(long, tm->events[0].proc, 3));
	cr_assert(eq(i64, tm->events[0].ts, us(T0 + 60 * MS)));
	assert_summary_str(tm, 0, "clock", "wall-clock timestamps");
	/* Its second exec sub-slice (50-90ms) is the box. */
	cr_assert(eq(i64, tm->events[0].box_ts, us(T0 + 50 * MS)));
	trace_merge__free(tm);
}

Test(merge, skew_is_clamped_into_the_span_and_counted)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	char text[512];

	/* Starts 1ms before cc's fork and ends after its exit. */
	snprintf(text, sizeof(text),
		 "{\"traceEvents\":[{\"pid\":101,\"ph\":\"X\",\"name\":\"all\",\"ts\":0,\"dur\":60000}],"
		 "\"beginningOfTime\":%lld}",
		 bot_at(T0 + 9 * MS));
	add_ok(tm, "a.json", text);
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	cr_assert(eq(long, tm->events[0].proc, 1));
	cr_assert(eq(i64, tm->events[0].ts, us(T0 + 10 * MS)));
	cr_assert(eq(i64, tm->events[0].ts + tm->events[0].dur, us(T0 + 60 * MS)));
	cr_assert(eq(sz, tm->stats.clamped, 1));
	trace_merge__free(tm);
}

/* Whether every pair of slices on cc's lane (lane 0) nests. */
static void assert_lane0_nests(const struct trace_merge *tm, const struct model *m)
{
	long long s[64], e[64];
	size_t n = 0, i, j;

	for (i = 0; i < m->nr_procs; i++) {
		if (m->procs[i].lane)
			continue;
		s[n] = us(m->procs[i].start_ns);
		e[n++] = us(m->procs[i].end_ns);
	}
	for (i = 0; i < tm->nr_events; i++) {
		if (tm->events[i].kind != MERGED_SLICE || tm->events[i].proc < 0 ||
		    m->procs[tm->events[i].proc].lane)
			continue;
		s[n] = tm->events[i].ts;
		e[n++] = tm->events[i].ts + tm->events[i].dur;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++) {
			bool nest = (s[i] <= s[j] && e[j] <= e[i]) || (s[j] <= s[i] && e[i] <= e[j]) || e[i] <= s[j] ||
				    e[j] <= s[i];

			cr_assert(nest, "slices [%lld,%lld] and [%lld,%lld] overlap", s[i], e[i], s[j], e[j]);
		}
	}
}

Test(merge, slices_nest_with_each_other_and_with_child_processes)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct json_object *file;
	char text[1024];

	/* cc's file: a slice ending inside its child as, one starting inside it,
	 * and two that overlap one another. */
	snprintf(text, sizeof(text),
		 "{\"traceEvents\":["
		 "{\"pid\":101,\"ph\":\"X\",\"name\":\"into child\",\"ts\":15000,\"dur\":20000},"
		 "{\"pid\":101,\"ph\":\"X\",\"name\":\"out of child\",\"ts\":35000,\"dur\":10000},"
		 "{\"pid\":101,\"ph\":\"X\",\"name\":\"first\",\"ts\":41000,\"dur\":5000},"
		 "{\"pid\":101,\"ph\":\"X\",\"name\":\"second\",\"ts\":43000,\"dur\":6000}],"
		 "\"beginningOfTime\":%lld}",
		 bot_at(T0));
	add_ok(tm, "a.json", text);
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	assert_lane0_nests(tm, &m);
	cr_assert(eq(i64, find_event(tm, "into child")->ts + find_event(tm, "into child")->dur, us(T0 + 40 * MS)));
	cr_assert(eq(i64, find_event(tm, "out of child")->ts, us(T0 + 30 * MS)));
	cr_assert(ge(sz, tm->stats.clamped, 1));
	file = file_summary(tm, 0);
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(file, "clamped")), (long long)tm->stats.clamped));
	json_object_put(file);
	trace_merge__free(tm);
}

Test(merge, async_ids_unique_per_file_and_unpaired_dropped)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	const char *file = "[{\"ph\":\"b\",\"cat\":\"io\",\"id\":1,\"name\":\"read\",\"ts\":100,\"pid\":101},"
			   "{\"ph\":\"e\",\"cat\":\"io\",\"id\":1,\"name\":\"read\",\"ts\":900,\"pid\":101},"
			   "{\"ph\":\"E\",\"ts\":950,\"pid\":101},"
			   "{\"ph\":\"B\",\"name\":\"open\",\"ts\":960,\"pid\":101},"
			   "{\"ph\":\"C\",\"name\":\"mem\",\"ts\":300,\"pid\":101,\"args\":{\"rss\":12,\"x\":\"no\"}},"
			   "{\"ph\":\"s\",\"name\":\"flow\",\"id\":3,\"ts\":300,\"pid\":101}]";
	const struct merged_event *a = NULL, *b = NULL, *c = NULL;
	struct json_object *v;
	size_t i;

	add_ok(tm, "one.json", file);
	add_ok(tm, "two.json", file);
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	for (i = 0; i < tm->nr_events; i++) {
		if (tm->events[i].kind == MERGED_ASYNC)
			*(a ? &b : &a) = &tm->events[i];
		if (tm->events[i].kind == MERGED_COUNTER)
			c = &tm->events[i];
	}
	cr_assert(a && b && c);
	cr_assert(ne(i64, a->id, b->id));
	cr_assert(eq(i64, a->dur, 800));
	cr_assert(eq(sz, tm->stats.unpaired, 4));
	cr_assert(eq(sz, tm->stats.unsupported, 2));
	cr_assert(eq(str, c->name, "cc 101: mem"));
	cr_assert(json_object_object_get_ex(c->args, "rss", &v));
	cr_assert(not(json_object_object_get_ex(c->args, "x", &v)));
	trace_merge__free(tm);
}

/* json-c's null is the NULL pointer: a null in a tool's args is kept, not taken for no memory. */
Test(merge, null_in_args_is_kept_as_null)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct json_object *args, *v;

	add_ok(tm, "nulls.json",
	       "[{\"ph\":\"X\",\"name\":\"n\",\"ts\":1,\"dur\":1,\"pid\":101,"
	       "\"args\":{\"a\":null,\"b\":[1,null],\"c\":{\"d\":null}}}]");
	args = find_event(tm, "n")->args;
	cr_assert(json_object_object_get_ex(args, "a", &v));
	cr_assert(eq(ptr, v, NULL));
	cr_assert(json_object_object_get_ex(args, "b", &v));
	cr_assert(eq(sz, json_object_array_length(v), 2));
	cr_assert(eq(ptr, json_object_array_get_idx(v, 1), NULL));
	cr_assert(json_object_object_get_ex(args, "c", &v));
	cr_assert(json_object_object_get_ex(v, "d", NULL));
	trace_merge__free(tm);
}

Test(merge, unknown_writer_gets_its_own_track)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);

	add_ok(tm, "dir/tool-77.json", "[{\"ph\":\"X\",\"name\":\"x\",\"ts\":5,\"dur\":1,\"pid\":4242}]");
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	cr_assert(eq(long, tm->events[0].proc, -1));
	cr_assert(eq(sz, tm->nr_tracks, 1));
	cr_assert(eq(str, tm->tracks[0], "tool-77.json"));
	cr_assert(eq(i64, tm->events[0].ts, 1));
	assert_summary_str(tm, 0, "clock", "first event at the trace start");
	trace_merge__free(tm);
}

/* Given the writer's layout, the merge places its events by it and makes none of its own. */
Test(merge, borrows_the_layout_it_is_given)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_layout *tl = trace_layout__new(&m);
	struct trace_merge *tm;

	cr_assert_not_null(tl);
	tm = trace_merge__new(&m, tl, REAL_MINUS_MONO, NULL);
	cr_assert_not_null(tm);
	cr_assert(eq(ptr, (void *)tm->layout, tl));
	cr_assert(eq(ptr, tm->own_layout, NULL));
	trace_merge__free(tm);
	trace_layout__free(tl);
}

/* Each hostile input: skipped with a reason, nothing merged. */
Test(merge, hostile_files_are_skipped_with_a_reason)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct merge_limits limits = { 4096, 3 };
	struct trace_merge *tm = trace_merge__new(&m, NULL, REAL_MINUS_MONO, &limits);
	static const char *const bad[] = {
		"",
		"[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}",	/* truncated */
		"{\"a\":1}",						/* not a trace */
		"42",
		"[1,2,3]",						/* no events */
		"{\"traceEvents\":{\"ph\":\"X\"}}",			/* wrong type */
		"[{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1,\"dur\":1}]", /* invalid UTF-8 */
		"[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}] trailing",
		"[{\"ph\":\"X\",\"name\":\"x\",\"ts\":NaN,\"dur\":1}]",
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}],\"beginningOfTime\":\"soon\"}",
		/* past 2262: in ns beyond an __s64 (once a signed overflow) */
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}],\"beginningOfTime\":9300000000000000}",
		/* four events: over the cap of 3 */
		"[{\"ph\":\"i\",\"name\":\"x\",\"ts\":1},{\"ph\":\"i\",\"name\":\"x\",\"ts\":1},"
		"{\"ph\":\"i\",\"name\":\"x\",\"ts\":1},{\"ph\":\"i\",\"name\":\"x\",\"ts\":1}]",
	};
	char why[160], *deep, *big;
	size_t i, n = 0;

	cr_assert_not_null(tm);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert(eq(int, add(tm, "bad.json", bad[i], why, sizeof(why)), 1), "case %zu merged", i);
		cr_assert(ge(sz, strlen(why), 1));
	}
	/* 10000 nested arrays: the tokener's depth limit, not the stack. */
	deep = malloc(20001);
	for (i = 0; i < 10000; i++) {
		deep[i] = '[';
		deep[10000 + i] = ']';
	}
	deep[20000] = '\0';
	cr_assert(eq(int, add(tm, "deep.json", deep, why, sizeof(why)), 1));
	free(deep);
	/* Over the byte cap. */
	big = malloc(5000);
	memset(big, ' ', 4999);
	big[0] = '[';
	big[4998] = ']';
	big[4999] = '\0';
	cr_assert(eq(int, add(tm, "big.json", big, why, sizeof(why)), 1));
	cr_assert(not(eq(ptr, strstr(why, "--merge-max-file"), NULL)));
	free(big);
	cr_assert(eq(sz, tm->nr_events, 0));
	cr_assert(eq(sz, tm->stats.files, 0));

	/* Bad events in a good file: counted, the rest merged; huge numbers clamp. */
	add_ok(tm, "mixed.json",
	       "[{\"ph\":\"X\",\"name\":\"ok\",\"ts\":1,\"dur\":1,\"pid\":101},"
	       "{\"ph\":\"X\",\"name\":\"neg\",\"ts\":1,\"dur\":-5},"
	       "{\"ph\":\"X\",\"name\":7,\"ts\":1,\"dur\":1},"
	       "{\"ph\":\"X\",\"name\":\"x\",\"ts\":\"1\",\"dur\":1},"
	       "{\"ph\":\"X\",\"name\":\"x\",\"ts\":1e308,\"dur\":1},"
	       "{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1,\"pid\":\"p\"},"
	       "{\"ph\":\"XX\",\"name\":\"x\",\"ts\":1},"
	       "\"str\","
	       "{\"ph\":\"X\",\"name\":\"far\",\"ts\":99999999999999,\"dur\":99999999999999,\"pid\":101,"
	       "\"args\":{\"big\":1e300,\"n\":[[[[[[[[[[1]]]]]]]]]]}}]");
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	for (i = 0; i < tm->nr_events; i++) {
		n++;
		cr_assert(ge(i64, tm->events[i].ts, us(m.procs[1].start_ns)));
		cr_assert(le(i64, tm->events[i].ts + tm->events[i].dur, us(m.procs[1].end_ns)));
	}
	cr_assert(eq(sz, n, 2));
	cr_assert(eq(sz, tm->stats.bad_events, 7));
	cr_assert(not(eq(ptr, (void *)json_object_to_json_string(find_event(tm, "far")->args), NULL)));
	trace_merge__free(tm);
}

/* A recording's clock offset is whatever its log says: no offset overflows
 * the alignment (UBSan reports a signed overflow if one does). */
Test(merge, extreme_clock_offsets_align_without_overflow)
{
	static const __s64 offsets[] = { INT64_MIN, INT64_MAX, -1 };
	static const char *const files[] = {
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}],\"beginningOfTime\":8999999999999999}",
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}],\"beginningOfTime\":1000000000000000}",
		"[{\"ph\":\"X\",\"name\":\"x\",\"ts\":1,\"dur\":1}]",
	};
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	char why[160];
	size_t i, j;

	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		struct trace_merge *tm = trace_merge__new(&m, NULL, offsets[i], NULL);

		cr_assert_not_null(tm);
		for (j = 0; j < sizeof(files) / sizeof(files[0]); j++)
			cr_assert(le(int, add(tm, "t.json", files[j], why, sizeof(why)), 1), "offset %zu file %zu", i, j);
		cr_assert(eq(int, trace_merge__finish(tm), 0));
		for (j = 0; j < tm->nr_events; j++) {
			cr_assert(ge(i64, tm->events[j].ts, us(m.start_ns)));
			cr_assert(le(i64, tm->events[j].ts + tm->events[j].dur, us(m.end_ns)));
		}
		trace_merge__free(tm);
	}
}

/* ---- the written trace ---- */

static struct json_object *write_and_parse(const struct model *m, const struct trace_merge *tm)
{
	struct trace_meta meta = { .merge = tm };

	return written_trace(m, &meta);
}

Test(merge, written_trace_places_events_on_the_writer_lane)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct json_object *trace, *events, *ev, *v, *od;
	bool named_track = false, slice = false, counter = false;
	char text[1024];
	size_t i;

	snprintf(text, sizeof(text),
		 "{\"traceEvents\":[{\"pid\":101,\"ph\":\"X\",\"name\":\"Frontend\",\"cat\":\"process\",\"ts\":2000,"
		 "\"dur\":5000},{\"pid\":101,\"ph\":\"C\",\"name\":\"mem\",\"ts\":2000,\"args\":{\"kb\":5}}],"
		 "\"beginningOfTime\":%lld}",
		 bot_at(T0 + 12 * MS));
	add_ok(tm, "a.json", text);
	add_ok(tm, "other.json", "[{\"ph\":\"X\",\"name\":\"y\",\"ts\":5,\"dur\":1}]");
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	trace = write_and_parse(&m, tm);
	cr_assert(json_object_object_get_ex(trace, "traceEvents", &events));
	for (i = 0; i < json_object_array_length(events); i++) {
		const char *name, *ph;

		ev = json_object_array_get_idx(events, i);
		json_object_object_get_ex(ev, "name", &v);
		name = json_object_get_string(v);
		json_object_object_get_ex(ev, "ph", &v);
		ph = json_object_get_string(v);
		if (!strcmp(name, "Frontend")) {
			slice = true;
			json_object_object_get_ex(ev, "cat", &v);
			cr_assert(eq(str, (char *)json_object_get_string(v), "merged"));
			json_object_object_get_ex(ev, "pid", &v);
			cr_assert(eq(int, json_object_get_int(v), 1));
			json_object_object_get_ex(ev, "tid", &v);
			cr_assert(eq(int, json_object_get_int(v), 1)); /* lane 0 */
			json_object_object_get_ex(ev, "ts", &v);
			cr_assert(eq(i64, json_object_get_int64(v), us(T0 + 14 * MS)));
		}
		if (!strcmp(ph, "C")) {
			counter = true;
			json_object_object_get_ex(ev, "pid", &v);
			cr_assert(eq(int, json_object_get_int(v), 4));
		}
		if (!strcmp(ph, "M") && !strcmp(name, "thread_name")) {
			json_object_object_get_ex(ev, "args", &v);
			json_object_object_get_ex(v, "name", &v);
			named_track = named_track || !strcmp(json_object_get_string(v), "other.json");
		}
	}
	cr_assert(slice && counter && named_track);
	cr_assert(json_object_object_get_ex(trace, "otherData", &od));
	cr_assert(json_object_object_get_ex(od, "merge", &v));
	cr_assert(json_object_object_get_ex(v, "files", &v));
	cr_assert(eq(int, json_object_get_int(v), 2));
	json_object_put(trace);
	trace_merge__free(tm);
}

Test(merge, nothing_to_merge_leaves_no_merge_section)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct json_object *trace, *od, *v;

	/* An empty trace directory: the trace must be what converting the
	 * kept log without --merge gives, byte for byte. */
	cr_assert(eq(int, trace_merge__finish(tm), 0));
	trace = write_and_parse(&m, tm);
	cr_assert(json_object_object_get_ex(trace, "otherData", &od));
	cr_assert(not(json_object_object_get_ex(od, "merge", &v)), "otherData.merge: %s",
		  json_object_to_json_string(v));
	json_object_put(trace);
	trace_merge__free(tm);
}

/* ---- finding files ---- */

static char tree[64];

static void put_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void make_tree(void)
{
	char cmd[256];

	snprintf(tree, sizeof(tree), "/tmp/buildbpf-merge-test.XXXXXX");
	cr_assert_not_null(mkdtemp(tree));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/a/b/c %s/a/.hidden %s/out", tree, tree, tree);
	cr_assert(eq(int, system(cmd), 0));
}

static void remove_tree_dir(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	system(cmd);
}

#define TINY "[{\"ph\":\"i\",\"name\":\"x\",\"ts\":1}]"

Test(merge_files, double_star_matches_any_depth_but_not_hidden)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct trace_files *tf = trace_files__new(tm, stderr);
	char pattern[128];

	make_tree();
	put_file("top.json", TINY);
	put_file("a/one.json", TINY);
	put_file("a/b/c/deep.json", TINY);
	put_file("a/b/c/notes.txt", "hello");
	put_file("a/.hidden/h.json", TINY);
	snprintf(pattern, sizeof(pattern), "%s/**/*.json", tree);
	cr_assert(eq(int, trace_files__add_glob(tf, pattern), 0));
	/* The same files again through another pattern: merged once. */
	snprintf(pattern, sizeof(pattern), "%s/a/**", tree);
	cr_assert(eq(int, trace_files__add_glob(tf, pattern), 0));
	cr_assert(eq(sz, tm->stats.files, 3), "merged %zu", tm->stats.files);
	/* notes.txt, matched by the second pattern: skipped, no JSON. */
	cr_assert(eq(sz, tm->stats.skipped, 1));
	trace_files__free(tf);
	trace_merge__free(tm);
	remove_tree_dir();
}

Test(merge_files, trace_dir_private_walk_skips_symlinks_and_is_removed)
{
	struct proc_instance procs[4];
	struct model m = test_model(procs);
	struct trace_merge *tm = tm_of(&m);
	struct trace_files *tf = trace_files__new(tm, stderr);
	struct trace_dir d;
	char path[4200], outside[128];
	struct stat st;
	FILE *f;

	make_tree();
	put_file("out/secret.json", TINY);
	cr_assert(eq(int, trace_dir__create(&d), 0));
	cr_assert(eq(int, stat(d.path, &st), 0));
	cr_assert(eq(int, st.st_mode & 07777, 0700));
	snprintf(path, sizeof(path), "%s/sub", d.path);
	cr_assert(eq(int, mkdir(path, 0700), 0));
	snprintf(path, sizeof(path), "%s/sub/tool-1.json", d.path);
	f = fopen(path, "w");
	fputs(TINY, f);
	fclose(f);
	snprintf(outside, sizeof(outside), "%s/out", tree);
	snprintf(path, sizeof(path), "%s/link.json", d.path);
	cr_assert(eq(int, symlink("/tmp/doesnotmatter", path), 0));
	snprintf(path, sizeof(path), "%s/linkdir", d.path);
	cr_assert(eq(int, symlink(outside, path), 0));
	snprintf(path, sizeof(path), "%s/fifo", d.path);
	cr_assert(eq(int, mkfifo(path, 0600), 0));

	cr_assert(eq(int, trace_files__add_dir(tf, d.fd, d.path), 0));
	cr_assert(eq(sz, tm->stats.files, 1));
	cr_assert(eq(int, trace_dir__remove(&d), 0));
	cr_assert(ne(int, access(d.path, F_OK), 0));
	snprintf(path, sizeof(path), "%s/out/secret.json", tree);
	cr_assert(eq(int, access(path, F_OK), 0), "removal followed a symlink");
	trace_files__free(tf);
	trace_merge__free(tm);
	remove_tree_dir();
}
