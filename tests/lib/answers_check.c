// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/answers_check.h"

#define PREFIX "buildbpf: "
#define CONT PREFIX "  "
/* An answer's "helps" is a gain of 10 % (AUDIT_ANSWER_PERMILLE); printed figures are rounded to 0.01 s. */
#define HELPS_PCT 10.0
#define ROUNDING_S 0.005
enum { MAX_ROWS = 16, MAX_STEPS = 16, NAME_LEN = 64 };

struct row {
	char name[NAME_LEN]; /* "-j4 on 2 CPUs", "unlimited CPUs" */
	double s;
	long jobs;	/* -1: unlimited ("-j on") */
	long cpus;	/* 0: unlimited */
	bool own_quiet; /* "its own -j on a quiet machine" */
};

struct step {
	char name[128];
	double without_s;
};

struct whatif_text {
	struct row rows[MAX_ROWS];
	size_t nr_rows;
	struct step steps[MAX_STEPS];
	size_t nr_steps;
};

bool bb_fail_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return false;
}

char *bb_answer_line(const char *report, const char *lead)
{
	char start[256];
	const char *at, *nl;
	char *line;
	size_t n = 0;

	snprintf(start, sizeof(start), PREFIX "%s", lead);
	for (at = report; (at = strstr(at, start)); at++)
		if (at == report || at[-1] == '\n')
			break;
	if (!at)
		return NULL;
	line = malloc(strlen(at) + 1);
	if (!line)
		return NULL;
	at += strlen(PREFIX);
	for (;;) {
		nl = strchr(at, '\n');
		if (!nl)
			nl = at + strlen(at);
		memcpy(line + n, at, (size_t)(nl - at));
		n += (size_t)(nl - at);
		if (!*nl || strncmp(nl + 1, CONT, strlen(CONT)))
			break;
		/* A continuation: its indent was the wrap's, one space was the break. */
		at = nl + 1 + strlen(PREFIX);
		at += strspn(at, " ");
		line[n++] = ' ';
	}
	line[n] = '\0';
	return line;
}

/* "-j4 on 2 CPUs" into jobs and CPUs; false for anything else. */
static bool parse_row_name(struct row *r)
{
	if (!strcmp(r->name, "unlimited CPUs")) {
		r->jobs = -1;
		r->cpus = 0;
		return true;
	}
	if (sscanf(r->name, "-j on %ld CPU", &r->cpus) == 1) {
		r->jobs = -1;
		return true;
	}
	return sscanf(r->name, "-j%ld on %ld CPU", &r->jobs, &r->cpus) == 2;
}

/* -v's "what-if rows" block and "critical path steps" list. */
static void read_whatif(const char *report, struct whatif_text *w)
{
	const char *at = strstr(report, PREFIX "what-if rows (predicted, what each assumes):\n"), *nl, *colon;
	char line[512];

	memset(w, 0, sizeof(*w));
	if (!at)
		return;
	for (at = strchr(at, '\n') + 1; !strncmp(at, CONT, strlen(CONT)) && w->nr_rows < MAX_ROWS; at = nl + 1) {
		struct row *r = &w->rows[w->nr_rows];
		char *sec;

		nl = strchr(at, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl - at - strlen(CONT)), at + strlen(CONT));
		colon = strstr(line, " s: ");
		if (line[0] == ' ' || !colon)
			continue; /* a row's wrapped assumptions, or the model */
		line[colon - line] = '\0';
		sec = strrchr(line, ' ');
		if (!sec)
			continue;
		*sec = '\0';
		snprintf(r->name, sizeof(r->name), "%.*s", (int)sizeof(r->name) - 1, line);
		r->s = atof(sec + 1);
		r->own_quiet = !strncmp(colon + 4, "its own -j on a quiet machine", 29);
		if (parse_row_name(r))
			w->nr_rows++;
	}
	at = strstr(report, PREFIX "critical path steps (");
	if (!at)
		return;
	for (at = strchr(at, '\n') + 1; !strncmp(at, CONT, strlen(CONT)) && w->nr_steps < MAX_STEPS; at = nl + 1) {
		const char *without;

		nl = strchr(at, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl - at - strlen(CONT)), at + strlen(CONT));
		without = strstr(line, ", without it ");
		if (!without)
			continue;
		w->steps[w->nr_steps].without_s = atof(without + strlen(", without it "));
		/* The name: before its " H s, P %". */
		line[without - line] = '\0';
		*strrchr(line, ',') = '\0';
		*strrchr(line, ' ') = '\0';
		*strrchr(line, ' ') = '\0';
		snprintf(w->steps[w->nr_steps].name, sizeof(w->steps[0].name), "%.*s", (int)sizeof(w->steps[0].name) - 1,
			 line);
		w->nr_steps++;
	}
}

