// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf: runs a command unchanged and traces its whole process tree.
 * main() only wires the stages: parse -> check -> prepare output -> load
 * and attach -> launch -> capture until the command ends -> reconstruct ->
 * write -> report.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "capture.h"
#include "chrome_trace.h"
#include "cli.h"
#include "cpu_sched.h"
#include "launch.h"
#include "model.h"
#include "output.h"
#include "preflight.h"
#include "summary.h"
#include "version.h"
#include "term_escape.h"

/* How long records may wait in the ring buffer before we look (ms). */
#define POLL_INTERVAL_MS 100
#define EXIT_USAGE 2
#define EXIT_FAILURE_SETUP 1

/* Where the records go, and how many of the build's processes are alive. */
struct record_sink {
	struct model *model;
	struct sched_model *sched; /* NULL with --sched=off */
	long live; /* processes of the tree still running, root included */
	__u32 root_pid;
	__u64 root_exit_ns; /* the command's own exit record; 0: not seen */
	__u64 last_exit_ns; /* the latest process exit record */
	int err;   /* first fatal error (out of memory) */
};

static int on_record(void *ctx, const void *rec, size_t len)
{
	struct record_sink *sink = ctx;
	const struct bb_event_header *hdr = rec;
	int err;

	if (!sink->model)
		return 0;
	if (len >= sizeof(*hdr) && (hdr->type == BB_EV_CPU_SLICE || hdr->type == BB_EV_CPU_IDLE)) {
		err = sink->sched ? sched_model__add_event(sink->sched, rec, len) : 0;
		if (err == -ENOMEM) {
			sink->err = err;
			return err;
		}
		return 0;
	}
	if (len >= sizeof(struct bb_fork_event) && hdr->type == BB_EV_FORK &&
	    !(((const struct bb_fork_event *)rec)->flags & BB_FORK_THREAD))
		sink->live++;
	else if (len >= sizeof(struct bb_exit_event) && hdr->type == BB_EV_EXIT &&
		 (((const struct bb_exit_event *)rec)->flags & BB_EXIT_GROUP_DEAD)) {
		sink->live--;
		if (hdr->ts_ns > sink->last_exit_ns)
			sink->last_exit_ns = hdr->ts_ns;
		if (hdr->tgid == sink->root_pid)
			sink->root_exit_ns = hdr->ts_ns;
	}
	err = model__add_event(sink->model, rec, len);
	if (err == -ENOMEM) {
		sink->err = err;
		return err;
	}
	return 0; /* a malformed record is counted by the model, not fatal */
}

static __u64 now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int status_to_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FAILURE_SETUP;
}

/* State of the wait for the command, driven by the event loop. */
struct run_state {
	pid_t pid;
	bool exited;
	int status;
	__u64 exit_ns;
	int interrupts;	 /* SIGINTs seen */
	int signal_seen; /* the first of SIGINT/TERM/HUP/QUIT buildbpf got, or 0 */
	bool stop_waiting; /* give up on descendants (--wait-all) */
};

static void reap(struct run_state *rs)
{
	int status;

	if (rs->exited)
		return;
	if (waitpid(rs->pid, &status, WNOHANG) == rs->pid) {
		rs->exited = true;
		rs->status = status;
		rs->exit_ns = now_ns(CLOCK_MONOTONIC);
	}
}

/*
 * A signal for buildbpf is meant for the build.  Signals the terminal sent
 * (SI_KERNEL) already reached the whole foreground process group, command
 * included; only ones sent to buildbpf alone are forwarded.  A second
 * Ctrl-C kills the command outright.
 */
static void handle_signal(struct run_state *rs, const struct signalfd_siginfo *si)
{
	if (si->ssi_signo == SIGCHLD) {
		reap(rs);
		return;
	}
	if (!rs->signal_seen)
		rs->signal_seen = si->ssi_signo;
	if (rs->exited) {
		rs->stop_waiting = true;
		return;
	}
	if (si->ssi_signo == SIGINT && ++rs->interrupts >= 2) {
		kill(rs->pid, SIGKILL);
		rs->stop_waiting = true;
		return;
	}
	if (si->ssi_code != SI_KERNEL)
		kill(rs->pid, si->ssi_signo);
}

