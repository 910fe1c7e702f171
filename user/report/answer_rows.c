// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of report/answer_rows.h.  The words are the brief report's own
 * (audit_answers__brief()); the figures are the fields those words quote,
 * one function per answer, in the answers' order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "report/answer_rows.h"
#include "report/audit_report.h"

struct figures {
	struct answer_figure *f;
	size_t *nr;
	const struct model *m;
};

static void add(struct figures *fs, const char *key, const char *label, enum answer_unit unit, double value)
{
	if (*fs->nr < ANSWER_FIGURES_MAX)
		fs->f[(*fs->nr)++] = (struct answer_figure){ .key = key, .label = label, .unit = unit, .value = value };
}

static double share(__u64 part, __u64 whole)
{
	return whole ? (double)part / whole : 0;
}

static void parallel(struct figures *fs, const struct audit *a)
{
	add(fs, "average_running", "ran on average", ANSWER_CPUS, audit_answers__average_running(a));
	add(fs, "cpu_count", "CPUs", ANSWER_COUNT, a->nr_cpus);
	if (a->parallel == AUDIT_PARALLEL_STARVED)
		add(fs, "jobs_for_every_cpu_share", "jobs ready for every CPU", ANSWER_SHARE,
		    share(a->ready_full_ns, a->wall_ns));
}

/* With the what-if, the rows the answer quotes (put_help_model()); else the wall time of its cause. */
static void more_cpus_or_jobs(struct figures *fs, const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;
	const struct whatif_answer *ans = &w->answer;

	if (!w->known || ans->base < 0) {
		if (a->help != AUDIT_HELP_UNKNOWN)
			add(fs, "limit_share", "held back", ANSWER_SHARE, share(a->help_ns, a->wall_ns));
		return;
	}
	add(fs, "own_jobs_wall_ms", "own -j, quiet", ANSWER_NS, w->rows[ans->base].wall_ns);
	if (ans->as_run >= 0) {
		add(fs, "as_run_wall_ms", "as run", ANSWER_NS, w->rows[ans->as_run].wall_ns);
		add(fs, "measured_wall_ms", "measured", ANSWER_NS, a->wall_ns);
	}
	if (ans->more_jobs >= 0)
		add(fs, "more_jobs_wall_ms", "more jobs", ANSWER_NS, w->rows[ans->more_jobs].wall_ns);
	if (ans->more_cpus >= 0)
		add(fs, "more_cpus_wall_ms", "more CPUs", ANSWER_NS, w->rows[ans->more_cpus].wall_ns);
}

static void machine_shared(struct figures *fs, const struct audit *a)
{
	if (!a->par)
		return;
	add(fs, "outside_work_share", "CPU time others held", ANSWER_SHARE, share(a->other_ns, a->wall_ns * a->nr_cpus));
	add(fs, "waited_for_others_share", "build waited for them", ANSWER_SHARE, share(a->noisy_ns, a->wall_ns));
}

/* The step the what-if names (put_step_model()); without it the words name phases, not figures. */
static void speed_up(struct figures *fs, const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;
	long step = w->answer.step;

	if (!w->known || step < 0)
		return;
	add(fs, "step_pid", "pid", ANSWER_COUNT, fs->m->procs[a->chain[step]].pid);
	add(fs, "step_held_ms", "step held the path", ANSWER_NS, audit_whatif__step_held(a, (size_t)step));
	add(fs, "wall_without_ms", "wall without it", ANSWER_NS, w->without_ns[step]);
	add(fs, "against_wall_ms", w->answer.as_run < 0 ? "as run" : "own -j, quiet", ANSWER_NS,
	    w->rows[w->answer.base].wall_ns);
}

static void what_if(struct figures *fs, const struct audit *a)
{
	const struct audit_whatif *w = &a->whatif;

	if (!w->known || !w->nr_rows)
		return;
	add(fs, "as_run_wall_ms", "as run", ANSWER_NS, w->rows[0].wall_ns);
	add(fs, "measured_wall_ms", "measured", ANSWER_NS, a->wall_ns);
	add(fs, "unlimited_wall_ms", "unlimited CPUs", ANSWER_NS, w->rows[w->nr_rows - 1].wall_ns);
}

static void jobs_fit(struct figures *fs, const struct audit *a)
{
	if (a->fit.verdict != JOBS_FIT_OK)
		return;
	add(fs, "jobs", "-j that fits", ANSWER_COUNT, a->fit.jobs);
	add(fs, "expected_peak_kb", "expected peak", ANSWER_KIB, a->fit.expected_kb);
}

