// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf: runs a command unchanged and traces its whole process tree.
 * main() only wires the stages:
 *
 *   trace    parse -> check -> prepare output -> record to a temporary event
 *            log -> replay the log -> write the trace -> report
 *   record   parse -> check -> create the log -> record
 *   convert  open the log -> prepare output -> replay -> write -> report
 *   report   open the log -> replay -> report
 *   diff     prepare output -> replay both logs -> compare -> report -> the
 *            --fail-if gate (main/cmd_diff.c)
 *   convert --add   replay every host's log -> align them (hosts/) -> one
 *            trace with a process group per host -> report
 *
 * A recording is opened, replayed and audited alike by every mode that
 * reads one (main/recording.c).
 *
 * trace and record load BPF as root, then leave root; every other mode
 * leaves root first thing (run_without_bpf()).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "exit_status.h"
#include "main/cmd_diff.h"
#include "main/cmd_hosts.h"
#include "main/recording.h"
#include "output/output.h"
#include "output/run_outputs.h"
#include "record/attach.h"
#include "record/die_of_signal.h"
#include "record/launch.h"
#include "record/preflight.h"
#include "record/privilege.h"
#include "record/record.h"
#include "record/trace_dir.h"
#include "report/run_report.h"
#include "util/caller_signals.h"
#include "util/term_escape.h"

/*
 * Once the command is done, a first SIGINT, SIGTERM or SIGHUP stops the
 * conversion at its next check (replay, merge, before writing): the
 * recording stays, for `convert` later.  A second one kills (SA_RESETHAND).
 * While the command runs these signals are blocked and read by the
 * recorder, so the handler is armed from the start.  One the caller
 * ignores stays ignored (util/caller_signals.h).
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESETHAND };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!signal_ignored(sigs[i]))
			sigaction(sigs[i], &sa, NULL);
}

static void say_unwritten(const struct record_result *res)
{
	if (res->unwritten)
		fprintf(stderr, "buildbpf: warning: %llu records arrived after the recording could not be written: "
				"they are missing from it\n",
			(unsigned long long)res->unwritten);
}

/* --attach, --cgroup: what is traced instead of a command, checked as root. */
struct outside {
	int pidfd; /* --attach: pins the process; -1: none */
	int follow_fds[CLI_FOLLOW_MAX]; /* --follow: pin the daemons */
	struct cgroup_target cgroup; /* --cgroup */
};

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
		.deps = opts->deps,
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
static int start_recording(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out,
			   struct recorder **rec)
{
	struct record_opts rec_opts = record_opts_of(opts);

	rec_opts.attach_pidfd = out->pidfd;
	rec_opts.follow_pidfds = out->follow_fds;
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
	stop_on_signals();
	return 0;
}

