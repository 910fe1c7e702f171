// SPDX-License-Identifier: GPL-2.0
/*
 * The trace geometry: the layout module on hand-built models, and, on
 * random process trees, that the merge places the tools' slices inside the
 * very slices the writer draws (the two read one layout; this checks it in
 * the written file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "lib/json_fields.h"
#include "lib/seeded_random.h"
#include "lib/synth.h"
#include "lib/written_trace.h"
#include "merge/trace_merge.h"
#include "model/lanes.h"
#include "model/trace_layout.h"
#include "report/chrome_trace.h"

#define US 1000ull
#define MS 1000000ull
/* An arbitrary monotonic trace start, not a multiple of a microsecond. */
#define T0 (5000000 * MS + 123)

static struct proc_instance procs[8];
static struct exec_image images[8][3];

static void set_proc(size_t i, long parent, __u64 start_ns, __u64 end_ns, __u32 lane)
{
	procs[i] = (struct proc_instance){ .id = i, .parent = parent, .pid = 100 + i, .start_ns = start_ns,
					   .end_ns = end_ns, .lane = lane, .exited = true };
	procs[i].execs = images[i];
}

static void add_image(size_t i, __u64 start_ns, __u64 end_ns)
{
	images[i][procs[i].nr_execs++] = (struct exec_image){ .start_ns = start_ns, .end_ns = end_ns };
}

static struct model model_of(size_t nr, __u64 end_ns)
{
	return (struct model){ .procs = procs, .nr_procs = nr, .start_ns = T0, .end_ns = end_ns, .root = 0 };
}

/* True when a and b may share a lane: nested either way, or disjoint. */
static bool spans_nest(struct trace_span a, struct trace_span b)
{
	return trace_span_contains(a, b) || trace_span_contains(b, a) || a.end <= b.ts || b.end <= a.ts;
}

static struct trace_layout *layout_of(const struct model *m)
{
	struct trace_layout *tl = trace_layout__new(m);

	cr_assert_not_null(tl);
	return tl;
}

Test(trace_layout, trace_us_counts_from_one_and_clamps_before_the_start)
{
	struct model m = model_of(0, T0 + 10 * MS);

	cr_assert(eq(i64, trace_us(&m, T0), 1));
	cr_assert(eq(i64, trace_us(&m, T0 + 999), 1));
	cr_assert(eq(i64, trace_us(&m, T0 + 1000), 2));
	cr_assert(eq(i64, trace_us(&m, T0 + 5 * MS + 1), 5001));
	cr_assert(eq(i64, trace_us(&m, T0 - 7 * MS), 1));
	cr_assert(eq(i64, trace_us(&m, 0), 1));
}

Test(trace_layout, spans_and_a_process_ending_before_it_starts)
{
	struct trace_layout *tl;
	struct model m;

	memset(procs, 0, sizeof(procs));
	set_proc(0, -1, T0, T0 + 10 * MS, 0);
	set_proc(1, 0, T0 + 2 * MS + 500, T0 + 2 * MS, 0); /* end before start: bad data */
	m = model_of(2, T0 + 10 * MS);
	tl = layout_of(&m);
	cr_assert(eq(i64, tl->procs[0].span.ts, 1));
	cr_assert(eq(i64, tl->procs[0].span.end, 10001));
	cr_assert(eq(u64, tl->procs[1].end_ns, tl->procs[1].start_ns));
	cr_assert(eq(i64, tl->procs[1].span.ts, tl->procs[1].span.end));
	cr_assert(eq(u64, tl->end_ns, T0 + 10 * MS));
	trace_layout__free(tl);
}

Test(trace_layout, images_clamped_into_the_process_and_after_one_another)
{
	struct trace_layout *tl;
	struct model m;

	memset(procs, 0, sizeof(procs));
	set_proc(0, -1, T0 + 1 * MS, T0 + 9 * MS, 0);
	add_image(0, T0, T0 + 4 * MS);		     /* starts before the process */
	add_image(0, T0 + 3 * MS, T0 + 6 * MS);	     /* starts before the previous one ended */
	add_image(0, T0 + 7 * MS, T0 + 12 * MS);     /* ends after the process */
	m = model_of(1, T0 + 12 * MS);
	tl = layout_of(&m);
	cr_assert(eq(u64, tl->procs[0].images[0].start_ns, T0 + 1 * MS));
	cr_assert(eq(u64, tl->procs[0].images[0].end_ns, T0 + 4 * MS));
	cr_assert(eq(u64, tl->procs[0].images[1].start_ns, T0 + 4 * MS));
	cr_assert(eq(u64, tl->procs[0].images[1].end_ns, T0 + 6 * MS));
	cr_assert(eq(u64, tl->procs[0].images[2].end_ns, T0 + 9 * MS));
	cr_assert(eq(i64, tl->procs[0].images[0].span.ts, 1001));
	cr_assert(eq(i64, tl->procs[0].images[2].span.end, 9001));
	cr_assert(not(tl->procs[0].flat));
	trace_layout__free(tl);
}

