// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "main/recording.h"
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