static int run_loop(struct capture *cap, int sfd, struct run_state *rs, const struct record_sink *sink,
		    bool wait_all)
{
	struct epoll_event ev = { .events = EPOLLIN }, evs[2];
	struct signalfd_siginfo si;
	int ep, err = 0;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -errno;
	ev.data.fd = sfd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev)) {
		err = -errno;
		goto cleanup;
	}
	ev.data.fd = capture__epoll_fd(cap);
	if (epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev)) {
		err = -errno;
		goto cleanup;
	}
	for (;;) {
		if (epoll_wait(ep, evs, 2, POLL_INTERVAL_MS) < 0 && errno != EINTR) {
			err = -errno;
			goto cleanup;
		}
		err = capture__consume(cap);
		if (err < 0)
			goto cleanup;
		while (read(sfd, &si, sizeof(si)) == sizeof(si))
			handle_signal(rs, &si);
		reap(rs); /* a SIGCHLD merged with an earlier one is not re-sent */
		if (rs->exited && (!wait_all || sink->live <= 0 || rs->stop_waiting))
			break;
	}
	/* Everything submitted before the command's exit is in the buffer. */
	err = capture__consume(cap);
cleanup:
	close(ep);
	return err < 0 ? err : 0;
}

/* Why the trace does not show the whole build, or NULL. */
static const char *partial_reason(const struct run_state *rs, bool capture_failed, int sink_err, __u64 lost,
				  char *buf, size_t size)
{
	if (capture_failed)
		return "event capture failed during the build";
	if (sink_err)
		return "out of memory while recording";
	if (rs->signal_seen) {
		snprintf(buf, size, "buildbpf received SIG%s: the build was interrupted",
			 sigabbrev_np(rs->signal_seen) ?: "?");
		return buf;
	}
	if (lost) {
		snprintf(buf, size, "%llu events lost (the ring buffer was full)", (unsigned long long)lost);
		return buf;
	}
	return NULL;
}

static void fill_meta(struct trace_meta *meta, const struct cli_opts *opts, const struct run_as *ra,
		      const struct utsname *uts, __u64 start_realtime_ns, __u64 lost)
{
	memset(meta, 0, sizeof(*meta));
	meta->version = BUILDBPF_VERSION;
	meta->kernel_release = uts->release;
	meta->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	meta->cmd_argv = opts->cmd_argv;
	meta->cmd_argc = opts->cmd_argc;
	meta->start_realtime_ns = start_realtime_ns;
	meta->lost_events = lost;
	meta->args_max = opts->args_max;
	meta->user = ra->name;
}

/*
 * Writes the trace where asked; on failure, says why and saves it in the
 * temporary directory instead.  A trace-write problem never changes the
 * exit status.  Returns the path the trace is in, or NULL.
 */
static const char *write_trace(struct output *out, const struct model *model, const struct trace_meta *meta,
			       const struct run_as *ra, char **fallback_path)
{
	char esc[TERM_ESCAPE_BUF];
	int err, fd;

	err = chrome_trace__write(model, meta, out->fd);
	/* Not the file's fault: another file would not help. */
	if (err == -ENOMEM) {
		fprintf(stderr, "buildbpf: warning: out of memory building the trace; no trace written\n");
		output__discard(out);
		return NULL;
	}
	if (!err)
		err = output__commit(out);
	if (!err)
		return out->path;
	if (err == -EEXIST) {
		fprintf(stderr, "buildbpf: warning: '%s' appeared during the build and was not overwritten; ",
			term_escape(out->path, esc, sizeof(esc)));
		fprintf(stderr, "the trace is in '%s'\n", term_escape(out->tmp_path, esc, sizeof(esc)));
		return out->tmp_path;
	}
	fprintf(stderr, "buildbpf: warning: cannot write the trace to '%s': %s\n",
		term_escape(out->path, esc, sizeof(esc)), strerror(-err));
	err = output__discard(out);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot remove the temporary file '%s': %s\n",
			term_escape(out->tmp_path, esc, sizeof(esc)), strerror(-err));
	fd = output__create_fallback("buildbpf-trace", ra->drop, ra->uid, ra->gid, fallback_path);
	if (fd < 0) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace elsewhere either: %s; it is lost\n",
			strerror(-fd));
		return NULL;
	}
	err = chrome_trace__write(model, meta, fd);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace to '%s' either: %s; it is lost\n",
			term_escape(*fallback_path, esc, sizeof(esc)), strerror(-err));
		unlink(*fallback_path);
		return NULL;
	}
	fprintf(stderr, "buildbpf: warning: the trace was saved to '%s' instead\n",
		term_escape(*fallback_path, esc, sizeof(esc)));
	return *fallback_path;
}

