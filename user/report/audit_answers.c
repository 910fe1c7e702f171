// SPDX-License-Identifier: GPL-2.0
/*
 * The answers at the top of the audit.  Each is one logical line, wrapped
 * to REPORT_WIDTH, in words a newcomer reads without the README: shares of
 * the wall time, seconds, and names of steps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "audit/cmd_phases.h"
#include "report/audit_answers.h"
#include "report/cmd_phases_report.h"
#include "report/compiler_cache_report.h"
#include "report/jobs_fit_report.h"
#include "report/report_text.h"
#include "report/whatif_report.h"

/* Programs named per "by program" line; steps named per chain. */
#define ANSWER_PROGRAMS_MAX 5
#define ANSWER_CHAIN_STEPS 3
/* Serial phases named as the thing to speed up. */
#define ANSWER_PHASES_MAX 2
/* Races named, each with what to declare. */
#define ANSWER_RACES_MAX 5
/* Ranks of the answers (below): 0 first. */
#define ANSWER_RANKS 10

static bool holds_answer_share(__u64 ns, __u64 wall)
{
	return ns >= wall / 1000 * AUDIT_ANSWER_PERMILLE && ns;
}

/*
 * Ranks by a value without reordering: the next index after *at in the
 * order largest value first, lowest index among equals.  first: start
 * over.  False when only zeros are left.
 */
static bool next_largest(__u64 (*value)(const void *ctx, size_t i), const void *ctx, size_t n, bool first,
			 size_t *at, __u64 *v)
{
	__u64 prev = first ? ~0ull : *v, best = 0, x;
	size_t i, pick = 0;

	for (i = 0; i < n; i++) {
		x = value(ctx, i);
		if (x > prev || (x == prev && (first || i <= *at)))
			continue; /* already given */
		if (x > best || (x == best && x && i < pick)) {
			best = x;
			pick = i;
		}
	}
	*at = pick;
	*v = best;
	return best != 0;
}

static __u64 program_wall(const void *ctx, size_t i)
{
	return ((const struct audit *)ctx)->programs[i].wall_ns;
}

struct chain_ctx {
	const struct audit *a;
	const struct model *m;
};

/* A chain step's time: with the build graph, the part of it that held the critical path. */
static __u64 step_wall(const struct audit *a, const struct model *m, size_t i)
{
	const struct proc_instance *p = &m->procs[a->chain[i]];
	const struct critical_step *s;

	if (!audit_whatif__is_step(a, i))
		return 0; /* a runner is never a step to speed up: its time is said apart */
	if (!a->graph)
		return p->end_ns - p->start_ns;
	s = &a->graph->path.steps[a->chain_step[i]];
	return s->to_ns - s->from_ns;
}

static __u64 chain_step_wall(const void *ctx, size_t i)
{
	const struct chain_ctx *c = ctx;

	return step_wall(c->a, c->m, i);
}

static void put_jobs_allowed(FILE *f, const struct audit *a)
{
	if (a->jobs.jobs > 0)
		fprintf(f, "-j%ld", a->jobs.jobs);
	else
		fputs("-j", f);
}

static const char *jobs_source_text(enum tool_jobs_source src)
{
	return tool_jobs__source_text(src);
}

void audit_answers__put_jobs(FILE *out, const struct tool_jobs *j)
{
	if (!j->jobs) {
		fputs("job count unknown", out);
		return;
	}
	report_put_name(out, j->tool, sizeof(j->tool));
	if (j->jobs < 0)
		fprintf(out, " -j (unlimited, %s)", jobs_source_text(j->source));
	else
		fprintf(out, " -j%ld (%s)", j->jobs, jobs_source_text(j->source));
}

/*
 * Starved: the jobs were there and the CPUs were not, and whose they were:
 * other programs' (waits while a CPU ran outside work) or the build's own
 * jobs' (the rest of the waits: every CPU ran the build).
 */
