// SPDX-License-Identifier: GPL-2.0
/*
 * The recording run: signals are read from a signalfd by one loop that
 * also drains the ring buffer, so nothing is handled asynchronously.  The
 * ring-buffer callback only copies records into the log's write buffer;
 * the loop writes it out between polls.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/sysinfo.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "record/attach.h"
#include "record/capture.h"
#include "record/cargo_config.h"
#include "record/go_env.h"
#include "record/mem_pressure.h"
#include "util/cpu_list.h"
#include "log/event_log.h"
#include "events.h"
#include "exit_status.h"
#include "record/record.h"
#include "util/caller_signals.h"
#include "util/term_escape.h"
#include "version.h"

/* How long records may wait in the ring buffer before we look (ms). */
#define POLL_INTERVAL_MS 100
/* How long, at most, the command's exit record may lag its reap (ms). */
#define ROOT_EXIT_WAIT_MS 200

/* Where the records go, and how many of the build's processes are alive. */
struct record_sink {
	struct event_log_writer *log;
	const char *log_name;
	int log_err;	 /* first write error of the log: later records are counted */
	__u64 unwritten; /* records not written since */
	long live;	 /* processes of the tree still running, root included */
	__u32 root_pid;
	__u64 root_exit_ns; /* the command's own exit record; 0: not seen */
	__u32 root_exit_status; /* ... and the status it carries */
	__u64 last_exit_ns; /* the latest process exit record */
	bool all_exited;    /* the kernel tracks no process of the tree any more */
};

static void log_failed(struct record_sink *sink, int err)
{
	char esc[TERM_ESCAPE_BUF];

	if (sink->log_err)
		return;
	sink->log_err = err;
	fprintf(stderr, "buildbpf: warning: cannot write the recording to '%s': %s; the events from now on are "
			"counted, not kept\n",
		term_escape(sink->log_name, esc, sizeof(esc)), strerror(-err));
}

static int on_record(void *ctx, const void *rec, size_t len)
{
	struct record_sink *sink = ctx;
	const struct bb_event_header *hdr = rec;
	int err;

	if ((len >= sizeof(struct bb_fork_event) && hdr->type == BB_EV_FORK &&
	     !(((const struct bb_fork_event *)rec)->flags & BB_FORK_THREAD)) ||
	    (len >= sizeof(struct bb_proc_found_event) && hdr->type == BB_EV_PROC_FOUND))
		sink->live++;
	else if (len >= sizeof(struct bb_exit_event) && hdr->type == BB_EV_EXIT &&
		 (((const struct bb_exit_event *)rec)->flags & BB_EXIT_GROUP_DEAD)) {
		sink->live--;
		if (hdr->ts_ns > sink->last_exit_ns)
			sink->last_exit_ns = hdr->ts_ns;
		if (hdr->tgid == sink->root_pid) {
			sink->root_exit_ns = hdr->ts_ns;
			sink->root_exit_status = ((const struct bb_exit_event *)rec)->exit_status;
		}
	}
	if (sink->log_err) {
		sink->unwritten++;
		return 0;
	}
	err = event_log_writer__add(sink->log, rec, len);
	if (err) {
		log_failed(sink, err);
		sink->unwritten++;
	}
	/* Never stop the capture: the counts of a build still matter. */
	return 0;
}

static __u64 now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The wall clock as the recording knows it, for INFO. */
struct wall_clock {
	__s64 offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	__u64 err_ns;	 /* half the window of the read that gave it; >= 1 */
	__u64 esterror_us; /* the kernel's NTP estimated error */
	bool synced;	 /* NTP says the clock is synchronised */
};

/*
 * CLOCK_REALTIME - CLOCK_MONOTONIC, from the tightest of a few paired
 * reads: the pair least disturbed by preemption brackets the offset best,
 * to within half its window.  adjtimex() (read only, any user) says how
 * far the wall clock itself may be from true time: two hosts' logs line
 * up no better than both errors together (`convert --add`).
 */