Test(trace_layout, above_is_the_innermost_slice_on_the_lane)
{
	struct trace_layout *tl;
	struct model m;

	memset(procs, 0, sizeof(procs));
	set_proc(0, -1, T0, T0 + 100 * MS, 0);
	set_proc(1, 0, T0 + 10 * MS, T0 + 50 * MS, 0);
	set_proc(2, 1, T0 + 20 * MS, T0 + 30 * MS, 0);
	set_proc(3, 0, T0 + 25 * MS, T0 + 90 * MS, 1);
	set_proc(4, 1, T0 + 40 * MS, T0 + 45 * MS, 0); /* after 2 ended: under 1 again */
	set_proc(5, 0, T0 + 60 * MS, T0 + 70 * MS, 0);
	m = model_of(6, T0 + 100 * MS);
	tl = layout_of(&m);
	cr_assert(eq(long, tl->procs[0].above, -1));
	cr_assert(eq(long, tl->procs[1].above, 0));
	cr_assert(eq(long, tl->procs[2].above, 1));
	cr_assert(eq(long, tl->procs[3].above, -1));
	cr_assert(eq(long, tl->procs[4].above, 1));
	cr_assert(eq(long, tl->procs[5].above, 0));
	trace_layout__free(tl);
}

Test(trace_layout, lanes_are_the_distinct_ones_in_use_and_rows_index_them)
{
	struct trace_layout *tl;
	struct model m;

	memset(procs, 0, sizeof(procs));
	set_proc(0, -1, T0, T0 + 100 * MS, 4);
	set_proc(1, 0, T0 + 10 * MS, T0 + 50 * MS, 7);
	set_proc(2, 0, T0 + 20 * MS, T0 + 30 * MS, 4);
	m = model_of(3, T0 + 100 * MS);
	tl = layout_of(&m);
	cr_assert(eq(sz, tl->nr_lanes, 2));
	cr_assert(eq(u32, tl->lanes[0], 4));
	cr_assert(eq(u32, tl->lanes[1], 7));
	cr_assert(eq(sz, tl->procs[0].row, 0));
	cr_assert(eq(sz, tl->procs[1].row, 1));
	cr_assert(eq(sz, tl->procs[2].row, 0));
	cr_assert(eq(long, tl->procs[1].above, -1));
	cr_assert(eq(long, tl->procs[2].above, 0));
	trace_layout__free(tl);
}

Test(trace_layout, flat_when_one_image_or_a_child_straddles_an_exec)
{
	struct trace_layout *tl;
	struct model m;

	memset(procs, 0, sizeof(procs));
	/* 0: two images, its child 2 straddles the exec at +50ms. */
	set_proc(0, -1, T0, T0 + 100 * MS, 0);
	add_image(0, T0, T0 + 50 * MS);
	add_image(0, T0 + 50 * MS, T0 + 100 * MS);
	/* 1: two images, its child 3 inside the second one. */
	set_proc(1, 0, T0 + 10 * MS, T0 + 90 * MS, 1);
	add_image(1, T0 + 10 * MS, T0 + 20 * MS);
	add_image(1, T0 + 20 * MS, T0 + 90 * MS);
	set_proc(2, 0, T0 + 40 * MS, T0 + 60 * MS, 0);
	set_proc(3, 1, T0 + 30 * MS, T0 + 80 * MS, 1);
	add_image(3, T0 + 31 * MS, T0 + 80 * MS);
	m = model_of(4, T0 + 100 * MS);
	tl = layout_of(&m);
	cr_assert(tl->procs[0].flat);
	cr_assert(not(tl->procs[1].flat));
	cr_assert(tl->procs[2].flat, "no image");
	cr_assert(tl->procs[3].flat, "a single image");
	trace_layout__free(tl);

	/* 1's child 3 holds 1's first image whole, forked before the exec, gone at the next. */
	procs[1].execs[0] = (struct exec_image){ .start_ns = T0 + 20 * MS, .end_ns = T0 + 25 * MS };
	procs[1].execs[1] = (struct exec_image){ .start_ns = T0 + 25 * MS, .end_ns = T0 + 90 * MS };
	procs[3].start_ns = T0 + 12 * MS;
	procs[3].end_ns = T0 + 25 * MS;
	tl = layout_of(&m);
	cr_assert(tl->procs[1].flat, "3 holds image 0 whole");
	trace_layout__free(tl);
}

