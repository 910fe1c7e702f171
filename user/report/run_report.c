// SPDX-License-Identifier: GPL-2.0
#include <sys/wait.h>
#include "report/audit_report.h"
#include "report/run_report.h"
#include "report/summary.h"

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
	if (merged && (merged->stats.files || merged->stats.skipped))
		fprintf(out, "buildbpf: merged %zu trace files (%zu events, %zu clamped), skipped %zu\n",
			merged->stats.files, merged->stats.events, merged->stats.clamped, merged->stats.skipped);
	if (a)
		audit_report__print(out, a, rp->model, verbose);
}
