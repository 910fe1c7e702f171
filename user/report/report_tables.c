// SPDX-License-Identifier: GPL-2.0
/*
 * The tables of report_tables.h.  Times count from the audit's start, in
 * seconds with ms precision (the --summary-json's *_ms to the ms); memory
 * and I/O as report_size() writes them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "report/audit_answers.h"
#include "report/report_tables.h"
#include "report/report_text.h"
#include "util/array_grow.h"
#include "util/utf8.h"

static const char *const figures_header[] = { "figure", "value" };
/* "Without it" is simulated at the build's own -j on a quiet machine (as run when it was quiet): audit_whatif__base(). */
static const char *const path_header[] = { "#", "step", "pid", "from", "to", "held", "of the wall",
					    "wall without it (own -j, quiet)" };
static const char *const whatif_header[] = { "jobs", "CPUs", "predicted wall", "measured wall", "assumes" };
static const char *const top_header[] = { "step", "pid", "value" };
static const char *const programs_header[] = { "program", "CPU", "of the CPU", "processes", "wall" };
static const char *const races_header[] = { "file", "kind", "writer", "other", "what to declare" };

#define COLS(h) (sizeof(h) / sizeof((h)[0]))

static const struct {
	const char *key, *title, *align;
	const char *const *header;
	size_t nr_cols;
} table_kinds[REPORT_TABLE_NR] = {
	[REPORT_TABLE_FIGURES] = { "figures", "The build", "lr", figures_header, COLS(figures_header) },
	[REPORT_TABLE_PATH] = { "critical-path", "Critical path", "rlrrrrrr", path_header, COLS(path_header) },
	[REPORT_TABLE_WHATIF] = { "what-if", "What if", "rrrrl", whatif_header, COLS(whatif_header) },
	[REPORT_TABLE_TOP_WALL] = { "top-wall", "Longest steps (wall)", "lrr", top_header, COLS(top_header) },
	[REPORT_TABLE_TOP_CPU] = { "top-cpu", "Most CPU", "lrr", top_header, COLS(top_header) },
	[REPORT_TABLE_TOP_RSS] = { "top-rss", "Most memory (peak RSS)", "lrr", top_header, COLS(top_header) },
	[REPORT_TABLE_TOP_WRITE] = { "top-write", "Most written to storage", "lrr", top_header,
				     COLS(top_header) },
	[REPORT_TABLE_PROGRAMS] = { "programs", "CPU by program", "lrrrr", programs_header,
				    COLS(programs_header) },
	[REPORT_TABLE_RACES] = { "races", "Races (undeclared dependencies)", "lllll", races_header,
				 COLS(races_header) },
};

/* A new row of t, its cells NULL; NULL without memory. */
static char **add_row(struct report_table *t)
{
	char **row;

	if (array_grow((void **)&t->cells, &t->cap_cells, (t->nr_rows + 1) * t->nr_cols, sizeof(*t->cells)))
		return NULL;
	row = &t->cells[t->nr_rows * t->nr_cols];
	memset(row, 0, t->nr_cols * sizeof(*row));
	t->nr_rows++;
	return row;
}

/* *cell = the formatted text, cut to REPORT_CELL_MAX bytes.  0, or -ENOMEM. */
static int __attribute__((format(printf, 2, 3))) cell(char **cell, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(cell, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*cell = NULL;
		return -ENOMEM;
	}
	(*cell)[utf8_prefix_len(*cell, REPORT_CELL_MAX)] = '\0';
	return 0;
}

static int cell_sec(char **c, __u64 ns)
{
	return cell(c, "%.3f s", ns / 1e9);
}

/* The process's display name (raw bytes sanitised). */
static int cell_proc(char **c, const struct model *m, size_t proc)
{
	char *name = proc_display_name(m, &m->procs[proc]);

	if (!name)
		return -ENOMEM;
	*c = name;
	return 0;
}

