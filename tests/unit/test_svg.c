// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG's lane names and its CPU/parallelism strip's scale, from a
 * synthetic build: make -j8 on 2 CPUs, eight compiles ready at once, so
 * that six of them wait for a CPU at the start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/cpu_sched.h"
#include "model/lanes.h"
#include "model/model.h"
#include "model/proc_name.h"
#include "audit/audit.h"
#include "report/svg.h"
#include "report/svg_hover.h"
#include "lib/svg_attr.h"
#include "model/trace_layout.h"
#include "lib/synth.h"
#include "lib/synth_build.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define T0 (1000 * MS)
#define MAKE_PID 100
#define JOBS 8
#define RUN (500 * MS) /* each job's CPU time, on one CPU */

struct waiting_build {
	struct model *m;
	struct sched_model *s;
	struct audit a;
};

/*
 * All JOBS forked at 0; job k runs on CPU k % 2 from (k / 2) * RUN for RUN,
 * having waited until then: 2 running and 6 waiting at first, 8 threads
 * in the stack on 2 CPUs.
 */
static void waiting_build_init(struct waiting_build *b)
{
	static const char *const make_argv[] = { "make", "-j8", NULL };
	static const char *const cc1_argv[] = { "cc1", "x.c", NULL };
	struct audit_input in = { .nr_cpus = 2 };
	__u64 end = (JOBS / 2) * RUN;
	__u32 k, pid;

	memset(b, 0, sizeof(*b));
	b->m = model__new(MAKE_PID, T0);
	b->s = sched_model__new(SCHED_SUMMARY, 0, 2, T0);
	cr_assert(not(eq(ptr, b->m, NULL)));
	cr_assert(not(eq(ptr, b->s, NULL)));
	synth_exec(b->m, T0, MAKE_PID, 1, "/usr/bin/make", make_argv);
	for (k = 0; k < JOBS; k++) {
		__u64 from = (k / 2) * RUN;

		pid = 200 + k;
		synth_fork(b->m, T0, MAKE_PID, pid, pid, false);
		synth_exec(b->m, T0, pid, MAKE_PID, "/usr/lib/gcc/cc1", cc1_argv);
		synth_exit_acct(b->m, T0 + from + RUN, pid, 0, RUN, 0, RUN, 100);
		synth_cpu_slice(b->s, k % 2, pid, pid, T0 + from, T0 + from + RUN, from);
	}
	synth_exit_acct(b->m, T0 + end, MAKE_PID, 0, 0, 0, 0, 1000);
	cr_assert(eq(int, model__finish(b->m, T0 + end), 0));
	lanes__assign_model(b->m);
	cr_assert(eq(int, sched_model__finish(b->s, T0 + end), 0));
	in.cmd_argv = b->m->procs[b->m->root].execs[0].argv;
	in.cmd_argc = b->m->procs[b->m->root].execs[0].argc;
	cr_assert(eq(int, with_slots__audit(&b->a, b->m, b->s, &in), 0));
}

static void waiting_build_free(struct waiting_build *b)
{
	audit__free(&b->a);
	model__free(b->m);
	sched_model__free(b->s);
}

static char *render(struct waiting_build *b)
{
	char *svg = NULL;
	size_t len;
	FILE *out = open_memstream(&svg, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(int, svg__write(out, &b->a, b->m, b->s), 0));
	cr_assert(eq(int, fclose(out), 0));
	return svg;
}

/* The smallest y a strip layer's path reaches: the top of its stack. */
static double path_top(const char *svg, const char *layer)
{
	char marker[48];
	const char *d, *end;
	double top = 1e9, x, y;
	int used;

	snprintf(marker, sizeof(marker), "<path class=\"%s\" d=\"M", layer);
	d = strstr(svg, marker);
	cr_assert(not(eq(ptr, (void *)d, NULL)), "no %s layer", layer);
	d += strlen(marker);
	end = strchr(d, '"');
	/* "M x y L x y L x y ... Z" */
	while (d < end && sscanf(d, "%lf %lf%n", &x, &y, &used) == 2) {
		if (y < top)
			top = y;
		d += used;
		while (d < end && (*d == ' ' || *d == 'L'))
			d++;
	}
	return top;
}

/*
 * Eight threads at the peak on 2 CPUs: the strip is scaled to 8, so the
 * waiting is drawn whole (its top at the strip's top, no higher) and the 2
 * running fill a quarter of it; the scale says 8 and where 2 CPUs are.
 */