static void put_starved(FILE *f, const struct audit *a, double avg)
{
	fprintf(f, "parallel? starved: jobs for all %zu CPUs were ready ", a->nr_cpus);
	report_put_share(f, a->ready_full_ns, a->wall_ns);
	fprintf(f, " of the time, but on average %.2f of %zu CPUs ran the build; jobs waited for a CPU other "
		   "programs held ", avg, a->nr_cpus);
	report_put_share(f, a->noisy_ns, a->wall_ns);
	fputs(" of the time, for one the build's own jobs held ", f);
	report_put_share(f, a->starved_ns, a->wall_ns);
	fputs("; ", f);
}

double audit_answers__average_running(const struct audit *a)
{
	return a->par ? a->avg_running : a->wall_ns ? (double)a->cpu_ns / a->wall_ns : 0;
}

static void put_parallel(FILE *out, const struct audit *a)
{
	static const char *const verdict[] = {
		[AUDIT_PARALLEL_NO] = "no", [AUDIT_PARALLEL_PARTLY] = "partly", [AUDIT_PARALLEL_YES] = "yes",
	};
	double avg = audit_answers__average_running(a);
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	if (a->parallel == AUDIT_PARALLEL_STARVED)
		put_starved(f, a, avg);
	else
		fprintf(f, "parallel? %s: on average %.2f of %zu CPU%s ran the build; ", verdict[a->parallel], avg,
			a->nr_cpus, a->nr_cpus == 1 ? "" : "s");
	audit_answers__put_jobs(f, &a->jobs);
	report_line__end(&l);
}

/* " (-51 %" from from_ns to to_ns, or " (no gain" when it is not faster by 0.5 % or more; the caller closes it. */
static void put_gain_open(FILE *f, __u64 from_ns, __u64 to_ns)
{
	double pct = from_ns && to_ns < from_ns ? 100.0 * (double)(from_ns - to_ns) / (double)from_ns : 0;

	if (pct < 0.5)
		fputs(" (no gain", f);
	else
		fprintf(f, " (-%.0f %%", pct);
}

static void put_gain(FILE *f, __u64 from_ns, __u64 to_ns)
{
	put_gain_open(f, from_ns, to_ns);
	fputc(')', f);
}

/* "a quieter machine, then more jobs": what helps, from the what-if's rows; "neither" when nothing does. */
static void put_help_verdict(FILE *f, const struct audit_whatif *w)
{
	const struct whatif_answer *ans = &w->answer;
	const char *sep = "";

	if (ans->quieter_helps) {
		fputs(ans->confined ? "all the CPUs" : "a quieter machine", f);
		sep = ", then ";
	}
	if (ans->more_jobs_help) {
		fprintf(f, "%smore jobs", sep);
		sep = ", then ";
	}
	if (ans->more_cpus_help) {
		fprintf(f, "%smore CPUs", sep);
		if (!ans->more_jobs_help && w->rows[ans->more_cpus].jobs > w->rows[ans->base].jobs)
			fputs(" with more jobs", f);
		sep = ", then ";
	}
	if (!*sep)
		fputs("neither", f);
	else if (!ans->more_jobs_help && !ans->more_cpus_help)
		fputs(", not more CPUs or jobs", f);
}

/* What the base row assumes, after its figure: " on a quiet machine", or " as run" when the machine was. */
static void put_base_words(FILE *f, const struct whatif_answer *ans)
{
	fputs(ans->as_run < 0 ? " as run" : ans->confined ? " with all the CPUs" : " on a quiet machine", f);
}

/*
 * With the what-if, the answer is its rows (audit/whatif_answer.h): the
 * build's own -j on a quiet machine against as run, against more jobs on
 * its CPUs and against more CPUs, each figure as the what-if prints it.
 */
