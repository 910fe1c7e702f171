/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chrome Trace Event JSON from the model.  Layout: one trace process (pid
 * 1) named after the command; each lane is a thread (tid = lane + 1); each
 * process instance is an X slice on its lane, with one X sub-slice per
 * image when it exec'd more than once; a fork that is not drawn directly
 * below its parent gets a flow arrow from the parent.
 *
 * With scheduler data two more trace processes follow the build's: "CPUs"
 * (pid 2), one thread per CPU (tid = cpu + 1) holding what ran there, and
 * "Parallelism" (pid 3), the counters on a single thread.  With the build
 * graph (--deps) "Parallelism" also holds the critical path, a track of
 * its own.
 *
 * The trace is streamed: each event is written once, field by field, to
 * a buffered stream (util/json_stream.h) whose one escaper makes every
 * string valid JSON and UTF-8, so memory follows the model (per-proc
 * spans, names, the pid index), never the number of events.  A build
 * traced with --sched=full can have millions of them.  Where an event
 * goes (a host's trace pids, convert --add) is decided before it is
 * written; json-c is left for the trees: otherData, a merged trace's args.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "report/audit_json.h"
#include "model/proc_index.h"
#include "report/chrome_trace.h"
#include "graph/slack.h"
#include "util/json_stream.h"
#include "util/json_write.h"
#include "model/daemons.h"
#include "model/hidden.h"
#include "model/proc_name.h"
#include "model/shell_call.h"
#include "model/trace_layout.h"
#include "merge/trace_merge.h"
#include "util/utf8.h"
#include "version.h"

/* Our own trace pids: real pids are reused by the kernel (docs/trace-rules.md, rule 6). */
#define TRACE_PID 1
#define CPUS_PID 2
#define COUNTERS_PID 3
/* Merged traces with no traced writer, and merged counters. */
#define MERGED_PID 4
/*
 * Track order (docs/trace-rules.md, rule 12): in each trace process the
 * first track's tid is the pid and the others follow in ascending tids.
 * Perfetto draws the thread whose tid is its pid (the "main thread") first
 * and the others by tid, whatever the sort indexes; a CPU 1 at tid 2 in
 * pid 2 was drawn above CPU 0.  So lane k is tid TRACE_PID + k, CPU c is
 * tid CPUS_PID + c, the counters are tid COUNTERS_PID and the merged
 * counters tid MERGED_PID.  thread_sort_index repeats the tid.
 */
#define MERGED_COUNTERS_TID MERGED_PID
/* The build's memory over time (--mem-period): one counter track, tid = pid. */
#define MEMORY_PID 5
#define MEMORY_TID MEMORY_PID
/*
 * --follow: daemon k's work (model/daemons.h) in a trace process of its
 * own, pid DAEMON_PID_BASE + k, its lanes tid pid, pid + 1, ... as the
 * build's.  The CLI takes at most 16 daemons (CLI_FOLLOW_MAX): pids 16..31;
 * a log naming more draws the rest with the build.
 */
#define DAEMON_PID_BASE 16
#define DAEMON_PIDS_MAX DAEMONS_MAX
/* Counter events need a tid like any other event (docs/trace-rules.md, rule 2). */
#define COUNTERS_TID COUNTERS_PID
/* The critical path (--deps): a track of its own under Parallelism, after the counters. */
#define CRITICAL_TID (COUNTERS_PID + 1)
/* The command's phases (audit/cmd_phases.h), after the critical path. */
#define PHASES_TID (COUNTERS_PID + 2)
/* The process track's name is the command line, cut to stay readable. */
#define TRACK_NAME_MAX_BYTES 80
/* Where a lane is drawn: its trace process and thread. */
struct track {
	int pid;
	__s64 tid;
};

struct builder {
	const struct model *m;
	struct json_stream *out;    /* where the trace goes */
	bool first;		    /* no field yet in the object being written */
	size_t nr_events;	    /* in traceEvents so far */
	const struct trace_layout *layout; /* where each process slice goes */
	struct trace_layout *own_layout;   /* made here when the caller gave none */
	__s64 last_flow_id;
	const struct sched_model *sched; /* NULL: no scheduler data */
	const struct proc_index *by_pid; /* with sched: every proc, by (pid, start) */
	struct proc_index *own_by_pid;	 /* by_pid, when the model had none to lend */
	char **cpu_names;		 /* with sched: per proc, its display name once needed */
	const struct graph_run *graph; /* NULL: no file records */
	bool *critical;			 /* with graph: per proc, on the critical path */
	size_t data_flows;		 /* data edges drawn as flows */
	const struct trace_meta *meta;
	/* convert --add: this host's trace processes are the single-host ones
	 * moved up by pid0 (0 for one host), named "HOST: name" (placed()). */
	int pid0;
	const char *host;
};

/* Data edges drawn as flow arrows at most: a huge build's would swamp the viewer. */
#define DATA_FLOWS_MAX 20000

/*
 * convert --add: a trace pid or tid of one host's part, decided before it
 * is written.  Every pid and tid is the single-host one plus pid0, so each
 * host keeps the single-host numbering rules (rule 12: a process's first
 * track's tid is its pid, sort indexes repeat them) and no two hosts share
 * a pid; a process's name says its host (add_process_name()).
 */
static __s64 placed(const struct builder *b, __s64 id)
{
	return b->host ? id + b->pid0 : id;
}

/*
 * Each event is written as it is made, field by field, straight into the
 * stream (util/json_stream.h): nothing of it stays in memory.  Keys are
 * our literals; every string value goes through the stream's one escaper.
 */
static void put_key(struct builder *b, const char *key)
{
	json_stream__key(b->out, key, b->first);
	b->first = false;
}

/* An event's own field (pid, dur, id, ...): see docs/trace.md for its args, the arg_*() below. */
static void field_int(struct builder *b, const char *key, __s64 v)
{
	put_key(b, key);
	json_stream__int(b->out, v);
}

static void field_str(struct builder *b, const char *key, const char *s)
{
	put_key(b, key);
	json_stream__cstr(b->out, s);
}

/* One of the event's args, in the args object begin_args() opened: each key has its row in docs/trace.md. */
static void arg_int(struct builder *b, const char *key, __s64 v)
{
	field_int(b, key, v);
}

static void arg_ms(struct builder *b, const char *key, __u64 ns)
{
	put_key(b, key);
	json_stream__ms(b->out, ns);
}

static void arg_bool(struct builder *b, const char *key, bool v)
{
	put_key(b, key);
	json_stream__bool(b->out, v);
}

static void arg_str(struct builder *b, const char *key, const char *s)
{
	field_str(b, key, s);
}

/* len raw bytes, not a C string (a comm is not NUL-terminated at BB_COMM_LEN). */
static void arg_bytes(struct builder *b, const char *key, const char *raw, size_t len)
{
	put_key(b, key);
	json_stream__str(b->out, raw, len);
}

/*
 * The next element of traceEvents begun, with the fields every phase has
 * (M events get ts 0, see add_meta()); ph and cat are literals.  Its other
 * fields follow, then begin_args() or not, then end_event().
 */
static void begin_event(struct builder *b, const char *ph, const char *cat, const char *name, int pid, __s64 tid,
			__s64 ts)
{
	struct json_stream *js = b->out;

	if (b->nr_events++)
		json_stream__raw(js, ",", 1);
	json_stream__lit(js, "{\"ph\":\"");
	json_stream__lit(js, ph);
	if (cat) {
		json_stream__lit(js, "\",\"cat\":\"");
		json_stream__lit(js, cat);
	}
	json_stream__lit(js, "\",\"name\":");
	json_stream__cstr(js, name);
	b->first = false;
	field_int(b, "pid", placed(b, pid));
	if (tid > 0)
		field_int(b, "tid", placed(b, tid));
	field_int(b, "ts", ts);
}

/* The event's last field, its args object, begun. */
static void begin_args(struct builder *b)
{
	put_key(b, "args");
	json_stream__raw(b->out, "{", 1);
	b->first = true;
}

/* The event closed (and its args, with_args): 0, or the stream's first error. */
static int end_event(struct builder *b, bool with_args)
{
	json_stream__raw(b->out, "}}", with_args ? 2 : 1);
	return json_stream__err(b->out);
}

/* An X slice on any track begun, up to its args: name NULL (out of memory) is -ENOMEM. */
static int begin_x(struct builder *b, int pid, __s64 tid, const char *cat, const char *name, struct trace_span span)
{
	if (!name)
		return json_stream__fail(b->out, -ENOMEM);
	begin_event(b, "X", cat, name, pid, tid, span.ts);
	field_int(b, "dur", span.end - span.ts);
	begin_args(b);
	return json_stream__err(b->out);
}

/* argv's words as an array (NULL words as ""). */
static void arg_argv(struct builder *b, const char *key, char *const *argv, size_t argc)
{
	size_t i;

	put_key(b, key);
	json_stream__raw(b->out, "[", 1);
	for (i = 0; i < argc; i++) {
		if (i)
			json_stream__raw(b->out, ",", 1);
		json_stream__cstr(b->out, argv[i] ? argv[i] : "");
	}
	json_stream__raw(b->out, "]", 1);
}

/* The recording's INFO; a trace without one says nothing of it. */
static const struct event_log_info *info_of(const struct trace_meta *meta)
{
	static const struct event_log_info none;

	return meta->info ? meta->info : &none;
}

/*
 * The trace process of the work run_by_daemon names: the build's, or the
 * k-th --follow daemon's (a daemon not in the list: the build's).
 */
static int work_pid(const struct trace_meta *meta, __u32 run_by_daemon)
{
	const struct event_log_info *info = info_of(meta);
	size_t k;

	for (k = 0; run_by_daemon && k < info->nr_follow && k < DAEMON_PIDS_MAX; k++)
		if ((__u32)info->follow[k] == run_by_daemon)
			return DAEMON_PID_BASE + (int)k;
	return TRACE_PID;
}

/*
 * Where a lane of the layout tl is drawn: in its owner's trace process
 * (the build's or its daemon's), tid pid + its number there - 1 (rule
 * 12).  daemons__mark() marks at most DAEMON_PIDS_MAX daemons, so owners
 * never share a trace process.
 */
static struct track layout_track(const struct trace_meta *meta, const struct trace_layout *tl, __u32 lane)
{
	size_t i = trace_layout__lane_index(tl, lane);
	int pid = work_pid(meta, tl->lane_owner[i]);

	return (struct track){ pid, pid + (__s64)tl->lane_number[i] - 1 };
}

static struct track lane_track(const struct builder *b, __u32 lane)
{
	return layout_track(b->meta, b->layout, lane);
}

/*
 * Metadata names a track and orders it.  tid 0 means the process itself.
 * ts 0 on M is what Chrome itself writes: metadata is outside the
 * timeline, and viewers that sort by ts need a number there.
 */
static int add_meta_name(struct builder *b, int pid, const char *what, __s64 tid, const char *name)
{
	if (!name)
		return json_stream__fail(b->out, -ENOMEM);
	begin_event(b, "M", NULL, what, pid, tid, 0);
	begin_args(b);
	/* The format's own metadata args, not ours: no row in docs/trace.md. */
	field_str(b, "name", name);
	return end_event(b, true);
}

/* A sort index repeats the (placed) pid or tid it orders (rule 12). */
static int add_meta_index(struct builder *b, int pid, const char *what, __s64 tid, __s64 index)
{
	begin_event(b, "M", NULL, what, pid, tid, 0);
	begin_args(b);
	field_int(b, "sort_index", placed(b, index));
	return end_event(b, true);
}

/*
 * A trace process's name, "HOST: name" in a host's part (convert --add):
 * the host's name and the clean name cut to one line of 511 bytes, then
 * cleaned again (a cut may split a character).
 */
static int add_process_name(struct builder *b, int pid, const char *name)
{
	char text[512], *clean;

	if (!b->host || !name)
		return add_meta_name(b, pid, "process_name", 0, name);
	clean = utf8_sanitize(name, strlen(name));
	if (!clean)
		return json_stream__fail(b->out, -ENOMEM);
	snprintf(text, sizeof(text), "%s: %s", b->host, clean);
	free(clean);
	return add_meta_name(b, pid, "process_name", 0, text);
}

/* A malloc'd name (NULL: out of memory) as the trace process pid's name, freed. */
static int add_owned_process_name(struct builder *b, int pid, char *name)
{
	int err = add_process_name(b, pid, name);

	free(name);
	return err;
}

static size_t cmd_argc(const struct event_log_info *info)
{
	return info->cmd_argv && info->cmd_argc > 0 ? (size_t)info->cmd_argc : 0;
}

/* The trace process's name: the command, else the root's name. */
static char *track_name(const struct model *m, const struct trace_meta *meta)
{
	const struct event_log_info *info = info_of(meta);

	if (cmd_argc(info))
		return argv_display_name(info->cmd_argv, cmd_argc(info), TRACK_NAME_MAX_BYTES);
	if (m->root >= 0 && (size_t)m->root < m->nr_procs)
		return proc_display_name(m, &m->procs[m->root]);
	return strdup("buildbpf");
}

/*
 * --follow: each traced daemon's trace process, named after it
 * ("daemon 1234: distccd --daemon ...") and placed after the build's own.
 */
static int add_daemon_names(struct builder *b, const struct trace_meta *meta)
{
	const struct event_log_info *info = info_of(meta);
	struct daemon_share *shares;
	size_t k;
	int err = 0;

	if (!info->nr_follow)
		return 0;
	shares = calloc(info->nr_follow, sizeof(*shares));
	if (!shares)
		return -ENOMEM;
	daemons__shares(b->m, info->follow, info->nr_follow, shares);
	for (k = 0; !err && k < info->nr_follow && k < DAEMON_PIDS_MAX; k++) {
		int pid = DAEMON_PID_BASE + (int)k;
		char *shown, *name;

		if (shares[k].proc < 0)
			continue;
		shown = proc_display_name(b->m, &b->m->procs[shares[k].proc]);
		if (!shown || asprintf(&name, "daemon %u: %s", shares[k].pid, shown) < 0)
			name = NULL;
		free(shown);
		err = add_owned_process_name(b, pid, name) ?: add_meta_index(b, pid, "process_sort_index", 0, pid);
	}
	free(shares);
	return err;
}

static int add_track_names(struct builder *b, const struct trace_meta *meta)
{
	char name[32];
	size_t i;
	int err;

	err = add_owned_process_name(b, TRACE_PID, track_name(b->m, meta));
	if (!err)
		err = add_meta_index(b, TRACE_PID, "process_sort_index", 0, 0);
	if (!err)
		err = add_daemon_names(b, meta);
	for (i = 0; !err && i < b->layout->nr_lanes; i++) {
		struct track t = lane_track(b, b->layout->lanes[i]);

		snprintf(name, sizeof(name), "lane %u", b->layout->lane_number[i]);
		err = add_meta_name(b, t.pid, "thread_name", t.tid, name) ?:
		      add_meta_index(b, t.pid, "thread_sort_index", t.tid, t.tid);
	}
	return err;
}

static bool any_exec_flag(const struct proc_instance *p, __u32 flag)
{
	size_t k;

	for (k = 0; k < p->nr_execs; k++) {
		if (p->execs[k].flags & flag)
			return true;
	}
	return false;
}

static void signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, size, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, size, "SIG%d", sig);
}

