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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>
#include "report/audit.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "report/chrome_trace.h"
#include "cli/cli.h"
#include "log/event_log.h"
#include "record/launch.h"
#include "output/output.h"
#include "record/preflight.h"
#include "record/record.h"
#include "model/replay.h"
#include "report/summary.h"
#include "report/svg.h"
#include "util/term_escape.h"
#include "merge/trace_files.h"
#include "merge/trace_merge.h"

#define EXIT_USAGE 2
#define EXIT_FAILURE_SETUP 1

static void fill_meta(struct trace_meta *meta, const struct replay *rp)
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
	meta->sched = rp->sched;
	meta->partial_reason = rp->partial_reason;
}

static void print_summary(FILE *out, const struct replay *rp, int exit_code, const char *written)
{
	struct summary_info summary = {
		.cmd_argv = rp->info->cmd_argv,
		.cmd_argc = rp->info->cmd_argc,
		.exit_status = exit_code,
		.lost_events = rp->lost_events,
		.output_path = written,
		.partial_reason = rp->partial_reason,
	};

	summary__print(out, rp->model, &summary);
}

/*
 * Files in the build's user's reach are read with that user's file
 * access rights (fsuid/fsgid), not root's: a symlink or a --merge glob
 * can then only bring into the trace what the user could read anyway.
 */
static void fs_creds_user(const struct run_as *ra, bool on)
{
	if (!ra || !ra->drop)
		return;
	setfsgid(on ? ra->gid : getegid());
	setfsuid(on ? ra->uid : geteuid());
}

/* The toolchain's own traces: the trace directory, then each --merge. */
static struct trace_merge *merge_traces(const struct cli_opts *opts, const struct model *m,
					const struct trace_dir *tdir, const struct run_as *ra, __s64 offset_ns)
{
	struct merge_limits limits = { opts->merge_max_file, opts->merge_max_events };
	struct trace_merge *tm = NULL;
	struct trace_files *tf = NULL;
	size_t i;
	int err = -ENOMEM;

	if (tdir->fd < 0 && !opts->nr_merge)
		return NULL;
	tm = trace_merge__new(m, offset_ns, &limits);
	tf = tm ? trace_files__new(tm, stderr) : NULL;
	if (!tf)
		goto cleanup;
	fs_creds_user(ra, true);
	err = tdir->fd >= 0 ? trace_files__add_dir(tf, tdir->fd, tdir->path) : 0;
	for (i = 0; !err && i < opts->nr_merge; i++)
		err = trace_files__add_glob(tf, opts->merge[i]);
	fs_creds_user(ra, false);
	if (!err)
		err = trace_merge__finish(tm);
cleanup:
	trace_files__free(tf);
	if (err) {
		fprintf(stderr, "buildbpf: warning: out of memory merging the tools' traces; none merged\n");
		trace_merge__free(tm);
		return NULL;
	}
	return tm;
}

static void say_merged(const struct trace_merge *merged)
{
	if (merged && (merged->stats.files || merged->stats.skipped))
		fprintf(stderr, "buildbpf: merged %zu trace files (%zu events, %zu clamped), skipped %zu\n",
			merged->stats.files, merged->stats.events, merged->stats.clamped, merged->stats.skipped);
}

/* Whether the trace directory holds anything (a tool wrote there). */
static bool trace_dir_has_files(const struct trace_dir *tdir)
{
	int fd = openat(tdir->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return true; /* unknown: keep it */
	}
	while (!found && (de = readdir(d)))
		found = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return found;
}

/*
 * Removes $BUILDBPF_TRACE_DIR after the run, unless --keep-trace-dir; with
 * keep_if_used (record, whose tool traces are merged at convert time) it
 * stays when a tool wrote there.
 */
static void finish_trace_dir(struct trace_dir *tdir, const struct cli_opts *opts, const struct run_as *ra,
			     bool keep_if_used)
{
	char esc[TERM_ESCAPE_BUF];
	int err;

	if (tdir->fd < 0)
		return;
	if (opts->keep_trace_dir || (keep_if_used && trace_dir_has_files(tdir))) {
		term_escape(tdir->path, esc, sizeof(esc));
		if (keep_if_used)
			fprintf(stderr, "buildbpf: the tools' own traces are in %s; merge them with: buildbpf convert "
					"--merge '%s/**' ...\n", esc, esc);
		else
			fprintf(stderr, "buildbpf: trace directory kept: %s\n", esc);
		trace_dir__close(tdir);
		return;
	}
	fs_creds_user(ra, true);
	err = trace_dir__remove(tdir);
	fs_creds_user(ra, false);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot remove the trace directory '%s': %s (remove it by hand)\n",
			term_escape(tdir->path, esc, sizeof(esc)), strerror(-err));
}