static void put_help_model(FILE *f, const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;
	const struct whatif_answer *ans = &w->answer;
	const struct whatif_row *base = &w->rows[ans->base];

	put_help_verdict(f, w);
	fputs("; the model: ", f);
	whatif_report__put_row(f, base);
	put_base_words(f, ans);
	if (ans->as_run >= 0) {
		fputs(" against ", f);
		report_put_sec(f, w->rows[ans->as_run].wall_ns);
		fputs(" as run", f);
		/* The as-run row is the model's; the audit's first line has the measured wall. */
		put_gain_open(f, w->rows[ans->as_run].wall_ns, base->wall_ns);
		fputs("; measured ", f);
		report_put_sec(f, a->wall_ns);
		fputc(')', f);
	}
	if (ans->more_jobs >= 0) {
		fputs(", ", f);
		whatif_report__put_row(f, &w->rows[ans->more_jobs]);
		put_gain(f, base->wall_ns, w->rows[ans->more_jobs].wall_ns);
	}
	if (ans->more_cpus >= 0) {
		fputs(", ", f);
		whatif_report__put_row(f, &w->rows[ans->more_cpus]);
		put_gain(f, base->wall_ns, w->rows[ans->more_cpus].wall_ns);
	}
}

static void put_help(FILE *out, const struct audit *a)
{
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	fputs("more CPUs or jobs? ", f);
	if (a->whatif.known && a->whatif.answer.base >= 0) {
		put_help_model(f, a);
		report_line__end(&l);
		return;
	}
	switch (a->help) {
	case AUDIT_HELP_CPUS:
		fputs("yes: jobs were ready and waiting for a CPU ", f);
		report_put_share(f, a->help_ns, a->wall_ns);
		fputs(" of the time: more CPUs would help", f);
		break;
	case AUDIT_HELP_QUIETER:
		fputs("jobs waited for a CPU that other programs held ", f);
		report_put_share(f, a->help_ns, a->wall_ns);
		fputs(" of the time: a quieter machine (or more CPUs) would help", f);
		break;
	case AUDIT_HELP_JOBS:
		fputs("yes: only ", f);
		put_jobs_allowed(f, a);
		fputs(" jobs ran while a CPU idled ", f);
		report_put_share(f, a->help_ns, a->wall_ns);
		fprintf(f, " of the time: more jobs (-j%zu) would help", a->nr_cpus);
		break;
	case AUDIT_HELP_ORDER:
		fputs("no: CPUs idled ", f);
		report_put_share(f, a->help_ns, a->wall_ns);
		if (a->jobs.jobs) {
			fputs(" of their time with fewer jobs running than ", f);
			put_jobs_allowed(f, a);
			fputs(" allowed", f);
		} else {
			fprintf(f, " of their time with fewer than %zu running", a->jobs_target);
		}
		fputs(": the build's own order held it back", f);
		break;
	case AUDIT_HELP_NONE:
		fputs("neither is clearly the limit: jobs waited for a CPU ", f);
		report_put_share(f, a->runq_wall_ns, a->wall_ns);
		fputs(" of the time, CPUs idled with fewer jobs running than allowed ", f);
		report_put_share(f, a->lost_cpu_ns, a->wall_ns * a->jobs_target);
		fputs(" of their time", f);
		break;
	case AUDIT_HELP_UNKNOWN:
		fputs("unknown (traced with --sched=off)", f);
		break;
	}
	report_line__end(&l);
}

static void put_shared(FILE *out, const struct audit *a)
{
	__u64 capacity = a->wall_ns * a->nr_cpus;
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	fputs("machine shared? ", f);
	if (!a->par) {
		fputs("unknown (traced with --sched=off)", f);
	} else {
		fputs(holds_answer_share(a->other_ns, capacity) ? "yes" : a->other_share >= 0.01 ? "a little" : "no", f);
		fputs(": other programs held ", f);
		report_put_share(f, a->other_ns, capacity);
		fputs(" of the CPU time during the build", f);
		if (a->noisy_ns) {
			fputs("; build threads waited for them ", f);
			report_put_share(f, a->noisy_ns, a->wall_ns);
			fputs(" of the time", f);
		}
	}
	report_line__end(&l);
}