/* A figure in seconds at at (" 2.34 s"): its value, or false. */
static bool seconds_at(const char *at, double *s)
{
	int n = 0;

	return sscanf(at, " %lf s%n", s, &n) == 1 && n > 0 && (at[n] == ' ' || at[n] == ',' || at[n] == ')' ||
							       at[n] == ';' || !at[n]);
}

/* The gain from from_s to to_s, in %, as low and as high as the figures' rounding allows. */
static void gain_range(double from_s, double to_s, double *lo, double *hi)
{
	double f_lo = from_s - ROUNDING_S, f_hi = from_s + ROUNDING_S;

	*lo = f_hi > 0 ? 100.0 * (f_lo - (to_s + ROUNDING_S)) / f_hi : 0;
	*hi = f_lo > 0 ? 100.0 * (f_hi - (to_s - ROUNDING_S)) / f_lo : 0;
}

/* The gain printed at g ("(no gain)", "(-51 %)") is from_s to to_s's. */
static bool gain_agrees(const char *g, double from_s, double to_s)
{
	double lo, hi, pct;

	gain_range(from_s, to_s, &lo, &hi);
	if (!strncmp(g, "(no gain", 8) && (g[8] == ')' || g[8] == ';')) /* "; measured X s" may follow */
		return lo < 0.5;
	if (sscanf(g, "(-%lf %%)", &pct) != 1)
		return false;
	return pct >= floor(lo) - 0.5 && pct <= ceil(hi) + 0.5;
}

/* Whether going from from_s to to_s "helps" (1), does not (0), or is too close to the rule to tell (-1). */
static int helps(double from_s, double to_s)
{
	double lo, hi;

	gain_range(from_s, to_s, &lo, &hi);
	return lo >= HELPS_PCT ? 1 : hi < HELPS_PCT ? 0 : -1;
}

static const struct row *row_named(const struct whatif_text *w, const char *name, size_t len, double s)
{
	size_t i;

	for (i = 0; i < w->nr_rows; i++)
		if (strlen(w->rows[i].name) == len && !strncmp(w->rows[i].name, name, len) &&
		    fabs(w->rows[i].s - s) < ROUNDING_S / 2)
			return &w->rows[i];
	return NULL;
}

/* Every "NAME X.XX s" in line that names a row is a row the what-if printed, with its figure. */
static bool quotes_agree(const char *line, const struct whatif_text *w, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < w->nr_rows; i++) {
		const char *name = w->rows[i].name, *at;
		size_t n = strlen(name);

		for (at = line; (at = strstr(at, name)); at += n) {
			double s;

			if ((at > line && at[-1] != ' ' && at[-1] != '(') || at[n] != ' ' || !seconds_at(at + n, &s))
				continue;
			if (!row_named(w, name, n, s))
				return bb_fail_why(why, len, "'%s %.2f s' is no row of the what-if: %s", name, s, line);
		}
	}
	return true;
}

/* The quoted row at at ("-j4 on 4 CPUs 2.34 s (-48 %)"): the row, and where its gain is. */
static const struct row *quoted_row(const struct whatif_text *w, const char *at, const char **gain)
{
	const char *s_at = NULL, *p;
	double s;

	/* The name ends at the last word before a figure in seconds. */
	for (p = at; *p && *p != ','; p++)
		if (p[0] == ' ' && p[1] >= '0' && p[1] <= '9' && seconds_at(p, &s)) {
			s_at = p;
			break;
		}
	if (!s_at)
		return NULL;
	*gain = strstr(s_at, " s ") ? strstr(s_at, " s ") + 3 : "";
	return row_named(w, at, (size_t)(s_at - at), s);
}

static const struct row *base_row(const struct whatif_text *w)
{
	size_t i;

	for (i = 1; i < w->nr_rows; i++)
		if (w->rows[i].own_quiet)
			return &w->rows[i];
	return &w->rows[0];
}

