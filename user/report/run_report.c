// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "model/daemons.h"
#include "report/audit_report.h"
#include "report/report_text.h"
#include "report/run_report.h"
#include "report/summary.h"

/*
 * --follow: each daemon's share, which the audit's figures include: its
 * processes (itself and what it started) and their CPU time.
 */
static void print_daemons(FILE *out, const struct replay *rp)
{
	struct daemon_share shares[DAEMONS_MAX];
	size_t k, nr = rp->info->nr_follow < DAEMONS_MAX ? rp->info->nr_follow : DAEMONS_MAX;

	daemons__shares(rp->model, rp->info->follow, nr, shares);
	for (k = 0; k < nr; k++) {
		if (shares[k].proc >= 0)
			fprintf(out, "buildbpf: daemon %u (%.16s): %zu processes, %.2f s CPU in those that ended "
				     "(counted in the audit)\n", shares[k].pid, rp->model->procs[shares[k].proc].comm,
				shares[k].nr_procs, shares[k].cpu_ns / 1e9);
		else
			fprintf(out, "buildbpf: daemon %u: not traced\n", shares[k].pid);
	}
}

/*
 * Without --follow a compile server's work is not in the trace; that the
 * build mostly waited on something outside it is, and is said plainly.
 */
static void print_outside_wait(FILE *out, const struct replay *rp, const struct audit *a)
{
	const struct model *m = rp->model;
	const struct outside_wait *w = a ? &a->outside_wait : NULL;
	struct report_line l;
	FILE *f;

	if (!a || !a->mostly_elsewhere)
		return;
	f = report_line__begin(&l, out);
	fprintf(f, "the build mostly waited outside the trace: %.2f s summed over %zu processes with no "
		   "traced child running (longest: %.16s, %.2f s), against %.2f s CPU traced; ",
		w->wait_ns / 1e9, w->nr_procs, m->procs[w->top].comm, w->top_wait_ns / 1e9, a->cpu_ns / 1e9);
	fputs(rp->info->nr_follow ? "the followed daemons did not run that work"
				  : "if a daemon ran that work (distccd, sccache), trace it with --follow PID", f);
	report_line__end(&l);
}

/* The process that failed first: the earliest to exit with a status other than 0; -1: none. */
static long first_failed(const struct model *m)
{
	long best = -1;
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		if (p->exited && p->exit_status && (best < 0 || p->end_ns < m->procs[best].end_ns))
			best = (long)i;
	}
	return best;
}

/*
 * A failed build leads with what failed.  One that failed within
 * RUN_REPORT_SHORT_FAIL_NS (make without a Makefile) did no work worth an
 * audit: the audit is left out, and said so.
 */
static bool too_short_to_audit(const struct run_report *r)
{
	return r->exit_code > 0 && r->wall_ns < RUN_REPORT_SHORT_FAIL_NS;
}

static bool print_failure(FILE *out, const struct run_report *r)
{
	const struct model *m = r->rp->model;
	long p;

	if (r->exit_code <= 0)
		return false;
	p = first_failed(m);
	if (p >= 0) {
		const struct proc_instance *pi = &m->procs[p];

		fputs("buildbpf: the build failed: ", out);
		report_put_proc(out, m, p);
		if (WIFSIGNALED(pi->exit_status))
			fprintf(out, " (pid %u) was killed by signal %d first\n", pi->pid, WTERMSIG(pi->exit_status));
		else
			fprintf(out, " (pid %u) failed first, exit status %d\n", pi->pid, WEXITSTATUS(pi->exit_status));
	}
	if (!too_short_to_audit(r))
		return false;
	fprintf(out, "buildbpf: audit left out: the build failed after %.3f s, before doing any work worth one\n",
		r->wall_ns / 1e9);
	return true;
}

/* After the brief answers, one line: where every other figure is. */
static void put_the_rest(FILE *out, const char *log_path)
{
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	static const char lead[] = "buildbpf: the rest: buildbpf report -v ", html[] = ", or --html FILE for one page";

	fputs("the rest: ", f);
	if (log_path) {
		fputs("buildbpf report -v ", f);
		report_put_name(f, log_path, PATH_MAX); /* a command to copy: never cut */
		/* One line: a long name leaves the page out (-v says where). */
		if (sizeof(lead) - 1 + strlen(log_path) + sizeof(html) - 1 <= REPORT_WIDTH)
			fputs(html, f);
	} else {
		fputs("-v, or --html FILE for one page; --log FILE keeps the recording", f);
	}
	report_line__end(&l);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Everything above the audit: the summary, what failed, daemons, merges; true: no audit follows. */
static bool print_head(FILE *out, const struct run_report *r)
{
	const struct replay *rp = r->rp;
	const struct trace_merge *merged = r->merged;
	struct summary_info summary = {
		.cmd_argv = rp->info->cmd_argv,
		.cmd_argc = rp->info->cmd_argc,
		.wall_ns = r->wall_ns,
		.exit_status = r->exit_code,
		.lost_events = rp->lost_events,
		.output_path = r->written,
		.partial_reason = rp->partial_reason,
		.term_signal = rp->exited && WIFSIGNALED(rp->wait_status) ? WTERMSIG(rp->wait_status) : 0,
		.verbose = r->verbose,
		.audit_counts = r->audit && !r->verbose && !too_short_to_audit(r),
	};

	summary__print(out, rp->model, &summary);
	if (print_failure(out, r))
		return true;
	print_daemons(out, rp);
	print_outside_wait(out, rp, r->audit);
	if (merged && (merged->stats.files || merged->stats.skipped))
		fprintf(out, "buildbpf: merged %zu trace files (%zu events, %zu clamped), skipped %zu\n",
			merged->stats.files, merged->stats.events, merged->stats.clamped, merged->stats.skipped);
	return false;
}

/*
 * By default the whole report is brief: the lines above the audit are
 * counted, and the audit has the room they leave of AUDIT_REPORT_BRIEF_LINES
 * (its answers give way; what failed, lost events and OOM kills do not).
 */
void run_report__print(FILE *out, const struct run_report *r)
{
	char *head = NULL;
	size_t len, used;
	bool no_audit;
	FILE *f = r->verbose || !r->audit ? NULL : open_memstream(&head, &len);

	if (!f) {
		if (!print_head(out, r) && r->audit)
			audit_report__print(out, r->audit, r->rp->model, r->verbose);
		return;
	}
	no_audit = print_head(f, r);
	if (fclose(f)) {
		free(head);
		return;
	}
	fputs(head, out);
	used = count_lines(head);
	free(head);
	if (no_audit)
		return;
	audit_report__print_brief(out, r->audit, r->rp->model,
				  used < AUDIT_REPORT_BRIEF_LINES ? AUDIT_REPORT_BRIEF_LINES - used : 0);
	put_the_rest(out, r->log_path);
}