static void put_programs(FILE *out, const struct audit *a)
{
	__u64 rest_ns = a->cpu_ns;
	size_t i, rest = 0, shown = 0;
	struct report_line l;
	FILE *f;

	if (!a->nr_programs)
		return;
	f = report_line__begin(&l, out);
	fputs("CPU by program:", f);
	for (i = 0; i < a->nr_programs; i++) {
		/* Most CPU first: past the first without any, the rest are "others". */
		if (i >= ANSWER_PROGRAMS_MAX || !a->programs[i].cpu_ns) {
			rest += a->programs[i].nr_procs;
			continue;
		}
		fputs(shown++ ? ", " : " ", f);
		report_put_name(f, a->programs[i].name, REPORT_NAME_MAX);
		fputc(' ', f);
		report_put_sec(f, a->programs[i].cpu_ns);
		fputs(" in ", f);
		report_put_count(f, a->programs[i].nr_procs);
		if (shown == 1) /* the unit once */
			fputs(a->programs[i].nr_procs == 1 ? " process" : " processes", f);
		rest_ns -= a->programs[i].cpu_ns;
	}
	/* Nothing listed (no process used CPU time): the count stands alone. */
	if (rest && rest_ns) {
		fputs(shown ? ", others " : " others ", f);
		report_put_sec(f, rest_ns);
		fputs(" in ", f);
		report_put_count(f, rest);
	} else if (rest && shown) {
		fputs(", ", f);
		report_put_count(f, rest);
		fputs(rest == 1 ? " more process using none" : " more using none", f);
	} else if (rest) {
		fputs(" none of the ", f);
		report_put_count(f, rest);
		fputs(rest == 1 ? " process used CPU time" : " processes used CPU time", f);
	}
	report_line__end(&l);
}

/* The programs by wall time, longest first. */
static void put_program_wall(FILE *out, const struct audit *a)
{
	size_t shown, at = 0;
	__u64 wall = 0;
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	fputs("wall by program:", f);
	for (shown = 0; shown < ANSWER_PROGRAMS_MAX; shown++) {
		if (!next_largest(program_wall, a, a->nr_programs, !shown, &at, &wall))
			break;
		fputs(shown ? ", " : " ", f);
		report_put_name(f, a->programs[at].name, REPORT_NAME_MAX);
		fputc(' ', f);
		report_put_sec(f, wall);
	}
	if (!shown)
		fputs(" none", f);
	report_line__end(&l);
}

static void put_phase_answer(FILE *f, const struct audit *a, const struct model *m, const struct audit_phase *ph)
{
	__u64 len = ph->end_ns - ph->start_ns;

	if (!ph->nr_procs) {
		fputs("nothing ran for ", f);
		report_put_sec(f, len);
		fputs(" (", f);
		report_put_share(f, len, a->wall_ns);
		fputs(" of the wall)", f);
		return;
	}
	/* More than half the phase's CPU: the phase is that step. */
	if (ph->procs[0].on_cpu_ns * 2 > ph->cpu_ns) {
		report_put_proc(f, m, ph->procs[0].proc);
		fputs(" ran alone for ", f);
	} else if (!ph->procs[0].on_cpu_ns) {
		fputs("the build waited on ", f);
		report_put_proc(f, m, ph->procs[0].proc);
		fputs(" for ", f);
	} else {
		fputs("one step at a time for ", f);
	}
	report_put_sec(f, len);
	fputs(" (", f);
	report_put_share(f, len, a->wall_ns);
	fputs(" of the wall)", f);
	if (ph->procs[0].on_cpu_ns && ph->procs[0].on_cpu_ns * 2 <= ph->cpu_ns) {
		fputs(", most CPU in ", f);
		report_put_proc(f, m, ph->procs[0].proc);
	}
}

/*
 * The chain is worth a line when one of its steps took 10 % of the wall:
 * then it names what to shorten.  A chain of a thousand tiny steps names
 * nothing, and a chain of one step is only that step.
 */
static bool chain_is_informative(const struct audit *a, const struct model *m)
{
	size_t i;

	if (a->nr_chain < 2)
		return false;
	for (i = 0; i < a->nr_chain; i++)
		if (holds_answer_share(step_wall(a, m, i), a->wall_ns))
			return true;
	return false;
}