/* $BUILDBPF_TRACE_DIR for the command, unless --no-trace-dir; fd -1 without. */
static void make_trace_dir(struct trace_dir *tdir, const struct cli_opts *opts, const struct run_as *ra)
{
	int err;

	tdir->fd = -1;
	if (opts->no_trace_dir)
		return;
	err = trace_dir__create(tdir, ra->drop, ra->uid, ra->gid);
	if (err)
		fprintf(stderr, "buildbpf: warning: cannot create a trace directory: %s; "
				"BUILDBPF_TRACE_DIR is not set (hint: set TMPDIR, or --no-trace-dir)\n",
			strerror(-err));
}

/* --summary-json and --svg: checked before the work, written after it. */
struct side_outputs {
	struct output json, svg;
};

static int side_outputs__prepare(struct side_outputs *so, const struct cli_opts *opts, const struct run_as *ra)
{
	bool drop = ra && ra->drop;
	uid_t uid = ra ? ra->uid : 0;
	gid_t gid = ra ? ra->gid : 0;

	so->json = (struct output){ .fd = -1 };
	so->svg = (struct output){ .fd = -1 };
	if (opts->summary_json && output__prepare(&so->json, opts->summary_json, "summary", "--summary-json",
						  opts->force, drop, uid, gid))
		return -1;
	if (opts->svg && output__prepare(&so->svg, opts->svg, "SVG", "--svg", opts->force, drop, uid, gid))
		return -1;
	return 0;
}

/*
 * Commits a side output that writer filled, or says why not.  Like the
 * trace, a failure here never fails the build.
 */
static void finish_side_output(struct output *o, const char *what, int err)
{
	char esc[TERM_ESCAPE_BUF];

	if (!o->tmp_path)
		return;
	if (!err)
		err = output__commit(o);
	if (!err)
		return;
	if (err == -EEXIST) {
		fprintf(stderr, "buildbpf: warning: '%s' appeared during the build and was not overwritten; ",
			term_escape(o->path, esc, sizeof(esc)));
		fprintf(stderr, "the %s is in '%s'\n", what, term_escape(o->tmp_path, esc, sizeof(esc)));
		free(o->tmp_path); /* kept: not discarded at cleanup */
		o->tmp_path = NULL;
		return;
	}
	fprintf(stderr, "buildbpf: warning: cannot write the %s to '%s': %s\n", what,
		term_escape(o->path, esc, sizeof(esc)), strerror(-err));
	output__discard(o);
}

/* Writes the outputs that were asked for; a missing audit writes none. */
static void side_outputs__write(struct side_outputs *so, const struct audit *a, const struct replay *rp)
{
	if (so->json.tmp_path)
		finish_side_output(&so->json, "summary", a ? audit_json__write(a, rp->model, so->json.fd) : -ENOMEM);
	if (so->svg.tmp_path)
		finish_side_output(&so->svg, "SVG", a ? svg__write_fd(so->svg.fd, a, rp->model, rp->sched) : -ENOMEM);
}

/* Outputs not committed by now are unfinished: removed. */
static void side_outputs__free(struct side_outputs *so)
{
	output__discard(&so->json);
	output__discard(&so->svg);
	output__free(&so->json);
	output__free(&so->svg);
}

/* The parallelism audit of a replayed recording; NULL (and a warning) without memory. */
static struct audit *compute_audit(struct audit *a, const struct replay *rp)
{
	const struct event_log_info *info = rp->info;
	struct audit_input in = {
		.nr_cpus = info->online_cpus > 0 ? (size_t)info->online_cpus : 0,
		.cmd_argv = info->cmd_argv,
		.cmd_argc = info->cmd_argc,
		.makeflags = info->makeflags,
		.lost_events = rp->lost_events,
		.partial_reason = rp->partial_reason,
	};

	memset(a, 0, sizeof(*a));
	if (audit__compute(a, rp->model, rp->sched, &in)) {
		fprintf(stderr, "buildbpf: warning: out of memory computing the audit; no report\n");
		return NULL;
	}
	return a;
}

/*
 * Opens and replays the log on fd (from its start; fd stays open).  0, or
 * -1 with "buildbpf: NAME: reason" printed.
 */
