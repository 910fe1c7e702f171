// SPDX-License-Identifier: GPL-2.0
/*
 * The command's phases in words.  The advice names only what the phase's
 * own tool offers: configure's cache, a runner's -j.
 */
#include <stdlib.h>
#include <string.h>
#include "model/tool_jobs.h"
#include "audit/cmd_phases.h"
#include "model/proc_name.h"
#include "report/cmd_phases_report.h"
#include "report/report_text.h"

static double per_wall(__u64 ns, const struct audit_cmd_phase *ph)
{
	__u64 wall = ph->end_ns - ph->start_ns;

	return wall ? (double)ns / wall : 0;
}

/* " -j2", " -j1 (its default)", " via ninja -j3 (its default)": the phase's runner and its -j. */
static void put_runner(FILE *f, const struct model *m, const struct audit_cmd_phase *ph)
{
	if (ph->runner < 0)
		return;
	if (ph->runner != ph->proc) {
		fputs(" via ", f);
		report_put_proc(f, m, ph->runner);
	}
	if (ph->jobs.jobs < 0)
		fputs(" -j (unlimited)", f);
	else
		fprintf(f, " -j%ld", ph->jobs.jobs);
	if (ph->jobs.source != JOBS_ARGUMENT)
		fprintf(f, " (%s)", tool_jobs__source_text(ph->jobs.source));
}

/*
 * The phase's name; its command line when another phase has the same name
 * (make, then make check): true then, the line already says its -j.
 */
static bool put_phase_name(FILE *f, const struct audit *a, const struct model *m, const struct audit_cmd_phase *ph)
{
	const struct proc_instance *p = &m->procs[ph->proc];
	char *name = proc_display_name(m, p), *other, *line = NULL;
	bool shared = false;
	size_t i;

	for (i = 0; name && !shared && i < a->nr_cmd_phases; i++) {
		if (&a->cmd_phases[i] == ph)
			continue;
		other = proc_display_name(m, &m->procs[a->cmd_phases[i].proc]);
		shared = other && !strcmp(other, name);
		free(other);
	}
	if (shared && p->nr_execs)
		line = argv_display_name(p->execs[p->nr_execs - 1].argv, p->execs[p->nr_execs - 1].argc, 0);
	report_put_name(f, line ? line : name ? name : p->comm, REPORT_NAME_MAX);
	free(line);
	free(name);
	return line != NULL;
}

static void put_phase(FILE *f, const struct audit *a, const struct model *m, const struct audit_cmd_phase *ph)
{
	bool whole_line = put_phase_name(f, a, m, ph);

	if (ph->nr_commands > 1)
		fprintf(f, " (+%zu at once)", ph->nr_commands - 1);
	if (!whole_line || ph->runner != ph->proc)
		put_runner(f, m, ph);
	fputc(' ', f);
	report_put_sec(f, ph->end_ns - ph->start_ns);
	fputs(" (", f);
	report_put_share(f, ph->end_ns - ph->start_ns, a->wall_ns);
	fputs("), ", f);
	if (ph->serial)
		fputs("one step at a time", f);
	else
		fprintf(f, "%.2f steps at once", per_wall(ph->step_ns, ph));
	fprintf(f, ", %.2f CPUs busy", per_wall(ph->cpu_ns, ph));
}

void cmd_phases_report__answer(FILE *out, const struct audit *a, const struct model *m)
{
	struct report_line l;
	size_t i;
	FILE *f;

	if (a->nr_cmd_phases < 2)
		return;
	f = report_line__begin(&l, out);
	fputs("phases:", f);
	for (i = 0; i < a->nr_cmd_phases; i++) {
		fputs(i ? "; " : " ", f);
		put_phase(f, a, m, &a->cmd_phases[i]);
	}
	report_line__end(&l);
}

/* What the phase's tool offers to shorten it; nothing for a tool we do not know. */
static void put_advice(FILE *f, const struct audit *a, const struct audit_cmd_phase *ph)
{
	if (ph->configure) {
		fputs(": ./configure -C keeps its results in config.cache for the next run, and ccache caches its "
		      "test compiles", f);
	} else if (ph->runner >= 0 && ph->jobs.jobs == 1 && a->nr_cpus > 1) {
		fprintf(f, ": it ran one job at a time (-j1, %s); -j%zu would let it use the %zu CPUs",
			ph->jobs.source == JOBS_TOOL_DEFAULT ? "its default" : "as asked", a->nr_cpus, a->nr_cpus);
	} else if (ph->runner >= 0) {
		fputs(": the build's own order allowed no more at once", f);
	}
}

static __u64 phase_wall(const struct audit_cmd_phase *ph)
{
	return ph->end_ns - ph->start_ns;
}

size_t cmd_phases_report__speed_up(FILE *out, const struct audit *a, const struct model *m, const char *lead,
				   const char *next, size_t max)
{
	const struct audit_cmd_phase *ph;
	bool said[AUDIT_MAX_CMD_PHASES] = { false };
	struct report_line l;
	size_t n, i, pick;
	FILE *f;

	for (n = 0; n < max; n++) {
		/* Longest first, among those that stand out. */
		for (i = 0, pick = a->nr_cmd_phases; i < a->nr_cmd_phases; i++)
			if (!said[i] && audit__cmd_phase_stands_out(a, &a->cmd_phases[i]) &&
			    (pick == a->nr_cmd_phases || phase_wall(&a->cmd_phases[i]) > phase_wall(&a->cmd_phases[pick])))
				pick = i;
		if (pick == a->nr_cmd_phases)
			break;
		said[pick] = true;
		ph = &a->cmd_phases[pick];
		f = report_line__begin(&l, out);
		fputs(n ? next : lead, f);
		put_phase_name(f, a, m, ph);
		fputs(" ran one step at a time and took ", f);
		report_put_sec(f, phase_wall(ph));
		fputs(" (", f);
		report_put_share(f, phase_wall(ph), a->wall_ns);
		fputs(" of the wall)", f);
		put_advice(f, a, ph);
		report_line__end(&l);
	}
	return n;
}
