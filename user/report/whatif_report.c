// SPDX-License-Identifier: GPL-2.0
/* The audit's what-if in words (include/report/whatif_report.h); audit/audit_whatif.c computes it. */
#include <stdlib.h>
#include "audit/audit.h"
#include "report/report_text.h"
#include "report/whatif_report.h"

/* Critical-path steps listed in the -v detail: the longest, in path order. */
#define WHATIF_DETAIL_STEPS 10

static void put_row_name(FILE *f, const struct whatif_row *r)
{
	if (!r->cpus) {
		fputs("unlimited CPUs", f);
		return;
	}
	if (r->jobs == SIM_UNLIMITED)
		fputs("-j", f);
	else
		fprintf(f, "-j%zu", r->jobs);
	fprintf(f, " on %zu CPU%s", r->cpus, r->cpus == 1 ? "" : "s");
}

void whatif_report__put_row(FILE *f, const struct whatif_row *r)
{
	put_row_name(f, r);
	fputc(' ', f);
	report_put_sec(f, r->wall_ns);
}

void whatif_report__put_runner_held(FILE *f, const struct audit *a)
{
	__u64 held = a->whatif.known ? a->chain_no_job_ns : 0;

	if (held && whatif_over_step_min(held, a->wall_ns)) {
		fputs("; outside any job (a runner's own work, what no make or ninja ran): ", f);
		report_put_sec(f, held);
		fputs(" (", f);
		report_put_share(f, held, a->wall_ns);
		fputc(')', f);
	}
	if (a->graph && a->chain_wait_ns && whatif_over_step_min(a->chain_wait_ns, a->wall_ns)) {
		fputs("; waits between the steps (job slots, the runner's order, CPUs): ", f);
		report_put_sec(f, a->chain_wait_ns);
		fputs(" (", f);
		report_put_share(f, a->chain_wait_ns, a->wall_ns);
		fputc(')', f);
	}
}

static void put_row(FILE *f, const struct audit *a, const struct whatif_row *r, bool brief)
{
	const struct audit_whatif *w = &a->whatif;

	whatif_report__put_row(f, r);
	if (r->kind == WHATIF_AS_RUN) {
		fputs(" (as run", f);
		if (w->cpus_as_run < a->nr_cpus)
			fprintf(f, ", confined to %zu of the %zu CPUs", w->cpus_as_run, a->nr_cpus);
		if (!brief && !w->was_quiet && w->outside_threads >= WHATIF_QUIET_OUTSIDE)
			fprintf(f, ", beside %.1f CPUs of outside work", w->outside_cpus);
		fputs("; measured ", f);
		report_put_sec(f, a->wall_ns);
		fputc(')', f);
	} else if (r->kind == WHATIF_UNLIMITED && !brief) {
		fputs(" (the longest path of data and the runners' order)", f);
	}
}

/* When a job may start (graph/run_order.h), the same in every row. */
static void put_order(FILE *f)
{
	fputs("a job starts when its inputs and its runner's order allow in the simulation (a shell's steps and "
	      "configure's one after another; make's prerequisites) and not when it did; steps outside any job and "
	      "a runner's own gaps take their measured time (less their wait for a CPU on a quiet machine)", f);
}

/* What the model took from the recording, and where it knows it is weaker. */
static void put_model(FILE *out, const struct audit_whatif *w)
{
	const struct job_contention *c = &w->contention;
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	if (!w->cpu_model) {
		fputs("  (model: measured job times without --sched figures: a job's wait for a CPU is kept in every "
		      "row; ", f);
		put_order(f);
		fputs("; ignores disk, memory and CPU contention beyond the job slots)", f);
		report_line__end(&l);
		return;
	}
	fputs("  (model: the jobs' CPU ", f);
	report_put_sec(f, w->cpu_ns);
	fputs(" and blocked ", f);
	report_put_sec(f, w->blocked_ns);
	fputs(", summed over them; their waits for a CPU (", f);
	report_put_sec(f, w->runq_ns);
	fputs(" summed) left out; the CPUs shared by the running jobs", f);
	if (w->burst_threads >= WHATIF_QUIET_OUTSIDE)
		fprintf(f, " and by %.2f always-runnable threads (the waits of the build's own threads beyond what "
			"their averages explain: they come in bursts)", w->burst_threads);
	fputs("; ", f);
	if (c->learned)
		fprintf(f, "each busy CPU beside a job slows its CPU work %.0f %% (learned from %zu jobs on %zu CPUs, "
			"standard error %.0f %%; rows with more CPUs extrapolate it)",
			100 * c->slowdown, c->nr_fitted, w->cpus_as_run, 100 * c->slowdown_se);
	else if (c->noisy)
		fprintf(f, "how much jobs slow each other could not be told from noise (%.0f %% per busy CPU, standard "
			"error %.0f %%, from %zu jobs): assumed not at all, so rows with more jobs at once may be too fast",
			100 * c->noisy_slowdown, 100 * c->slowdown_se, c->nr_fitted);
	else
		fputs("how much jobs slow each other is not learned (they ran at one concurrency): assumed not at all, so "
		      "rows with more jobs at once may be too fast", f);
	fputs("; ", f);
	put_order(f);
	fputs("; ignores disk and memory)", f);
	report_line__end(&l);
}