Test(trace_layout, box_is_the_image_alive_or_the_whole_process)
{
	struct trace_layout *tl;
	struct model m;
	__u64 lo, hi;

	memset(procs, 0, sizeof(procs));
	set_proc(0, -1, T0, T0 + 100 * MS, 0);
	add_image(0, T0 + 5 * MS, T0 + 50 * MS);
	add_image(0, T0 + 50 * MS, T0 + 100 * MS);
	set_proc(1, 0, T0 + 10 * MS, T0 + 60 * MS, 1);
	m = model_of(2, T0 + 100 * MS);
	tl = layout_of(&m);
	trace_layout__box_at(tl, 0, (__s64)(T0 + 1 * MS), &lo, &hi);
	cr_assert(eq(u64, lo, T0 + 5 * MS), "before the first exec: the first image");
	cr_assert(eq(u64, hi, T0 + 50 * MS));
	trace_layout__box_at(tl, 0, (__s64)(T0 + 50 * MS), &lo, &hi);
	cr_assert(eq(u64, lo, T0 + 50 * MS), "at the exec: the new image");
	trace_layout__box_at(tl, 0, (__s64)(T0 + 500 * MS), &lo, &hi);
	cr_assert(eq(u64, hi, T0 + 100 * MS), "after the end: the last image");
	trace_layout__box_at(tl, 1, (__s64)(T0 + 20 * MS), &lo, &hi);
	cr_assert(eq(u64, lo, T0 + 10 * MS), "flat: the process");
	cr_assert(eq(u64, hi, T0 + 60 * MS));
	trace_layout__free(tl);
}

Test(trace_layout, clip_keeps_what_lies_in_the_trace)
{
	struct trace_span span;
	struct trace_layout *tl;
	struct model m = model_of(0, T0 + 10 * MS);

	tl = layout_of(&m);
	cr_assert(trace_layout__clip(tl, T0 - 5 * MS, T0 + 2 * MS, &span));
	cr_assert(eq(i64, span.ts, 1));
	cr_assert(eq(i64, span.end, 2001));
	cr_assert(trace_layout__clip(tl, T0 + 9 * MS, T0 + 20 * MS, &span));
	cr_assert(eq(i64, span.end, 10001));
	cr_assert(not(trace_layout__clip(tl, T0 - 5 * MS, T0 - 1 * MS, &span)));
	cr_assert(not(trace_layout__clip(tl, T0 + 11 * MS, T0 + 12 * MS, &span)));
	cr_assert(trace_layout__clip(tl, T0 + 3 * MS, T0 + 3 * MS, &span), "an empty slice inside stays");
	trace_layout__free(tl);
}

Test(trace_layout, empty_model)
{
	struct model m = model_of(0, T0);
	struct trace_layout *tl = layout_of(&m);

	cr_assert(eq(sz, tl->nr_lanes, 0));
	trace_layout__free(tl);
	trace_layout__free(NULL);
}

/* ---- random process trees, from kernel records ---- */

#define TREES 40
#define TREE_PROCS 48
#define ROOT_PID 1000
/* Each tree lasts this long, in ns (not a multiple of a microsecond). */
#define TREE_NS (200 * MS + 777)
#define MERGED_PER_PROC 6

static __u64 rand_below(__u64 *state, __u64 n)
{
	return n ? seeded_random(state) % n : 0;
}

static void exec_named(struct model *m, __u64 ts, __u32 pid, __u32 ppid, size_t k)
{
	char filename[32];

	/* The writer finds a process's exec slices by this name. */
	snprintf(filename, sizeof(filename), "/bin/w%u-%zu", pid, k);
	synth_exec(m, ts, pid, ppid, filename, (const char *[]){ filename, NULL });
}