Test(svg, waiting_threads_are_drawn_whole)
{
	struct waiting_build b;
	char *svg;
	double y0, h, run_top, wait_top;

	waiting_build_init(&b);
	svg = render(&b);
	y0 = svg_attr(svg, "class=\"bg\"", "y");
	h = svg_attr(svg, "class=\"bg\"", "height");
	wait_top = path_top(svg, "wait");
	run_top = path_top(svg, "run");
	cr_assert(ge(dbl, wait_top, y0 - 0.05), "waiting drawn above the strip");
	cr_assert(le(dbl, wait_top, y0 + 0.05), "the peak of %d threads does not reach the top (%g vs %g)", JOBS,
		  wait_top, y0);
	cr_assert(ge(dbl, run_top, y0 + h * 3 / 4 - 0.5), "2 running of 8 should fill a quarter: top %g, strip %g+%g",
		  run_top, y0, h);
	cr_assert(le(dbl, run_top, y0 + h * 3 / 4 + 0.5));
	cr_assert(not(eq(ptr, strstr(svg, "class=\"ax\">8</text>"), NULL)), "no 8 at the top of the scale");
	cr_assert(not(eq(ptr, strstr(svg, "class=\"ax\">2 CPUs</text>"), NULL)), "no CPU line on the scale");
	cr_assert(not(eq(ptr, strstr(svg, "class=\"cpus\""), NULL)));
	cr_assert(not(eq(ptr, strstr(svg, "top of the strip: 8 threads; 2 CPUs (dashed)"), NULL)));
	free(svg);
	waiting_build_free(&b);
}

/*
 * Every lane has its name in the gutter, as the trace names its track,
 * level with its row, left of the plot.
 */
Test(svg, lanes_are_labelled)
{
	struct waiting_build b;
	char *svg, label[64];
	double bg_x = 0, prev_y = 0, y;
	size_t lane, lanes = 0;

	waiting_build_init(&b);
	svg = render(&b);
	bg_x = svg_attr(svg, "class=\"bg\"", "x");
	for (lane = 0; lane < b.m->nr_procs; lane++)
		if (b.m->procs[lane].lane + 1 > lanes)
			lanes = b.m->procs[lane].lane + 1;
	cr_assert(ge(sz, lanes, 2));
	for (lane = 1; lane <= lanes; lane++) {
		snprintf(label, sizeof(label), "class=\"ax\">lane %zu</text>", lane);
		cr_assert(not(eq(ptr, strstr(svg, label), NULL)), "no label for lane %zu", lane);
		cr_assert(le(dbl, svg_attr(svg, label, "x"), bg_x), "lane %zu's label is not in the gutter", lane);
		y = svg_attr(svg, label, "y");
		cr_assert(lt(dbl, prev_y, y), "lane %zu's label is not below lane %zu's", lane, lane - 1);
		prev_y = y;
	}
	free(svg);
	waiting_build_free(&b);
}

/*
 * Past SVG_PROCS_MAX the narrowest processes are folded, but not a step
 * outlined as the critical path: 7,000 fillers of 100 ms, then two steps
 * of 20 ms (about 3 px, narrower than every filler) passing a file, the
 * last steps of the build: both outlined, both drawn.
 */
Test(svg, a_critical_step_is_drawn_past_the_fold)
{
	static const char *const cc1_argv[] = { "cc1", "f.c", NULL };
	static const char *const w_argv[] = { "cp", "a", "b", NULL };
	static const char *const r_argv[] = { "cat", "b", NULL };
	struct synth_build b;
	struct trace_layout *tl;
	char *svg = NULL, tip[64];
	size_t len;
	FILE *out;
	__u32 k;

	synth_build__start(&b, MAKE_PID, "/src");
	for (k = 0; k < 7000; k++)
		synth_build__proc(&b, 1000 + k, MAKE_PID, "/usr/lib/gcc/cc1", cc1_argv, k, k + 100, 1);
	synth_build__proc(&b, 90001, MAKE_PID, "/bin/cp", w_argv, 7200, 7220, 1);
	synth_build__file(&b, 90001, 7210, 42, true, "/src/b");
	synth_build__proc(&b, 90002, MAKE_PID, "/bin/cat", r_argv, 7230, 7250, 1);
	synth_build__file(&b, 90002, 7235, 42, false, "/src/b");
	synth_build__finish(&b, 7260);
	tl = trace_layout__new(b.m);
	cr_assert(not(eq(ptr, tl, NULL)));
	out = open_memstream(&svg, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(int, svg__write_layout(out, &b.a, tl, NULL, 0), 0));
	cr_assert(eq(int, fclose(out), 0));
	cr_assert(not(eq(ptr, strstr(svg, "folded"), NULL)), "7,000 processes were not folded");
	for (k = 90001; k <= 90002; k++) {
		snprintf(tip, sizeof(tip), " (pid %u): ", k);
		cr_assert(not(eq(ptr, strstr(svg, tip), NULL)), "critical step pid %u folded away", k);
	}
	cr_assert(not(eq(ptr, strstr(svg, "<title>critical path: cat"), NULL)), "the last step is not outlined");
	free(svg);
	trace_layout__free(tl);
	synth_build__free(&b);
}