void whatif_report__answer(FILE *out, const struct audit *a, bool brief)
{
	const struct audit_whatif *w = &a->whatif;
	struct report_line l;
	size_t i;
	FILE *f;

	if (!w->known)
		return;
	f = report_line__begin(&l, out);
	fputs("what if? predicted", f);
	if (!brief) {
		fprintf(f, " from the %zu jobs", w->nr_jobs);
		if (w->nr_shell_calls)
			fprintf(f, " (and %zu make's $(shell) call%s, make's own work)", w->nr_shell_calls,
				w->nr_shell_calls == 1 ? "" : "s");
	}
	fputs(": ", f);
	for (i = 0; i < w->nr_rows; i++) {
		if (i)
			fputs(i > 1 ? ", " : w->cpu_model ? "; on a quiet machine: " : "; ", f);
		put_row(f, a, &w->rows[i], brief);
	}
	report_line__end(&l);
	if (w->from == WHATIF_JOBS_PEAK) {
		f = report_line__begin(&l, out);
		fprintf(f, "  (-j%zu: the most jobs seen at once; the command did not say)", w->rows[0].jobs);
		report_line__end(&l);
	}
}

/* A step the detail may list: a build step (a runner is never one to speed up) of 1 % of the wall or more. */
static bool detail_step(const struct audit *a, size_t i)
{
	return audit_whatif__is_step(a, i) && whatif_over_step_min(audit_whatif__step_held(a, i), a->wall_ns);
}

void whatif_report__detail(FILE *out, const struct audit *a, const struct model *m)
{
	const struct audit_whatif *w = &a->whatif;
	size_t i, shown = 0, nr_steps = audit_whatif__nr_steps(a);
	struct report_line l;
	bool *listed;
	FILE *f;

	if (!w->known)
		return;
	f = report_line__begin(&l, out);
	fputs("what-if rows (predicted, what each assumes):", f);
	report_line__end(&l);
	for (i = 0; i < w->nr_rows; i++) {
		f = report_line__begin(&l, out);
		fputs("  ", f);
		put_row_name(f, &w->rows[i]);
		fputc(' ', f);
		report_put_sec(f, w->rows[i].wall_ns);
		fprintf(f, ": %s", audit_whatif__assumes(w->rows[i].kind));
		report_line__end(&l);
	}
	put_model(out, w);
	f = report_line__begin(&l, out);
	/* Each "without it" is simulated on the base row, as "speed up?" quotes it. */
	fputs("critical path steps (held, share of wall, wall without it at ", f);
	put_row_name(f, &w->rows[audit_whatif__base(w)]);
	fputs(audit_whatif__base(w) ? ", quiet):" : " as run):", f);
	report_line__end(&l);
	/* Without memory the steps go unlisted, and the line after says so. */
	listed = calloc(a->nr_chain ? a->nr_chain : 1, sizeof(*listed));
	/* The step "speed up?" names is listed wherever it ranks: its figure is checked here. */
	if (listed && w->answer.step >= 0 && detail_step(a, (size_t)w->answer.step)) {
		listed[w->answer.step] = true;
		shown = 1;
	}
	if (listed)
		shown += audit__chain_longest(a, m, WHATIF_DETAIL_STEPS - shown, detail_step, listed);
	for (i = 0; listed && i < a->nr_chain; i++) {
		__u64 held = audit_whatif__step_held(a, i);

		if (!listed[i])
			continue;
		f = report_line__begin(&l, out);
		fputs("  ", f);
		report_put_proc(f, m, a->chain[i]);
		fputc(' ', f);
		report_put_sec(f, held);
		fputs(", ", f);
		report_put_share(f, held, a->wall_ns);
		if (w->without_ns[i]) {
			fputs(", without it ", f);
			report_put_sec(f, w->without_ns[i]);
		}
		report_line__end(&l);
	}
	free(listed);
	if (nr_steps > shown) {
		f = report_line__begin(&l, out);
		fprintf(f, "  " REPORT_NOT_LISTED(nr_steps - shown, nr_steps));
		report_line__end(&l);
	}
}