/*
 * Lanes as a packer that knows nothing of images would give them: the
 * smallest lane on which the process span nests with every one already
 * there.  lanes__assign() keeps children out of a parent's exec sub-slice
 * boundaries; this one does not, so processes must be drawn flat.
 */
static void pack_ignoring_images(struct model *m)
{
	size_t i, j;

	m->nr_lanes = 0;
	for (i = 0; i < m->nr_procs; i++) {
		struct proc_instance *p = &m->procs[i];
		bool fits = false;

		for (p->lane = 0; !fits; p->lane += !fits) {
			fits = true;
			for (j = 0; fits && j < i; j++) {
				const struct proc_instance *q = &m->procs[j];

				fits = q->lane != p->lane || (q->start_ns <= p->start_ns && p->end_ns <= q->end_ns) ||
				       q->end_ns <= p->start_ns || p->end_ns <= q->start_ns;
			}
		}
		if (p->lane + 1 > m->nr_lanes)
			m->nr_lanes = p->lane + 1;
	}
}

/*
 * A build of TREE_PROCS processes: each forked by a random one alive at the
 * time, with up to three images, and some outliving their parent; times in
 * ns, so spans round to microseconds every way.  Half of them get lanes
 * packed without regard to images.
 */
static struct model *random_tree(__u64 seed)
{
	struct model *m = model__new(ROOT_PID, T0);
	__u64 start[TREE_PROCS], end[TREE_PROCS], t = T0;
	size_t i, k, nr_execs;

	cr_assert_not_null(m);
	start[0] = T0;
	end[0] = T0 + TREE_NS;
	for (i = 0; i < TREE_PROCS; i++) {
		size_t parent = i ? rand_below(&seed, i) : 0;

		if (i) {
			/* Started no earlier than the one before; by a parent alive then. */
			t += rand_below(&seed, TREE_NS / TREE_PROCS);
			while (parent && end[parent] <= t)
				parent--;
			if (end[parent] <= t)
				t = end[parent] - 1;
			start[i] = t;
			end[i] = t + 1 + rand_below(&seed, (end[parent] - t) * (rand_below(&seed, 5) ? 1 : 2));
			if (end[i] > T0 + TREE_NS)
				end[i] = T0 + TREE_NS;
			synth_fork(m, start[i], ROOT_PID + parent, ROOT_PID + i, ROOT_PID + i, false);
		}
		nr_execs = rand_below(&seed, 4);
		for (k = 0; k < nr_execs; k++)
			exec_named(m, start[i] + rand_below(&seed, end[i] - start[i]) * (k + 1) / (nr_execs + 1),
				   ROOT_PID + i, ROOT_PID + parent, k);
		synth_exit(m, end[i], ROOT_PID + i, ROOT_PID + i, true, 0);
	}
	cr_assert(eq(int, model__finish(m, T0 + TREE_NS), 0));
	lanes__assign_model(m); /* as replay does */
	cr_assert(eq(sz, m->nr_procs, TREE_PROCS));
	if (rand_below(&seed, 2))
		pack_ignoring_images(m);
	return m;
}

Test(trace_layout, random_trees_stack_and_flatten_consistently)
{
	size_t tree, i, k, flat_multi = 0, split = 0;

	for (tree = 0; tree < TREES; tree++) {
		struct model *m = random_tree(tree + 1);
		struct trace_layout *tl = layout_of(m);

		for (i = 0; i < m->nr_procs; i++) {
			const struct proc_layout *pl = &tl->procs[i];
			long up = pl->above;

			cr_assert(eq(u32, tl->lanes[pl->row], m->procs[i].lane));
			if (up >= 0) {
				cr_assert(lt(long, up, (long)i));
				cr_assert(eq(u32, m->procs[up].lane, m->procs[i].lane));
				cr_assert(trace_span_contains(tl->procs[up].span, pl->span));
				/* A slice below a drawn exec sub-slice is inside it or beside it. */
				for (k = 0; !tl->procs[up].flat && k < m->procs[up].nr_execs; k++) {
					struct trace_span image = tl->procs[up].images[k].span;
					bool fits = trace_span_contains(image, pl->span) || pl->span.end <= image.ts ||
						    image.end <= pl->span.ts;

					cr_assert(fits, "tree %zu: proc %zu straddles or holds an image of %ld", tree, i, up);
				}
			}
			flat_multi += pl->flat && m->procs[i].nr_execs >= 2;
			split += !pl->flat;
		}
		trace_layout__free(tl);
		model__free(m);
	}
	/* ge, not gt: Criterion 2.4.1's gt(Tag, ...) also passes on equality (Snaipe/Criterion#473). */
	cr_assert(ge(sz, split, 1), "no tree drew an exec sub-slice");
	cr_assert(ge(sz, flat_multi, 1), "no tree had a process drawn flat despite its images");
}

