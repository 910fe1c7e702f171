// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "diff/diff.h"
#include "diff/diff_json.h"
#include "diff/diff_report.h"
#include "diff/diff_svg.h"
#include "graph/graph_run.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "audit/audit.h"
#include "graph/job_slots.h"
#include "report/audit_json.h"
#include "report/chrome_trace.h"
#include "report/run_report.h"
#include "report/svg.h"
#include "lib/analysis.h"

/* The recording compared with itself, as `diff` does, and the comparison rendered. */
static int diff_itself(const struct replay *rp, const struct audit *a, FILE *out)
{
	struct diff_side side = { "crafted.bbl", rp->model, rp->sched, a };
	struct diff d;
	int err = diff__compute(&d, &side, &side);

	if (!err) {
		diff_report__text(out, &d);
		diff_report__markdown(out, &d);
		err = diff_json__write(&d, out) ?: diff_svg__write(out, &d);
	}
	diff__free(&d);
	return err;
}

/* What convert, report and diff compute from a replayed recording, rendered to out (a /dev/null fd). */
static int analyse(struct replay *rp, int out, FILE *out_file)
{
	const struct event_log_info *info = rp->info;
	struct audit_input in = audit_input__of_replay(rp);
	struct trace_meta meta = {
		.info = info,
		.lost_events = rp->lost_events,
		.sched = rp->sched,
		.partial_reason = rp->partial_reason,
	};
	struct graph_run g = {};
	enum graph_step failed;
	struct job_slots slots;
	struct audit a = {};
	int err = job_slots__init(&slots, rp->model, &in.jobs_env, in.nr_cpus);

	/* As a recording is audited: the slots once, for the graph and the audit. */
	in.slots = &slots;
	if (!err && rp->files) {
		err = graph_run__compute(&g, rp->model, &slots, rp->files, rp->wakes, &failed);
		in.graph = err ? NULL : &g;
		in.starts = !err && g.starts.procs ? &g.starts : NULL;
	}
	err = err ?: audit__compute(&a, rp->model, rp->sched, &in);
	/* The layout after the audit, as recording__read() makes it. */
	err = err ?: replay__lay_out(rp);
	if (!err) {
		const struct run_report report = {
			.rp = rp,
			.wall_ns = rp->model->end_ns - rp->model->start_ns,
			.audit = &a,
			.exit_code = replay__exit_code(rp),
			.written = "/dev/null",
			.verbose = true,
		};

		meta.layout = rp->layout;
		meta.audit = &a;
		meta.graph = in.graph;
		meta.starts = in.starts;
		err = chrome_trace__write(rp->model, &meta, out);
		err = err ?: audit_json__write(&a, rp->model, out);
		err = err ?: svg__write_fd(out, &a, rp->layout, rp->sched);
		run_report__print(out_file, &report);
		err = err ?: diff_itself(rp, &a, out_file);
	}
	audit__free(&a);
	graph_run__free(&g);
	job_slots__free(&slots);
	return err;
}

int analysis__run(FILE *log)
{
	struct replay_opts opts = {};
	struct event_log_reader *r = NULL;
	struct replay rp = {};
	char err_msg[256];
	FILE *out_file = fopen("/dev/null", "w");
	int err = out_file ? 0 : -errno;

	if (!err && event_log_reader__open(&r, log, err_msg, sizeof(err_msg)))
		err = 1;
	if (!err && replay__run(&rp, r, &opts, err_msg, sizeof(err_msg)))
		err = 1;
	if (!err)
		err = analyse(&rp, fileno(out_file), out_file);
	replay__free(&rp);
	event_log_reader__free(r);
	if (out_file)
		fclose(out_file);
	return err;
}