static int note(struct report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int note(struct report_table *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* A later note replaces an earlier one (no graph says more than how many were listed). */
	free(t->note);
	va_start(ap, fmt);
	n = vasprintf(&t->note, fmt, ap);
	va_end(ap);
	if (n < 0)
		t->note = NULL;
	return n < 0 ? -ENOMEM : 0;
}

static int figure(struct report_table *t, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int figure(struct report_table *t, const char *name, const char *fmt, ...)
{
	char **row = add_row(t);
	va_list ap;
	int n;

	if (!row || !(row[0] = strdup(name)))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vasprintf(&row[1], fmt, ap);
	va_end(ap);
	if (n < 0)
		row[1] = NULL;
	return n < 0 ? -ENOMEM : 0;
}

static int figures(struct report_table *t, const struct audit *a, const struct model *m)
{
	char size[REPORT_SIZE_LEN];
	size_t i, steps = 0;
	int err;

	for (i = 0; i < m->nr_procs; i++)
		steps += !a->wrapper || !a->wrapper[i];
	err = figure(t, "wall", "%.3f s", a->wall_ns / 1e9) ?: figure(t, "CPUs", "%zu", a->nr_cpus) ?:
	      figure(t, "CPU time", "%.3f s", a->cpu_ns / 1e9) ?:
	      figure(t, "utilisation", "%.1f %%", 100 * a->utilisation) ?:
	      figure(t, "processes", "%zu (%zu steps, %zu wrappers)", m->nr_procs, steps, m->nr_procs - steps);
	if (!err && a->par)
		err = figure(t, "average running", "%.2f", a->avg_running) ?:
		      figure(t, "peak running", "%u", a->par->peak_running) ?:
		      figure(t, "serial phases", "%zu", a->nr_phases);
	if (!err && a->jobs.jobs)
		err = a->jobs.jobs > 0 ? figure(t, "jobs", "%s -j%ld", a->jobs.tool, a->jobs.jobs)
				       : figure(t, "jobs", "%s -j (unlimited)", a->jobs.tool);
	if (!err && m->nr_mem_samples)
		err = figure(t, "peak build memory", "%s at %.3f s", report_size(size, m->mem_peak.total_kb * 1024),
			     (m->mem_peak.hdr.ts_ns - m->start_ns) / 1e9);
	if (!err && a->io.flags & BB_IO_STORAGE)
		err = figure(t, "written to storage", "%s", report_size(size, a->io.io.write_bytes)) ?:
		      figure(t, "read from storage", "%s", report_size(size, a->io.io.read_bytes));
	if (!err && a->lost_events)
		err = figure(t, "events lost", "%llu", (unsigned long long)a->lost_events);
	if (!err && a->partial_reason)
		err = figure(t, "partial", "%s", a->partial_reason);
	return err;
}

static int path(struct report_table *t, const struct audit *a, const struct model *m)
{
	bool *listed = calloc(a->nr_chain ? a->nr_chain : 1, sizeof(*listed));
	size_t i, nr = 0, steps = audit_whatif__nr_steps(a), unsimulated = 0;
	int err = listed ? 0 : -ENOMEM;

	if (listed)
		audit__chain_longest(a, m, REPORT_PATH_ROWS, NULL, listed);
	for (i = 0; !err && i < a->nr_chain; i++) {
		const struct proc_instance *p = &m->procs[a->chain[i]];
		__u64 from = p->start_ns, to = p->end_ns, held = audit__chain_held(a, m, i);
		bool dash;
		char **row;

		if (!listed[i])
			continue;
		if (a->graph) {
			from = a->graph->path.steps[a->chain_step[i]].from_ns;
			to = a->graph->path.steps[a->chain_step[i]].to_ns;
		}
		/* A step the what-if did not simulate (compute_steps(): too short, or past the longest) says "-". */
		dash = a->whatif.known && !a->whatif.without_ns[i] && audit_whatif__is_step(a, i);
		unsimulated += dash;
		row = add_row(t);
		err = !row ? -ENOMEM
			   : cell(&row[0], "%zu", i + 1) ?: cell_proc(&row[1], m, a->chain[i]) ?:
			     cell(&row[2], "%u", p->pid) ?: cell_sec(&row[3], from - a->start_ns) ?:
			     cell_sec(&row[4], to - a->start_ns) ?: cell_sec(&row[5], held) ?:
			     cell(&row[6], "%.1f %%", a->wall_ns ? 100.0 * held / a->wall_ns : 0) ?:
			     (a->whatif.known && a->whatif.without_ns[i] ? cell_sec(&row[7], a->whatif.without_ns[i])
			      : cell(&row[7], "%s", !audit_whatif__is_step(a, i) ? "a runner" : dash ? "-" : ""))
			     ?: 0;
		nr++;
	}
	free(listed);
	/* Entries, not steps, when a runner's parts are on the path: the report's "N steps" counts steps. */
	if (!err && a->nr_chain > nr && steps == a->nr_chain)
		err = note(t, REPORT_NOT_LISTED(a->nr_chain - nr, a->nr_chain));
	else if (!err && a->nr_chain > nr)
		err = note(t, "%zu shorter entr%s of the path's %zu not listed (%zu of its entries are steps; the "
			      "rest, a runner's parts)",
			   a->nr_chain - nr, a->nr_chain - nr == 1 ? "y" : "ies", a->nr_chain, steps);
	if (!err && !a->graph)
		err = note(t, "no build graph (recorded without --deps=on): the chain to the end is a timing "
			      "estimate");
	if (!err && unsimulated) {
		/* Appended to what the note says already: note() replaces it. */
		char *before = t->note;

		t->note = NULL;
		err = note(t, "%s%s\"-\": not simulated (only the %d longest steps of %g %% of the wall or more are)",
			   before ? before : "", before ? "; " : "", WHATIF_MAX_STEPS, WHATIF_STEP_MIN_PERMILLE / 10.0);
		free(before);
	}
	return err;
}

static int whatif(struct report_table *t, const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;
	size_t i;
	int err = 0;

	t->shown = w->known;
	for (i = 0; !err && w->known && i < w->nr_rows; i++) {
		const struct whatif_row *r = &w->rows[i];
		char **row = add_row(t);

		err = !row ? -ENOMEM
			   : (r->jobs == SIM_UNLIMITED ? cell(&row[0], "unlimited") : cell(&row[0], "%zu", r->jobs)) ?:
			     (r->cpus ? cell(&row[1], "%zu", r->cpus) : cell(&row[1], "unlimited")) ?:
			     cell_sec(&row[2], r->wall_ns) ?:
			     (r->kind == WHATIF_AS_RUN ? cell_sec(&row[3], a->wall_ns) : cell(&row[3], "%s", "")) ?:
			     cell(&row[4], "%s%s", audit_whatif__assumes(r->kind),
				  r->own && r->kind != WHATIF_OWN_QUIET ? " (the build's own -j)" : "");
	}
	if (!err && w->known)
		err = note(t, "predicted from %zu jobs and %zu edges between them; ignores disk, memory and CPU "
			      "contention beyond the job slots", w->nr_jobs, w->nr_job_edges);
	return err;
}

/* A top list; bytes: the value is a size in bytes (kb: in KiB), else ns. */
static int top(struct report_table *t, const struct audit_top *tp, const struct model *m, char unit)
{
	char size[REPORT_SIZE_LEN];
	size_t i;
	int err = 0;

	for (i = 0; !err && i < tp->nr; i++) {
		__u64 v = tp->items[i].value;
		char **row = add_row(t);

		err = !row ? -ENOMEM
			   : cell_proc(&row[0], m, tp->items[i].proc) ?: cell(&row[1], "%u", m->procs[tp->items[i].proc].pid) ?:
			     (unit == 'k' ? cell(&row[2], "%s", report_size(size, v * 1024))
			      : unit == 'b' ? cell(&row[2], "%s", report_size(size, v)) : cell_sec(&row[2], v));
	}
	return err;
}

static int programs(struct report_table *t, const struct audit *a)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < a->nr_programs && i < REPORT_PROGRAM_ROWS; i++) {
		const struct audit_program *p = &a->programs[i];
		char **row = add_row(t);
		char *name = row ? utf8_sanitize(p->name, strlen(p->name)) : NULL;

		err = !name ? -ENOMEM
			    : cell(&row[0], "%s", name) ?: cell_sec(&row[1], p->cpu_ns) ?:
			      cell(&row[2], "%.1f %%", a->cpu_ns ? 100.0 * p->cpu_ns / a->cpu_ns : 0) ?:
			      cell(&row[3], "%zu", p->nr_procs) ?: cell_sec(&row[4], p->wall_ns);
		free(name);
	}
	if (!err && a->nr_programs > REPORT_PROGRAM_ROWS)
		err = note(t, "%zu more programs", a->nr_programs - REPORT_PROGRAM_ROWS);
	return err;
}

