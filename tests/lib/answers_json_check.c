// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/answers_check.h"
#include "lib/answers_json_check.h"

/* "Helps" is a gain of 10 % (AUDIT_ANSWER_PERMILLE); a gain this close to it is too near the rule to judge. */
#define HELPS 0.10
#define NEAR 0.0005
/* The summary's times are ms rounded to the µs. */
#define SAME_MS 0.002

struct row {
	double wall_ms;
	long jobs; /* -1: unlimited (null) */
	long cpus; /* 0: unlimited (null) */
	bool quiet;
	const char *kind;
};

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* 1: from_ms to to_ms helps (10 % faster or more); 0: it does not; -1: too near the rule to say. */
static int helps(double from_ms, double to_ms)
{
	double gain = from_ms > 0 ? (from_ms - to_ms) / from_ms : 0;

	return fabs(gain - HELPS) < NEAR ? -1 : gain >= HELPS;
}

/* The brief answer with that id; NULL when the summary has none. */
static struct json_object *answer(struct json_object *summary, const char *id)
{
	struct json_object *brief = get(get(summary, "answers"), "brief");
	size_t i;

	for (i = 0; brief && i < json_object_array_length(brief); i++) {
		struct json_object *a = json_object_array_get_idx(brief, i);

		if (get(a, "id") && !strcmp(json_object_get_string(get(a, "id")), id))
			return a;
	}
	return NULL;
}

static const char *text_of(struct json_object *a)
{
	return a && get(a, "text") ? json_object_get_string(get(a, "text")) : "";
}

/* A figure of an answer; false when it has none. */
static bool figure(struct json_object *a, const char *key, double *v)
{
	struct json_object *f = get(get(a, "figures"), key);

	if (f)
		*v = json_object_get_double(f);
	return f != NULL;
}

static size_t read_rows(struct json_object *whatif, struct row *rows, size_t max)
{
	struct json_object *arr = get(whatif, "rows");
	size_t i, n = 0;

	for (i = 0; arr && i < json_object_array_length(arr) && n < max; i++) {
		struct json_object *r = json_object_array_get_idx(arr, i), *jobs = get(r, "jobs"), *cpus = get(r, "cpus");

		rows[n++] = (struct row){ .wall_ms = json_object_get_double(get(r, "wall_ms")),
					  .jobs = jobs ? (long)json_object_get_int64(jobs) : -1,
					  .cpus = cpus ? (long)json_object_get_int64(cpus) : 0,
					  .quiet = json_object_get_boolean(get(r, "quiet")),
					  .kind = json_object_get_string(get(r, "kind")) };
	}
	return n;
}

/*
 * The row every answer weighs against: the build's own -j on a quiet
 * machine; the first row (as run) when the machine was quiet and it
 * stands for that.
 */
static size_t base_row(const struct row *rows, size_t nr)
{
	size_t i, base = 0;

	for (i = 1; i < nr; i++)
		if (rows[i].kind && !strcmp(rows[i].kind, "own_quiet"))
			base = i;
	return base;
}

/* The verdict says what as a verdict of its own: not "not more CPUs or jobs", nor "more CPUs with more jobs". */
static bool says(const char *verdict, const char *what)
{
	const char *at;

	for (at = verdict; (at = strstr(at, what)); at++)
		if ((at - verdict < 4 || strncmp(at - 4, "not ", 4)) && (at - verdict < 5 || strncmp(at - 5, "with ", 5)))
			return true;
	return false;
}

/* The fastest quiet row of a kind against base: more jobs on its CPUs, or more CPUs (counted ones). */
static const struct row *fastest(const struct row *rows, size_t nr, const struct row *base, bool more_cpus)
{
	const struct row *best = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		bool more_jobs = base->jobs >= 0 && (r->jobs < 0 || r->jobs > base->jobs);
		bool keep = more_cpus ? r->cpus && r->cpus > base->cpus : r->cpus == base->cpus && more_jobs;

		if (r->quiet && keep && (!best || r->wall_ms < best->wall_ms))
			best = r;
	}
	return best;
}

/* One rule: whether the verdict names what (helps 1) or does not (0); -1 is too near to judge. */
static bool verdict_agrees(const char *verdict, const char *what, const char *alt, int h, double from, double to,
			   char *why, size_t len)
{
	bool said = says(verdict, what) || (alt && says(verdict, alt));

	if (h == 1 && !said)
		return bb_fail_why(why, len, "%.3f ms against %.3f ms is a gain of %.0f %%, the answer does not say %s: %s", to,
			    from, 100 * (from - to) / from, what, verdict);
	if (h == 0 && said)
		return bb_fail_why(why, len, "%.3f ms against %.3f ms is under 10 %%, the answer says %s: %s", to, from, what,
			    verdict);
	return true;
}

/*
 * "more CPUs or jobs?" against the rows:
 * - the figures it quotes are the rows' (its own -j quiet, as run);
 * - a quiet machine that is 10 % faster than as run: it says so;
 * - more jobs on these CPUs 10 % faster than its own -j: "more jobs", else not;
 * - more CPUs 10 % faster than the better of its own -j and more jobs: "more CPUs", else not;
 * - "neither" only when nothing helps.
 */