/* ---- the merge and the writer agree, in the written file ---- */

/* A tool's trace from process i: slices anywhere around its life, in monotonic µs. */
static char *tool_trace(const struct model *m, size_t i, __u64 *seed)
{
	const struct proc_instance *p = &m->procs[i];
	__u64 life = p->end_ns - p->start_ns + 1;
	char *text = NULL;
	size_t size = 0, k;
	FILE *f = open_memstream(&text, &size);

	cr_assert_not_null(f);
	fputs("{\"traceEvents\":[", f);
	for (k = 0; k < MERGED_PER_PROC; k++) {
		/* Mostly inside the process, some a little before or after it. */
		__u64 ts = p->start_ns - life / 8 + rand_below(seed, life + life / 4);
		__u64 dur = rand_below(seed, life / (k + 1) + 1);

		fprintf(f, "%s{\"ph\":\"X\",\"name\":\"tool%zu\",\"ts\":%llu.%03llu,\"dur\":%llu,\"pid\":%u,\"tid\":1,"
			   "\"args\":{\"writer\":%zu}}",
			k ? "," : "", k, (unsigned long long)(ts / US), (unsigned long long)(ts % US),
			(unsigned long long)(dur / US), p->pid, i);
	}
	fputs("]}", f);
	cr_assert(eq(int, fclose(f), 0));
	return text;
}

static struct json_object *write_and_parse(const struct model *m, const struct trace_merge *tm)
{
	struct trace_meta meta = { .merge = tm };

	return written_trace(m, &meta);
}

/* A written X slice of the build's trace process. */
struct written_slice {
	__s64 tid, ts, end;
	const char *cat;
	long writer;	   /* merged: the process whose tool wrote it */
	__u32 pid;	   /* process: its pid */
	const char *image; /* exec: its filename */
};

static size_t read_slices(struct json_object *trace, struct written_slice *out, size_t cap)
{
	struct json_object *events, *ev, *args, *v;
	size_t i, n = 0;

	cr_assert(json_object_object_get_ex(trace, "traceEvents", &events));
	for (i = 0; i < json_object_array_length(events); i++) {
		struct written_slice *s = &out[n];

		ev = json_object_array_get_idx(events, i);
		if (strcmp(json_object_get_string(json_object_object_get(ev, "ph")), "X") ||
		    int_field(ev, "pid") != 1)
			continue;
		cr_assert(lt(sz, n, cap));
		memset(s, 0, sizeof(*s));
		s->tid = int_field(ev, "tid");
		s->ts = int_field(ev, "ts");
		s->end = s->ts + int_field(ev, "dur");
		s->cat = json_object_get_string(json_object_object_get(ev, "cat"));
		s->writer = -1;
		args = json_object_object_get(ev, "args");
		if (!strcmp(s->cat, "merged"))
			s->writer = int_field(args, "writer");
		else if (!strcmp(s->cat, "process"))
			s->pid = int_field(args, "pid");
		else if (json_object_object_get_ex(args, "filename", &v))
			s->image = json_object_get_string(v);
		n++;
	}
	return n;
}

/* An exec sub-slice of the process with pid: exec_named() named its image. */
static bool is_image_of(const struct written_slice *s, __u32 pid)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "/bin/w%u-", pid);
	return s->image && !strncmp(s->image, prefix, strlen(prefix));
}

static bool inside(const struct written_slice *outer, const struct written_slice *inner)
{
	return outer->tid == inner->tid && outer->ts <= inner->ts && inner->end <= outer->end;
}

/*
 * Every merged slice sits on its writer's lane inside the writer's process
 * slice and, when the writer drew exec sub-slices, inside one of those; and
 * the slices of each lane nest, merged ones included.
 */