/* lead: "speed up? " when the chain is the answer, "  " under one. */
static void put_chain(FILE *out, const struct audit *a, const struct model *m, const char *lead)
{
	struct chain_ctx ctx = { .a = a, .m = m };
	size_t shown, at = 0;
	__u64 wall = 0;
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	if (a->graph)
		fprintf(f, "%s%scritical path (build graph, %zu file edge%s): %zu step%s; longest", lead,
			*lead == ' ' ? "" : "the ", a->graph->data.nr_edges, a->graph->data.nr_edges == 1 ? "" : "s",
			audit_whatif__nr_steps(a), audit_whatif__nr_steps(a) == 1 ? "" : "s");
	else
		fprintf(f, "%s%schain to the end (an estimate from timing): %zu step%s; longest", lead,
			*lead == ' ' ? "" : "the ", a->nr_chain, a->nr_chain == 1 ? "" : "s");
	for (shown = 0; shown < ANSWER_CHAIN_STEPS; shown++) {
		if (!next_largest(chain_step_wall, &ctx, a->nr_chain, !shown, &at, &wall) || !wall ||
		    (shown && !whatif_over_step_min(wall, a->wall_ns)))
			break; /* steps under 1 % of the wall say nothing */
		fputs(shown ? ", " : " ", f);
		report_put_proc(f, m, a->chain[at]);
		fputc(' ', f);
		report_put_sec(f, wall);
	}
	if (!shown)
		fputs(" none", f);
	whatif_report__put_runner_held(f, a);
	report_line__end(&l);
}

/* Without a build graph: what --deps=on would give, and what it costs on the recording's kernel. */
static void put_deps_hint(FILE *out, const struct audit *a)
{
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	fputs("  --deps=on would give the real critical path", f);
	/* The cost measured in docs/overhead.md, to the machine's other work: not this build's. */
	if (a->deps_hook == DEPS_HOOK_SYSCALL)
		fputs("; on this kernel (no fentry) it slows other programs' syscall-heavy work about "
		      DEPS_HOOK_SYSCALL_COST " while a build is traced", f);
	else if (a->deps_hook == DEPS_HOOK_FENTRY)
		fputs(" (fentry on this kernel: only the build's opens pay)", f);
	report_line__end(&l);
}

/*
 * With the what-if: the critical step whose removal gains the most, as the
 * -v detail lists it, named to speed up only when the gain is 10 % of the
 * base row's wall (on a quiet machine, as "more CPUs or jobs?" weighs); else, when nothing else was named, said not to stand out.
 * How many answers it gave (0 or 1).
 */
static size_t put_step_model(FILE *out, const struct audit *a, const struct model *m, size_t named)
{
	const struct audit_whatif *w = &a->whatif;
	const struct whatif_answer *ans = &w->answer;
	struct report_line l;
	FILE *f;

	if (!ans->step_helps && named)
		return 0;
	f = report_line__begin(&l, out);
	if (ans->step_helps) {
		fputs(named ? "  and: " : "speed up? ", f);
		report_put_proc(f, m, a->chain[ans->step]);
		fputs(" on the critical path (held ", f);
		report_put_sec(f, audit_whatif__step_held(a, (size_t)ans->step));
		fputs(", ", f);
		report_put_share(f, audit_whatif__step_held(a, (size_t)ans->step), a->wall_ns);
		fputs(" of the wall): without it ", f);
	} else {
		fputs("speed up? no single step stands out: without the critical step that gains most, ", f);
		report_put_proc(f, m, a->chain[ans->step]);
		fputs(", ", f);
	}
	report_put_sec(f, w->without_ns[ans->step]);
	fputs(" against ", f);
	report_put_sec(f, w->rows[ans->base].wall_ns);
	put_base_words(f, ans);
	put_gain(f, w->rows[ans->base].wall_ns, w->without_ns[ans->step]);
	report_line__end(&l);
	return 1;
}

