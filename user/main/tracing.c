// SPDX-License-Identifier: GPL-2.0
/*
 * What the two modes that load BPF share (trace, record): what is traced
 * besides a command pinned as root, the recorder opened, root left.
 */
#include <stdio.h>
#include <unistd.h>
#include "main/stop.h"
#include "main/tracing.h"
#include "record/attach.h"

/* What the recorder needs of the command line. */
static struct record_opts record_opts_of(const struct cli_opts *opts)
{
	return (struct record_opts){
		.cmd_argv = opts->cmd_argv,
		.cmd_argc = opts->cmd_argc,
		.args_max = opts->args_max,
		.ringbuf_bytes = opts->ringbuf_bytes,
		.verbose = opts->verbose,
		.sched = opts->sched,
		.sched_resolution_ns = opts->sched_resolution_ns,
		.wait_all = opts->wait_all,
		.deps = !opts->deps_given ? DEPS_DEFAULT : opts->deps ? DEPS_ON : DEPS_OFF,
		.mem_period_ns = opts->mem_period_ns,
		/* A log the user keeps must be on disk; the temporary one is read back now. */
		.sync_log = opts->mode == CLI_RECORD || opts->keep_log,
		.attach_pid = opts->attach_pid,
		.follow = opts->follow,
		.nr_follow = opts->nr_follow,
		.duration_ns = opts->duration_ns,
	};
}

/*
 * The one step that needs root comes first: the BPF programs are loaded
 * and attached, then buildbpf leaves root for good, before any output
 * path is touched and before the command is forked.  0, or -1 (said).
 */
int tracing__start(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out,
			   struct recorder **rec)
{
	struct record_opts rec_opts = record_opts_of(opts);

	rec_opts.attach_pidfd = out->pidfd;
	rec_opts.follow_pidfds = out->follow_fds;
	/* Root reads every process (CAP_SYS_PTRACE); anyone else sees what
	 * the kernel shows them, the descendants' setuid helpers included. */
	rec_opts.hide_unreadable = ra->uid != 0;
	rec_opts.viewer_uid = ra->uid;
	rec_opts.viewer_gid = ra->gid;
	if (opts->cgroup) {
		rec_opts.cgroup_path = out->cgroup.path;
		rec_opts.cgroup_id = out->cgroup.id;
		rec_opts.cgroup_level = out->cgroup.level;
	}
	if (record__open(rec, &rec_opts))
		return -1;
	if (privilege__drop(ra)) {
		record__free(*rec);
		*rec = NULL;
		return -1;
	}
	stop__arm();
	return 0;
}

void tracing__say_unwritten(const struct record_result *res)
{
	if (res->unwritten)
		fprintf(stderr, "buildbpf: warning: %llu records arrived after the recording could not be written: "
				"they are missing from it\n",
			(unsigned long long)res->unwritten);
}

/* Closes what outside__open() pinned (fds of -1 are skipped). */
void outside__close(const struct cli_opts *opts, struct outside *out)
{
	if (out->pidfd >= 0)
		close(out->pidfd);
	for (size_t i = 0; i < opts->nr_follow; i++)
		if (out->follow_fds[i] >= 0)
			close(out->follow_fds[i]);
}

/*
 * Pins what is traced besides (or instead of) a command: --attach,
 * --cgroup, --follow.  Who may be traced is checked here, as root, before
 * anything loads; a daemon is followed under the same rule as an attach.
 * 0, or -1 (said) with nothing left open.
 */
int outside__open(const struct cli_opts *opts, const struct run_as *ra, struct outside *out)
{
	for (size_t i = 0; i < CLI_FOLLOW_MAX; i++)
		out->follow_fds[i] = -1;
	if (opts->attach_pid && attach__open_target(opts->attach_pid, ra, "--attach", &out->pidfd))
		return -1;
	if (opts->cgroup && attach__open_cgroup(opts->cgroup, ra, &out->cgroup))
		goto fail;
	for (size_t i = 0; i < opts->nr_follow; i++)
		if (attach__open_target(opts->follow[i], ra, "--follow", &out->follow_fds[i]))
			goto fail;
	return 0;
fail:
	outside__close(opts, out);
	return -1;
}