int main(int argc, char **argv)
{
	struct launch launch = { .pid = -1, .go_fd = -1, .errno_fd = -1 };
	struct record_sink sink = { .live = 1 };
	struct output out = { .fd = -1 };
	struct capture_opts cap_opts;
	struct capture *cap = NULL;
	struct summary_info summary;
	struct run_state rs = {};
	struct trace_meta meta;
	struct cli_opts opts;
	struct run_as ra;
	struct utsname uts;
	sigset_t mask, orig_mask;
	__u64 start_ns, start_realtime_ns, end_ns;
	char *fallback_path = NULL, partial_buf[128], esc[TERM_ESCAPE_BUF];
	bool capture_failed = false;
	const char *written = NULL;
	int err, sfd = -1, exit_code = EXIT_FAILURE_SETUP;

	err = cli__parse(&opts, argc, argv, stdout, stderr);
	if (err <= 0)
		return err < 0 ? EXIT_USAGE : 0;
	if (preflight__check())
		return EXIT_FAILURE_SETUP;
	if (run_as__resolve(&ra, opts.user, opts.keep_root))
		return EXIT_FAILURE_SETUP;
	uname(&uts);

	/* Signals are read from a signalfd by the loop, never handled async. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGQUIT);
	sigaddset(&mask, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &mask, &orig_mask)) {
		fprintf(stderr, "buildbpf: cannot block signals: %s\n", strerror(errno));
		return EXIT_FAILURE_SETUP;
	}
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		fprintf(stderr, "buildbpf: cannot create a signalfd: %s\n", strerror(errno));
		goto cleanup;
	}

	if (output__prepare(&out, opts.output, opts.force, ra.drop, ra.uid, ra.gid))
		goto cleanup;

	cap_opts = (struct capture_opts){
		.args_max = opts.args_max,
		.ringbuf_bytes = opts.ringbuf_bytes,
		.verbose = opts.verbose,
		.sched = opts.sched != SCHED_OFF,
		/* Summary lanes are cut in buckets of the resolution: idle
		 * periods far below it need no record of their own. */
		.idle_min_ns = opts.sched == SCHED_FULL ? 0 : opts.sched_resolution_ns / 10,
	};
	if (capture__open(&cap, &cap_opts, on_record, &sink))
		goto cleanup;

	start_realtime_ns = now_ns(CLOCK_REALTIME);
	start_ns = now_ns(CLOCK_MONOTONIC);
	err = launch__spawn(&launch, opts.cmd_argv, &ra, &orig_mask);
	if (err) {
		fprintf(stderr, "buildbpf: cannot fork: %s\n", strerror(-err));
		goto cleanup;
	}
	rs.pid = launch.pid;
	sink.root_pid = launch.pid;
	sink.model = model__new(launch.pid, start_ns);
	if (opts.sched != SCHED_OFF)
		sink.sched = sched_model__new(opts.sched, opts.sched_resolution_ns, capture__nr_cpus(cap), start_ns);
	if (!sink.model || (opts.sched != SCHED_OFF && !sink.sched)) {
		fprintf(stderr, "buildbpf: out of memory\n");
		goto abort_launch;
	}
	err = capture__track(cap, launch.pid, start_ns);
	if (err) {
		fprintf(stderr, "buildbpf: cannot track the command's pid: %s\n", strerror(-err));
		goto abort_launch;
	}
	err = launch__release(&launch);
	if (err) {
		waitpid(launch.pid, &rs.status, 0);
		if (err > 0)
			fprintf(stderr, "buildbpf: cannot run '%s': %s\n",
				term_escape(opts.cmd_argv[0], esc, sizeof(esc)), strerror(err));
		else
			fprintf(stderr, "buildbpf: cannot run the command as user '%s': %s\n",
				term_escape(ra.name, esc, sizeof(esc)),
				strerror(-err));
		exit_code = status_to_exit_code(rs.status);
		output__discard(&out);
		goto cleanup;
	}

	err = run_loop(cap, sfd, &rs, &sink, opts.wait_all);
	capture_failed = err != 0;
	if (err) {
		/* The command is still ours to wait for: its status is ours. */
		fprintf(stderr, "buildbpf: warning: event capture failed: %s; waiting for the command\n",
			strerror(-err));
		if (!rs.exited && waitpid(rs.pid, &rs.status, 0) == rs.pid) {
			rs.exited = true;
			rs.exit_ns = now_ns(CLOCK_MONOTONIC);
		}
	}
	exit_code = status_to_exit_code(rs.status);
	/*
	 * The trace ends when the command exited, as the kernel stamped it
	 * (the reap comes a little later), or with --wait-all when the last
	 * process did.  The waitpid/clock times are fallbacks for a lost record.
	 */
	if (opts.wait_all)
		end_ns = sink.live <= 0 && sink.last_exit_ns ? sink.last_exit_ns : now_ns(CLOCK_MONOTONIC);
	else
		end_ns = sink.root_exit_ns ? sink.root_exit_ns : rs.exit_ns;

	err = capture__finish_sched(cap, end_ns);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot close the CPU lanes: %s\n", strerror(-err));
	if (sink.err)
		fprintf(stderr, "buildbpf: warning: out of memory while recording: the trace is incomplete\n");

	err = model__finish(sink.model, end_ns);
	if (!err && sink.model->root >= 0 && rs.exited && !sink.model->procs[sink.model->root].exited) {
		/* Its exit record was lost, but waitpid told us how it ended. */
		struct proc_instance *root = &sink.model->procs[sink.model->root];

		root->exited = true;
		root->unfinished = false;
		root->exit_record_lost = true;
		root->exit_status = rs.status;
	}
	if (!err && sink.sched)
		err = sched_model__finish(sink.sched, end_ns);
	if (err) {
		fprintf(stderr, "buildbpf: warning: cannot reconstruct the trace: %s; no trace written\n",
			strerror(-err));
		output__discard(&out);
		goto cleanup;
	}
	fill_meta(&meta, &opts, &ra, &uts, start_realtime_ns, capture__lost_events(cap));
	meta.sched = sink.sched;
	meta.partial_reason = partial_reason(&rs, capture_failed, sink.err, meta.lost_events, partial_buf,
					     sizeof(partial_buf));
	written = write_trace(&out, sink.model, &meta, &ra, &fallback_path);
	if (!opts.quiet) {
		summary = (struct summary_info){
			.cmd_argv = opts.cmd_argv,
			.cmd_argc = opts.cmd_argc,
			.exit_status = exit_code,
			.lost_events = meta.lost_events,
			.output_path = written,
			.partial_reason = meta.partial_reason,
		};
		summary__print(stderr, sink.model, &summary);
	}
	goto cleanup;

abort_launch:
	launch__abort(&launch);
	waitpid(launch.pid, NULL, 0);
	output__discard(&out);
cleanup:
	free(fallback_path);
	model__free(sink.model);
	sched_model__free(sink.sched);
	capture__free(cap);
	output__free(&out);
	if (sfd >= 0)
		close(sfd);
	return exit_code;
}