static void put_speed_up(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	size_t i, named;
	struct report_line l;
	FILE *f;

	/* A phase of the command that ran one step at a time leads: it is the
	 * stretch to shorten, whatever ran inside it. */
	named = cmd_phases_report__speed_up(out, a, m, "speed up? ", "  and: ", ANSWER_PHASES_MAX);
	for (i = 0; i < a->nr_phases && named < ANSWER_PHASES_MAX; i++) {
		const struct audit_phase *ph = &a->phases[i];

		if (!holds_answer_share(ph->end_ns - ph->start_ns, a->wall_ns))
			break; /* longest first */
		if (audit__mostly_within_standing_phase(a, ph->start_ns, ph->end_ns))
			continue; /* a stretch of a phase said above */
		f = report_line__begin(&l, out);
		fputs(named ? "  and: " : "speed up? ", f);
		put_phase_answer(f, a, m, ph);
		report_line__end(&l);
		named++;
	}
	/* The what-if re-simulated the critical steps: what one is worth is its figure, not its length. */
	if (a->whatif.known && a->whatif.answer.step >= 0) {
		put_step_model(out, a, m, named);
		if (!brief && chain_is_informative(a, m))
			put_chain(out, a, m, "  ");
		return;
	}
	if (chain_is_informative(a, m)) {
		put_chain(out, a, m, named ? "  " : "speed up? ");
		named++;
	}
	if (!named) {
		f = report_line__begin(&l, out);
		fputs("speed up? no single step stands out: none took 10 % of the wall on its own", f);
		report_line__end(&l);
	}
	if (!a->graph)
		put_deps_hint(out, a);
}

/*
 * Undeclared dependencies between the jobs (graph/races.h): how many and on
 * which files, then per race what to declare and when the two met.  Only
 * with a build graph: the file records are what shows them.
 */
static void put_races(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	const struct races *r = a->graph ? &a->graph->races : NULL;
	size_t i, named = brief ? 1 : ANSWER_RACES_MAX;
	struct report_line l;
	FILE *f;

	if (!r)
		return;
	f = report_line__begin(&l, out);
	if (!a->graph->jobs.nr_jobs) {
		fputs("races? none looked for: no make or ninja ran jobs", f);
	} else if (!r->nr) {
		fprintf(f, "races? none seen among %zu jobs", a->graph->jobs.nr_jobs);
	} else {
		fprintf(f, "races? %zu undeclared dependenc%s:", r->nr, r->nr == 1 ? "y" : "ies");
		for (i = 0; i < r->nr && i < named; i++) {
			fputs(i ? ", " : " ", f);
			report_put_path(f, r->items[i].file, REPORT_NAME_MAX);
			fprintf(f, " %s", race_kind__name(r->items[i].kind));
		}
		if (r->nr > named)
			fprintf(f, ", and %zu more (%s)", r->nr - named,
				brief ? "-v says what to declare" : "--summary-json lists them");
		else if (brief)
			fputs(" (-v says what to declare)", f);
	}
	report_line__end(&l);
	for (i = 0; !brief && i < r->nr && i < named; i++) {
		const struct race *x = &r->items[i];

		f = report_line__begin(&l, out);
		fputs("  ", f);
		report_put_name(f, x->advice, 4 * REPORT_NAME_MAX + 80);
		fprintf(f, " (pids %u and %u, at ", m->procs[x->writer_step].pid, m->procs[x->other_step].pid);
		report_put_sec(f, x->write_ns - m->start_ns);
		fputs(" and ", f);
		report_put_sec(f, x->other_ns - m->start_ns);
		fputc(')', f);
		report_line__end(&l);
	}
}

static void put_parallel_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	(void)brief;
	put_parallel(out, a);
}

static void put_phases_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)brief;
	cmd_phases_report__answer(out, a, m);
}

static void put_help_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	(void)brief;
	put_help(out, a);
}

static void put_shared_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	(void)brief;
	put_shared(out, a);
}

static void put_programs_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	(void)brief;
	put_programs(out, a);
	put_program_wall(out, a);
}

static void put_whatif_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	whatif_report__answer(out, a, brief);
}

static void put_fit_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	if (brief)
		jobs_fit_report__brief(out, &a->fit, a->nr_cpus);
	else
		jobs_fit_report__print(out, &a->fit, m, a->nr_cpus);
}

static void put_cache_answer(FILE *out, const struct audit *a, const struct model *m, bool brief)
{
	(void)m;
	(void)brief;
	compiler_cache_report__print(out, &a->cache);
}