static size_t check_agreement(const struct model *m, const struct written_slice *sl, size_t n)
{
	size_t i, j, checked = 0;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			struct trace_span a = { sl[i].ts, sl[i].end }, b = { sl[j].ts, sl[j].end };

			cr_assert(spans_nest(a, b) || sl[i].tid != sl[j].tid,
				  "lane %lld: %s [%lld, %lld] and %s [%lld, %lld] overlap", (long long)sl[i].tid,
				  sl[i].cat, (long long)a.ts, (long long)a.end, sl[j].cat, (long long)b.ts,
				  (long long)b.end);
		}
	}
	for (i = 0; i < n; i++) {
		bool in_process = false, has_images = false, in_image = false;
		__u32 pid;

		if (sl[i].writer < 0)
			continue;
		pid = m->procs[sl[i].writer].pid;
		for (j = 0; j < n; j++) {
			if (sl[j].pid == pid)
				in_process = inside(&sl[j], &sl[i]);
			if (is_image_of(&sl[j], pid)) {
				has_images = true;
				in_image = in_image || inside(&sl[j], &sl[i]);
			}
		}
		cr_assert(in_process, "a slice of %u's tool at [%lld, %lld] is outside its process slice", pid,
			  (long long)sl[i].ts, (long long)sl[i].end);
		in_image = in_image || !has_images;
		cr_assert(in_image, "a slice of %u's tool at [%lld, %lld] straddles its exec slices",
			  pid, (long long)sl[i].ts, (long long)sl[i].end);
		checked++;
	}
	return checked;
}

/*
 * The slice the merge kept each event in is one the writer drew for its
 * writer: an exec sub-slice when it drew them, else the process slice.
 */
static void check_boxes(const struct trace_merge *tm, const struct written_slice *sl, size_t n)
{
	size_t e, j;

	for (e = 0; e < tm->nr_events; e++) {
		const struct merged_event *ev = &tm->events[e];
		__u32 pid = tm->m->procs[ev->proc].pid;
		bool has_images = false, image_box = false, process_box = false, drawn;

		for (j = 0; j < n; j++) {
			bool image = is_image_of(&sl[j], pid), same = sl[j].ts == ev->box_ts && sl[j].end == ev->box_end;

			has_images = has_images || image;
			image_box = image_box || (image && same);
			process_box = process_box || (sl[j].pid == pid && same);
		}
		drawn = has_images ? image_box : process_box;
		cr_assert(drawn, "%u's tool kept in [%lld, %lld]: not the slice the writer drew%s", pid,
			  (long long)ev->box_ts, (long long)ev->box_end, has_images ? " (an exec slice)" : "");
	}
}

Test(trace_layout, merge_places_slices_inside_the_written_slices_on_random_trees)
{
	static struct written_slice slices[TREE_PROCS * (4 + MERGED_PER_PROC)];
	size_t tree, i, checked = 0, nr_slices;
	__u64 seed = 7;

	for (tree = 0; tree < TREES; tree++) {
		struct model *m = random_tree(1000 + tree);
		struct trace_merge *tm = trace_merge__new(m, NULL, 0, NULL);
		struct json_object *trace;
		char why[160], path[32];

		cr_assert_not_null(tm);
		for (i = 0; i < m->nr_procs; i++) {
			char *text = tool_trace(m, i, &seed);

			snprintf(path, sizeof(path), "tool-%zu.json", i);
			cr_assert(eq(int, trace_merge__add(tm, path, text, strlen(text), why, sizeof(why)), 0),
				  "%s skipped: %s", path, why);
			free(text);
		}
		cr_assert(eq(int, trace_merge__finish(tm), 0));
		for (i = 0; i < tm->nr_events; i++)
			cr_assert(eq(long, tm->events[i].proc, (long)tm->events[i].file), "attributed to its writer");
		trace = write_and_parse(m, tm);
		nr_slices = read_slices(trace, slices, sizeof(slices) / sizeof(slices[0]));
		checked += check_agreement(m, slices, nr_slices);
		check_boxes(tm, slices, nr_slices);
		json_object_put(trace);
		trace_merge__free(tm);
		model__free(m);
	}
	cr_assert(eq(sz, checked, (size_t)TREES * TREE_PROCS * MERGED_PER_PROC));
}