/* buildbpf [OPTIONS] -- CMD: record to a temporary log, convert it. */
static int cmd_trace(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of)
{
	const struct recording_opts ropts = {
		.replay = { .sched = opts->sched, .sched_given = true, .deps = opts->deps, .deps_given = true,
			    .stop = &stop_signal },
		.audit = true,
		.starts = true,
	};
	struct run_outputs_spec spec = {
		.trace = opts->output,
		.summary_json = opts->summary_json,
		.svg = opts->svg,
		.force = opts->force,
		.writer = run_as__user(ra),
	};
	struct recorder *rec = NULL;
	struct trace_dir tdir = { .fd = -1 };
	struct run_outputs outs = { .trace = { .fd = -1 }, .summary_json = { .fd = -1 }, .svg = { .fd = -1 } };
	struct recording recording = {};
	struct record_result res;
	struct trace_meta meta;
	char *log_path = NULL, esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	const char *written = NULL;
	int log_fd = -1, exit_code = EXIT_FAILURE_SETUP;

	if (start_recording(opts, ra, out, &rec))
		return EXIT_FAILURE_SETUP;
	/* Every output is checked before the build starts, as the user: a
	 * typo in a name must not cost a whole build. */
	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	if (opts->keep_log) {
		log_fd = output__create_direct(opts->keep_log, "event log", "--log", opts->force, run_as__user(ra));
		log_path = strdup(opts->keep_log);
		if (log_fd < 0 || !log_path) {
			if (log_fd >= 0)
				fprintf(stderr, "buildbpf: out of memory\n");
			goto cleanup;
		}
	} else {
		log_fd = output__create_fallback("buildbpf-recording", ".bbl", &log_path);
	}
	if (log_fd < 0) {
		fprintf(stderr, "buildbpf: cannot create the event log in $TMPDIR: %s%s\n", strerror(-log_fd),
			output__fallback_hint(-log_fd, run_as__user(ra), hint, sizeof(hint)));
		log_fd = -1;
		goto cleanup;
	}
	/* --attach and --cgroup start nothing the directory could be handed to. */
	trace_dir__open_for_run(&tdir, !opts->no_trace_dir && !opts->attach_pid && !opts->cgroup,
				run_as__user(ra));
	record__run(rec, ra, log_fd, log_path, tdir.fd >= 0 ? tdir.path : NULL, &res);
	record__free(rec);
	rec = NULL;
	exit_code = res.exit_code;
	*died_of = res.died_of;
	if (!res.ran) {
		unlink(log_path); /* it holds no event: nothing ran */
		goto cleanup;
	}
	say_unwritten(&res);
	if (!recording__read(&recording, log_fd, log_path, &ropts)) {
		const struct merge_sources src = merge_sources__of(opts, &tdir);
		struct run_report report;

		recording__merge(&recording, &src, &stop_signal);
		if (stop_signal)
			goto stopped;
		recording__meta(&recording, &meta);
		written = run_outputs__write_trace(&outs, recording.rp.model, &meta, true);
		run_outputs__write_side(&outs, recording.audit, &recording.rp);
		report = recording__report(&recording, exit_code, written, opts->verbose);
		if (!opts->quiet)
			run_report__print(stderr, &report);
	} else if (stop_signal) {
		goto stopped;
	}
	if (opts->keep_log) {
		if (!opts->quiet)
			fprintf(stderr, "buildbpf: recording kept in %s\n", term_escape(log_path, esc, sizeof(esc)));
	} else if (written) {
		unlink(log_path);
	} else {
		/* Nothing recorded is lost: the log converts later. */
		term_escape(log_path, esc, sizeof(esc));
		fprintf(stderr, "buildbpf: the recording is kept in '%s'; convert it with: buildbpf convert '%s' -o "
				"trace.json\n", esc, esc);
	}
	goto cleanup;

stopped:
	exit_code = say_stopped(stop_signal, log_path);
cleanup:
	record__free(rec);
	run_outputs__free(&outs);
	trace_dir__finish(&tdir, opts->keep_trace_dir, false);
	recording__free(&recording);
	if (log_fd >= 0)
		close(log_fd);
	free(log_path);
	return exit_code;
}

/* buildbpf record -o LOG -- CMD */
static int cmd_record(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out, int *died_of)
{
	struct recorder *rec = NULL;
	struct trace_dir tdir = { .fd = -1 };
	struct record_result res;
	char esc[TERM_ESCAPE_BUF];
	int fd;

	if (start_recording(opts, ra, out, &rec))
		return EXIT_FAILURE_SETUP;
	fd = output__create_direct(opts->output, "event log", "-o", opts->force, run_as__user(ra));
	if (fd < 0) {
		record__free(rec);
		return EXIT_FAILURE_SETUP;
	}
	/* --attach and --cgroup start nothing the directory could be handed to. */
	trace_dir__open_for_run(&tdir, !opts->no_trace_dir && !opts->attach_pid && !opts->cgroup,
				run_as__user(ra));
	record__run(rec, ra, fd, opts->output, tdir.fd >= 0 ? tdir.path : NULL, &res);
	record__free(rec);
	*died_of = res.died_of;
	close(fd);
	trace_dir__finish(&tdir, opts->keep_trace_dir, res.ran);
	if (!res.ran) {
		unlink(opts->output);
		return res.exit_code;
	}
	say_unwritten(&res);
	if (!opts->quiet) {
		term_escape(opts->output, esc, sizeof(esc));
		fprintf(stderr, "buildbpf: recorded %llu events in %.3f s, %llu lost event%s; exit status %d\n",
			(unsigned long long)res.events, res.wall_s, (unsigned long long)res.lost_events,
			res.lost_events == 1 ? "" : "s", res.exit_code);
		fprintf(stderr, "buildbpf: recording written to %s; convert it with: buildbpf convert '%s' -o "
				"trace.json\n", esc, esc);
	}
	return res.exit_code;
}