static int races(struct report_table *t, const struct audit *a)
{
	const struct races *r = a->graph ? &a->graph->races : NULL;
	size_t i;
	int err = 0;

	t->shown = r != NULL;
	for (i = 0; r && !err && i < r->nr && i < REPORT_RACE_ROWS; i++) {
		const struct race *x = &r->items[i];
		char **row = add_row(t);
		char *file = row ? utf8_sanitize(x->file, strlen(x->file)) : NULL;
		char *advice = file ? utf8_sanitize(x->advice, strlen(x->advice)) : NULL;

		err = !advice ? -ENOMEM
			      : cell(&row[0], "%s", file) ?: cell(&row[1], "%s", race_kind__name(x->kind)) ?:
				cell(&row[2], "%s", x->writer_name) ?: cell(&row[3], "%s", x->other_name) ?:
				cell(&row[4], "%s", advice);
		free(file);
		free(advice);
	}
	if (!err && r && !a->graph->jobs.nr_jobs)
		err = note(t, "none looked for: no make or ninja ran jobs");
	else if (!err && r && !r->nr)
		err = note(t, "none seen among %zu jobs", a->graph->jobs.nr_jobs);
	else if (!err && r && r->nr > REPORT_RACE_ROWS)
		err = note(t, "%zu more (--summary-json lists them)", r->nr - REPORT_RACE_ROWS);
	return err;
}

