// SPDX-License-Identifier: GPL-2.0
/*
 * One walk over the comparison, two styles: text tables with aligned
 * columns, or Markdown tables.  The walk decides what is said; a style
 * only how a heading and a row look.  A text table's rows are held until
 * it ends (end_table()): its first column is as wide as its longest name,
 * cut as the report's tables cut a cell (REPORT_CELL_MAX).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff_format.h"
#include "diff/diff_report.h"
#include "model/proc_name.h"
#include "report/report_tables.h"
#include "util/array_grow.h"
#include "util/md_escape.h"
#include "util/term_escape.h"
#include "util/utf8.h"

#define MAX_CELLS 5
#define NAME_W 32 /* text: the first column's width, at least */
#define CELL_W 12
#define DIFF_REPORT_WIDTH 100 /* text: a critical path wraps before this column */
#define DIFF_REPORT_PATH_INDENT 6

/* A text row held until its table ends. */
struct text_row {
	char *cells[MAX_CELLS];
	size_t n;
};

struct style {
	FILE *out;
	bool markdown;
	bool in_table; /* markdown: the header's separator row is written */
	struct text_row *rows; /* text: the table's rows so far */
	size_t nr_rows, cap_rows;
};

static void put_text_row(const struct style *st, const char *const *cells, size_t n, int name_w)
{
	size_t i;

	fprintf(st->out, "  %-*s", name_w, cells[0]);
	for (i = 1; i < n; i++)
		fprintf(st->out, " %*s", i + 1 == n ? 0 : CELL_W, cells[i]);
	fputs("\n", st->out);
}

/* Writes the text rows held, the first column as wide as the longest of them; before anything else is written. */
static void end_table(struct style *st)
{
	size_t i, k, name_w = NAME_W;

	for (i = 0; i < st->nr_rows; i++)
		if (strlen(st->rows[i].cells[0]) > name_w)
			name_w = strlen(st->rows[i].cells[0]);
	for (i = 0; i < st->nr_rows; i++) {
		put_text_row(st, (const char *const *)st->rows[i].cells, st->rows[i].n, (int)name_w);
		for (k = 0; k < st->rows[i].n; k++)
			free(st->rows[i].cells[k]);
	}
	st->nr_rows = 0;
}

static void heading(struct style *st, const char *title)
{
	end_table(st);
	st->in_table = false;
	if (st->markdown)
		fprintf(st->out, "\n**%s**\n\n", title);
	else
		fprintf(st->out, "%s\n", title);
}

/*
 * A cell from the build (a step name): escaped for the terminal, its "…" as
 * "..." the way the report's text writes a name, or for a Markdown table.
 */
static const char *clean_cell(const struct style *st, const char *raw, char *buf, size_t size)
{
	return st->markdown ? md_escape_cell(raw, buf, size) : term_escape_name(raw, buf, size);
}

/* A path the user gave (a log's): as clean_cell(), but a "…" in it stays escaped, not "...". */
static const char *clean_path(const struct style *st, const char *raw, char *buf, size_t size)
{
	return st->markdown ? md_escape_cell(raw, buf, size) : term_escape(raw, buf, size);
}

/* A table row; the first row after a heading is the table's header. */
static void row(struct style *st, const char *const *cells, size_t n)
{
	size_t i;

	if (st->markdown) {
		fputs("|", st->out);
		for (i = 0; i < n; i++)
			fprintf(st->out, " %s |", cells[i]);
		fputs("\n", st->out);
		if (!st->in_table) {
			fputs("|", st->out);
			for (i = 0; i < n; i++)
				fputs(i ? " ---: |" : " --- |", st->out);
			fputs("\n", st->out);
			st->in_table = true;
		}
		return;
	}
	if (array_grow((void **)&st->rows, &st->cap_rows, st->nr_rows + 1, sizeof(*st->rows)))
		goto unheld;
	for (i = 0; i < n; i++)
		if (!(st->rows[st->nr_rows].cells[i] = strdup(cells[i]))) {
			while (i-- > 0)
				free(st->rows[st->nr_rows].cells[i]);
			goto unheld;
		}
	st->rows[st->nr_rows].cells[0][utf8_prefix_len(cells[0], REPORT_CELL_MAX)] = '\0';
	st->rows[st->nr_rows++].n = n;
	return;
unheld:
	/* Without memory: the rows held, then this one as it is (a long name shifts its columns). */
	end_table(st);
	put_text_row(st, cells, n, NAME_W);
}