/* How the process ended: a readable exit_status and the numbers behind it. */
static void add_exit_status(struct builder *b, const struct proc_instance *p)
{
	int status = (int)p->exit_status;
	char text[64], sig[32];

	if (!p->exited) {
		arg_str(b, "exit_status", p->unfinished ? "running at trace end" : "unknown");
	} else if (WIFEXITED(status)) {
		snprintf(text, sizeof(text), "exit %d", WEXITSTATUS(status));
		arg_str(b, "exit_status", text);
		arg_int(b, "exit_code", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		signal_name(WTERMSIG(status), sig, sizeof(sig));
		snprintf(text, sizeof(text), "killed by %s%s", sig, WCOREDUMP(status) ? " (core dumped)" : "");
		arg_str(b, "exit_status", text);
		arg_int(b, "signal", WTERMSIG(status));
		arg_str(b, "signal_name", sig);
		if (WCOREDUMP(status))
			arg_bool(b, "core_dumped", true);
	} else {
		snprintf(text, sizeof(text), "status 0x%x", p->exit_status);
		arg_str(b, "exit_status", text);
	}
}

static void add_image_args(struct builder *b, const struct exec_image *img)
{
	arg_argv(b, "argv", img ? img->argv : NULL, img ? img->argc : 0);
	if (img && img->filename)
		arg_str(b, "filename", img->filename);
}

/* Where the process's threads spent their lifetime, from the sched tracepoints. */
static void add_sched_args(struct builder *b, const struct bb_sched_acct *acct)
{
	arg_ms(b, "on_cpu_ms", acct->on_cpu_ns);
	arg_ms(b, "runq_wait_ms", acct->runq_ns);
	arg_ms(b, "blocked_ms", acct->blocked_ns);
	arg_ms(b, "sleep_ms", acct->sleep_ns);
	arg_int(b, "switches_voluntary", acct->nr_voluntary);
	arg_int(b, "switches_involuntary", acct->nr_involuntary);
	arg_int(b, "migrations", acct->nr_migrations);
}

/*
 * docs/trace.md, "Slice arguments": a process slice's pid and ppid are the
 * kernel's global ids, the ones ps and /proc show outside the build.
 * "ns_pid" is the pid the process has in its own PID namespace, the one the
 * build itself sees ($$, getpid(), pid files) when it runs in a new one
 * (unshare --pid --fork, a container).  It is there only when it differs
 * from pid, so the trace of an ordinary build has none.
 */
static void add_ns_pid(struct builder *b, const struct proc_instance *p)
{
	if (p->ns_pid && p->ns_pid != p->pid)
		arg_int(b, "ns_pid", p->ns_pid);
}

/* I/O (model/io.h): the figures the kernel counted, none without a record. */
static void add_io_args(struct builder *b, const struct proc_instance *p)
{
	const struct bb_io_acct *io = &p->io;

	if (!p->io_seen)
		return;
	if (p->io_flags & BB_IO_STORAGE) {
		arg_int(b, "io_read_bytes", io->read_bytes);
		arg_int(b, "io_write_bytes", io->write_bytes);
		arg_int(b, "io_cancelled_write_bytes", io->cancelled_write_bytes);
	}
	if (p->io_flags & BB_IO_SYSCALLS) {
		arg_int(b, "io_rchar", io->rchar);
		arg_int(b, "io_wchar", io->wchar);
		arg_int(b, "io_syscr", io->syscr);
		arg_int(b, "io_syscw", io->syscw);
	}
}

/* What the process's state flags say, each only when set. */
static void add_proc_flags(struct builder *b, const struct proc_instance *p)
{
	if (p->unfinished)
		arg_bool(b, "unfinished", true);
	if (p->exit_record_lost)
		arg_bool(b, "exit_record_lost", true);
	if (p->fork_record_lost)
		arg_bool(b, "fork_record_lost", true);
	/* --attach: running before the trace; its CPU times are the traced part. */
	if (p->found) {
		arg_bool(b, "started_before_trace", p->ran_before_ns > 0);
		arg_ms(b, "ran_before_trace_ms", p->ran_before_ns);
	}
	/* --follow: run by the daemon, not by the command. */
	if (p->run_by_daemon)
		arg_int(b, "run_by_daemon", p->run_by_daemon);
	if (p->oom_killed)
		arg_bool(b, "oom_killed", true);
	if (p->hidden)
		arg_str(b, "hidden", hidden__why(p->hidden));
}

static void add_proc_args(struct builder *b, const struct proc_instance *p)
{
	add_image_args(b, p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL);
	arg_int(b, "pid", p->pid);
	arg_int(b, "ppid", p->ppid);
	add_ns_pid(b, p);
	add_exit_status(b, p);
	arg_ms(b, "cpu_user_ms", p->utime_ns);
	arg_ms(b, "cpu_sys_ms", p->stime_ns);
	arg_int(b, "peak_rss_kb", p->peak_rss_kb);
	arg_int(b, "maxrss_kb", p->maxrss_kb);
	arg_int(b, "threads", p->nr_threads);
	arg_int(b, "images", p->nr_execs);
	arg_bytes(b, "comm", p->comm, strnlen(p->comm, BB_COMM_LEN));
	if (b->sched)
		add_sched_args(b, &p->sched);
	add_proc_flags(b, p);
	add_io_args(b, p);
	if (any_exec_flag(p, BB_EXEC_ARGS_TRUNCATED))
		arg_bool(b, "args_truncated", true);
	if (any_exec_flag(p, BB_EXEC_ARGS_UNREADABLE))
		arg_bool(b, "args_unreadable", true);
	if (any_exec_flag(p, BB_EXEC_FILENAME_TRUNCATED))
		arg_bool(b, "filename_truncated", true);
}

/* A compiler cache's call (audit/compiler_cache.h): "cache": "hit", "miss" or "uncacheable". */
static void add_cache_args(struct builder *b, size_t i)
{
	const char *word = b->meta->audit ? compiler_cache__word(compiler_cache__of(&b->meta->audit->cache, i)) : NULL;

	if (word)
		arg_str(b, "cache", word);
}

/* Why process i started when it did (audit_json__start_fields()). */
static void add_start_args(struct builder *b, size_t i)
{
	struct start_fields f;
	char text[START_TEXT_BYTES];

	if (!audit_json__start_fields(b->meta->starts, b->m, i, &f, text, sizeof(text)))
		return;
	arg_str(b, "waited_for", f.waited_for);
	arg_str(b, "waited_kind", f.waited_kind);
	arg_ms(b, "ready_ms", f.ready_ns);
	arg_ms(b, "waited_ms", f.waited_ns);
}

/* The build graph's facts about process i. */
static void add_graph_args(struct builder *b, size_t i)
{
	const struct graph_proc_files *pf;

	if (!b->graph)
		return;
	pf = &b->graph->data.proc_files[i];
	if (pf->known) {
		arg_int(b, "files_opened", pf->opened);
		arg_int(b, "files_written", pf->written);
	}
	if (b->critical[i])
		arg_bool(b, "critical", true);
	if (shell_call__is(b->m, i))
		arg_bool(b, "make_shell_call", true);
	if (b->graph->proc_slack_ns && b->graph->proc_slack_ns[i] != SLACK_NONE)
		arg_ms(b, "slack_ms", b->graph->proc_slack_ns[i]);
	add_start_args(b, i);
}

/* An X slice on a lane, begun up to its args; name (malloc'd, NULL: out of memory) freed. */
static int begin_slice(struct builder *b, const char *cat, char *name, __u32 lane, struct trace_span span)
{
	struct track t = lane_track(b, lane);
	int err = begin_x(b, t.pid, t.tid, cat, name, span);

	free(name);
	return err;
}

static int add_image_slices(struct builder *b, size_t i)
{
	const struct proc_instance *p = &b->m->procs[i];
	const struct image_layout *images = b->layout->procs[i].images;
	size_t k;
	int err = 0;

	for (k = 0; !err && k < p->nr_execs; k++) {
		if (begin_slice(b, "exec", image_display_name(b->m, p, k), p->lane, images[k].span))
			break;
		arg_int(b, "image", k);
		add_image_args(b, &p->execs[k]);
		err = end_event(b, true);
	}
	return json_stream__err(b->out);
}

/* A flow end (s or f) of cat on a track; Perfetto binds f to the enclosing slice, not the next one. */
static int add_cat_flow_end(struct builder *b, const char *ph, const char *cat, const char *name, struct track t,
			    __s64 ts, __s64 id)
{
	begin_event(b, ph, cat, name, t.pid, t.tid, ts);
	field_int(b, "id", id);
	if (ph[0] == 'f')
		field_str(b, "bp", "e");
	return end_event(b, false);
}

/* A flow end bound to a process slice. */
static int add_flow_end(struct builder *b, const char *ph, const char *name, struct track t, __s64 ts, __s64 id)
{
	return add_cat_flow_end(b, ph, "process", name, t, ts, id);
}

/*
 * A fork arrow for a child the viewer does not draw directly below its
 * parent.  DevTools pairs s with f by (cat, name, id) and binds each end
 * to the slice with the same ts, pid, tid and cat, so both ends are cat
 * "process" and sit at the start of a process slice: the parent's and the
 * child's.  (An exec sub-slice, cat "exec", cannot carry the start.)
 */
static int add_fork_flow(struct builder *b, size_t i)
{
	const struct model *m = b->m;
	const struct proc_instance *p = &m->procs[i];
	const struct proc_layout *procs = b->layout->procs;
	long parent = p->parent;
	__s64 id;

	if (parent < 0 || (size_t)parent >= m->nr_procs || (size_t)parent == i)
		return 0;
	if (procs[i].above == parent)
		return 0;
	/* f before s would be dropped; a child older than its parent is bad data. */
	if (procs[i].span.ts < procs[parent].span.ts)
		return 0;
	id = ++b->last_flow_id;
	return add_flow_end(b, "s", "fork", lane_track(b, m->procs[parent].lane), procs[parent].span.ts, id) ?:
	       add_flow_end(b, "f", "fork", lane_track(b, p->lane), procs[i].span.ts, id);
}

/* A zero-length slice of cat "input" at ts on a track, named name, the file in its args: a flow end binds to it. */
static int add_input_mark(struct builder *b, struct track t, const char *name, __s64 ts, const char *file)
{
	int err = begin_x(b, t.pid, t.tid, "input", name, (struct trace_span){ .ts = ts, .end = ts });

	if (err)
		return err;
	arg_str(b, "file", file);
	return end_event(b, true);
}

/*
 * An input its reader used before its writer ended (a file renamed into
 * place, graph_edge.ready_ns), drawn from the rename: DevTools binds a flow
 * end only to a slice starting at its ts of its cat, so both ends get a
 * zero-length slice of cat "input", "ready" on the writer's lane and
 * "read" at the reader's start.
 */
static int add_ready_flow(struct builder *b, const struct graph_edge *e, __s64 ready_ts)
{
	const struct proc_layout *procs = b->layout->procs;
	struct track from = lane_track(b, b->m->procs[e->writer].lane), to = lane_track(b, b->m->procs[e->reader].lane);
	__s64 id = ++b->last_flow_id;

	return add_input_mark(b, from, "ready", ready_ts, e->path) ?:
	       add_input_mark(b, to, "read", procs[e->reader].span.ts, e->path) ?:
	       add_cat_flow_end(b, "s", "input", "input", from, ready_ts, id) ?:
	       add_cat_flow_end(b, "f", "input", "input", to, procs[e->reader].span.ts, id);
}

/*
 * Data edges as flow arrows named "input", from the writer's slice start
 * to the reader's (where DevTools binds flow ends), the file in the s
 * event's args; only where the reader's slice does not start first.  An
 * input ready before its writer ended starts at that time instead.
 */
static int add_data_flows(struct builder *b)
{
	const struct graph_run *g = b->graph;
	const struct proc_layout *procs = b->layout->procs;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < g->data.nr_edges && b->data_flows < DATA_FLOWS_MAX; i++) {
		const struct graph_edge *e = &g->data.edges[i];
		struct track from = lane_track(b, b->m->procs[e->writer].lane), to = lane_track(b, b->m->procs[e->reader].lane);
		__s64 id, ready_ts = trace_us(b->m, e->ready_ns);

		if (procs[e->reader].span.ts < procs[e->writer].span.ts)
			continue;
		b->data_flows++;
		if (e->ready_ns < b->m->procs[e->writer].end_ns && ready_ts <= procs[e->reader].span.ts) {
			err = add_ready_flow(b, e, ready_ts);
			continue;
		}
		id = ++b->last_flow_id;
		begin_event(b, "s", "process", "input", from.pid, from.tid, procs[e->writer].span.ts);
		field_int(b, "id", id);
		begin_args(b);
		arg_str(b, "file", e->path);
		err = end_event(b, true) ?: add_flow_end(b, "f", "input", to, procs[e->reader].span.ts, id);
	}
	return err;
}

