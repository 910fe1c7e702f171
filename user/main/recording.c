// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "graph/job_slots.h"
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

/*
 * Replays the log on fd into rec->rp.  0, or -1 (said; a stop is not).
 * The reader's FILE is closed after: the info lives in the reader.
 */
static int replay_log(struct recording *rec, int fd, const struct recording_opts *o)
{
	struct replay *rp = &rec->rp;
	char err[256], esc[TERM_ESCAPE_BUF];
	FILE *f = NULL;
	int dup_fd, e;

	dup_fd = dup(fd);
	if (dup_fd < 0 || lseek(dup_fd, 0, SEEK_SET) < 0 || !(f = fdopen(dup_fd, "r"))) {
		fprintf(rec->say, "buildbpf: cannot read '%s': %s\n", term_escape(rec->name, esc, sizeof(esc)),
			strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	e = event_log_reader__open(&rec->reader, f, err, sizeof(err));
	if (!e) {
		struct replay_opts replay = o->replay;

		if (o->progress) {
			replay.on_records = progress__records;
			replay.on_records_ctx = o->progress;
		}
		e = replay__run(rp, rec->reader, &replay, err, sizeof(err));
	}
	/* Erased before anything is said of the log. */
	progress__log_read(o->progress);
	if (e) {
		/* A stop is said by the caller, with where the log is. */
		if (e != -EINTR)
			fprintf(rec->say, "buildbpf: '%s': %s\n", term_escape(rec->name, esc, sizeof(esc)), err);
		fclose(f);
		return -1;
	}
	if (o->warn_cut && !rp->complete)
		fprintf(rec->say, "buildbpf: warning: '%s': %s; converted up to its last complete record\n",
			term_escape(rec->name, esc, sizeof(esc)), err);
	if (rp->out_of_range)
		fprintf(rec->say, "buildbpf: warning: '%s': %llu records dated more than %llu days after the start "
				"were left out\n",
			term_escape(rec->name, esc, sizeof(esc)), (unsigned long long)rp->out_of_range,
			(unsigned long long)(REPLAY_DEFAULT_MAX_SPAN_NS / 86400000000000ull));
	fclose(f);
	return 0;
}

/*
 * The graph stage (graph/graph_run.h) into rec->graph, and what the audit
 * reads of it.  Without memory a warning for the step that ran out: the
 * audit then has no graph (its chain an estimate), or no start causes.
 */
static void compute_graph(struct recording *rec, const struct job_slots *slots, struct start_wakes *wakes,
			  struct audit_input *in)
{
	const struct replay *rp = &rec->rp;
	enum graph_step failed;

	if (graph_run__compute(&rec->graph, rp->model, slots, rp->files, wakes, &failed)) {
		if (failed != GRAPH_STARTS && failed != GRAPH_PATH) {
			fprintf(rec->say, "buildbpf: warning: out of memory computing the build graph; the chain is an estimate\n");
			return;
		}
		if (failed == GRAPH_STARTS)
			fprintf(rec->say, "buildbpf: warning: out of memory computing why processes started when they did\n");
		else
			fprintf(rec->say, "buildbpf: warning: out of memory walking the critical path; the chain is an estimate\n");
	}
	in->graph = &rec->graph;
	in->starts = rec->graph.starts.procs ? &rec->graph.starts : NULL;
}

/*
 * The parallelism audit, with the build graph when the recording has file
 * records and why each process started when asked and recorded.  The job
 * slots come from the process tree alone: computed once, whatever the
 * file records, and read by the graph and the audit's phases.  Without
 * memory a warning, and rec->audit stays NULL.
 */
static void compute_audit(struct recording *rec, bool starts)
{
	const struct replay *rp = &rec->rp;
	struct audit_input in = audit_input__of_replay(rp);
	struct job_slots slots;

	if (job_slots__init(&slots, rp->model, &in.jobs_env, in.nr_cpus)) {
		fprintf(rec->say, "buildbpf: warning: out of memory computing the audit; no report\n");
		return;
	}
	in.slots = &slots;
	if (rp->files)
		compute_graph(rec, &slots, starts ? rp->wakes : NULL, &in);
	/* The start-wake records are the start causes' alone: the graph stage gave them back once read, and
	 * without it they go here, before the audit and the outputs. */
	start_wakes__free(rec->rp.wakes);
	rec->rp.wakes = NULL;
	if (audit__compute(&rec->audit_buf, rp->model, rp->sched, &in))
		fprintf(rec->say, "buildbpf: warning: out of memory computing the audit; no report\n");
	else
		rec->audit = &rec->audit_buf;
	job_slots__free(&slots);
}

int recording__read(struct recording *rec, int fd, const char *name, const struct recording_opts *o)
{
	char esc[TERM_ESCAPE_BUF];

	memset(rec, 0, sizeof(*rec));
	rec->name = name;
	rec->say = o->say ? o->say : stderr;
	if (replay_log(rec, fd, o)) {
		recording__free(rec);
		return -1;
	}
	rec->start_ns = rec->rp.model->start_ns;
	rec->end_ns = rec->rp.model->end_ns;
	if (o->progress)
		progress__step(o->progress->p, "analysing");
	if (o->audit)
		compute_audit(rec, o->starts);
	/* The layout is the outputs' alone: made after the audit, whose peak
	 * it would otherwise add to (96 bytes a process). */
	if (replay__lay_out(&rec->rp)) {
		fprintf(rec->say, "buildbpf: '%s': out of memory\n", term_escape(name, esc, sizeof(esc)));
		recording__free(rec);
		return -1;
	}
	return 0;
}

void recording__meta(const struct recording *rec, struct trace_meta *meta)
{
	const struct replay *rp = &rec->rp;
	const struct event_log_info *info = rp->info;

	memset(meta, 0, sizeof(*meta));
	meta->info = info;
	meta->lost_events = rp->lost_events;
	meta->sched = rp->sched;
	meta->layout = rp->layout;
	meta->partial_reason = rp->partial_reason;
	meta->merge = rec->merged;
	meta->audit = rec->audit;
	/* Empty when the recording has no file records, or was not audited. */
	meta->graph = rec->graph.data.proc_files ? &rec->graph : NULL;
	meta->starts = rec->audit ? rec->audit->starts : NULL;
}

struct run_report recording__report(const struct recording *rec, int exit_code, const char *written, bool verbose)
{
	return (struct run_report){
		.rp = &rec->rp,
		.wall_ns = rec->end_ns - rec->start_ns,
		.audit = rec->audit,
		.merged = rec->merged,
		.exit_code = exit_code,
		.written = written,
		.verbose = verbose,
	};
}

void recording__free(struct recording *rec)
{
	if (rec->audit)
		audit__free(rec->audit);
	graph_run__free(&rec->graph);
	trace_merge__free(rec->merged);
	replay__free(&rec->rp);
	event_log_reader__free(rec->reader);
	memset(rec, 0, sizeof(*rec));
}

/* Opens every host's log, each once.  0, or -1 (said). */
static int read_hosts(struct host_recordings *hr, const char *const *paths, const struct run_as *ra,
		      const struct recording_opts *o)
{
	struct recording_opts rest = *o;
	struct stat st[HOSTS_MAX];
	char esc[TERM_ESCAPE_BUF], esc2[TERM_ESCAPE_BUF];
	size_t i, j;
	int fd, err;

	/* The first log's build keeps its audit; the others are drawn, not audited. */
	rest.audit = rest.starts = false;
	for (i = 0; i < hr->n; i++) {
		fd = open_log(paths[i], ra);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st[i])) {
			st[i].st_dev = 0;
			st[i].st_ino = 0;
		}
		/* One host's log twice would show its build twice, linked to itself. */
		for (j = 0; j < i; j++)
			if (st[j].st_ino && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino) {
				fprintf(stderr, "buildbpf: '%s' is the same recording as '%s': each host's log once\n",
					term_escape(paths[i], esc, sizeof(esc)), term_escape(paths[j], esc2, sizeof(esc2)));
				close(fd);
				return -1;
			}
		err = recording__read(&hr->recs[i], fd, paths[i], &rest);
		close(fd);
		if (err)
			return -1;
		hr->hosts[i] = (struct host){ .rp = &hr->recs[i].rp, .log_name = paths[i] };
	}
	/* The audit is of the first build's own span: computed before the alignment widens it; as a lone
	 * recording's, with why each process started and the critical path walked through it. */
	compute_audit(&hr->recs[0], o->starts);
	return 0;
}