static void put_title(struct style *st, const struct diff *d)
{
	char o[TERM_ESCAPE_BUF], n[TERM_ESCAPE_BUF];
	const struct proc_match *pm = &d->match;

	clean_path(st, d->old_b->name, o, sizeof(o));
	clean_path(st, d->new_b->name, n, sizeof(n));
	if (st->markdown)
		fprintf(st->out, "### buildbpf diff: %s → %s\n\n", o, n);
	else
		fprintf(st->out, "buildbpf diff: %s -> %s\n", o, n);
	fprintf(st->out, "%smatched %zu processes (%zu by name only, their argv changed); only in old: %zu, only in new: %zu\n",
		st->markdown ? "" : "  ", pm->matched, pm->matched_by_name, d->nr_only_old_procs,
		d->nr_only_new_procs);
}

/* The -j each build asked for: a changed -j explains the figures above it. */
static void put_jobs(struct style *st, const struct diff *d)
{
	char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF];
	const char *cells[] = { "jobs (-j)", diff_fmt_jobs(ob, &d->old_b->a->jobs), diff_fmt_jobs(nb, &d->new_b->a->jobs),
				d->jobs_changed ? "changed" : "=" };

	row(st, cells, 4);
}

static void put_figures(struct style *st, const struct diff *d)
{
	static const char *const header[] = { "figure", "old", "new", "change" };
	char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], cb[DIFF_FMT_BUF];
	size_t k;

	heading(st, "Build");
	row(st, header, 4);
	for (k = 0; k < DIFF_NR_METRICS; k++) {
		const struct diff_value *v = &d->values[k];
		const char *unit = diff_metric__unit(k);
		const char *cells[] = { diff_metric__label(k), diff_fmt_metric(ob, k, v->old_v),
					diff_fmt_metric(nb, k, v->new_v), diff_fmt_change(cb, v, unit) };

		if (!v->known)
			cells[1] = cells[2] = cells[3] = "(not recorded: --sched=off)";
		row(st, cells, v->known ? 4 : 2);
	}
	put_jobs(st, d);
}

static void put_cache_row(struct style *st, const char *figure, size_t old_n, size_t new_n)
{
	const struct diff_value v = { .old_v = (double)old_n, .new_v = (double)new_n, .known = true };
	char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], cb[DIFF_FMT_BUF];
	const char *cells[] = { figure, diff_fmt_value(ob, v.old_v, ""), diff_fmt_value(nb, v.new_v, ""),
				diff_fmt_change(cb, &v, "") };

	row(st, cells, 4);
}

/* Compiler caches' calls, and what the new build's hits saved against the old build's misses of their steps. */
static void put_cache(struct style *st, const struct diff *d)
{
	static const char *const header[] = { "figure", "old", "new", "change" };
	const struct compiler_cache *oc = &d->old_b->a->cache, *nc = &d->new_b->a->cache;
	const struct diff_cache *dc = &d->cache;
	const char *indent = st->markdown ? "\n" : "  ";
	char cpu[DIFF_FMT_BUF], wall[DIFF_FMT_BUF];

	if (!dc->known)
		return;
	heading(st, "Compiler cache");
	row(st, header, 4);
	put_cache_row(st, "hits", oc->nr_hits_direct + oc->nr_hits_preprocessed, dc->nr_hits);
	put_cache_row(st, "misses", oc->nr_misses, nc->nr_misses);
	put_cache_row(st, "uncacheable", oc->nr_uncacheable, nc->nr_uncacheable);
	if (oc->nr_unknown || nc->nr_unknown) /* sccache's server ran outside the trace */
		put_cache_row(st, "unknown", oc->nr_unknown, nc->nr_unknown);
	end_table(st);
	if (dc->nr_saved)
		fprintf(st->out, "%s%zu of the new build's %zu hits missed in the old build; against those misses the hits "
				 "saved %s CPU and %s wall\n", indent, dc->nr_saved, dc->nr_hits, diff_fmt_ns(cpu, dc->saved_cpu_ns),
			diff_fmt_ns(wall, dc->saved_wall_ns));
	else if (dc->nr_hits)
		fprintf(st->out, "%snone of the new build's %zu hits missed in the old build\n", indent,
			dc->nr_hits);
}

static void put_programs(struct style *st, const struct diff *d)
{
	static const char *const header[] = { "program", "old CPU", "new CPU", "change", "processes" };
	char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], cb[DIFF_FMT_BUF], pb[DIFF_FMT_BUF], name[TERM_ESCAPE_BUF];
	size_t k;

	heading(st, "CPU by program (most change first)");
	row(st, header, 5);
	for (k = 0; k < d->nr_programs && k < DIFF_REPORT_PROGRAMS; k++) {
		const struct diff_program *p = &d->programs[k];
		const char *cells[] = { clean_cell(st, p->name, name, sizeof(name)), diff_fmt_ns(ob, p->old_cpu_ns),
					diff_fmt_ns(nb, p->new_cpu_ns),
					diff_fmt_ns_change(cb, p->old_cpu_ns, p->new_cpu_ns), pb };

		if (!p->old_procs)
			snprintf(pb, sizeof(pb), "new: %zu", p->new_procs);
		else if (!p->new_procs)
			snprintf(pb, sizeof(pb), "gone: %zu", p->old_procs);
		else
			snprintf(pb, sizeof(pb), "%zu -> %zu", p->old_procs, p->new_procs);
		row(st, cells, 5);
	}
	end_table(st);
	if (d->nr_programs > DIFF_REPORT_PROGRAMS)
		fprintf(st->out, "%s... and %zu more programs\n", st->markdown ? "\n" : "  ",
			d->nr_programs - DIFF_REPORT_PROGRAMS);
}