/* "more jobs" said as a verdict of its own, not "with more jobs" nor "not more CPUs or jobs". */
static bool says(const char *verdict, const char *what)
{
	const char *at;

	for (at = verdict; (at = strstr(at, what)); at++)
		if ((at == verdict || strncmp(at - 5, "with ", 5)) && (at - verdict < 4 || strncmp(at - 4, "not ", 4)))
			return true;
	return false;
}

static bool help_agrees(const char *line, const struct whatif_text *w, char *why, size_t len)
{
	const char *model = strstr(line, "; the model: "), *item, *gain;
	const struct row *base = base_row(w), *jobs = NULL, *cpus = NULL, *r;
	char verdict[256];
	double best_here;
	size_t i;
	int h;

	if (!model)
		return bb_fail_why(why, len, "the what-if printed rows, the answer quotes none: %s", line);
	/* The verdict: after the question, which names both. */
	line += strlen("more CPUs or jobs? ");
	snprintf(verdict, sizeof(verdict), "%.*s", (int)(model - line), line);
	item = model + strlen("; the model: ");
	r = quoted_row(w, item, &gain);
	if (r != base)
		return bb_fail_why(why, len, "the answer's first row is not its own -j quiet (%s %.2f s): %s", base->name, base->s,
			    line);
	if (base != &w->rows[0]) {
		double as_run;

		if (!strstr(gain, "against ") || sscanf(strstr(gain, "against ") + 8, "%lf s as run", &as_run) != 1 ||
		    fabs(as_run - w->rows[0].s) > ROUNDING_S / 2 || !gain_agrees(strstr(gain, " as run ") + 8, as_run, base->s))
			return bb_fail_why(why, len, "the quiet machine against as run (%.2f s) disagrees: %s", w->rows[0].s, line);
		h = helps(as_run, base->s);
		if (h >= 0 && (h == 1) != (strstr(verdict, "a quieter machine") || strstr(verdict, "all the CPUs")))
			return bb_fail_why(why, len, "a quiet machine %s, the verdict says otherwise: %s",
				    h ? "helps" : "does not help", line);
	}
	for (item = strchr(item, ','); item; item = strchr(item + 1, ',')) {
		r = quoted_row(w, item + 2, &gain);
		if (!r)
			continue; /* the comma of a row's note */
		if (!gain_agrees(gain, base->s, r->s))
			return bb_fail_why(why, len, "the gain of %s is not %.2f s against %.2f s: %s", r->name, r->s, base->s, line);
		if (r->cpus == base->cpus && r->jobs > base->jobs && base->jobs >= 0)
			jobs = r;
		else if (r->cpus > base->cpus)
			cpus = r;
	}
	/* The fastest of each kind is the one quoted. */
	for (i = 0; i < w->nr_rows; i++) {
		r = &w->rows[i];
		if (r == &w->rows[0] && base != r)
			continue;
		if (r->cpus == base->cpus && base->jobs >= 0 && (r->jobs > base->jobs || r->jobs < 0) &&
		    (!jobs || r->s < jobs->s - 2 * ROUNDING_S))
			return bb_fail_why(why, len, "%s %.2f s has more jobs and is faster than what the answer quotes: %s", r->name,
				    r->s, line);
		if (r->cpus > base->cpus && (!cpus || r->s < cpus->s - 2 * ROUNDING_S))
			return bb_fail_why(why, len, "%s %.2f s has more CPUs and is faster than what the answer quotes: %s", r->name,
				    r->s, line);
	}
	h = jobs ? helps(base->s, jobs->s) : 0;
	if (h >= 0 && (h == 1) != says(verdict, "more jobs"))
		return bb_fail_why(why, len, "more jobs %s, the verdict says otherwise: %s", h ? "help" : "do not help", line);
	best_here = jobs && jobs->s < base->s ? jobs->s : base->s;
	h = cpus ? helps(best_here, cpus->s) : 0;
	if (h >= 0 && (h == 1) != says(verdict, "more CPUs"))
		return bb_fail_why(why, len, "more CPUs %s, the verdict says otherwise: %s", h ? "help" : "do not help", line);
	if (!!strstr(verdict, "neither") == (says(verdict, "more jobs") || says(verdict, "more CPUs") ||
					     strstr(verdict, "a quieter machine") || strstr(verdict, "all the CPUs")))
		return bb_fail_why(why, len, "\"neither\" and a help at once, or nothing: %s", line);
	return true;
}

