// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "report/report_text.h"
#include "report/svg_hover.h"

enum { COLS = SVG_HOVER_COLUMNS, NAMES = SVG_HOVER_NAMES };

/* A process's on-CPU time in one column. */
struct ran {
	size_t col;
	long proc;
	__u64 ns;
};

/* The build threads' averages over a column, weighted by time. */
struct column_load {
	double running, waiting, outside;
	__u64 ns;
};

static __u64 col_start(const struct svg_frame *f, size_t c)
{
	return f->start_ns + (__u64)((double)f->span_ns * c / COLS);
}

static size_t col_of(const struct svg_frame *f, __u64 ts)
{
	size_t c = ts <= f->start_ns ? 0 : (size_t)((double)(ts - f->start_ns) / f->span_ns * COLS);

	return c < COLS ? c : COLS - 1;
}

/* Calls add(ctx, column, ns) for each column [from, to) overlaps. */
static int spread(const struct svg_frame *f, __u64 from, __u64 to, int (*add)(void *ctx, size_t col, __u64 ns),
		  void *ctx)
{
	size_t c;
	int err = 0;

	for (c = col_of(f, from); !err && to > from && c < COLS; c++) {
		__u64 lo = col_start(f, c), hi = c + 1 < COLS ? col_start(f, c + 1) : f->start_ns + f->span_ns;

		lo = lo > from ? lo : from;
		hi = hi < to ? hi : to;
		if (lo >= to)
			break;
		if (hi > lo)
			err = add(ctx, c, hi - lo);
	}
	return err;
}

/* The rectangle of column c, its title opened. */
static void begin_column(const struct svg_frame *f, int y, int height, size_t c)
{
	double x = f->x + f->width * c / COLS;

	/* Columns under 10 ms apart would print as one time at two decimals. */
	int decimals = f->span_ns / COLS < 10000000 ? 3 : 2;

	fprintf(f->out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#000\" fill-opacity=\"0\">"
			"<title>%.*f-%.*f s: ", x, y, f->width / COLS, height, decimals,
		(col_start(f, c) - f->start_ns) / 1e9, decimals, (col_start(f, c + 1) - f->start_ns) / 1e9);
}

static void put_name(FILE *out, const struct model *m, long proc)
{
	char *name = proc_display_name(m, &m->procs[proc]);

	svg_draw__text(out, name ? name : m->procs[proc].comm);
	free(name);
}

struct load_ctx {
	struct column_load *load;
	const struct counter_sample *c;
	size_t nr_cpus;
};

static int add_load(void *ctx, size_t col, __u64 ns)
{
	struct load_ctx *x = ctx;
	struct column_load *l = &x->load[col];
	double outside = (double)x->nr_cpus - x->c->running - x->c->idle_cpus;

	l->running += x->c->running * ns;
	l->waiting += x->c->runnable * ns;
	l->outside += (outside > 0 ? outside : 0) * ns;
	l->ns += ns;
	return 0;
}

struct ran_ctx {
	struct ran *ran;
	size_t nr, cap;
	long proc;
};

static int add_ran(void *ctx, size_t col, __u64 ns)
{
	struct ran_ctx *x = ctx;

	if (x->nr == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 1024;
		struct ran *r = realloc(x->ran, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		x->ran = r;
		x->cap = cap;
	}
	x->ran[x->nr++] = (struct ran){ .col = col, .proc = x->proc, .ns = ns };
	return 0;
}

static int by_col_proc(const void *a, const void *b)
{
	const struct ran *x = a, *y = b;

	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (x->proc > y->proc) - (x->proc < y->proc);
}

/*
 * The time each process that started none of its own was alive in each
 * column it spans, one entry per (column, process), by column: the work
 * under the strip, not the make or shell around it.  (The CPU slices name
 * no process when short ones were drawn as one; a process's span always does.)
 */
static int collect_ran(const struct svg_frame *f, const struct model *m, struct ran_ctx *x)
{
	bool *parent = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*parent));
	size_t i;
	int err = parent ? 0 : -ENOMEM;

	for (i = 0; parent && i < m->nr_procs; i++)
		if (m->procs[i].parent >= 0 && (size_t)m->procs[i].parent < m->nr_procs)
			parent[m->procs[i].parent] = true;
	for (i = 0; !err && i < m->nr_procs; i++) {
		if (parent[i])
			continue;
		x->proc = (long)i;
		err = spread(f, m->procs[i].start_ns, m->procs[i].end_ns, add_ran, x);
	}
	free(parent);
	if (err)
		return err;
	/* spread() adds a process's columns in order, and the processes come in index order.
	 * None ran (x->ran NULL): nothing to sort, and qsort() may not be given NULL. */
	if (x->nr)
		qsort(x->ran, x->nr, sizeof(*x->ran), by_col_proc);
	return 0;
}