static struct wall_clock read_wall_clock(void)
{
	struct wall_clock wc = { .err_ns = UINT64_MAX };
	struct timex tx = { .modes = 0 };
	int i, state;

	for (i = 0; i < 5; i++) {
		__u64 m0 = now_ns(CLOCK_MONOTONIC), rt = now_ns(CLOCK_REALTIME), m1 = now_ns(CLOCK_MONOTONIC);

		if ((m1 - m0) / 2 < wc.err_ns) {
			wc.err_ns = (m1 - m0) / 2;
			wc.offset_ns = (__s64)(rt - (m0 + (m1 - m0) / 2));
		}
	}
	if (!wc.err_ns)
		wc.err_ns = 1;
	state = adjtimex(&tx);
	wc.synced = state >= 0 && state != TIME_ERROR && !(tx.status & STA_UNSYNC);
	wc.esterror_us = state >= 0 ? (__u64)tx.esterror : 0;
	return wc;
}

/* The machine's memory stall so far, into the log; nothing where there is no PSI. */
static void record_mem_pressure(struct record_sink *sink, __u64 ts_ns)
{
	struct bb_mem_psi_event e;

	if (!mem_pressure__read(&e, ts_ns))
		on_record(sink, &e, sizeof(e));
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

/* Hands what the ring buffer holds to the log, and the log to the disk. */
static int drain(struct capture *cap, struct record_sink *sink)
{
	int err = capture__consume(cap);

	if (err < 0)
		return err;
	if (!sink->log_err && (err = event_log_writer__flush(sink->log)))
		log_failed(sink, err);
	return 0;
}

/* The command's exit record, or with --wait-all the last process's, is not in yet. */
static bool exit_records_due(const struct record_sink *sink, bool wait_all)
{
	return !sink->root_exit_ns || (wait_all && sink->all_exited && sink->live > 0);
}

/* The build's memory every period (--mem-period), summed from the kernel's map into the log. */
struct mem_sampler {
	__u64 period_ns; /* 0: not sampled */
	__u64 next_ns;
	__u64 ram_kb;
};

static void mem_sample(struct capture *cap, struct record_sink *sink, const struct mem_sampler *ms, __u64 ts_ns)
{
	struct bb_mem_sample_event e = { .hdr = { .ts_ns = ts_ns, .type = BB_EV_MEM_SAMPLE } };

	e.ram_kb = ms->ram_kb;
	if (!capture__mem_sample(cap, &e))
		on_record(sink, &e, sizeof(e));
}

/* Sampling every period (0: off) from start_ns on, against the machine's RAM. */
static void mem_sampler_start(struct mem_sampler *ms, __u64 period_ns, __u64 start_ns)
{
	struct sysinfo si;

	ms->period_ns = period_ns;
	ms->next_ns = start_ns;
	ms->ram_kb = sysinfo(&si) ? 0 : (__u64)si.totalram * si.mem_unit / 1024;
}

/* Samples if one is due; how long the loop may sleep before the next, in ms. */
static int mem_sample_due(struct capture *cap, struct record_sink *sink, struct mem_sampler *ms)
{
	__u64 now;

	if (!ms->period_ns)
		return POLL_INTERVAL_MS;
	now = now_ns(CLOCK_MONOTONIC);
	if (now >= ms->next_ns) {
		mem_sample(cap, sink, ms, now);
		/* A late wake-up skips the periods it missed, not samples them all. */
		ms->next_ns += ms->period_ns;
		if (ms->next_ns <= now)
			ms->next_ns = now + ms->period_ns;
	}
	return (ms->next_ns - now) / 1000000 < POLL_INTERVAL_MS ? (int)((ms->next_ns - now + 999999) / 1000000)
								  : POLL_INTERVAL_MS;
}

static int run_loop(struct capture *cap, int sfd, struct run_state *rs, struct record_sink *sink, bool wait_all,
		    struct mem_sampler *ms)
{
	int timeout_ms = POLL_INTERVAL_MS;
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
		if (epoll_wait(ep, evs, 2, timeout_ms) < 0 && errno != EINTR) {
			err = -errno;
			goto cleanup;
		}
		err = drain(cap, sink);
		if (err < 0)
			goto cleanup;
		timeout_ms = mem_sample_due(cap, sink, ms);
		while (read(sfd, &si, sizeof(si)) == sizeof(si))
			handle_signal(rs, &si);
		reap(rs); /* a SIGCHLD merged with an earlier one is not re-sent */
		if (rs->exited && (!wait_all || sink->live <= 0 || rs->stop_waiting))
			break;
		/* An exit record lost to a full buffer leaves live counting a
		 * process that is gone; the kernel's tracked map is the truth
		 * (an entry leaves in the program run that then submits the
		 * process's exit record: the wait below covers the gap). */
		if (rs->exited && capture__tracking_none(cap)) {
			sink->all_exited = true;
			break;
		}
	}
	/*
	 * An exit record comes from the process's last switch-out, which may
	 * follow the reap by a few microseconds (the parent can reap a zombie
	 * still on its CPU), and the tracked entry leaves just before it is
	 * submitted: wait for the records still due, briefly, lest the trace
	 * end early.
	 */
	for (int i = 0; i < ROOT_EXIT_WAIT_MS && exit_records_due(sink, wait_all); i++) {
		err = drain(cap, sink);
		if (err < 0 || !exit_records_due(sink, wait_all))
			break;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	/* Everything submitted before the command's exit is in the buffer. */
	err = drain(cap, sink);
cleanup:
	close(ep);
	return err < 0 ? err : 0;
}

struct recorder {
	struct record_opts opts;
	struct capture *cap;
	struct record_sink sink;
	struct command_signals caller; /* the mask is restored once the command is done */
	bool masked;		       /* the signals below are blocked */
	int sfd; /* signalfd of CHLD and of INT, TERM, HUP, QUIT unless the caller ignores them; -1: closed */
	struct cargo_config cargo_config; /* read when the command is launched, kept until the log is done */
	struct go_env go_env;		  /* the same */
};

/*
 * Where the command's cargo and go take a job count from besides their
 * command line: two named variables of the environment buildbpf gives it,
 * cargo's config files from its directory and go's env file, read now, as
 * the user, before it runs.  Not for --attach: a running process's
 * environment and files are not read (env is empty then).
 */
static void fill_jobs_settings(struct event_log_info *info, struct recorder *r, const struct command_env *env,
			       const char *cwd)
{
	const char *cargo_home = command_env__get(env, "CARGO_HOME"), *home = command_env__get(env, "HOME");
	char *default_home = NULL;

	info->jobs_settings.cargo_build_jobs = (char *)command_env__get(env, "CARGO_BUILD_JOBS");
	info->jobs_settings.goflags = (char *)command_env__get(env, "GOFLAGS");
	if (!env->nr)
		return;
	if (!cargo_home && home && asprintf(&default_home, "%s/.cargo", home) < 0)
		default_home = NULL;
	/* Without memory the setting is only left unknown. */
	if (!cargo_config__find_jobs(&r->cargo_config, cwd, cargo_home ? cargo_home : default_home)) {
		info->jobs_settings.cargo_config_jobs = r->cargo_config.jobs;
		info->jobs_settings.cargo_config_file = r->cargo_config.file;
	}
	free(default_home);
	go_env__find_goflags(&r->go_env, command_env__get(env, "GOENV"), command_env__get(env, "XDG_CONFIG_HOME"),
			     home);
	info->jobs_settings.go_env_goflags = r->go_env.goflags;
	info->jobs_settings.go_env_file = r->go_env.file;
}

static void fill_info(struct event_log_info *info, struct recorder *r, const struct run_as *ra,
		      const struct command_env *env, struct utsname *uts, pid_t pid, __u64 start_ns,
		      const struct wall_clock *wc, char *online_list, char *cwd)
{
	const struct record_opts *opts = &r->opts;
	const struct capture *cap = r->cap;

	memset(info, 0, sizeof(*info));
	info->buildbpf_version = (char *)BUILDBPF_VERSION;
	info->kernel_release = uts->release;
	info->user = (char *)ra->name;
	info->online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	info->possible_cpus = capture__nr_cpus(cap);
	info->page_size = sysconf(_SC_PAGESIZE);
	info->start_ns = start_ns;
	info->realtime_offset_ns = wc->offset_ns;
	info->realtime_offset_err_ns = wc->err_ns;
	info->clock_esterror_us = wc->esterror_us;
	info->clock_synced = wc->synced;
	info->host = uts->nodename;
	info->root_pid = pid;
	info->args_max = opts->args_max;
	info->ringbuf_bytes = opts->ringbuf_bytes;
	info->sched = opts->sched;
	info->sched_resolution_ns = opts->sched_resolution_ns;
	info->wait_all = opts->wait_all;
	info->deps = capture__deps_on(cap);
	info->deps_hook = capture__deps_hook(cap);
	info->mem_hook = capture__mem_hook(cap);
	info->mem_period_ns = opts->mem_period_ns;
	info->online_cpu_list = online_list;
	/* What the command got, not buildbpf's own environment. */
	info->makeflags = (char *)command_env__get(env, "MAKEFLAGS");
	fill_jobs_settings(info, r, env, cwd);
	info->path_env = (char *)command_env__get(env, "PATH");
	info->cwd = cwd;
	info->cmd_argv = opts->cmd_argv;
	info->cmd_argc = opts->cmd_argc;
	info->follow = opts->follow;
	info->nr_follow = opts->nr_follow;
}


/*
 * Signals are read from a signalfd by the loop, never handled async, for
 * as long as the command runs; the mask is restored after (record__run()
 * or record__free()), so buildbpf can be stopped again.
 */
static int block_signals(struct recorder *r)
{
	static const int stop[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	sigset_t mask;
	size_t i;

	/* A blocked signal is queued even when ignored: one the caller
	 * ignores is left out, or the signalfd would read it and forward it
	 * (util/caller_signals.h). */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
		if (!signal_ignored(stop[i]))
			sigaddset(&mask, stop[i]);
	if (sigprocmask(SIG_BLOCK, &mask, &r->caller.mask)) {
		fprintf(stderr, "buildbpf: cannot block signals: %s\n", strerror(errno));
		return -1;
	}
	r->masked = true;
	r->caller.pipe_ignored = signal_ignored(SIGPIPE);
	signal(SIGPIPE, SIG_IGN);
	r->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sfd < 0) {
		fprintf(stderr, "buildbpf: cannot create a signalfd: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The command is done: signals that came for it were read (a late one is
 * read here, and is the build's like the others), and the mask goes back.
 */
static void restore_signals(struct recorder *r, struct run_state *rs)
{
	struct signalfd_siginfo si;

	if (r->sfd >= 0) {
		while (rs && read(r->sfd, &si, sizeof(si)) == sizeof(si))
			handle_signal(rs, &si);
		close(r->sfd);
		r->sfd = -1;
	}
	if (r->masked)
		sigprocmask(SIG_SETMASK, &r->caller.mask, NULL);
	r->masked = false;
}

int record__open(struct recorder **out, const struct record_opts *opts)
{
	struct capture_opts cap_opts = {
		.args_max = opts->args_max,
		.ringbuf_bytes = opts->ringbuf_bytes,
		.verbose = opts->verbose,
		.sched = opts->sched != SCHED_OFF,
		.deps = opts->deps,
		/* Summary lanes are cut in buckets of the resolution: idle
		 * periods far below it need no record of their own. */
		.idle_min_ns = opts->sched == SCHED_FULL ? 0 : opts->sched_resolution_ns / 10,
		.attach = opts->attach_pid > 0 || opts->nr_follow,
		.cgroup_id = opts->cgroup_id,
		.cgroup_level = opts->cgroup_level,
		.mem_sampling = opts->mem_period_ns != 0,
		.hide_unreadable = opts->hide_unreadable,
		.viewer_uid = opts->viewer_uid,
		.viewer_gid = opts->viewer_gid,
	};
	struct recorder *r;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "buildbpf: out of memory\n");
		return -1;
	}
	r->opts = *opts;
	r->sfd = -1;
	/* Only records of the tree change it: the attached root is counted
	 * by its found record like the rest. */
	r->sink.live = opts->attach_pid > 0 || opts->cgroup_id ? 0 : 1;
	if (block_signals(r) || capture__open(&r->cap, &cap_opts, on_record, &r->sink)) {
		record__free(r);
		return -1;
	}
	*out = r;
	return 0;
}

/*
 * The recording's end, shared by every mode: the CPU lanes closed at
 * trailer->end_ns, the trailer (its lost_events filled here) written,
 * res filled with what reached the log.
 */
static void end_recording(struct recorder *r, __u64 start_ns, struct bbl_trailer *trailer,
			  struct record_result *res)
{
	struct record_sink *sink = &r->sink;
	int err;

	res->wall_s = (trailer->end_ns - start_ns) / 1e9;
	if (r->opts.verbose) /* before any program is detached */
		capture__print_runs(r->cap, stderr);
	err = capture__finish_sched(r->cap, trailer->end_ns);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot close the CPU lanes: %s\n", strerror(-err));
	trailer->lost_events = capture__lost_events(r->cap);
	res->lost_events = trailer->lost_events;
	if (!sink->log_err && (err = event_log_writer__finish(sink->log, trailer, r->opts.sync_log)))
		log_failed(sink, err);
	res->log_complete = !sink->log_err;
	res->events = event_log_writer__events(sink->log);
	res->unwritten = sink->unwritten;
}

/*
 * --attach: the loop of a trace with no child of ours.  It ends at the
 * first signal buildbpf gets (none is forwarded: the process is not ours
 * to stop), at the deadline (0: none), or when the attached process is
 * gone (its pidfd turns readable; without one, its exit record came),
 * then waits briefly for its exit record like run_loop() does for the
 * command's.
 */
static int attach_loop(struct capture *cap, int sfd, int pidfd, __u64 deadline_ns, struct record_sink *sink,
		       struct mem_sampler *ms, int *signal_seen)
{
	struct epoll_event ev = { .events = EPOLLIN }, evs[3];
	struct signalfd_siginfo si;
	bool root_gone = false;
	int ep, i, n, err = 0;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -errno;
	ev.data.fd = sfd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev))
		goto fail;
	ev.data.fd = capture__epoll_fd(cap);
	if (epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev))
		goto fail;
	ev.data.fd = pidfd;
	if (pidfd >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, pidfd, &ev))
		goto fail;
	for (;;) {
		int timeout = mem_sample_due(cap, sink, ms);
		__u64 now = now_ns(CLOCK_MONOTONIC);

		if (deadline_ns && now >= deadline_ns)
			break;
		if (deadline_ns && (deadline_ns - now) / 1000000 < (__u64)timeout)
			timeout = (deadline_ns - now + 999999) / 1000000;
		n = epoll_wait(ep, evs, 3, timeout);
		if (n < 0 && errno != EINTR)
			goto fail;
		err = drain(cap, sink);
		if (err < 0)
			goto cleanup;
		for (i = 0; pidfd >= 0 && i < n; i++)
			root_gone |= evs[i].data.fd == pidfd;
		/* Without a pidfd, the root's exit record says it is gone. */
		root_gone |= pidfd < 0 && sink->root_pid && sink->root_exit_ns;
		while (read(sfd, &si, sizeof(si)) == sizeof(si))
			if (si.ssi_signo != SIGCHLD && !*signal_seen)
				*signal_seen = si.ssi_signo;
		if (*signal_seen || root_gone)
			break;
	}
	for (i = 0; root_gone && i < ROOT_EXIT_WAIT_MS && !sink->root_exit_ns; i++) {
		err = drain(cap, sink);
		if (err < 0)
			goto cleanup;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	err = drain(cap, sink);
	goto cleanup;
fail:
	err = -errno;
cleanup:
	close(ep);
	return err < 0 ? err : 0;
}