/*
 * "speed up?" against the -v list of critical steps, each "without it" simulated
 * on the base row (its own -j, quiet; as run on a quiet machine): the step it
 * names is the one that gains most, its figures are that step's and the base
 * row's, and it says no step stands out only when none gains 10 %.
 */
static bool speed_up_agrees(const char *line, const struct whatif_text *w, char *why, size_t len)
{
	const struct row *base = base_row(w);
	const char *against = strstr(line, " s against "), *words = base == &w->rows[0] ? " s as run (" : " s on a quiet machine (",
		   *x;
	const char *gain;
	double without, against_s;
	size_t i;
	int h;

	for (i = 0; i < w->nr_steps; i++)
		if (helps(base->s, w->steps[i].without_s) == 1 && strstr(line, "no single step stands out"))
			return bb_fail_why(why, len, "%s helps (%.2f s without it against %.2f s): %s", w->steps[i].name,
				    w->steps[i].without_s, base->s, line);
	if (!against)
		return true; /* named by what was measured (a phase that ran alone), not by the model */
	/* A run confined to fewer CPUs (taskset) names its quiet row "with all the CPUs". */
	gain = strstr(against, words);
	if (!gain && base != &w->rows[0] && (gain = strstr(against, " s with all the CPUs (")))
		words = " s with all the CPUs (";
	if (sscanf(against + strlen(" s against "), "%lf", &against_s) != 1 || !gain)
		return bb_fail_why(why, len, "no 'X s against Y%s...)': %s", words, line);
	gain += strlen(words) - 1; /* at the "(" of the gain */
	for (x = against; x > line && x[-1] != ' '; x--)
		;
	without = atof(x);
	if (!w->nr_steps)
		return bb_fail_why(why, len, "the answer quotes a step's figure the -v list does not have: %s", line);
	if (fabs(against_s - base->s) > ROUNDING_S / 2)
		return bb_fail_why(why, len, "it is not against the base row's %.2f s: %s", base->s, line);
	for (i = 0; i < w->nr_steps; i++)
		if (fabs(w->steps[i].without_s - without) < ROUNDING_S / 2 && strstr(line, w->steps[i].name))
			break;
	if (i == w->nr_steps)
		return bb_fail_why(why, len, "no critical step of -v is %.2f s without it: %s", without, line);
	if (!gain_agrees(gain, against_s, without))
		return bb_fail_why(why, len, "the gain is not %.2f s against %.2f s: %s", without, against_s, line);
	h = helps(against_s, without);
	if (h >= 0 && (h == 1) == !!strstr(line, "no single step stands out"))
		return bb_fail_why(why, len, "the step %s, the answer says otherwise: %s", h ? "helps" : "does not help", line);
	/* It is the step that gains most. */
	for (i = 0; i < w->nr_steps; i++)
		if (w->steps[i].without_s < without - 2 * ROUNDING_S)
			return bb_fail_why(why, len, "%s gains more (%.2f s without it): %s", w->steps[i].name,
				    w->steps[i].without_s, line);
	return true;
}

/* A share as the report prints it, "25 %" or "<1 %" (0.5); -1 when at is neither. */
static double share_at(const char *at)
{
	double pct;

	if (!strncmp(at, "<1 %", 4))
		return 0.5;
	return sscanf(at, "%lf %%", &pct) == 1 ? pct : -1;
}

/*
 * Without a what-if, "more CPUs or jobs?" against -v's lost parallelism:
 * the order's share the answer gives ("no: CPUs idled 12 % of their time",
 * or beside "neither") is the idle CPUs' share -v prints ("idle then 3.00 s
 * of CPU time (12 % of 2 CPUs over the wall)"), and "no" holds it from 10 %,
 * "neither" below.  A CPU idle beside fifteen busy ones is not the order's
 * limit: the share is of the CPUs, not of the wall.
 */