/* The titles in svg that start with lead, counted; the first one kept in first (freed by the caller). */
static size_t titles_with(const char *svg, const char *lead, char **first)
{
	const char *at, *end;
	size_t n = 0;

	*first = NULL;
	for (at = svg; (at = strstr(at, "<title>")); at = end) {
		at += strlen("<title>");
		end = strstr(at, "</title>");
		cr_assert(not(eq(ptr, (void *)end, NULL)));
		if (!strstr(at, lead) || strstr(at, lead) > end)
			continue;
		if (!n++)
			*first = strndup(at, (size_t)(end - at));
	}
	return n;
}

/*
 * The strip draws no process, so it says in a tooltip per column what it
 * shows and which processes were at work: their names whole, the make
 * around them left out.
 */
Test(svg, the_strip_has_a_tooltip_per_column_naming_the_work)
{
	struct waiting_build b;
	char *svg, *first;

	waiting_build_init(&b);
	svg = render(&b);
	cr_assert(eq(sz, titles_with(svg, " s: on average ", &first), SVG_HOVER_COLUMNS), "%s", svg);
	/* The first 20 ms: all eight alive, two on the CPUs and six waiting. */
	cr_assert(strstr(first, "0.00-0.02 s: on average 2.0 build threads ran, 6.0 waited for a CPU, 0.0 CPUs ran "
				"outside work; processes alive longest in it: cc1 x.c 0.02 s, cc1 x.c 0.02 s,") == first,
		  "%s", first);
	cr_assert(strstr(first, "(and 3 more)") != NULL && strstr(first, "make") == NULL, "%s", first);
	free(first);
	free(svg);
	waiting_build_free(&b);
}

/* The memory chart's columns: the highest sample in each, and the largest processes alive, named whole. */
Test(svg, the_memory_chart_has_a_tooltip_per_sampled_column)
{
	static const char *const argv[] = { "cc1", "src/a/very/long/directory/name/that/a/label/would/cut/parse.c", NULL };
	struct bb_mem_sample_event e = { .hdr = { .ts_ns = 50 * MS, .type = BB_EV_MEM_SAMPLE }, .total_kb = 300 * 1024,
					 .ram_kb = 1024 * 1024 };
	struct model *m = model__new(100, 0);
	struct svg_frame f = { .x = 0, .width = 1000, .start_ns = 0, .span_ns = 100 * MS };
	char *text = NULL, *first, *name, want[512];
	size_t len;

	cr_assert(not(eq(ptr, m, NULL)));
	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_exec(m, 1 * MS, 101, 100, "/usr/lib/gcc/cc1", argv);
	synth_mem_image(m, 90 * MS, 101, 1, 200 * 1024, BB_MEM_IMAGE_EXITED);
	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), 0));
	synth_exit_acct(m, 90 * MS, 101, 0, MS, 0, MS, 200 * 1024);
	cr_assert(eq(int, model__finish(m, 100 * MS), 0));
	f.out = open_memstream(&text, &len);
	cr_assert(eq(int, svg_hover__memory(&f, 0, 100, m), 0));
	fclose(f.out);
	/* One sample: one column says something. */
	cr_assert(eq(sz, titles_with(text, "build memory up to", &first), 1), "%s", text);
	/* The name as every report names the step (model/proc_name.h), not cut to the chart. */
	name = proc_display_name(m, &m->procs[1]);
	snprintf(want, sizeof(want), "0.050-0.051 s: build memory up to 300.0 MiB; largest processes alive: %s (peak "
				     "200.0 MiB)", name);
	cr_assert(eq(str, first, want));
	cr_assert(strstr(name, "parse.c") != NULL, "%s", name);
	free(name);
	free(first);
	free(text);
	model__free(m);
}