/*
 * Each race (graph/races.h) as an instant event named "race: FILE" on the
 * lane of the process whose access met the other job's (the reader, or the
 * second writer), at that access: a marker on the track where it happened,
 * what to declare in its args.  Thread-scoped, so it stays on that lane.
 */
static int add_race_marks(struct builder *b)
{
	const struct races *r = &b->graph->races;
	const struct model *m = b->m;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < r->nr; i++) {
		const struct race *x = &r->items[i];
		struct track t = lane_track(b, m->procs[x->other_proc].lane);
		char name[96];

		snprintf(name, sizeof(name), "race: %s", x->file);
		begin_event(b, "i", "race", name, t.pid, t.tid, trace_us(m, x->other_ns));
		field_str(b, "s", "t");
		begin_args(b);
		arg_str(b, "kind", race_kind__key(x->kind));
		arg_str(b, "file", x->file);
		arg_int(b, "writer_pid", m->procs[x->writer_step].pid);
		arg_int(b, "other_pid", m->procs[x->other_step].pid);
		arg_str(b, "advice", x->advice);
		err = end_event(b, true);
	}
	return err;
}

/* The "Parallelism" trace process: the counters (--sched) and the critical path (--deps). */
static int add_parallelism_name(struct builder *b)
{
	return add_process_name(b, COUNTERS_PID, "Parallelism") ?:
	       add_meta_index(b, COUNTERS_PID, "process_sort_index", 0, 2);
}