static bool order_agrees(const char *line, const char *report_v, char *why, size_t len)
{
	const char *lost = strstr(report_v, CONT "lost parallelism: "), *idle = lost ? strstr(lost, "; idle then ") : NULL;
	const char *said = strstr(line, "CPUs idled "), *open;
	bool no = !!strstr(line, "the build's own order held it back"), neither = !!strstr(line, "neither is clearly");
	double printed, answered;

	if (!no && !neither)
		return true;
	if (!idle || idle > strchr(lost, '\n') || !(open = strchr(idle, '(')) || (printed = share_at(open + 1)) < 0)
		return bb_fail_why(why, len, "-v gives no idle CPUs' share for the order's answer: %s", line);
	if (!said)
		return bb_fail_why(why, len, "the order's answer gives no share of the CPUs: %s", line);
	said += strlen("CPUs idled ");
	if (neither && !strncmp(said, "with fewer jobs running than allowed ", 37))
		said += 37;
	answered = share_at(said);
	if (answered < 0 || fabs(answered - printed) > 1)
		return bb_fail_why(why, len, "the answer's %.0f %% is not -v's idle CPUs' %.0f %%: %s", answered, printed, line);
	if (no ? printed < HELPS_PCT - 0.5 : printed >= HELPS_PCT + 0.5)
		return bb_fail_why(why, len, "the CPUs idled %.0f %% of their time, the verdict says %s: %s", printed,
				   no ? "the order held it back" : "neither", line);
	return true;
}

bool bb_answers_agree(const char *report_v, char *why, size_t len)
{
	static const char *const quoting[] = { "more CPUs or jobs? ", "what if? ", "speed up? " };
	struct whatif_text *w = calloc(1, sizeof(*w));
	char *line = NULL;
	bool ok = w != NULL;
	size_t i;

	if (!w)
		return bb_fail_why(why, len, "out of memory");
	read_whatif(report_v, w);
	for (i = 0; ok && i < sizeof(quoting) / sizeof(quoting[0]); i++) {
		line = bb_answer_line(report_v, quoting[i]);
		if (line && w->nr_rows)
			ok = quotes_agree(line, w, why, len);
		else if (line && strstr(line, "; the model: "))
			ok = bb_fail_why(why, len, "an answer quotes a model the report has no rows of: %s", line);
		if (ok && line && w->nr_rows && i == 0)
			ok = help_agrees(line, w, why, len);
		else if (ok && line && i == 0)
			ok = order_agrees(line, report_v, why, len);
		if (ok && line && i == 2 && w->nr_rows)
			ok = speed_up_agrees(line, w, why, len);
		free(line);
	}
	free(w);
	return ok;
}

/* Whether the lines from..to (to excluded) have one that contains what. */
static bool block_says(const char *from, const char *to, const char *what)
{
	const char *hit = strstr(from, what);

	return hit && hit < to;
}

bool bb_report_is_brief(const char *report, size_t max_lines, size_t width, bool rest_line, char *why, size_t len)
{
	const char *traced = strstr(report, PREFIX "traced '"), *at = traced ?: strstr(report, PREFIX "audit: ");
	const char *start = at, *nl;
	size_t lines = 0;

	if (!at)
		return bb_fail_why(why, len, "no traced line, no audit: %s", report);
	if (!strstr(at, PREFIX "audit: "))
		return bb_fail_why(why, len, "no audit: %s", report);
	for (; *at && strncmp(at, PREFIX "the rest: ", strlen(PREFIX "the rest: ")); at = nl + 1) {
		nl = strchr(at, '\n');
		if (!nl && !rest_line)
			break;
		if (!nl)
			return bb_fail_why(why, len, "no line says where the rest is: %s", report);
		if ((size_t)(nl - at) > width)
			return bb_fail_why(why, len, "%zu columns: %.*s", (size_t)(nl - at), (int)(nl - at), at);
		lines++;
	}
	if (lines > max_lines)
		return bb_fail_why(why, len, "%zu lines before the line to the rest, more than %zu: %s", lines, max_lines,
				   report);
	/* What makes every figure trustworthy or not is never left to -v. */
	if (traced && !block_says(traced, at, "': exit status ") && !block_says(traced, at, "': killed by SIG"))
		return bb_fail_why(why, len, "the traced line has no exit status: %s", report);
	if (!block_says(start, at, " lost event"))
		return bb_fail_why(why, len, "no count of lost events: %s", report);
	if (!rest_line)
		return *at ? bb_fail_why(why, len, "a line to the rest in the audit alone: %s", report) : true;
	if (!*at)
		return bb_fail_why(why, len, "no line says where the rest is: %s", report);
	nl = strchr(at, '\n');
	if (!nl || (size_t)(nl - at) > width)
		return bb_fail_why(why, len, "the line to the rest is not one line: %s", at);
	return true;
}