int host_recordings__open(struct host_recordings *hr, const char *const *paths, size_t n, const struct run_as *ra,
			  const struct recording_opts *o)
{
	char err[256];

	memset(hr, 0, sizeof(*hr));
	hr->n = n;
	if (read_hosts(hr, paths, ra, o))
		goto fail;
	if (hosts__align(&hr->set, hr->hosts, hr->n, err, sizeof(err))) {
		fprintf(stderr, "buildbpf: %s\n", err);
		goto fail;
	}
	if (hosts__link_remote_jobs(&hr->set) || hosts__audit(&hr->set)) {
		fprintf(stderr, "buildbpf: out of memory aligning the hosts\n");
		goto fail;
	}
	return 0;
fail:
	host_recordings__free(hr);
	return -1;
}

void host_recordings__free(struct host_recordings *hr)
{
	hosts__free(&hr->set);
	for (size_t i = 0; i < HOSTS_MAX; i++)
		recording__free(&hr->recs[i]);
	memset(hr, 0, sizeof(*hr));
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

struct merge_sources merge_sources__of(const struct cli_opts *opts, const struct trace_dir *tdir)
{
	return (struct merge_sources){
		.tdir = tdir,
		.globs = opts->merge,
		.nr_globs = opts->nr_merge,
		.limits = { opts->merge_max_file, opts->merge_max_events },
	};
}

void recording__merge(struct recording *rec, const struct merge_sources *src, volatile sig_atomic_t *stop)
{
	const struct replay *rp = &rec->rp;
	struct trace_merge *tm = NULL;
	struct trace_files *tf = NULL;
	size_t i;
	int err = -ENOMEM;

	if (src->tdir->fd < 0 && !src->nr_globs)
		return;
	tm = trace_merge__new(rp->model, rp->layout, rp->info->realtime_offset_ns, &src->limits);
	tf = tm ? trace_files__new(tm, stderr) : NULL;
	if (!tf)
		goto cleanup;
	trace_files__set_stop(tf, stop);
	err = src->tdir->fd >= 0 ? trace_files__add_dir(tf, src->tdir->fd, src->tdir->path) : 0;
	for (i = 0; !err && i < src->nr_globs; i++)
		err = trace_files__add_glob(tf, src->globs[i]);
	if (!err)
		err = trace_merge__finish(tm);
cleanup:
	trace_files__free(tf);
	if (err && err != -EINTR)
		fprintf(stderr, "buildbpf: warning: out of memory merging the tools' traces; none merged\n");
	if (err) {
		trace_merge__free(tm);
		return;
	}
	rec->merged = tm;
}

struct recording_opts recording_opts__read(const struct cli_opts *opts, volatile sig_atomic_t *stop)
{
	return (struct recording_opts){
		.replay = {
			.sched = opts->sched,
			.sched_given = opts->sched_given,
			.sched_resolution_ns = opts->resolution_given ? opts->sched_resolution_ns : 0,
			.deps = opts->deps,
			.deps_given = opts->deps_given,
			.stop = stop,
		},
		.warn_cut = true,
		.audit = true,
		.starts = true,
	};
}