/* A track of Parallelism's, named; first_there: Parallelism itself is named here too. */
static int add_parallelism_track(struct builder *b, bool first_there, __s64 tid, const char *name)
{
	return (first_there ? add_parallelism_name(b) : 0) ?:
	       add_meta_name(b, COUNTERS_PID, "thread_name", tid, name) ?:
	       add_meta_index(b, COUNTERS_PID, "thread_sort_index", tid, tid);
}

/*
 * [from, to) clipped into the trace and cut to start where the slice
 * before it on its track ended (*last_end, moved on), so that a track of
 * spans that follow one another never nests or overlaps (rule 5).  False
 * when it lies outside the trace.
 */
static bool clip_after(const struct builder *b, __u64 from_ns, __u64 to_ns, __s64 *last_end, struct trace_span *span)
{
	if (!trace_layout__clip(b->layout, from_ns, to_ns, span))
		return false;
	if (span->ts < *last_end)
		span->ts = *last_end;
	if (span->end < span->ts)
		span->end = span->ts;
	*last_end = span->end;
	return true;
}

/*
 * The critical path as a track of its own under Parallelism: one slice per
 * step, for the time it held the path.  Steps follow one another in time;
 * a step is cut to start where the one before ended, so the track never
 * nests or overlaps (docs/trace-rules.md, rule 5).
 */