/* The record__run() of --attach and --cgroup; see record.h. */
static void record_attached(struct recorder *r, const struct run_as *ra, int log_fd, const char *log_name,
			    struct record_result *res)
{
	const struct record_opts *opts = &r->opts;
	struct record_sink *sink = &r->sink;
	struct capture *cap = r->cap;
	struct command_env no_env = {};
	struct attach_stats st;
	struct event_log_info info;
	struct bbl_trailer trailer = {};
	struct mem_sampler ms = {};
	struct utsname uts;
	__u64 start_ns, end_ns;
	struct wall_clock wc;
	char esc[TERM_ESCAPE_BUF], online_list[4096], cwd[4096], path[64], **argv = NULL;
	char *cgroup_argv[] = { "--cgroup", (char *)opts->cgroup_path, NULL };
	const struct attach_target target = { .pid = opts->attach_pid, .pidfd = opts->attach_pidfd, .opt = "--attach" };
	bool capture_failed;
	ssize_t cwd_len = -1;
	int err, argc = 0, signal_seen = 0;

	memset(res, 0, sizeof(*res));
	res->exit_code = EXIT_FAILURE_SETUP;
	sink->log_name = log_name;
	sink->root_pid = opts->attach_pid;
	uname(&uts);
	if (opts->attach_pid > 0 && attach__argv(opts->attach_pid, &argv, &argc)) {
		fprintf(stderr, "buildbpf: out of memory\n");
		goto cleanup;
	}
	/* Slice names take relative paths from the attached process's
	 * directory; another user's (root attached) may be unreadable. */
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)opts->attach_pid);
	if (opts->attach_pid > 0)
		cwd_len = readlink(path, cwd, sizeof(cwd) - 1);
	if (cwd_len >= 0)
		cwd[cwd_len] = '\0';
	/* Both were read by pid: still the process checked before loading? */
	if (target.pid && attach__check_target(&target, ra))
		goto cleanup;

	wc = read_wall_clock();
	start_ns = now_ns(CLOCK_MONOTONIC);
	fill_info(&info, r, ra, &no_env, &uts, opts->attach_pid, start_ns, &wc,
		  !cpu_list__read_online(online_list, sizeof(online_list)) ? online_list : NULL,
		  cwd_len >= 0 ? cwd : NULL);
	info.cmd_argv = argv ? argv : cgroup_argv;
	info.cmd_argc = argv ? argc : 2;
	info.attached = opts->attach_pid > 0;
	info.cgroup = (char *)opts->cgroup_path;
	err = event_log_writer__open(&sink->log, log_fd, &info);
	if (err) {
		fprintf(stderr, "buildbpf: cannot write the recording to '%s': %s\n",
			term_escape(log_name, esc, sizeof(esc)), strerror(-err));
		goto cleanup;
	}
	record_mem_pressure(sink, start_ns);
	if (attach__seed(cap, &target, ra, start_ns, opts->args_max, on_record, sink, &st))
		goto cleanup;
	res->ran = true;
	if (opts->verbose)
		fprintf(stderr, "buildbpf: %zu processes found running, %zu caught at their fork, %zu gone before "
				"confirmed, %zu snapshots\n", st.found, st.forked, st.gone, st.rounds);

	/* The first sample after the seeding: it counts the tree found running. */
	mem_sampler_start(&ms, opts->mem_period_ns, start_ns);
	err = attach_loop(cap, r->sfd, opts->attach_pidfd, opts->duration_ns ? start_ns + opts->duration_ns : 0,
			  sink, &ms, &signal_seen);
	capture_failed = err != 0;
	if (err)
		fprintf(stderr, "buildbpf: warning: event capture failed: %s\n", strerror(-err));
	restore_signals(r, NULL);
	/* Ended by the process's exit, as the kernel stamped it, or now.
	 * Ctrl-C, --duration and the process's exit are the ways such a
	 * trace ends, not interruptions: no signal_seen.  The status is the
	 * attached process's, when its exit record came. */
	end_ns = sink->root_exit_ns ? sink->root_exit_ns : now_ns(CLOCK_MONOTONIC);
	record_mem_pressure(sink, end_ns);
	if (ms.period_ns) /* the counter ends where the trace does */
		mem_sample(cap, sink, &ms, end_ns);
	trailer = (struct bbl_trailer){
		.end_ns = end_ns,
		.exit_ns = sink->root_exit_ns,
		.wait_status = sink->root_exit_status,
		.flags = (sink->root_exit_ns ? BBL_EXITED : 0) | (capture_failed ? BBL_CAPTURE_FAILED : 0),
	};
	end_recording(r, start_ns, &trailer, res);
	/* buildbpf's own status: the attached process is not its child. */
	res->exit_code = capture_failed ? EXIT_FAILURE_SETUP : 0;