/* A race found is a build that may break: the first thing to fix. */
static bool races_found(const struct audit *a)
{
	return a->graph && a->graph->races.nr;
}

/*
 * The answers in the order people ask them; rank orders them for the brief
 * form when its lines run short (0 first): what to do before what it costs,
 * the figures behind them last.  urgent: when it says yes, the answer comes
 * before every rank.  brief: false leaves an answer to -v.
 */
static const struct answer {
	const char *id;
	void (*put)(FILE *out, const struct audit *a, const struct model *m, bool brief);
	unsigned rank;
	bool brief;
	bool (*urgent)(const struct audit *a);
} answers[] = {
	{ "parallel", put_parallel_answer, 0, true, NULL },
	{ "phases", put_phases_answer, 9, false, NULL },
	{ "more_cpus_or_jobs", put_help_answer, 1, true, NULL },
	{ "machine_shared", put_shared_answer, 4, true, NULL },
	{ "programs", put_programs_answer, 9, false, NULL },
	{ "speed_up", put_speed_up, 2, true, NULL },
	{ "what_if", put_whatif_answer, 5, true, NULL },
	{ "jobs_fit", put_fit_answer, 6, true, NULL },
	{ "races", put_races, 3, true, races_found },
	{ "compiler_cache", put_cache_answer, 7, true, NULL },
};

#define NR_ANSWERS (sizeof(answers) / sizeof(answers[0]))
_Static_assert(NR_ANSWERS <= AUDIT_ANSWERS_MAX, "AUDIT_ANSWERS_MAX holds every answer");

void audit_answers__print(FILE *out, const struct audit *a, const struct model *m)
{
	size_t i;

	for (i = 0; i < NR_ANSWERS; i++)
		if (answers[i].put != put_cache_answer) /* the report says it after the detail */
			answers[i].put(out, a, m, false);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* 0 for an answer that is urgent in this audit, else the table's rank + 1. */
static unsigned answer_rank(const char *id, const struct audit *a)
{
	size_t i;

	for (i = 0; i < NR_ANSWERS; i++)
		if (!strcmp(answers[i].id, id))
			return answers[i].urgent && answers[i].urgent(a) ? 0 : 1 + answers[i].rank;
	return 1 + ANSWER_RANKS;
}

void audit_answers__free(struct audit_answer *ans, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(ans[i].printed);
}

int audit_answers__brief(struct audit_answer out[AUDIT_ANSWERS_MAX], size_t *nr, const struct audit *a,
			 const struct model *m, size_t max_lines)
{
	size_t len, used = 0, i;
	unsigned rank;
	FILE *f;

	*nr = 0;
	for (i = 0; i < NR_ANSWERS; i++) {
		char *text = NULL;

		if (!answers[i].brief)
			continue;
		if (!(f = open_memstream(&text, &len)))
			goto nomem;
		answers[i].put(f, a, m, true);
		if (fclose(f))
			goto nomem;
		if (!*text) { /* nothing to say (no races looked for, no compiler cache) */
			free(text);
			continue;
		}
		out[(*nr)++] = (struct audit_answer){ .id = answers[i].id, .printed = text };
	}
	/* By rank, each answer whole or not at all: -v has them all. */
	for (rank = 0; rank <= ANSWER_RANKS; rank++)
		for (i = 0; i < *nr; i++)
			if (answer_rank(out[i].id, a) == rank && used + count_lines(out[i].printed) <= max_lines) {
				out[i].shown = true;
				used += count_lines(out[i].printed);
			}
	return 0;
nomem:
	audit_answers__free(out, *nr);
	*nr = 0;
	return -ENOMEM;
}

void audit_answers__print_brief(FILE *out, const struct audit *a, const struct model *m, size_t max_lines)
{
	struct audit_answer ans[AUDIT_ANSWERS_MAX];
	size_t nr, i;

	if (audit_answers__brief(ans, &nr, a, m, max_lines))
		return;
	for (i = 0; i < nr; i++)
		if (ans[i].shown)
			fputs(ans[i].printed, out);
	audit_answers__free(ans, nr);
}