int report_tables__compute(struct report_tables *t, const struct audit *a, const struct model *m)
{
	struct report_table *tb = t->tables;
	size_t k;
	int err;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < REPORT_TABLE_NR; k++) {
		tb[k].key = table_kinds[k].key;
		tb[k].title = table_kinds[k].title;
		tb[k].align = table_kinds[k].align;
		tb[k].header = table_kinds[k].header;
		tb[k].nr_cols = table_kinds[k].nr_cols;
		tb[k].shown = true;
	}
	err = figures(&tb[REPORT_TABLE_FIGURES], a, m) ?: path(&tb[REPORT_TABLE_PATH], a, m) ?:
	      whatif(&tb[REPORT_TABLE_WHATIF], a) ?: top(&tb[REPORT_TABLE_TOP_WALL], &a->top_wall, m, 's') ?:
	      top(&tb[REPORT_TABLE_TOP_CPU], &a->top_cpu, m, 's') ?: top(&tb[REPORT_TABLE_TOP_RSS], &a->top_rss, m, 'k') ?:
	      top(&tb[REPORT_TABLE_TOP_WRITE], &a->top_write, m, 'b') ?: programs(&tb[REPORT_TABLE_PROGRAMS], a) ?:
	      races(&tb[REPORT_TABLE_RACES], a);
	if (!err && !(a->io.flags & BB_IO_STORAGE))
		err = note(&tb[REPORT_TABLE_TOP_WRITE], "not counted by this kernel (no storage I/O accounting)");
	if (err)
		report_tables__free(t);
	return err;
}

void report_tables__free(struct report_tables *t)
{
	size_t k, i;

	for (k = 0; k < REPORT_TABLE_NR; k++) {
		struct report_table *tb = &t->tables[k];

		for (i = 0; i < tb->nr_rows * tb->nr_cols; i++)
			free(tb->cells[i]);
		free(tb->cells);
		free(tb->note);
	}
	memset(t, 0, sizeof(*t));
}

char *report_answers__text(const struct audit *a, const struct model *m)
{
	static const char prefix[] = "buildbpf: ";
	char *raw = NULL, *text, *line, *next;
	size_t len = 0, o = 0;
	FILE *f = open_memstream(&raw, &len);

	if (!f)
		return NULL;
	audit_answers__print(f, a, m);
	if (fclose(f))
		return NULL;
	text = malloc(len + 1);
	for (line = raw; text && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, prefix, sizeof(prefix) - 1))
			line += sizeof(prefix) - 1;
		o += sprintf(text + o, "%s\n", line);
	}
	if (text)
		text[o] = '\0';
	free(raw);
	return text;
}

char *report_command__text(const struct model *m, size_t max)
{
	const struct proc_instance *root = m->root >= 0 ? &m->procs[m->root] : NULL;

	if (!root || !root->nr_execs)
		return strdup("?");
	return argv_display_name(root->execs[0].argv, root->execs[0].argc, max);
}