cleanup:
	restore_signals(r, NULL);
	event_log_writer__free(sink->log);
	sink->log = NULL;
	free(argv);
}

/* --follow's daemons and what they run, tracked from start_ns: 0, or non-zero once said. */
static int seed_daemons(struct recorder *r, const struct run_as *ra, __u64 start_ns)
{
	const struct record_opts *opts = &r->opts;

	for (size_t i = 0; i < opts->nr_follow; i++) {
		const struct attach_target daemon = {
			.pid = opts->follow[i], .pidfd = opts->follow_pidfds ? opts->follow_pidfds[i] : -1, .opt = "--follow"
		};
		struct attach_stats st;

		if (attach__seed(r->cap, &daemon, ra, start_ns, opts->args_max, on_record, &r->sink, &st))
			return -1;
	}
	return 0;
}

/* Writes the recording's end: when the trace ends, the last samples and the trailer. */
static void finish_recording(struct recorder *r, const struct run_state *rs, struct mem_sampler *ms, __u64 start_ns,
			     bool capture_failed, struct record_result *res)
{
	const struct record_opts *opts = &r->opts;
	struct record_sink *sink = &r->sink;
	struct capture *cap = r->cap;
	struct bbl_trailer trailer;
	__u64 end_ns;

	/*
	 * The trace ends when the command exited, as the kernel stamped it
	 * (the reap comes a little later), or with --wait-all when the last
	 * process did.  The waitpid/clock times are fallbacks for a lost record.
	 */
	if (opts->wait_all)
		end_ns = (sink->live <= 0 || sink->all_exited) && sink->last_exit_ns ? sink->last_exit_ns
										    : now_ns(CLOCK_MONOTONIC);
	else
		end_ns = sink->root_exit_ns ? sink->root_exit_ns : rs->exit_ns;
	record_mem_pressure(sink, end_ns);
	if (ms->period_ns) /* the counter ends where the trace does */
		mem_sample(cap, sink, ms, end_ns);
	trailer = (struct bbl_trailer){
		.end_ns = end_ns,
		.exit_ns = rs->exit_ns,
		.wait_status = rs->status,
		.flags = (rs->exited ? BBL_EXITED : 0) | (capture_failed ? BBL_CAPTURE_FAILED : 0),
		.signal_seen = rs->signal_seen,
	};
	end_recording(r, start_ns, &trailer, res);
}