static void races(struct figures *fs, const struct audit *a)
{
	if (a->graph && a->graph->jobs.nr_jobs) /* else none were looked for */
		add(fs, "races", "races", ANSWER_COUNT, a->graph->races.nr);
}

static void compiler_cache(struct figures *fs, const struct audit *a)
{
	const struct compiler_cache *c = &a->cache;

	add(fs, "calls", "calls", ANSWER_COUNT, c->nr_calls);
	add(fs, "hits", "hits", ANSWER_COUNT, c->nr_hits_direct + c->nr_hits_preprocessed);
	add(fs, "misses", "misses", ANSWER_COUNT, c->nr_misses);
}

static const struct {
	const char *id;
	void (*figures)(struct figures *fs, const struct audit *a);
} figure_kinds[] = {
	{ "parallel", parallel },	  { "more_cpus_or_jobs", more_cpus_or_jobs }, { "machine_shared", machine_shared },
	{ "speed_up", speed_up },	  { "what_if", what_if },		      { "jobs_fit", jobs_fit },
	{ "races", races },		  { "compiler_cache", compiler_cache },
};

static void figures(struct answer_row *row, const struct audit *a, const struct model *m)
{
	struct figures fs = { .f = row->figures, .nr = &row->nr_figures, .m = m };
	size_t k;

	for (k = 0; k < sizeof(figure_kinds) / sizeof(figure_kinds[0]); k++)
		if (!strcmp(figure_kinds[k].id, row->id))
			figure_kinds[k].figures(&fs, a);
}

/*
 * The printed lines without their "buildbpf: " and indents, joined by a
 * space (the page and a script lay the words out themselves); the question is the first line's words up to its "?" (or, for an
 * answer that asks none, up to its ":").
 */
static int split(struct answer_row *row, const char *printed)
{
	static const char prefix[] = "buildbpf: ";
	char *text = malloc(strlen(printed) + 1), *q, *colon;
	const char *line, *next;
	size_t o = 0, n;

	if (!text)
		return -ENOMEM;
	for (line = printed; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!strncmp(line, prefix, sizeof(prefix) - 1))
			line += sizeof(prefix) - 1;
		line += strspn(line, " ");
		n = next - line - (next[-1] == '\n');
		if (o)
			text[o++] = ' ';
		memcpy(text + o, line, n);
		o += n;
	}
	text[o] = '\0';
	q = strstr(text, "? ");
	colon = strstr(text, ": ");
	if (q && (!colon || q < colon))
		colon = q; /* the question, its "?" kept */
	n = colon ? (size_t)(colon - text) + (colon == q) : 0;
	row->question = strndup(text, n);
	row->text = strdup(colon ? colon + 2 : text);
	free(text);
	return row->question && row->text ? 0 : -ENOMEM;
}

/* The step "speed up?" names from the what-if (put_step_model()), whole. */
static int step(struct answer_row *row, const struct audit *a, const struct model *m)
{
	long at = a->whatif.known ? a->whatif.answer.step : -1;

	if (strcmp(row->id, "speed_up") || at < 0)
		return 0;
	row->step = proc_display_name(m, &m->procs[a->chain[at]]);
	return row->step ? 0 : -ENOMEM;
}

int answer_rows__compute(struct answer_row rows[AUDIT_ANSWERS_MAX], size_t *nr, const struct audit *a,
			 const struct model *m)
{
	struct audit_answer ans[AUDIT_ANSWERS_MAX];
	size_t nr_ans, i;
	int err;

	*nr = 0;
	if (audit_answers__brief(ans, &nr_ans, a, m, AUDIT_REPORT_ANSWER_LINES))
		return -ENOMEM;
	for (i = 0, err = 0; !err && i < nr_ans; i++) {
		rows[i] = (struct answer_row){ .id = ans[i].id, .shown = ans[i].shown };
		*nr = i + 1;
		err = split(&rows[i], ans[i].printed) ?: step(&rows[i], a, m);
		figures(&rows[i], a, m);
	}
	audit_answers__free(ans, nr_ans);
	if (err) {
		answer_rows__free(rows, *nr);
		*nr = 0;
	}
	return err;
}

void answer_rows__free(struct answer_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].question);
		free(rows[i].text);
		free(rows[i].step);
	}
}