static void put_steps(struct style *st, const struct diff *d, bool wall, const struct diff_step *top, size_t nr)
{
	static const char *const header[] = { "step", "old", "new", "change" };
	char title[128], floor[DIFF_FMT_BUF], ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], cb[DIFF_FMT_BUF];
	char name[TERM_ESCAPE_BUF];
	size_t k;

	snprintf(title, sizeof(title), "Steps that changed most by %s (%s)", wall ? "wall time" : "CPU",
		 diff_fmt_noise_floor(floor, wall));
	heading(st, title);
	if (!nr) {
		fprintf(st->out, "%snone above the noise floor\n", st->markdown ? "" : "  ");
		return;
	}
	row(st, header, 4);
	for (k = 0; k < nr; k++) {
		const struct proc_instance *p = &d->new_b->m->procs[top[k].new_proc];
		char *step = proc_display_name(d->new_b->m, p);
		const char *cells[] = { clean_cell(st, step ? step : "?", name, sizeof(name)),
					diff_fmt_ns(ob, top[k].old_ns), diff_fmt_ns(nb, top[k].new_ns),
					diff_fmt_ns_change(cb, top[k].old_ns, top[k].new_ns) };

		row(st, cells, 4);
		free(step);
	}
}

/*
 * One build's critical path: its length and its last entries, each with the
 * time it held the path.  "N steps" counts the report's way: a runner's
 * part of the path is listed but no step.
 */
static void put_one_path(struct style *st, const char *which, const struct diff_side *b)
{
	const struct audit *a = b->a;
	size_t i, from = a->nr_chain > DIFF_REPORT_PATH_STEPS ? a->nr_chain - DIFF_REPORT_PATH_STEPS : 0;
	size_t steps = audit_whatif__nr_steps(a);
	char len[DIFF_FMT_BUF], wall[DIFF_FMT_BUF], held[DIFF_FMT_BUF], name[TERM_ESCAPE_BUF];
	int col;

	col = fprintf(st->out, "%s%s: %zu step%s, %s of %s wall:%s", st->markdown ? "" : "  ", which, steps,
		      steps == 1 ? "" : "s", diff_fmt_ns(len, a->chain_busy_ns), diff_fmt_ns(wall, a->wall_ns),
		      from ? " ..." : "");
	for (i = from; i < a->nr_chain; i++) {
		const struct critical_step *s = &a->graph->path.steps[a->chain_step[i]];
		char *step = proc_display_name(b->m, &b->m->procs[s->proc]);
		const char *arrow = i > from || from ? (st->markdown ? " → " : " -> ") : " ";
		int width;

		clean_cell(st, step ? step : "?", name, sizeof(name));
		diff_fmt_ns(held, s->to_ns - s->from_ns);
		free(step);
		/* Text wraps before an arrow, under the first step; a Markdown paragraph wraps itself. */
		width = (int)(strlen(arrow) + strlen(name) + 1 + strlen(held));
		if (!st->markdown && i > from && col + width > DIFF_REPORT_WIDTH) {
			fputc('\n', st->out);
			col = fprintf(st->out, "%*s", DIFF_REPORT_PATH_INDENT, "");
		}
		col += fprintf(st->out, "%s%s %s", arrow, name, held);
	}
	fputs(st->markdown ? "\n\n" : "\n", st->out);
}

/* A step that moved onto or off the path; is_on: onto. */
static void put_moved_step(struct style *st, const struct diff *d, const struct diff_path_step *s, bool is_on)
{
	const struct diff_side *b = is_on ? d->new_b : d->old_b;
	long proc = is_on ? s->new_proc : s->old_proc;
	bool only_here = (is_on ? s->old_proc : s->new_proc) < 0;
	char ob[DIFF_FMT_BUF], nb[DIFF_FMT_BUF], name[TERM_ESCAPE_BUF];
	char *step = proc_display_name(b->m, &b->m->procs[proc]);
	const char *cells[] = { clean_cell(st, step ? step : "?", name, sizeof(name)),
				s->old_ns || !is_on ? diff_fmt_ns(ob, s->old_ns) : "-",
				s->new_ns || is_on ? diff_fmt_ns(nb, s->new_ns) : "-",
				is_on ? (only_here ? "on (only in new)" : "on")
				      : (only_here ? "off (only in old)" : "off") };

	row(st, cells, 4);
	free(step);
}

