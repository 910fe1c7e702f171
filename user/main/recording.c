// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "main/recording.h"
#include "merge/trace_files.h"
#include "util/as_user.h"
#include "util/term_escape.h"

int open_log(const char *path, const struct run_as *ra)
{
	char esc[TERM_ESCAPE_BUF], hint[AS_USER_HINT_BUF];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err = errno;

	if (fd >= 0)
		return fd;
	fprintf(stderr, "buildbpf: cannot open '%s': %s%s\n", term_escape(path, esc, sizeof(esc)), strerror(err),
		as_user__hint(hint, sizeof(hint), err, run_as__user(ra), "reads", NULL));
	return -1;
}

int replay_log(int fd, const char *name, const struct replay_opts *ropts, struct replay *rp,
		      struct event_log_reader **reader, bool warn_cut)
{
	char err[256], esc[TERM_ESCAPE_BUF];
	FILE *f = NULL;
	int dup_fd, e;

	*reader = NULL;
	memset(rp, 0, sizeof(*rp));
	dup_fd = dup(fd);
	if (dup_fd < 0 || lseek(dup_fd, 0, SEEK_SET) < 0 || !(f = fdopen(dup_fd, "r"))) {
		fprintf(stderr, "buildbpf: cannot read '%s': %s\n", term_escape(name, esc, sizeof(esc)),
			strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	e = event_log_reader__open(reader, f, err, sizeof(err));
	if (!e)
		e = replay__run(rp, *reader, ropts, err, sizeof(err));
	if (e) {
		/* A stop is said by the caller, with where the log is. */
		if (e != -EINTR)
			fprintf(stderr, "buildbpf: '%s': %s\n", term_escape(name, esc, sizeof(esc)), err);
		goto fail;
	}
	if (warn_cut && !rp->complete)
		fprintf(stderr, "buildbpf: warning: '%s': %s; converted up to its last complete record\n",
			term_escape(name, esc, sizeof(esc)), err);
	if (rp->out_of_range)
		fprintf(stderr, "buildbpf: warning: '%s': %llu records dated more than %llu days after the start "
				"were left out\n",
			term_escape(name, esc, sizeof(esc)), (unsigned long long)rp->out_of_range,
			(unsigned long long)(REPLAY_DEFAULT_MAX_SPAN_NS / 86400000000000ull));
	/* The reader's FILE is no longer needed: the info lives in the reader. */
	fclose(f);
	return 0;
fail:
	replay__free(rp);
	event_log_reader__free(*reader);
	*reader = NULL;
	fclose(f);
	return -1;
}

struct audit *compute_audit(struct audit *a, struct build_graph *g, struct start_causes *sc,
			    const struct replay *rp)
{
	const struct event_log_info *info = rp->info;
	struct audit_input in = {
		.nr_cpus = info->online_cpus > 0 ? (size_t)info->online_cpus : 0,
		.cmd_argv = info->cmd_argv,
		.cmd_argc = info->cmd_argc,
		.makeflags = info->makeflags,
		.lost_events = rp->lost_events,
		.partial_reason = rp->partial_reason,
		.follow = info->follow,
		.nr_follow = info->nr_follow,
	};

	memset(a, 0, sizeof(*a));
	memset(g, 0, sizeof(*g));
	if (sc)
		memset(sc, 0, sizeof(*sc));
	if (rp->files) {
		if (build_graph__compute(g, rp->model, rp->files))
			fprintf(stderr, "buildbpf: warning: out of memory computing the build graph; the chain is an estimate\n");
		else
			in.graph = g;
	}
	/* A recording made before the start-wake records has none: no causes, not all unexplained. */
	if (sc && in.graph && rp->wakes && rp->wakes->nr) {
		if (start_causes__compute(sc, rp->model, g, rp->wakes))
			fprintf(stderr, "buildbpf: warning: out of memory computing why processes started when they did\n");
		else
			in.starts = sc;
	}
	if (audit__compute(a, rp->model, rp->sched, &in)) {
		fprintf(stderr, "buildbpf: warning: out of memory computing the audit; no report\n");
		return NULL;
	}
	return a;
}

/* What the trace carries besides the model: otherData and the audit, merge and graph beside it. */
void fill_meta(struct trace_meta *meta, const struct replay *rp, const struct trace_merge *merged,
		      const struct audit *audit, const struct build_graph *graph)
{
	const struct event_log_info *info = rp->info;

	memset(meta, 0, sizeof(*meta));
	meta->version = info->buildbpf_version;
	meta->kernel_release = info->kernel_release;
	meta->nr_cpus = info->online_cpus;
	meta->cmd_argv = info->cmd_argv;
	meta->cmd_argc = info->cmd_argc;
	meta->start_realtime_ns = info->start_ns + info->realtime_offset_ns;
	meta->lost_events = rp->lost_events;
	meta->args_max = info->args_max;
	meta->user = info->user;
	meta->path_env = info->path_env;
	meta->sched = rp->sched;
	meta->layout = rp->layout;
	meta->partial_reason = rp->partial_reason;
	meta->attached_pid = info->attached ? info->root_pid : 0;
	meta->cgroup = info->cgroup;
	meta->follow = info->follow;
	meta->nr_follow = info->nr_follow;
	meta->merge = merged;
	meta->audit = audit;
	/* compute_audit() leaves it empty when the recording has no file records */
	meta->graph = graph->proc_files ? graph : NULL;
	meta->starts = audit ? audit->starts : NULL;
}

/* After a stop: what was asked is not written; says where the recording is. */
int say_stopped(int sig, const char *log_path)
{
	char esc[TERM_ESCAPE_BUF];

	fprintf(stderr, "buildbpf: stopped by SIG%s before the trace was written", sigabbrev_np(sig));
	if (log_path) {
		term_escape(log_path, esc, sizeof(esc));
		fprintf(stderr, "; the recording is kept in '%s'; convert it with: buildbpf convert '%s' -o trace.json",
			esc, esc);
	}
	fputc('\n', stderr);
	return 128 + sig;
}

/* The toolchain's own traces: the trace directory, then each --merge. */
struct trace_merge *merge_traces(const struct cli_opts *opts, const struct replay *rp, const struct trace_dir *tdir,
				 volatile sig_atomic_t *stop)
{
	struct merge_limits limits = { opts->merge_max_file, opts->merge_max_events };
	struct trace_merge *tm = NULL;
	struct trace_files *tf = NULL;
	size_t i;
	int err = -ENOMEM;

	if (tdir->fd < 0 && !opts->nr_merge)
		return NULL;
	tm = trace_merge__new(rp->model, rp->layout, rp->info->realtime_offset_ns, &limits);
	tf = tm ? trace_files__new(tm, stderr) : NULL;
	if (!tf)
		goto cleanup;
	trace_files__set_stop(tf, stop);
	err = tdir->fd >= 0 ? trace_files__add_dir(tf, tdir->fd, tdir->path) : 0;
	for (i = 0; !err && i < opts->nr_merge; i++)
		err = trace_files__add_glob(tf, opts->merge[i]);
	if (!err)
		err = trace_merge__finish(tm);
cleanup:
	trace_files__free(tf);
	if (err == -EINTR) {
		trace_merge__free(tm);
		return NULL;
	}
	if (err) {
		fprintf(stderr, "buildbpf: warning: out of memory merging the tools' traces; none merged\n");
		trace_merge__free(tm);
		return NULL;
	}
	return tm;
}

/* How convert and report replay a recording: the levels asked for, else the recording's. */
struct replay_opts read_opts_of(const struct cli_opts *opts, volatile sig_atomic_t *stop)
{
	return (struct replay_opts){
		.sched = opts->sched,
		.sched_given = opts->sched_given,
		.sched_resolution_ns = opts->resolution_given ? opts->sched_resolution_ns : 0,
		.deps = opts->deps,
		.deps_given = opts->deps_given,
		.stop = stop,
	};
}