/* buildbpf convert LOG -o TRACE, buildbpf report LOG; ra: who buildbpf is now. */
static int cmd_read(const struct cli_opts *opts, const struct run_as *ra)
{
	const struct recording_opts ropts = recording_opts__read(opts, &stop_signal);
	struct run_outputs_spec spec = {
		.trace = opts->mode == CLI_CONVERT ? opts->output : NULL,
		.summary_json = opts->summary_json,
		.svg = opts->svg,
		.force = opts->force,
		.writer = run_as__user(ra),
	};
	const struct trace_dir no_dir = { .fd = -1 };
	const struct merge_sources src = merge_sources__of(opts, &no_dir);
	struct run_outputs outs = { .trace = { .fd = -1 }, .summary_json = { .fd = -1 }, .svg = { .fd = -1 } };
	struct recording rec = {};
	struct run_report report;
	struct trace_meta meta;
	const char *written;
	int fd, exit_code = EXIT_FAILURE_SETUP;

	stop_on_signals();
	fd = open_log(opts->log_path, ra);
	if (fd < 0)
		return EXIT_FAILURE_SETUP;
	/* Checked before a long conversion, like before a build. */
	if (run_outputs__prepare(&outs, &spec))
		goto cleanup;
	if (recording__read(&rec, fd, opts->log_path, &ropts))
		goto check_stop;
	run_outputs__write_side(&outs, rec.audit, &rec.rp);
	if (opts->mode == CLI_REPORT) {
		report = recording__report(&rec, replay__exit_code(&rec.rp), NULL, opts->verbose);
		run_report__print(stdout, &report);
		exit_code = 0;
		goto cleanup;
	}
	recording__merge(&rec, &src, &stop_signal);
	if (stop_signal)
		goto check_stop;
	recording__meta(&rec, &meta);
	written = run_outputs__write_trace(&outs, rec.rp.model, &meta, false);
	if (!written)
		goto cleanup;
	report = recording__report(&rec, replay__exit_code(&rec.rp), written, opts->verbose);
	if (!opts->quiet)
		run_report__print(stderr, &report);
	exit_code = 0;
	goto cleanup;
check_stop:
	if (stop_signal)
		exit_code = say_stopped(stop_signal, NULL);
cleanup:
	run_outputs__free(&outs);
	recording__free(&rec);
	close(fd);
	return exit_code;
}

/*
 * Whether a mode loads BPF programs: the one thing buildbpf is root for.
 * Every other mode, a mode added later included, is run_without_bpf().
 */
static bool mode_loads_bpf(enum cli_mode mode)
{
	return mode == CLI_TRACE || mode == CLI_RECORD;
}

/*
 * A mode that loads no BPF needs no privilege: under sudo it becomes the
 * invoking user (SUDO_UID/SUDO_GID, with their groups, resolved as for
 * record) before it opens any file, so that a path the user controls (a
 * planted link, the log it reads, an output it writes) leads only where
 * the user could go.  --keep-root, and plain root, stay root.
 */
static int run_without_bpf(const struct cli_opts *opts)
{
	struct run_as ra;

	if (run_as__resolve(&ra, opts->user, opts->keep_root, opts->keep_env) || privilege__drop_holding_nothing(&ra))
		return EXIT_FAILURE_SETUP;
	if (opts->mode != CLI_DIFF && !opts->nr_add)
		return cmd_read(opts, &ra);
	stop_on_signals();
	return opts->mode == CLI_DIFF ? cmd_diff(opts, &ra, &stop_signal) : cmd_convert_hosts(opts, &ra, &stop_signal);
}

/* Closes what open_outside() pinned (fds of -1 are skipped). */
static void close_outside(const struct cli_opts *opts, struct outside *out)
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
static int open_outside(const struct cli_opts *opts, const struct run_as *ra, struct outside *out)
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
	close_outside(opts, out);
	return -1;
}

int main(int argc, char **argv)
{
	struct cli_opts opts;
	struct run_as ra;
	struct outside out = { .pidfd = -1 };
	int err, exit_code, died_of = 0;

	err = cli__parse(&opts, argc, argv, stdout, stderr);
	if (err <= 0) {
		if (opts.version)
			preflight__print_features(stdout);
		return err < 0 ? EXIT_USAGE : 0;
	}
	if (!mode_loads_bpf(opts.mode))
		return run_without_bpf(&opts);
	if (preflight__check())
		return EXIT_FAILURE_SETUP;
	if (run_as__resolve(&ra, opts.user, opts.keep_root, opts.keep_env))
		return EXIT_FAILURE_SETUP;
	if (open_outside(&opts, &ra, &out))
		return EXIT_FAILURE_SETUP;
	exit_code = opts.mode == CLI_RECORD ? cmd_record(&opts, &ra, &out, &died_of)
					    : cmd_trace(&opts, &ra, &out, &died_of);
	close_outside(&opts, &out);
	/* Everything is written and cleaned up: end as the command ended. */
	die_of_signal(died_of);
	return exit_code;
}