static int add_critical_track(struct builder *b)
{
	const struct graph_run *g = b->graph;
	__s64 last_end = 0;
	size_t i;
	int err;

	if (!g->path.nr)
		return 0;
	/* With --sched the CPU tracks' names named Parallelism already. */
	err = add_parallelism_track(b, !b->sched, CRITICAL_TID, "critical path");
	for (i = 0; !err && i < g->path.nr; i++) {
		const struct critical_step *st = &g->path.steps[i];
		const struct proc_instance *p = &b->m->procs[st->proc];
		struct trace_span span;
		char *name;

		if (!clip_after(b, st->from_ns, st->to_ns, &last_end, &span))
			continue;
		name = proc_display_name(b->m, p);
		err = begin_x(b, COUNTERS_PID, CRITICAL_TID, "critical", name, span);
		free(name);
		if (err)
			break;
		arg_int(b, "pid", p->pid);
		arg_ms(b, "held_ms", st->to_ns - st->from_ns);
		arg_str(b, "then", graph_link__name(st->via));
		if (st->via == LINK_INPUT)
			arg_str(b, "file", g->data.edges[st->edge].path);
		err = end_event(b, true);
	}
	return err;
}

/*
 * The command's phases, when it ran two or more, as a track under
 * Parallelism: one slice per phase, cut like the critical path's, so that
 * a command left running into the next phase never makes them overlap.
 */
static int add_phases_track(struct builder *b, const struct audit *a)
{
	bool named = b->sched || (b->graph && b->graph->path.nr);
	__s64 last_end = 0;
	size_t i;
	int err;

	if (!a || a->nr_cmd_phases < 2)
		return 0;
	err = add_parallelism_track(b, !named, PHASES_TID, "phases");
	for (i = 0; !err && i < a->nr_cmd_phases; i++) {
		const struct audit_cmd_phase *ph = &a->cmd_phases[i];
		struct trace_span span;
		char *name;

		if (!clip_after(b, ph->start_ns, ph->end_ns, &last_end, &span))
			continue;
		name = proc_display_name(b->m, &b->m->procs[ph->proc]);
		err = begin_x(b, COUNTERS_PID, PHASES_TID, "phase", name, span);
		free(name);
		if (err)
			break;
		arg_int(b, "pid", b->m->procs[ph->proc].pid);
		arg_bool(b, "serial", ph->serial);
		if (ph->runner >= 0 && ph->jobs.jobs > 0)
			arg_int(b, "jobs", ph->jobs.jobs);
		err = end_event(b, true);
	}
	return err;
}

static int add_proc(struct builder *b, size_t i)
{
	const struct proc_instance *p = &b->m->procs[i];
	int err;

	err = begin_slice(b, "process", proc_display_name(b->m, p), p->lane, b->layout->procs[i].span);
	if (err)
		return err;
	add_proc_args(b, p);
	add_cache_args(b, i);
	add_graph_args(b, i);
	err = end_event(b, true);
	if (!err && !b->layout->procs[i].flat)
		err = add_image_slices(b, i);
	if (!err)
		err = add_fork_flow(b, i);
	return err;
}

/* ---- CPU lanes and parallelism counters (scheduler data) ---- */

/*
 * CPU lanes can hold millions of slices, each named after the process that
 * ran: sorting the procs by (pid, start) once makes that a binary search.
 */
static int index_pids(struct builder *b)
{
	size_t n = b->m->nr_procs ? b->m->nr_procs : 1;

	b->by_pid = proc_index__of(b->m, &b->own_by_pid);
	b->cpu_names = calloc(n, sizeof(*b->cpu_names));
	return b->by_pid && b->cpu_names ? 0 : -ENOMEM;
}

/* The display name of proc i, computed once: it names every slice it ran. */
static const char *cached_proc_name(struct builder *b, size_t i)
{
	if (!b->cpu_names[i])
		b->cpu_names[i] = proc_display_name(b->m, &b->m->procs[i]);
	return b->cpu_names[i];
}

static __s64 cpu_tid(__u32 cpu)
{
	return (__s64)cpu + CPUS_PID;
}

static int add_cpu_track_names(struct builder *b)
{
	const struct sched_model *s = b->sched;
	char name[32];
	size_t i;
	int err;

	err = add_process_name(b, CPUS_PID, "CPUs") ?: add_meta_index(b, CPUS_PID, "process_sort_index", 0, 1);
	/* Every CPU, also one that stayed idle: an empty named track is fine. */
	for (i = 0; !err && i < s->nr_cpus; i++) {
		__s64 tid = cpu_tid(s->cpus[i].cpu);

		snprintf(name, sizeof(name), "CPU %u", s->cpus[i].cpu);
		err = add_meta_name(b, CPUS_PID, "thread_name", tid, name) ?:
		      add_meta_index(b, CPUS_PID, "thread_sort_index", tid, tid);
	}
	if (!err)
		err = add_parallelism_name(b) ?:
		      add_meta_name(b, COUNTERS_PID, "thread_name", COUNTERS_TID, "counters") ?:
		      add_meta_index(b, COUNTERS_PID, "thread_sort_index", COUNTERS_TID, COUNTERS_TID);
	return err;
}

/*
 * Work outside the build on a CPU.  cname "grey" is the Trace Event Format's
 * reserved neutral colour: catapult (chrome://tracing) draws it so.  The
 * DevTools panel and Perfetto read no cname and colour a slice by a hash of
 * its name (docs/trace-rules.md, rule 13): there it keeps one colour of its
 * own, the name saying what it is.
 */
static int add_other_slice(struct builder *b, __u32 cpu, struct trace_span span)
{
	begin_event(b, "X", "cpu_other", "other (not the build)", CPUS_PID, cpu_tid(cpu), span.ts);
	field_int(b, "dur", span.end - span.ts);
	field_str(b, "cname", "grey");
	begin_args(b);
	return end_event(b, true);
}