static bool help_agrees(struct json_object *ans, const struct row *rows, size_t nr, char *why, size_t len)
{
	const struct row *base = &rows[base_row(rows, nr)], *jobs = fastest(rows, nr, base, false),
			 *cpus = fastest(rows, nr, base, true);
	const char *text = text_of(ans), *model = strstr(text, "; the model: ");
	double v, here = jobs && jobs->wall_ms < base->wall_ms ? jobs->wall_ms : base->wall_ms;
	char verdict[512];
	bool any = false;

	if (!model || !figure(ans, "own_jobs_wall_ms", &v))
		return bb_fail_why(why, len, "the what-if has rows, \"more CPUs or jobs?\" quotes none: %s", text);
	snprintf(verdict, sizeof(verdict), "%.*s", (int)(model - text), text);
	if (fabs(v - base->wall_ms) > SAME_MS)
		return bb_fail_why(why, len, "own -j %.3f ms is not the row's %.3f ms: %s", v, base->wall_ms, text);
	if (base != rows) {
		if (!figure(ans, "as_run_wall_ms", &v) || fabs(v - rows[0].wall_ms) > SAME_MS)
			return bb_fail_why(why, len, "as run is not the first row's %.3f ms: %s", rows[0].wall_ms, text);
		if (!verdict_agrees(verdict, "a quieter machine", "all the CPUs", helps(rows[0].wall_ms, base->wall_ms),
				    rows[0].wall_ms, base->wall_ms, why, len))
			return false;
		any |= says(verdict, "a quieter machine") || says(verdict, "all the CPUs");
	}
	if (jobs && !verdict_agrees(verdict, "more jobs", NULL, helps(base->wall_ms, jobs->wall_ms), base->wall_ms,
				    jobs->wall_ms, why, len))
		return false;
	if (cpus && !verdict_agrees(verdict, "more CPUs", NULL, helps(here, cpus->wall_ms), here, cpus->wall_ms, why, len))
		return false;
	any |= says(verdict, "more jobs") || says(verdict, "more CPUs");
	if (any == !!strstr(verdict, "neither"))
		return bb_fail_why(why, len, "\"neither\" %s: %s", any ? "beside a help" : "missing, and no help said", text);
	return true;
}

/*
 * "speed up?" against the critical steps' "wall without it" (simulated on
 * the base row): when one step's removal saves 10 % of it, the answer names
 * that step and does not say that none stands out; a figure it quotes is
 * that step's and the base row's.
 */
static bool speed_up_agrees(struct json_object *summary, struct json_object *ans, const struct row *base,
			    char *why, size_t len)
{
	struct json_object *procs = get(get(summary, "critical_chain"), "processes"), *best = NULL, *name;
	const char *text = text_of(ans);
	double best_ms = 0, v;
	size_t i;

	for (i = 0; procs && i < json_object_array_length(procs); i++) {
		struct json_object *p = json_object_array_get_idx(procs, i), *w = get(p, "wall_without_ms");

		if (w && (!best || json_object_get_double(w) < best_ms)) {
			best = p;
			best_ms = json_object_get_double(w);
		}
	}
	if (figure(ans, "wall_without_ms", &v) && (!figure(ans, "against_wall_ms", &v) || fabs(v - base->wall_ms) > SAME_MS))
		return bb_fail_why(why, len, "the step's figure is not against the base row's %.3f ms: %s", base->wall_ms, text);
	if (!best || helps(base->wall_ms, best_ms) != 1)
		return true;
	if (strstr(text, "no single step stands out"))
		return bb_fail_why(why, len, "without %s the build takes %.3f ms against %.3f ms, the answer: %s",
			    json_object_get_string(get(best, "name")), best_ms, base->wall_ms, text);
	name = get(ans, "step_name");
	for (i = 0; name && i < json_object_array_length(procs); i++) {
		struct json_object *p = json_object_array_get_idx(procs, i), *w = get(p, "wall_without_ms");

		if (w && fabs(json_object_get_double(w) - best_ms) <= SAME_MS &&
		    !strcmp(json_object_get_string(get(p, "name")), json_object_get_string(name)))
			return true;
	}
	return bb_fail_why(why, len, "%s gains most (%.3f ms without it against %.3f ms), the answer names %s: %s",
		    json_object_get_string(get(best, "name")), best_ms, base->wall_ms,
		    name ? json_object_get_string(name) : "no step", text);
}

bool bb_summary_answers_agree(struct json_object *summary, char *why, size_t len)
{
	struct json_object *help = answer(summary, "more_cpus_or_jobs"), *speed = answer(summary, "speed_up");
	struct row rows[16];
	size_t nr = read_rows(get(summary, "what_if"), rows, sizeof(rows) / sizeof(rows[0]));
	double v;

	if (!nr) {
		/* No model: no answer may quote one. */
		if (help && (strstr(text_of(help), "; the model: ") || figure(help, "own_jobs_wall_ms", &v)))
			return bb_fail_why(why, len, "no what-if rows, yet the answer quotes a model: %s", text_of(help));
		return true;
	}
	if (help && !help_agrees(help, rows, nr, why, len))
		return false;
	return !speed || speed_up_agrees(summary, speed, &rows[base_row(rows, nr)], why, len);
}
