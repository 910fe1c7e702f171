// SPDX-License-Identifier: GPL-2.0
#include <sys/wait.h>
#include "report/audit_report.h"
#include "report/run_report.h"
#include "report/summary.h"

/*
 * --follow: each daemon's share, which the audit's figures include: its
 * processes (itself and what it started) and their CPU time.
 */
static void print_daemons(FILE *out, const struct replay *rp)
{
	const struct model *m = rp->model;
	size_t i, k;

	for (k = 0; k < rp->info->nr_follow; k++) {
		__u32 daemon = rp->info->follow[k];
		const struct proc_instance *top = NULL;
		__u64 cpu_ns = 0;
		size_t n = 0;

		for (i = 0; i < m->nr_procs; i++) {
			const struct proc_instance *t = proc_top(m, &m->procs[i]);

			if (!t->found || t->pid != daemon)
				continue;
			top = t;
			n++;
			cpu_ns += m->procs[i].utime_ns + m->procs[i].stime_ns;
		}
		if (top)
			fprintf(out, "buildbpf: daemon %u (%.16s): %zu processes, %.2f s CPU in those that ended "
				     "(counted in the audit)\n", daemon, top->comm, n, cpu_ns / 1e9);
		else
			fprintf(out, "buildbpf: daemon %u: not traced\n", daemon);
	}
}

void run_report__print(FILE *out, const struct replay *rp, int exit_code, const char *written,
		       const struct trace_merge *merged, const struct audit *a, bool verbose)
{
	struct summary_info summary = {
		.cmd_argv = rp->info->cmd_argv,
		.cmd_argc = rp->info->cmd_argc,
		.exit_status = exit_code,
		.lost_events = rp->lost_events,
		.output_path = written,
		.partial_reason = rp->partial_reason,
		.term_signal = rp->exited && WIFSIGNALED(rp->wait_status) ? WTERMSIG(rp->wait_status) : 0,
		.verbose = verbose,
	};

	summary__print(out, rp->model, &summary);
	print_daemons(out, rp);
	if (merged && (merged->stats.files || merged->stats.skipped))
		fprintf(out, "buildbpf: merged %zu trace files (%zu events, %zu clamped), skipped %zu\n",
			merged->stats.files, merged->stats.events, merged->stats.clamped, merged->stats.skipped);
	if (a)
		audit_report__print(out, a, rp->model, verbose);
}