static int add_cpu_slice(struct builder *b, const struct cpu_lane *lane, const struct cpu_slice *sl)
{
	const char *name;
	char fallback[48];
	struct trace_span span;
	long proc;

	if (!trace_layout__clip(b->layout, sl->start_ns, sl->end_ns, &span))
		return 0;
	if (sl->kind == CPU_SLICE_OTHER)
		return add_other_slice(b, lane->cpu, span);
	if (sl->kind == CPU_SLICE_MANY) {
		/* Build threads none of which held the CPU: drawn, so a gap stays idle. */
		snprintf(fallback, sizeof(fallback), "many short processes (%u)", sl->merged);
		if (begin_x(b, CPUS_PID, cpu_tid(lane->cpu), "cpu", fallback, span))
			return json_stream__err(b->out);
		arg_int(b, "intervals", sl->merged);
		return end_event(b, true);
	}
	proc = proc_index__at(b->by_pid, sl->tgid, sl->start_ns);
	if (proc >= 0) {
		name = cached_proc_name(b, proc);
	} else {
		snprintf(fallback, sizeof(fallback), "pid %u", sl->tgid);
		name = fallback;
	}
	if (begin_x(b, CPUS_PID, cpu_tid(lane->cpu), "cpu", name, span))
		return json_stream__err(b->out);
	arg_int(b, "pid", sl->tgid);
	arg_int(b, "tid", sl->tid);
	if (sl->merged > 1)
		arg_int(b, "intervals", sl->merged);
	return end_event(b, true);
}

static int add_cpu_slices(struct builder *b)
{
	const struct sched_model *s = b->sched;
	size_t i, k;
	int err = 0;

	for (i = 0; !err && i < s->nr_cpus; i++) {
		const struct cpu_lane *lane = &s->cpus[i];

		for (k = 0; !err && k < lane->nr_slices; k++)
			err = add_cpu_slice(b, lane, &lane->slices[k]);
	}
	return err;
}

/*
 * A counter value rounded to 3 decimals and printed that way, in integer
 * arithmetic so neither the locale nor %.17g noise reaches the file.
 */
static void arg_counter(struct builder *b, const char *key, double x)
{
	long long milli;
	char text[48];

	if (!(x > -1e12 && x < 1e12)) /* NaN, infinities, nonsense */
		x = 0;
	milli = (long long)(x * 1000.0 + (x < 0 ? -0.5 : 0.5));
	snprintf(text, sizeof(text), "%s%lld.%03lld", milli < 0 ? "-" : "", llabs(milli) / 1000, llabs(milli) % 1000);
	put_key(b, key);
	json_stream__lit(b->out, text);
}

static int add_counter_samples(struct builder *b, __s64 ts, const struct counter_sample *cs)
{
	begin_event(b, "C", NULL, "build threads", COUNTERS_PID, COUNTERS_TID, ts);
	begin_args(b);
	arg_counter(b, "running", cs->running);
	arg_counter(b, "runnable", cs->runnable);
	if (end_event(b, true))
		return json_stream__err(b->out);
	begin_event(b, "C", NULL, "CPUs idle", COUNTERS_PID, COUNTERS_TID, ts);
	begin_args(b);
	arg_counter(b, "idle", cs->idle_cpus);
	return end_event(b, true);
}

/*
 * One pair of counter events per sample inside the trace, and a last pair
 * at the trace end repeating the final values: a counter track is drawn
 * up to its last sample, so without it the last bucket would vanish.
 */
static int add_counters(struct builder *b)
{
	const struct model *m = b->m;
	const struct sched_model *s = b->sched;
	const struct counter_sample *last = NULL;
	__s64 last_ts = 0, end_ts = trace_us(m, m->end_ns);
	size_t i;
	int err = 0;

	for (i = 0; !err && i < s->nr_samples; i++) {
		const struct counter_sample *cs = &s->samples[i];

		if (cs->ts_ns < m->start_ns || cs->ts_ns > m->end_ns)
			continue;
		last = cs;
		last_ts = trace_us(m, cs->ts_ns);
		err = add_counter_samples(b, last_ts, cs);
	}
	if (!err && last && last_ts < end_ts)
		err = add_counter_samples(b, end_ts, last);
	return err;
}

/*
 * The build's memory (model/memory.h) as the counter "build memory" of a
 * trace process of its own, in MB, with a last point at the trace end like
 * the parallelism counters.
 */
static int add_memory_counter(struct builder *b)
{
	const struct model *m = b->m;
	__s64 ts, last_ts = 0, end_ts = trace_us(m, m->end_ns);
	const struct mem_sample *last = NULL;
	size_t i;
	int err;

	if (!m->nr_mem_samples)
		return 0;
	err = add_process_name(b, MEMORY_PID, "Memory") ?:
	      add_meta_index(b, MEMORY_PID, "process_sort_index", 0, MEMORY_PID) ?:
	      add_meta_name(b, MEMORY_PID, "thread_name", MEMORY_TID, "counters") ?:
	      add_meta_index(b, MEMORY_PID, "thread_sort_index", MEMORY_TID, MEMORY_TID);
	for (i = 0; !err && i <= m->nr_mem_samples; i++) {
		const struct mem_sample *ms = i < m->nr_mem_samples ? &m->mem_samples[i] : last;

		if (!ms)
			break;
		ts = i < m->nr_mem_samples ? trace_us(m, ms->ts_ns) : end_ts;
		/* One point per microsecond, inside the trace. */
		if (ms->ts_ns < m->start_ns || ts > end_ts || (last && ts <= last_ts))
			continue;
		last = ms;
		last_ts = ts;
		begin_event(b, "C", NULL, "build memory", MEMORY_PID, MEMORY_TID, ts);
		begin_args(b);
		arg_counter(b, "MiB", ms->total_kb / 1024.0);
		err = end_event(b, true);
	}
	return err;
}

static const char *sched_level_name(enum sched_level level)
{
	switch (level) {
	case SCHED_SUMMARY:
		return "summary";
	case SCHED_FULL:
		return "full";
	default:
		return "off";
	}
}

static struct json_object *new_cpu_summary(const struct cpu_lane *lane)
{
	struct json_object *cpu = json_object_new_object();
	int err;

	err = json_put_int(cpu, "cpu", lane->cpu) ?:
	      json_put_ms(cpu, "build_ms", lane->build_ns) ?:
	      json_put_ms(cpu, "other_ms", lane->other_ns) ?:
	      json_put_ms(cpu, "idle_ms", lane->idle_ns) ?:
	      json_put_ms(cpu, "folded_ms", lane->folded_ns) ?:
	      json_put_int(cpu, "folded_slices", (__s64)lane->folded) ?:
	      json_put_int(cpu, "slices", (__s64)lane->nr_slices);
	return json_done(cpu, err);
}

static struct json_object *new_cpu_summaries(const struct sched_model *s)
{
	struct json_object *cpus = json_object_new_array();
	size_t i;
	int err = cpus ? 0 : -ENOMEM;

	for (i = 0; !err && i < s->nr_cpus; i++)
		err = json_append(cpus, new_cpu_summary(&s->cpus[i]));
	return json_done(cpus, err);
}

/* otherData.build_graph: the data edges, and how many were drawn (capped). */
static struct json_object *new_graph_summary(const struct builder *b)
{
	struct json_object *o = json_object_new_object();

	return json_done(o, json_put_int(o, "file_records", b->graph->data.file_records) ?:
				    json_put_int(o, "files", b->graph->data.nr_files) ?:
				    json_put_int(o, "edges", b->graph->data.nr_edges) ?:
				    json_put_int(o, "edges_drawn", b->data_flows) ?:
				    json_put_int(o, "edges_drawn_max", DATA_FLOWS_MAX) ?:
				    json_put_int(o, "critical_steps", b->graph->path.nr) ?:
				    json_put_ms(o, "critical_path_ms", b->graph->path.held_ns) ?:
				    (b->meta->starts ? json_put_int(o, "start_wake_records", b->meta->starts->records)
						     : 0));
}

