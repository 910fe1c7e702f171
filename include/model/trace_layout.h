/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the build's processes are drawn: the one geometry the Chrome trace
 * writer, the merge of the tools' own traces and the SVG all read, so that
 * "inside the writer's slice" holds in the file to the microsecond.  Pure:
 * the finished model in, per-process spans out.
 *
 * replay__lay_out() makes it once per conversion (rp->layout), after the
 * audit, and the three borrow it; each makes its own only when given none
 * (unit tests).
 *
 *   struct trace_layout *tl = trace_layout__new(m);   after model__finish()
 *   ... read tl->procs[0 .. m->nr_procs), tl->lanes ...
 *   trace_layout__free(tl);
 *
 * Each process is one slice on its lane (tid = lane + 1 in the trace); one
 * that exec'd more than once also gets one sub-slice per image, unless a
 * child drawn directly below it would straddle two of them ("flat").
 */
#ifndef BUILDBPF_TRACE_LAYOUT_H
#define BUILDBPF_TRACE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/model.h"

/* A slice's bounds in trace microseconds (see trace_us()). */
struct trace_span {
	__s64 ts;
	__s64 end;
};

/*
 * One exec sub-slice: the image clamped into its process and to start no
 * earlier than the previous image ended, so the sub-slices nest in the
 * process slice and never overlap one another even when the recorded
 * times disagree.
 */
struct image_layout {
	__u64 start_ns, end_ns;
	struct trace_span span;
};

struct proc_layout {
	__u64 start_ns, end_ns;	     /* the process's bounds, end no earlier than start */
	struct trace_span span;	     /* its slice on its lane */
	size_t row;		     /* its lane's index in lanes[]: the row a picture draws */
	long above;		     /* the innermost slice around it on its lane, or -1 */
	bool flat;		     /* drawn as one slice, without exec sub-slices */
	struct image_layout *images; /* the process's nr_execs sub-slices, drawn or not */
};

struct trace_layout {
	const struct model *m;
	struct proc_layout *procs; /* parallel to m->procs */
	__u32 *lanes;		   /* the distinct lanes in use, ascending */
	/* Parallel to lanes[]: whose work it holds (run_by_daemon: 0 the
	 * command's, else a --follow daemon's; lanes.c keeps them apart), and
	 * its number among that work's lanes, from 1: the trace draws each
	 * one's lanes in a trace process of its own, named "lane N". */
	__u32 *lane_owner;
	__u32 *lane_number;
	size_t nr_lanes;
	__u64 end_ns; /* the trace's end, no earlier than its start */
	struct image_layout *image_store; /* backs every procs[i].images */
};

/*
 * Integer microseconds since the model's start, plus one: DevTools leaves
 * an event at ts 0 outside the trace bounds.  Times before the start count
 * as the start.  Integer division is monotonic, so spans nested in
 * nanoseconds stay nested after conversion.
 */
__s64 trace_us(const struct model *m, __u64 ns);

/* The layout of a finished model (lanes assigned); NULL: out of memory. */
struct trace_layout *trace_layout__new(const struct model *m);
void trace_layout__free(struct trace_layout *tl);

bool trace_span_contains(struct trace_span outer, struct trace_span inner);

/* The index in tl->lanes (and lane_owner, lane_number) of a lane in use. */
size_t trace_layout__lane_index(const struct trace_layout *tl, __u32 lane);

/*
 * [start_ns, end_ns] clamped into the trace, into *out; false when it lies
 * outside.  Clamping and integer division are both monotonic, so slices
 * in order and disjoint in ns stay in order and disjoint in us.
 */
bool trace_layout__clip(const struct trace_layout *tl, __u64 start_ns, __u64 end_ns, struct trace_span *out);

/*
 * The slice of proc i that something it did at t_ns belongs in: the
 * sub-slice of the image alive at t_ns when the process is drawn with
 * them (the last image from its start on), else the process slice.
 * Bounds in nanoseconds, into *start_ns and *end_ns.
 */
void trace_layout__box_at(const struct trace_layout *tl, size_t i, __s64 t_ns, __u64 *start_ns, __u64 *end_ns);

#endif /* BUILDBPF_TRACE_LAYOUT_H */