void record__run(struct recorder *r, const struct run_as *ra, int log_fd, const char *log_name,
		 const char *trace_dir, struct record_result *res)
{
	const struct record_opts *opts = &r->opts;
	struct launch launch = { .pid = -1, .go_fd = -1, .errno_fd = -1 };
	struct record_sink *sink = &r->sink;
	struct capture *cap = r->cap;
	struct command_env env = {};
	struct event_log_info info;
	struct run_state rs = {};
	struct mem_sampler ms = {};
	struct utsname uts;
	__u64 start_ns;
	struct wall_clock wc;
	char esc[TERM_ESCAPE_BUF], online_list[4096], *cwd = NULL;
	bool capture_failed = false;
	int err;

	if (opts->attach_pid > 0 || opts->cgroup_id) {
		record_attached(r, ra, log_fd, log_name, res);
		return;
	}
	memset(res, 0, sizeof(*res));
	res->exit_code = EXIT_FAILURE_SETUP;
	sink->log_name = log_name;
	uname(&uts);
	if (command_env__build(&env, ra, trace_dir)) {
		fprintf(stderr, "buildbpf: out of memory\n");
		goto cleanup;
	}

	wc = read_wall_clock();
	start_ns = now_ns(CLOCK_MONOTONIC);
	err = launch__spawn(&launch, opts->cmd_argv, env.vars, &r->caller);
	if (err) {
		fprintf(stderr, "buildbpf: cannot fork: %s\n", strerror(-err));
		goto cleanup;
	}
	rs.pid = launch.pid;
	sink->root_pid = launch.pid;
	/* The command starts where buildbpf runs: launch does not chdir. */
	cwd = getcwd(NULL, 0);
	fill_info(&info, r, ra, &env, &uts, launch.pid, start_ns, &wc,
		  !cpu_list__read_online(online_list, sizeof(online_list)) ? online_list : NULL, cwd);
	err = event_log_writer__open(&sink->log, log_fd, &info);
	if (err) {
		fprintf(stderr, "buildbpf: cannot write the recording to '%s': %s\n",
			term_escape(log_name, esc, sizeof(esc)), strerror(-err));
		goto abort_launch;
	}
	record_mem_pressure(sink, start_ns);
	err = capture__track(cap, launch.pid, start_ns);
	if (err) {
		fprintf(stderr, "buildbpf: cannot track the command's pid: %s\n", strerror(-err));
		goto abort_launch;
	}
	/* The daemons, before the command can ask them for work. */
	if (seed_daemons(r, ra, start_ns))
		goto abort_launch;
	err = launch__release(&launch);
	if (err) {
		waitpid(launch.pid, &rs.status, 0);
		/* As a shell says it: a name looked up in PATH and not there is "not found". */
		fprintf(stderr, "buildbpf: cannot run '%s': %s\n", term_escape(opts->cmd_argv[0], esc, sizeof(esc)),
			err == ENOENT && !strchr(opts->cmd_argv[0], '/') ? "command not found" : strerror(err));
		res->exit_code = status_to_exit_code(rs.status);
		goto cleanup;
	}
	res->ran = true;

	mem_sampler_start(&ms, opts->mem_period_ns, start_ns);
	err = run_loop(cap, r->sfd, &rs, sink, opts->wait_all, &ms);
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
	restore_signals(r, &rs);
	res->exit_code = status_to_exit_code(rs.status);
	res->died_of = rs.exited && WIFSIGNALED(rs.status) ? WTERMSIG(rs.status) : 0;
	finish_recording(r, &rs, &ms, start_ns, capture_failed, res);
	goto cleanup;

abort_launch:
	launch__abort(&launch);
	waitpid(launch.pid, NULL, 0);
cleanup:
	restore_signals(r, NULL);
	command_env__free(&env);
	event_log_writer__free(sink->log);
	sink->log = NULL;
	free(cwd);
}

void record__free(struct recorder *r)
{
	if (!r)
		return;
	restore_signals(r, NULL);
	event_log_writer__free(r->sink.log);
	capture__free(r->cap);
	cargo_config__free(&r->cargo_config);
	go_env__free(&r->go_env);
	free(r);
	/* privilege__drop() made buildbpf undumpable while it held the BPF
	 * objects; with them gone it holds nothing its user may not read, and
	 * LeakSanitizer (which ptraces the process at exit) works again. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}