static int replay_log(int fd, const char *name, const struct replay_opts *ropts, struct replay *rp,
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
	fd = output__create_fallback("buildbpf-trace", ".json", ra->drop, ra->uid, ra->gid, fallback_path);
	if (fd < 0) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace elsewhere either: %s\n", strerror(-fd));
		return NULL;
	}
	err = chrome_trace__write(model, meta, fd);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "buildbpf: warning: cannot save the trace to '%s' either: %s\n",
			term_escape(*fallback_path, esc, sizeof(esc)), strerror(-err));
		unlink(*fallback_path);
		return NULL;
	}
	fprintf(stderr, "buildbpf: warning: the trace was saved to '%s' instead\n",
		term_escape(*fallback_path, esc, sizeof(esc)));
	return *fallback_path;
}

static void say_unwritten(const struct record_result *res)
{
	if (res->unwritten)
		fprintf(stderr, "buildbpf: warning: %llu records arrived after the recording could not be written: "
				"they are missing from it\n",
			(unsigned long long)res->unwritten);
}

/* buildbpf [OPTIONS] -- CMD: record to a temporary log, convert it. */
static int cmd_trace(const struct cli_opts *opts, const struct run_as *ra)
{
	struct replay_opts ropts = { .sched = opts->sched, .sched_given = true };
	struct event_log_reader *reader = NULL;
	struct trace_dir tdir = { .fd = -1 };
	struct trace_merge *merged = NULL;
	struct output out = { .fd = -1 };
	struct side_outputs side = { .json = { .fd = -1 }, .svg = { .fd = -1 } };
	struct audit audit_buf, *audit = NULL;
	struct record_result res;
	struct trace_meta meta;
	struct replay rp = {};
	char *log_path = NULL, *fallback_path = NULL, esc[TERM_ESCAPE_BUF];
	const char *written = NULL;
	int log_fd = -1, exit_code = EXIT_FAILURE_SETUP;

	/* Every output is checked before the build starts: a typo in a name
	 * must not cost a whole build. */
	if (output__prepare(&out, opts->output, "trace", "-o", opts->force, ra->drop, ra->uid, ra->gid) ||
	    side_outputs__prepare(&side, opts, ra))
		goto cleanup;
	if (opts->keep_log) {
		log_fd = output__create_direct(opts->keep_log, "event log", "--log", opts->force, ra->drop, ra->uid,
					       ra->gid);
		log_path = strdup(opts->keep_log);
		if (log_fd < 0 || !log_path) {
			if (log_fd >= 0)
				fprintf(stderr, "buildbpf: out of memory\n");
			output__discard(&out);
			goto cleanup;
		}
	} else {
		/* Owned by the user like the trace: it is theirs if it is kept. */
		log_fd = output__create_fallback("buildbpf-recording", ".bbl", ra->drop, ra->uid, ra->gid,
						 &log_path);
	}
	if (log_fd < 0) {
		fprintf(stderr, "buildbpf: cannot create the event log in $TMPDIR: %s (hint: TMPDIR=DIR)\n",
			strerror(-log_fd));
		log_fd = -1;
		output__discard(&out);
		goto cleanup;
	}
	make_trace_dir(&tdir, opts, ra);
	record__run(opts, ra, log_fd, log_path, tdir.fd >= 0 ? tdir.path : NULL, &res);
	exit_code = res.exit_code;
	if (!res.ran) {
		output__discard(&out);
		unlink(log_path); /* it holds no event: nothing ran */
		goto cleanup;
	}
	say_unwritten(&res);
	if (replay_log(log_fd, log_path, &ropts, &rp, &reader, false)) {
		output__discard(&out);
	} else {
		merged = merge_traces(opts, rp.model, &tdir, ra, rp.info->realtime_offset_ns);
		audit = compute_audit(&audit_buf, &rp);
		fill_meta(&meta, &rp);
		meta.merge = merged;
		meta.audit = audit;
		written = write_trace(&out, rp.model, &meta, ra, &fallback_path);
		side_outputs__write(&side, audit, &rp);
		if (!opts->quiet) {
			print_summary(stderr, &rp, exit_code, written);
			say_merged(merged);
			if (audit)
				audit_report__print(stderr, audit, rp.model);
		}
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

cleanup:
	if (audit)
		audit__free(audit);
	side_outputs__free(&side);
	finish_trace_dir(&tdir, opts, ra, false);
	trace_merge__free(merged);
	replay__free(&rp);
	event_log_reader__free(reader);
	output__free(&out);
	if (log_fd >= 0)
		close(log_fd);
	free(log_path);
	free(fallback_path);
	return exit_code;
}

/* buildbpf record -o LOG -- CMD */
static int cmd_record(const struct cli_opts *opts, const struct run_as *ra)
{
	struct trace_dir tdir = { .fd = -1 };
	struct record_result res;
	char esc[TERM_ESCAPE_BUF];
	int fd;

	fd = output__create_direct(opts->output, "event log", "-o", opts->force, ra->drop, ra->uid, ra->gid);
	if (fd < 0)
		return EXIT_FAILURE_SETUP;
	make_trace_dir(&tdir, opts, ra);
	record__run(opts, ra, fd, opts->output, tdir.fd >= 0 ? tdir.path : NULL, &res);
	close(fd);
	finish_trace_dir(&tdir, opts, ra, res.ran);
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

/* buildbpf convert LOG -o TRACE, buildbpf report LOG */
static int cmd_read(const struct cli_opts *opts)
{
	struct replay_opts ropts = {
		.sched = opts->sched,
		.sched_given = opts->sched_given,
		.sched_resolution_ns = opts->resolution_given ? opts->sched_resolution_ns : 0,
	};
	struct event_log_reader *reader = NULL;
	const struct trace_dir no_dir = { .fd = -1 };
	struct trace_merge *merged = NULL;
	struct output out = { .fd = -1 };
	struct side_outputs side = { .json = { .fd = -1 }, .svg = { .fd = -1 } };
	struct audit audit_buf, *audit = NULL;
	struct trace_meta meta;
	struct replay rp = {};
	char esc[TERM_ESCAPE_BUF];
	int fd, err, exit_code = EXIT_FAILURE_SETUP;

	fd = open(opts->log_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "buildbpf: cannot open '%s': %s\n", term_escape(opts->log_path, esc, sizeof(esc)),
			strerror(errno));
		return EXIT_FAILURE_SETUP;
	}
	/* Checked before a long conversion, like before a build. */
	if ((opts->mode == CLI_CONVERT && output__prepare(&out, opts->output, "trace", "-o", opts->force, false, 0, 0)) ||
	    side_outputs__prepare(&side, opts, NULL))
		goto cleanup;
	if (replay_log(fd, opts->log_path, &ropts, &rp, &reader, true)) {
		output__discard(&out);
		goto cleanup;
	}
	audit = compute_audit(&audit_buf, &rp);
	side_outputs__write(&side, audit, &rp);
	if (opts->mode == CLI_REPORT) {
		print_summary(stdout, &rp, replay__exit_code(&rp), NULL);
		if (audit)
			audit_report__print(stdout, audit, rp.model);
		exit_code = 0;
		goto cleanup;
	}
	merged = merge_traces(opts, rp.model, &no_dir, NULL, rp.info->realtime_offset_ns);
	fill_meta(&meta, &rp);
	meta.merge = merged;
	meta.audit = audit;
	err = chrome_trace__write(rp.model, &meta, out.fd) ?: output__commit(&out);
	if (err) {
		fprintf(stderr, "buildbpf: cannot write the trace to '%s': %s\n",
			term_escape(opts->output, esc, sizeof(esc)), strerror(-err));
		output__discard(&out);
		goto cleanup;
	}
	if (!opts->quiet) {
		print_summary(stderr, &rp, replay__exit_code(&rp), out.path);
		say_merged(merged);
		if (audit)
			audit_report__print(stderr, audit, rp.model);
	}
	exit_code = 0;
cleanup:
	if (audit)
		audit__free(audit);
	side_outputs__free(&side);
	trace_merge__free(merged);
	replay__free(&rp);
	event_log_reader__free(reader);
	output__free(&out);
	close(fd);
	return exit_code;
}

int main(int argc, char **argv)
{
	struct cli_opts opts;
	struct run_as ra;
	int err;

	err = cli__parse(&opts, argc, argv, stdout, stderr);
	if (err <= 0) {
		if (opts.version)
			preflight__print_features(stdout);
		return err < 0 ? EXIT_USAGE : 0;
	}
	if (opts.mode == CLI_CONVERT || opts.mode == CLI_REPORT)
		return cmd_read(&opts);
	if (preflight__check())
		return EXIT_FAILURE_SETUP;
	if (run_as__resolve(&ra, opts.user, opts.keep_root))
		return EXIT_FAILURE_SETUP;
	return opts.mode == CLI_RECORD ? cmd_record(&opts, &ra) : cmd_trace(&opts, &ra);
}