/*
 * The critical path of each build (from the build graph) and the steps
 * that moved onto or off it, longest held first.
 */
static void put_path(struct style *st, const struct diff *d)
{
	static const char *const header[] = { "step", "old on path", "new on path", "moved" };
	const struct diff_path *p = &d->path;
	size_t k;

	heading(st, "Critical path (build graph)");
	if (!p->known) {
		bool old_has = diff_path__has_graph(d->old_b->a), new_has = diff_path__has_graph(d->new_b->a);
		/* "neither build has a ...", never "neither ... no": one negative. */
		const char *who = old_has ? "the new build has no" : new_has ? "the old build has no" : "neither build has a";

		fprintf(st->out, "%snot compared: %s build graph (recorded with --deps=off, or nothing it "
				 "wrote was read)\n",
			st->markdown ? "" : "  ", who);
		return;
	}
	put_one_path(st, "old", d->old_b);
	put_one_path(st, "new", d->new_b);
	if (!p->nr_moved_on && !p->nr_moved_off) {
		fprintf(st->out, "%sthe same steps hold both paths\n", st->markdown ? "" : "  ");
		return;
	}
	row(st, header, 4);
	for (k = 0; k < p->nr_moved_off && k < DIFF_REPORT_MOVED; k++)
		put_moved_step(st, d, &p->moved_off[k], false);
	for (k = 0; k < p->nr_moved_on && k < DIFF_REPORT_MOVED; k++)
		put_moved_step(st, d, &p->moved_on[k], true);
	end_table(st);
	if (p->nr_moved_off > DIFF_REPORT_MOVED || p->nr_moved_on > DIFF_REPORT_MOVED)
		fprintf(st->out, "%s... %zu moved off and %zu moved on in all\n", st->markdown ? "\n" : "  ",
			p->nr_moved_off, p->nr_moved_on);
}

/* The new build's races the old one did not have: where, what kind, and what to declare. */
static void put_races(struct style *st, const struct diff *d)
{
	const char *indent = st->markdown ? "" : "  ";
	char buf[TERM_ESCAPE_BUF];
	size_t k;

	heading(st, "Races new in the new build");
	if (!d->races.known) {
		fprintf(st->out, "%snot compared: both builds need a build graph (record with --deps=on)\n", indent);
		return;
	}
	if (!d->races.nr_fresh) {
		fprintf(st->out, "%snone\n", indent);
		return;
	}
	for (k = 0; k < d->races.nr_fresh; k++) {
		const struct race *x = &d->new_b->a->graph->races.items[d->races.fresh[k]];

		fprintf(st->out, "%s%s %s: ", st->markdown ? "- " : indent, clean_cell(st, x->file, buf, sizeof(buf)),
			race_kind__name(x->kind));
		fprintf(st->out, "%s\n", clean_cell(st, x->advice, buf, sizeof(buf)));
	}
}

static void put_only(struct style *st, const char *title, const struct diff_only *only, size_t nr)
{
	char name[TERM_ESCAPE_BUF];
	size_t k;

	heading(st, title);
	if (!nr) {
		fprintf(st->out, "%snone\n", st->markdown ? "" : "  ");
		return;
	}
	fputs(st->markdown ? "" : "  ", st->out);
	for (k = 0; k < nr && k < DIFF_REPORT_ONLY; k++)
		fprintf(st->out, "%s%zu %s", k ? ", " : "", only[k].count,
			clean_cell(st, only[k].program, name, sizeof(name)));
	if (nr > DIFF_REPORT_ONLY)
		fprintf(st->out, ", and %zu more programs", nr - DIFF_REPORT_ONLY);
	fputs("\n", st->out);
}

static void report(struct style *st, const struct diff *d)
{
	put_title(st, d);
	put_figures(st, d);
	put_cache(st, d);
	put_programs(st, d);
	put_steps(st, d, false, d->top_cpu, d->nr_top_cpu);
	put_steps(st, d, true, d->top_wall, d->nr_top_wall);
	put_path(st, d);
	put_races(st, d);
	put_only(st, "Only in the old build (processes per program)", d->only_old, d->nr_only_old);
	put_only(st, "Only in the new build (processes per program)", d->only_new, d->nr_only_new);
	end_table(st);
	free(st->rows);
}

void diff_report__text(FILE *out, const struct diff *d)
{
	struct style st = { .out = out };

	report(&st, d);
}

void diff_report__markdown(FILE *out, const struct diff *d)
{
	struct style st = { .out = out, .markdown = true };

	report(&st, d);
}