/* otherData.sched: how the CPU lanes were recorded, and each CPU's totals. */
static struct json_object *new_sched_summary(const struct sched_model *s)
{
	struct json_object *sched = json_object_new_object();
	int err;

	err = json_put_str(sched, "level", sched_level_name(s->level)) ?:
	      json_put_int(sched, "resolution_us", (__s64)(s->resolution_ns / 1000)) ?:
	      json_put_int(sched, "counter_bucket_us", (__s64)(s->bucket_ns / 1000)) ?:
	      json_put(sched, "cpus", new_cpu_summaries(s)) ?:
	      json_put_int(sched, "records", (__s64)s->records) ?:
	      json_put_int(sched, "reordered", (__s64)s->reordered) ?:
	      json_put_int(sched, "malformed", (__s64)s->malformed);
	return json_done(sched, err);
}

static struct json_object *new_iso8601(__u64 realtime_ns)
{
	time_t secs = (time_t)(realtime_ns / 1000000000ull);
	char date[32], text[48];
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm))
		return json_new_str("");
	snprintf(text, sizeof(text), "%s.%03lluZ", date,
		 (unsigned long long)(realtime_ns % 1000000000ull / 1000000ull));
	return json_new_str(text);
}

/* Takes ownership of the malloc'd s. */
static struct json_object *new_owned_string(char *s)
{
	struct json_object *str = s ? json_new_str(s) : NULL;

	free(s);
	return str;
}

/* argv's words as a new array (NULL words as ""). */
static struct json_object *new_argv_array(char *const *argv, size_t argc)
{
	struct json_object *arr = json_object_new_array();
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < argc; i++)
		err = json_append(arr, json_new_str(argv[i] ? argv[i] : ""));
	return json_done(arr, err);
}

static struct json_object *new_opt_string(const char *s)
{
	return json_new_clean_string(s ? s : "", s ? strlen(s) : 0);
}

/* otherData.hidden_processes: how many processes the kernel hid from the user, and why (none: no key). */
static int add_hidden_count(struct json_object *od, const struct model *m)
{
	struct hidden_counts c;
	struct json_object *o;

	hidden__count(m, &c);
	if (!c.procs)
		return 0;
	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	return json_put(od, "hidden_processes", o) ?: json_put_int(o, "count", c.procs) ?:
	       json_put_int(o, "setuid_or_setgid", c.creds) ?: json_put_int(o, "not_dumpable", c.not_dumpable);
}

static struct json_object *other_data(const struct builder *b, const struct trace_meta *meta)
{
	const struct model *m = b->m;
	const struct event_log_info *info = info_of(meta);
	/* The wall clock at the trace start. */
	__u64 start_realtime_ns = info->start_ns + info->realtime_offset_ns;
	struct json_object *od = json_object_new_object();
	size_t i, unfinished = 0;
	int err;

	if (!od)
		return NULL;
	for (i = 0; i < m->nr_procs; i++)
		unfinished += m->procs[i].unfinished;
	err = json_put(od, "buildbpf_version", new_opt_string(info->buildbpf_version ? info->buildbpf_version
										    : BUILDBPF_VERSION)) ?:
	      json_put(od, "kernel_release", new_opt_string(info->kernel_release)) ?:
	      json_put_int(od, "cpu_count", info->online_cpus) ?:
	      json_put(od, "command", new_owned_string(argv_display_name(info->cmd_argv, cmd_argc(info), 0))) ?:
	      json_put(od, "command_argv", new_argv_array(info->cmd_argv, cmd_argc(info))) ?:
	      json_put(od, "start_time", new_iso8601(start_realtime_ns)) ?:
	      json_put_int(od, "start_time_unix_ns", (__s64)start_realtime_ns) ?:
	      json_put_int(od, "lost_events", (__s64)meta->lost_events) ?:
	      json_put_bool(od, "partial", meta->partial_reason != NULL) ?:
	      json_put_int(od, "args_max", info->args_max) ?:
	      json_put(od, "user", new_opt_string(info->user)) ?:
	      json_put(od, "path_env", new_opt_string(info->path_env)) ?:
	      json_put_int(od, "processes", m->nr_procs) ?:
	      json_put_int(od, "records", m->stats.events) ?:
	      json_put_int(od, "memory_records", m->stats.memory_records) ?:
	      json_put_int(od, "io_records", m->stats.io_records) ?:
	      json_put_int(od, "orphan_records", m->stats.orphan_events) ?:
	      json_put_int(od, "lanes", b->layout->nr_lanes) ?:
	      json_put_int(od, "unfinished_processes", unfinished) ?:
	      json_put_int(od, "duration_us", trace_us(m, m->end_ns) - 1) ?:
	      json_put(od, "sched", b->sched ? new_sched_summary(b->sched) : json_new_str("off"));
	if (!err && meta->partial_reason)
		err = json_put(od, "partial_reason", new_opt_string(meta->partial_reason));
	if (!err)
		err = add_hidden_count(od, m);
	/* --attach: the process the trace was attached to */
	if (!err && info->attached && info->root_pid)
		err = json_put_int(od, "attached_pid", info->root_pid);
	if (!err && info->cgroup)
		err = json_put(od, "cgroup", new_opt_string(info->cgroup));
	/* Only when a file was found: an empty trace directory leaves no
	 * trace, so converting a kept log gives the same bytes. */
	if (!err && meta->merge && (meta->merge->stats.files || meta->merge->stats.skipped))
		err = json_put(od, "merge", trace_merge__summary(meta->merge));
	if (!err && meta->audit)
		err = json_put(od, "audit", audit_json__new(meta->audit, m));
	if (!err && b->graph)
		err = json_put(od, "build_graph", new_graph_summary(b));
	if (err) {
		json_object_put(od);
		return NULL;
	}
	return od;
}

/* Per-proc scratch the builder needs before it writes anything. */
static int builder_init(struct builder *b, const struct model *m, const struct trace_meta *meta,
			struct json_stream *out)
{
	size_t i;

	memset(b, 0, sizeof(*b));
	b->m = m;
	b->meta = meta;
	b->sched = meta->sched;
	b->graph = meta->graph;
	if (meta->graph) {
		b->critical = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*b->critical));
		if (!b->critical)
			return -ENOMEM;
		for (i = 0; i < meta->graph->path.nr; i++)
			b->critical[meta->graph->path.steps[i].proc] = true;
	}
	b->out = out;
	b->layout = meta->layout;
	if (!b->layout)
		b->layout = b->own_layout = trace_layout__new(m);
	if (!b->layout)
		return -ENOMEM;
	return b->sched ? index_pids(b) : 0;
}

static void builder_free(struct builder *b)
{
	size_t i;

	trace_layout__free(b->own_layout);
	proc_index__free(b->own_by_pid);
	free(b->critical);
	for (i = 0; b->cpu_names && i < b->m->nr_procs; i++)
		free(b->cpu_names[i]);
	free(b->cpu_names);
}

/* ---- traces merged from the build's own tools (--merge, BUILDBPF_TRACE_DIR) ---- */

static __s64 merged_track_tid(size_t track)
{
	return (__s64)track + MERGED_COUNTERS_TID + 1;
}