/* The entries of one column [from, to) that ran most, named, most first; how many more ran. */
static void put_ran_most(FILE *out, const struct model *m, struct ran *ran, size_t from, size_t to)
{
	size_t shown, i, best;
	struct ran t;

	for (shown = 0; shown < NAMES && shown < to - from; shown++) {
		for (best = from + shown, i = best + 1; i < to; i++)
			if (ran[i].ns > ran[best].ns)
				best = i;
		t = ran[from + shown];
		ran[from + shown] = ran[best];
		ran[best] = t;
		fputs(shown ? ", " : "; processes alive longest in it: ", out);
		put_name(out, m, ran[from + shown].proc);
		fputc(' ', out);
		report_put_sec(out, ran[from + shown].ns);
	}
	if (to - from > shown)
		fprintf(out, " (and %zu more)", to - from - shown);
}

int svg_hover__strip(const struct svg_frame *f, int y, int height, const struct model *m, const struct sched_model *s,
		     size_t nr_cpus)
{
	struct column_load *load;
	struct ran_ctx ran = { 0 };
	struct load_ctx lx = { .nr_cpus = nr_cpus };
	size_t i, c, at = 0, end;
	int err = 0;

	if (!s || !s->nr_samples)
		return 0;
	load = lx.load = calloc(COLS, sizeof(*load));
	if (!load)
		return -ENOMEM;
	for (i = 0; i < s->nr_samples; i++) {
		lx.c = &s->samples[i];
		spread(f, lx.c->ts_ns, i + 1 < s->nr_samples ? s->samples[i + 1].ts_ns : m->end_ns, add_load, &lx);
	}
	err = collect_ran(f, m, &ran);
	for (c = 0; !err && c < COLS; c++) {
		const struct column_load *l = &load[c];

		for (end = at; end < ran.nr && ran.ran[end].col == c; end++)
			;
		if (!l->ns && end == at)
			continue;
		begin_column(f, y, height, c);
		fprintf(f->out, "on average %.1f build threads ran, %.1f waited for a CPU, %.1f CPUs ran outside work",
			l->ns ? l->running / l->ns : 0, l->ns ? l->waiting / l->ns : 0, l->ns ? l->outside / l->ns : 0);
		put_ran_most(f->out, m, ran.ran, at, end);
		fputs("</title></rect>\n", f->out);
		at = end;
	}
	free(ran.ran);
	free(load);
	return err;
}

/* A column's largest processes alive, by peak RSS, most first (-1: none). */
static void keep_largest(long largest[NAMES], const struct model *m, long proc)
{
	size_t k, j;

	for (k = 0; k < NAMES; k++)
		if (largest[k] < 0 || m->procs[proc].peak_rss_kb > m->procs[largest[k]].peak_rss_kb)
			break;
	if (k == NAMES)
		return;
	for (j = NAMES - 1; j > k; j--)
		largest[j] = largest[j - 1];
	largest[k] = proc;
}

int svg_hover__memory(const struct svg_frame *f, int y, int height, const struct model *m)
{
	long(*largest)[NAMES] = malloc(COLS * sizeof(*largest));
	__u64 *peak_kb = calloc(COLS, sizeof(*peak_kb));
	char size[REPORT_SIZE_LEN];
	size_t i, c, k;

	if (!largest || !peak_kb) {
		free(largest);
		free(peak_kb);
		return -ENOMEM;
	}
	memset(largest, 0xff, COLS * sizeof(*largest)); /* -1: none */
	for (i = 0; i < m->nr_mem_samples; i++) {
		c = col_of(f, m->mem_samples[i].ts_ns);
		peak_kb[c] = m->mem_samples[i].total_kb > peak_kb[c] ? m->mem_samples[i].total_kb : peak_kb[c];
	}
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		for (c = col_of(f, p->start_ns); p->peak_rss_kb && c <= col_of(f, p->end_ns); c++)
			keep_largest(largest[c], m, (long)i);
	}
	for (c = 0; c < COLS; c++) {
		if (!peak_kb[c])
			continue; /* no sample in it */
		begin_column(f, y, height, c);
		fprintf(f->out, "build memory up to %s", report_size(size, peak_kb[c] * 1024));
		for (k = 0; k < NAMES && largest[c][k] >= 0; k++) {
			fputs(k ? ", " : "; largest processes alive: ", f->out);
			put_name(f->out, m, largest[c][k]);
			fprintf(f->out, " (peak %s)", report_size(size, m->procs[largest[c][k]].peak_rss_kb * 1024));
		}
		fputs("</title></rect>\n", f->out);
	}
	free(largest);
	free(peak_kb);
	return 0;
}