static int add_merged_track_names(struct builder *b, const struct trace_merge *tm)
{
	bool counters = false;
	size_t i;
	int err;

	for (i = 0; i < tm->nr_events; i++)
		counters = counters || tm->events[i].kind == MERGED_COUNTER;
	if (!counters && !tm->nr_tracks)
		return 0;
	err = add_process_name(b, MERGED_PID, "Merged traces") ?:
	      add_meta_index(b, MERGED_PID, "process_sort_index", 0, 3);
	if (!err && counters)
		err = add_meta_name(b, MERGED_PID, "thread_name", MERGED_COUNTERS_TID, "counters") ?:
		      add_meta_index(b, MERGED_PID, "thread_sort_index", MERGED_COUNTERS_TID, MERGED_COUNTERS_TID);
	for (i = 0; !err && i < tm->nr_tracks; i++)
		err = add_meta_name(b, MERGED_PID, "thread_name", merged_track_tid(i), tm->tracks[i]) ?:
		      add_meta_index(b, MERGED_PID, "thread_sort_index", merged_track_tid(i), merged_track_tid(i));
	return err;
}

/*
 * One merged event, on its writer's lane (the merge made its slices nest
 * there) or on its file's own track.  cat is always "merged": a flow end
 * binds to the slice with its ts and cat, which must stay the process's.
 */
static int add_merged_event(struct builder *b, const struct merged_event *ev)
{
	struct track t = ev->proc >= 0 ? lane_track(b, b->m->procs[ev->proc].lane)
				       : (struct track){ MERGED_PID, merged_track_tid(ev->track) };

	switch (ev->kind) {
	case MERGED_SLICE:
		begin_event(b, "X", "merged", ev->name, t.pid, t.tid, ev->ts);
		field_int(b, "dur", ev->dur);
		break;
	case MERGED_INSTANT:
		begin_event(b, "i", "merged", ev->name, t.pid, t.tid, ev->ts);
		field_str(b, "s", "t");
		break;
	case MERGED_COUNTER:
		begin_event(b, "C", NULL, ev->name, MERGED_PID, MERGED_COUNTERS_TID, ev->ts);
		break;
	case MERGED_ASYNC:
		begin_event(b, "b", "merged", ev->name, t.pid, t.tid, ev->ts);
		field_int(b, "id", ev->id);
		break;
	default:
		return 0;
	}
	/* The args as the merged file had them (a tree: the merge reads and edits them). */
	put_key(b, "args");
	if (ev->args)
		json_stream__value(b->out, ev->args);
	else
		json_stream__raw(b->out, "{}", 2);
	if (end_event(b, false) || ev->kind != MERGED_ASYNC)
		return json_stream__err(b->out);
	begin_event(b, "e", "merged", ev->name, t.pid, t.tid, ev->ts + ev->dur);
	field_int(b, "id", ev->id);
	return end_event(b, false);
}

static int add_merged(struct builder *b, const struct trace_merge *tm)
{
	size_t i;
	int err = add_merged_track_names(b, tm);

	for (i = 0; !err && i < tm->nr_events; i++)
		err = add_merged_event(b, &tm->events[i]);
	return err;
}

/* Everything one model puts in traceEvents. */
static int add_body(struct builder *b, const struct trace_meta *meta)
{
	const struct model *m = b->m;
	size_t i;
	int err;

	err = add_track_names(b, meta);
	if (!err && b->sched)
		err = add_cpu_track_names(b);
	for (i = 0; !err && i < m->nr_procs; i++)
		err = add_proc(b, i);
	if (!err && b->graph)
		err = add_data_flows(b) ?: add_critical_track(b) ?: add_race_marks(b);
	if (!err)
		err = add_phases_track(b, meta->audit);
	if (!err && b->sched)
		err = add_cpu_slices(b) ?: add_counters(b);
	if (!err)
		err = add_memory_counter(b);
	if (!err && meta->merge)
		err = add_merged(b, meta->merge);
	return err;
}

/* The frame's end: otherData (with extra's keys added; extra is taken) and the newline, all written. */
static int add_tail(struct builder *b, const struct trace_meta *meta, struct json_object *extra)
{
	struct json_object *od = other_data(b, meta);
	int err = od ? 0 : -ENOMEM;

	if (extra) {
		json_object_object_foreach(extra, key, val)
		{
			if (!err)
				err = json_put(od, key, json_object_get(val));
		}
		json_object_put(extra);
	}
	if (err) {
		json_object_put(od);
		return json_stream__fail(b->out, err);
	}
	json_stream__lit(b->out, "],\"displayTimeUnit\":\"ms\",\"otherData\":");
	json_stream__value(b->out, od);
	json_stream__lit(b->out, "}\n");
	json_object_put(od);
	return json_stream__flush(b->out);
}

int chrome_trace__write(const struct model *m, const struct trace_meta *meta, int fd)
{
	static const struct trace_meta no_meta;
	struct json_stream *out = json_stream__new(fd);
	struct builder b;
	int err;

	if (!out)
		return -ENOMEM;
	if (!meta)
		meta = &no_meta;
	err = builder_init(&b, m, meta, out);
	if (!err) {
		json_stream__lit(out, "{\"traceEvents\":[");
		err = add_body(&b, meta) ?: add_tail(&b, meta, NULL);
	}
	builder_free(&b);
	json_stream__free(out);
	return err;
}

/*
 * A link between two hosts' processes: s at the start of the client's
 * slice, f (bound to the enclosing slice) at the start of the job's, each
 * in its own host's trace process.  The job cannot start before its
 * client in the trace (rule 9: f.ts >= s.ts): such a link is not drawn.
 */
static int add_host_link(struct builder *b, const struct trace_part *parts, const struct trace_link *l)
{
	const struct trace_part *from = &parts[l->from_part], *to = &parts[l->to_part];
	__s64 s_ts = from->meta->layout->procs[l->from_proc].span.ts, f_ts = to->meta->layout->procs[l->to_proc].span.ts;
	struct track s_at, f_at;
	int saved = b->pid0, err;
	__s64 id;

	if (f_ts < s_ts)
		return 0;
	s_at = layout_track(from->meta, from->meta->layout, from->m->procs[l->from_proc].lane);
	f_at = layout_track(to->meta, to->meta->layout, to->m->procs[l->to_proc].lane);
	id = ++b->last_flow_id;
	b->pid0 = from->pid0;
	err = add_flow_end(b, "s", l->name, s_at, s_ts, id);
	b->pid0 = to->pid0;
	err = err ?: add_flow_end(b, "f", l->name, f_at, f_ts, id);
	b->pid0 = saved;
	return err;
}

int chrome_trace__write_parts(const struct trace_part *parts, size_t n, const struct trace_link *links,
			      size_t nr_links, struct json_object *extra, int fd)
{
	struct json_stream *out = json_stream__new(fd);
	struct builder b;
	size_t nr_events = 0, k, i;
	__s64 last_flow_id = 0;
	bool live = false;
	int err = out ? 0 : -ENOMEM;

	/* Part 0 last: its builder writes the links and otherData. */
	for (i = 1; !err && i <= n; i++) {
		k = i % n;
		err = builder_init(&b, parts[k].m, parts[k].meta, out);
		live = true;
		b.pid0 = parts[k].pid0;
		b.host = parts[k].host;
		b.nr_events = nr_events;
		b.last_flow_id = last_flow_id;
		if (!err && i == 1)
			json_stream__lit(out, "{\"traceEvents\":[");
		if (!err)
			err = add_body(&b, parts[k].meta);
		nr_events = b.nr_events;
		last_flow_id = b.last_flow_id;
		if (k || err) {
			builder_free(&b);
			live = false;
		}
	}
	for (i = 0; !err && i < nr_links; i++)
		err = add_host_link(&b, parts, &links[i]);
	if (!err)
		err = add_tail(&b, parts[0].meta, json_object_get(extra));
	if (live)
		builder_free(&b);
	json_stream__free(out);
	return err;
}
