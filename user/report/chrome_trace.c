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
 * The trace is streamed: each event is built as a small json-c object,
 * serialised into a write buffer and taken apart as the next one comes
 * (its containers and numbers go back to a pool, util/json_pool.h), so
 * memory follows the model (per-proc spans, names, the pid index), never
 * the number of events.  A build traced with --sched=full can have
 * millions of them.
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
#include "util/json_pool.h"
#include "util/json_write.h"
#include "model/daemons.h"
#include "model/hidden.h"
#include "model/proc_name.h"
#include "model/shell_call.h"
#include "model/trace_layout.h"
#include "merge/trace_merge.h"
#include "util/utf8.h"
#include "util/write_all.h"
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
/* Plain: no indentation, the file is for viewers and can be large. */
#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
/* Output gathered per write(2): not a system call per event. */
#define WRITE_BUF_BYTES (64 * 1024)

/* Where a lane is drawn: its trace process and thread. */
struct track {
	int pid;
	__s64 tid;
};

struct builder {
	const struct model *m;
	int fd;			    /* where the trace goes */
	char *buf;		    /* WRITE_BUF_BYTES: output not yet written */
	size_t buf_used;
	int write_err;		    /* the first write error; nothing is written after it */
	size_t nr_events;	    /* in traceEvents so far */
	const struct trace_layout *layout; /* where each process slice goes */
	struct trace_layout *own_layout;   /* made here when the caller gave none */
	__s64 last_flow_id;
	const struct sched_model *sched; /* NULL: no scheduler data */
	struct proc_index *by_pid;	 /* with sched: every proc, by (pid, start) */
	char **cpu_names;		 /* with sched: per proc, its display name once needed */
	const struct graph_run *graph; /* NULL: no file records */
	bool *critical;			 /* with graph: per proc, on the critical path */
	size_t data_flows;		 /* data edges drawn as flows */
	const struct trace_meta *meta;
	struct json_pool *pool;		 /* the values of the event at hand, reused by the next */
	/* convert --add: this host's trace processes are the single-host ones
	 * moved up by pid0 (0 for one host), named "HOST: name" (emit()). */
	int pid0;
	const char *host;
};

/* Data edges drawn as flow arrows at most: a huge build's would swamp the viewer. */
#define DATA_FLOWS_MAX 20000

/*
 * Output goes through b->buf.  The first write error sticks: every later
 * put returns it without writing, and the generators stop on it.
 */
static int flush(struct builder *b)
{
	if (!b->write_err && b->buf_used)
		b->write_err = write_all(b->fd, b->buf, b->buf_used);
	b->buf_used = 0;
	return b->write_err;
}

static int put_text(struct builder *b, const char *text, size_t len)
{
	if (b->write_err)
		return b->write_err;
	if (len > WRITE_BUF_BYTES - b->buf_used) {
		if (flush(b))
			return b->write_err;
		/* An event larger than the buffer (a long argv) goes out directly. */
		if (len >= WRITE_BUF_BYTES) {
			b->write_err = write_all(b->fd, text, len);
			return b->write_err;
		}
	}
	memcpy(b->buf + b->buf_used, text, len);
	b->buf_used += len;
	return 0;
}

/*
 * Only the trace's frame is literal text (constant keys, nothing to
 * escape); every value, and every string in it, is written by json-c.
 */
static int put_str(struct builder *b, const char *frame)
{
	return put_text(b, frame, strlen(frame));
}

/* s as json-c writes a string with JSON_FLAGS: quoted, its controls, quote and backslash escaped. */
static int put_escaped(struct builder *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t from = 0, i;
	char esc[8];
	int err = put_text(b, "\"", 1);

	for (i = 0; !err && i < len; i++) {
		unsigned char c = s[i];
		const char *rep;

		/* Nearly every byte is printed as is: tell those apart first. */
		if (c >= ' ' && c != '"' && c != '\\')
			continue;
		rep = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\n' ? "\\n"
		      : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '\f' ? "\\f" : NULL;
		if (!rep) {
			snprintf(esc, sizeof(esc), "\\u00%c%c", hex[c >> 4], hex[c & 0xf]);
			rep = esc;
		}
		err = put_text(b, s + from, i - from) ?: put_str(b, rep);
		from = i + 1;
	}
	return err ?: put_text(b, s + from, len - from) ?: put_text(b, "\"", 1);
}

/* Decimal digits of v, written. */
static int put_integer(struct builder *b, __s64 v, bool is_unsigned)
{
	char digits[24], *p = digits + sizeof(digits);
	__u64 u = is_unsigned || v >= 0 ? (__u64)v : -(__u64)v;

	do
		*--p = '0' + u % 10;
	while (u /= 10);
	if (!is_unsigned && v < 0)
		*--p = '-';
	return put_text(b, p, digits + sizeof(digits) - p);
}

/*
 * val as json_object_to_json_string_ext(val, JSON_FLAGS) would write it,
 * written straight into the output: json-c's own printing (a print
 * buffer grown per value, snprintf per number) was most of the trace's
 * cost.
 */
static int put_value(struct builder *b, struct json_object *val)
{
	size_t i, n;
	int err = 0;

	switch (json_object_get_type(val)) {
	case json_type_null:
		return put_str(b, "null");
	case json_type_boolean:
		return put_str(b, json_object_get_boolean(val) ? "true" : "false");
	case json_type_int: {
		/* json-c keeps a number above INT64_MAX as uint64, and clamps it as int64 */
		__s64 v = json_object_get_int64(val);

		return v == INT64_MAX ? put_integer(b, (__s64)json_object_get_uint64(val), true) : put_integer(b, v, false);
	}
	case json_type_double: {
		/* json_new_ms() and json-c's parser keep the text as user data, which json-c prints */
		const char *text = json_object_get_userdata(val) ?: json_object_to_json_string_ext(val, JSON_FLAGS);

		return text ? put_str(b, text) : -ENOMEM;
	}
	case json_type_string:
		return put_escaped(b, json_object_get_string(val), json_object_get_string_len(val));
	case json_type_array:
		n = json_object_array_length(val);
		err = put_text(b, "[", 1);
		for (i = 0; !err && i < n; i++)
			err = (i ? put_text(b, ",", 1) : 0) ?: put_value(b, json_object_array_get_idx(val, i));
		return err ?: put_text(b, "]", 1);
	case json_type_object: {
		bool first = true;

		err = put_text(b, "{", 1);
		json_object_object_foreach(val, key, v)
		{
			if (err)
				break;
			err = (first ? 0 : put_text(b, ",", 1)) ?: put_escaped(b, key, strlen(key)) ?:
			      put_text(b, ":", 1) ?: put_value(b, v);
			first = false;
		}
		return err ?: put_text(b, "}", 1);
	}
	}
	return -EINVAL;
}

/* Writes val; takes ownership of val (NULL: -ENOMEM). */
static int put_json(struct builder *b, struct json_object *val)
{
	int err;

	if (!val)
		return -ENOMEM;
	err = put_value(b, val);
	json_object_put(val);
	return err;
}

/*
 * convert --add: an event of one host's part moved to its trace processes.
 * Every pid and tid is the single-host one plus pid0, so each host keeps
 * the single-host numbering rules (rule 12: a process's first track's tid
 * is its pid, sort indexes repeat them) and no two hosts share a pid; a
 * process's name says its host.  One place, so no generator needs to know.
 */
static int move_to_host(const struct builder *b, struct json_object *ev)
{
	struct json_object *v, *args;
	const char *name;
	char text[512];

	if (json_object_object_get_ex(ev, "pid", &v) && json_object_set_int64(v, json_object_get_int64(v) + b->pid0) != 1)
		return -ENOMEM;
	if (json_object_object_get_ex(ev, "tid", &v) && json_object_set_int64(v, json_object_get_int64(v) + b->pid0) != 1)
		return -ENOMEM;
	if (!json_object_object_get_ex(ev, "args", &args) || !json_object_object_get_ex(ev, "name", &v))
		return 0;
	name = json_object_get_string(v);
	if (!strcmp(name, "process_sort_index") || !strcmp(name, "thread_sort_index")) {
		if (json_object_object_get_ex(args, "sort_index", &v) &&
		    json_object_set_int64(v, json_object_get_int64(v) + b->pid0) != 1)
			return -ENOMEM;
	} else if (!strcmp(name, "process_name") && json_object_object_get_ex(args, "name", &v)) {
		snprintf(text, sizeof(text), "%s: %s", b->host ? b->host : "host", json_object_get_string(v));
		return json_replace(args, "name", json_new_clean_string(text, strlen(text)));
	}
	return 0;
}

/*
 * The next element of traceEvents, written at once: only the event at
 * hand is ever in memory.  Takes ownership of ev.  Each event is built
 * and emitted before the next is begun, so once ev is put nothing holds
 * the pool's values: they go back to it for the next event.
 */
static int emit(struct builder *b, struct json_object *ev)
{
	int err;

	if (!ev)
		err = -ENOMEM;
	else if (b->host && (err = move_to_host(b, ev)))
		json_object_put(ev);
	else if ((err = b->nr_events++ ? put_text(b, ",", 1) : 0))
		json_object_put(ev);
	else
		err = put_json(b, ev);
	json_pool__recycle(b->pool);
	return err;
}

/*
 * ev, whose other fields were put with err, with args as its last field,
 * emitted.  Takes ownership of ev and args, also on failure.
 */
static int emit_with_args(struct builder *b, struct json_object *ev, int err, struct json_object *args)
{
	if (err) {
		json_object_put(args);
		json_object_put(ev);
		return err;
	}
	return emit(b, json_done(ev, json_put(ev, "args", args)));
}

/*
 * The event's containers and numbers come from the pool (b->pool): made
 * once, reused by every event.  Only an event's own values may: anything
 * kept past emit() is made with json-c's constructors.
 */
static struct json_object *new_object(const struct builder *b)
{
	return json_pool__object(b->pool);
}

static int put_int(const struct builder *b, struct json_object *obj, const char *key, __s64 v)
{
	return json_put(obj, key, json_pool__int(b->pool, v));
}

static int put_ms(const struct builder *b, struct json_object *obj, const char *key, __u64 ns)
{
	return json_put(obj, key, json_pool__ms(b->pool, ns));
}

static int put_bool(const struct builder *b, struct json_object *obj, const char *key, bool v)
{
	return json_put(obj, key, json_pool__bool(b->pool, v));
}

/* Takes ownership of the malloc'd s. */
static struct json_object *new_owned_string(char *s)
{
	struct json_object *str = s ? json_new_str(s) : NULL;

	free(s);
	return str;
}

/* arr (NULL: -ENOMEM) with argv's words appended; takes ownership of arr. */
static struct json_object *argv_array(struct json_object *arr, char *const *argv, size_t argc)
{
	size_t i;
	int err = arr ? 0 : -ENOMEM;

	for (i = 0; !err && i < argc; i++) {
		const char *arg = argv[i] ? argv[i] : "";

		err = json_append(arr, json_new_clean_string(arg, strlen(arg)));
	}
	return json_done(arr, err);
}

/*
 * An event with the fields every phase has; M events get ts 0 (see below).
 * ph and cat are literals, each one value shared by every event (json_pool__literal()).
 */
static struct json_object *new_event(const struct builder *b, const char *ph, const char *cat, const char *name, int pid, __s64 tid, __s64 ts)
{
	struct json_object *ev = new_object(b);
	int err;

	err = json_put(ev, "ph", json_pool__literal(b->pool, ph)) ?:
	      (cat ? json_put(ev, "cat", json_pool__literal(b->pool, cat)) : 0) ?:
	      json_put_str(ev, "name", name) ?:
	      put_int(b, ev, "pid", pid) ?:
	      (tid > 0 ? put_int(b, ev, "tid", tid) : 0) ?:
	      put_int(b, ev, "ts", ts);
	return json_done(ev, err);
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
static int add_meta(struct builder *b, int pid, const char *what, __s64 tid, struct json_object *arg)
{
	const char *key = strstr(what, "sort_index") ? "sort_index" : "name";
	struct json_object *args = json_object_new_object();

	args = json_done(args, json_put(args, key, arg));
	return emit_with_args(b, new_event(b, "M", NULL, what, pid, tid, 0), 0, args);
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
		err = add_meta(b, pid, "process_name", 0, new_owned_string(name)) ?:
		      add_meta(b, pid, "process_sort_index", 0, json_object_new_int(pid));
	}
	free(shares);
	return err;
}

static int add_track_names(struct builder *b, const struct trace_meta *meta)
{
	char name[32];
	size_t i;
	int err;

	err = add_meta(b, TRACE_PID, "process_name", 0, new_owned_string(track_name(b->m, meta)));
	if (!err)
		err = add_meta(b, TRACE_PID, "process_sort_index", 0, json_object_new_int(0));
	if (!err)
		err = add_daemon_names(b, meta);
	for (i = 0; !err && i < b->layout->nr_lanes; i++) {
		struct track t = lane_track(b, b->layout->lanes[i]);

		snprintf(name, sizeof(name), "lane %u", b->layout->lane_number[i]);
		err = add_meta(b, t.pid, "thread_name", t.tid, json_new_str(name));
		if (!err)
			err = add_meta(b, t.pid, "thread_sort_index", t.tid, json_object_new_int64(t.tid));
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
static int add_exit_status(const struct builder *b, struct json_object *args, const struct proc_instance *p)
{
	int status = (int)p->exit_status, err;
	char text[64], sig[32];

	if (!p->exited)
		return json_put_str(args, "exit_status", p->unfinished ? "running at trace end" : "unknown");
	if (WIFEXITED(status)) {
		snprintf(text, sizeof(text), "exit %d", WEXITSTATUS(status));
		return json_put_str(args, "exit_status", text) ?:
			       put_int(b, args, "exit_code", WEXITSTATUS(status));
	}
	if (WIFSIGNALED(status)) {
		signal_name(WTERMSIG(status), sig, sizeof(sig));
		snprintf(text, sizeof(text), "killed by %s%s", sig, WCOREDUMP(status) ? " (core dumped)" : "");
		err = json_put_str(args, "exit_status", text) ?:
			      put_int(b, args, "signal", WTERMSIG(status)) ?:
			      json_put_str(args, "signal_name", sig);
		if (!err && WCOREDUMP(status))
			err = put_bool(b, args, "core_dumped", true);
		return err;
	}
	snprintf(text, sizeof(text), "status 0x%x", p->exit_status);
	return json_put_str(args, "exit_status", text);
}

static int add_image_args(const struct builder *b, struct json_object *args, const struct exec_image *img)
{
	int err = json_put(args, "argv", argv_array(json_pool__array(b->pool), img ? img->argv : NULL, img ? img->argc : 0));

	if (!err && img && img->filename)
		err = json_put_str(args, "filename", img->filename);
	return err;
}

/* Where the process's threads spent their lifetime, from the sched tracepoints. */
static int add_sched_args(const struct builder *b, struct json_object *args, const struct bb_sched_acct *acct)
{
	return put_ms(b, args, "on_cpu_ms", acct->on_cpu_ns) ?:
	       put_ms(b, args, "runq_wait_ms", acct->runq_ns) ?:
	       put_ms(b, args, "blocked_ms", acct->blocked_ns) ?:
	       put_ms(b, args, "sleep_ms", acct->sleep_ns) ?:
	       put_int(b, args, "switches_voluntary", acct->nr_voluntary) ?:
	       put_int(b, args, "switches_involuntary", acct->nr_involuntary) ?:
	       put_int(b, args, "migrations", acct->nr_migrations);
}

/*
 * docs/trace.md, "Slice arguments": a process slice's pid and ppid are the
 * kernel's global ids, the ones ps and /proc show outside the build.
 * "ns_pid" is the pid the process has in its own PID namespace, the one the
 * build itself sees ($$, getpid(), pid files) when it runs in a new one
 * (unshare --pid --fork, a container).  It is there only when it differs
 * from pid, so the trace of an ordinary build has none.
 */
static int add_ns_pid(const struct builder *b, struct json_object *args, const struct proc_instance *p)
{
	if (!p->ns_pid || p->ns_pid == p->pid)
		return 0;
	return put_int(b, args, "ns_pid", p->ns_pid);
}

/* sched: whether the sched accounting was recorded (all zero otherwise). */
/* I/O (model/io.h): the figures the kernel counted, none without a record. */
static int add_io_args(const struct builder *b, struct json_object *args, const struct proc_instance *p)
{
	const struct bb_io_acct *io = &p->io;
	int err = 0;

	if (!p->io_seen)
		return 0;
	if (p->io_flags & BB_IO_STORAGE)
		err = put_int(b, args, "io_read_bytes", io->read_bytes) ?:
		      put_int(b, args, "io_write_bytes", io->write_bytes) ?:
		      put_int(b, args, "io_cancelled_write_bytes", io->cancelled_write_bytes);
	if (!err && (p->io_flags & BB_IO_SYSCALLS))
		err = put_int(b, args, "io_rchar", io->rchar) ?: put_int(b, args, "io_wchar", io->wchar) ?:
		      put_int(b, args, "io_syscr", io->syscr) ?: put_int(b, args, "io_syscw", io->syscw);
	return err;
}

static struct json_object *proc_args(const struct builder *b, const struct proc_instance *p)
{
	const struct exec_image *last = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	struct json_object *args = new_object(b);
	int err;

	if (!args)
		return NULL;
	err = add_image_args(b, args, last) ?:
	      put_int(b, args, "pid", p->pid) ?:
	      put_int(b, args, "ppid", p->ppid) ?:
	      add_ns_pid(b, args, p) ?:
	      add_exit_status(b, args, p) ?:
	      put_ms(b, args, "cpu_user_ms", p->utime_ns) ?:
	      put_ms(b, args, "cpu_sys_ms", p->stime_ns) ?:
	      put_int(b, args, "peak_rss_kb", p->peak_rss_kb) ?:
	      put_int(b, args, "maxrss_kb", p->maxrss_kb) ?:
	      put_int(b, args, "threads", p->nr_threads) ?:
	      put_int(b, args, "images", p->nr_execs) ?:
	      json_put(args, "comm", json_new_clean_string(p->comm, strnlen(p->comm, BB_COMM_LEN)));
	if (!err && b->sched)
		err = add_sched_args(b, args, &p->sched);
	if (!err && p->unfinished)
		err = put_bool(b, args, "unfinished", true);
	if (!err && p->exit_record_lost)
		err = put_bool(b, args, "exit_record_lost", true);
	if (!err && p->fork_record_lost)
		err = put_bool(b, args, "fork_record_lost", true);
	/* --attach: running before the trace; its CPU times are the traced part. */
	if (!err && p->found)
		err = put_bool(b, args, "started_before_trace", p->ran_before_ns > 0) ?:
		      put_ms(b, args, "ran_before_trace_ms", p->ran_before_ns);
	/* --follow: run by the daemon, not by the command. */
	if (!err && p->run_by_daemon)
		err = put_int(b, args, "run_by_daemon", p->run_by_daemon);
	if (!err && p->oom_killed)
		err = put_bool(b, args, "oom_killed", true);
	if (!err && p->hidden)
		err = json_put(args, "hidden", json_new_str(hidden__why(p->hidden)));
	if (!err)
		err = add_io_args(b, args, p);
	if (!err && any_exec_flag(p, BB_EXEC_ARGS_TRUNCATED))
		err = put_bool(b, args, "args_truncated", true);
	if (!err && any_exec_flag(p, BB_EXEC_ARGS_UNREADABLE))
		err = put_bool(b, args, "args_unreadable", true);
	if (!err && any_exec_flag(p, BB_EXEC_FILENAME_TRUNCATED))
		err = put_bool(b, args, "filename_truncated", true);
	if (err) {
		json_object_put(args);
		return NULL;
	}
	return args;
}

/* The build graph's facts about process i, added to args (NULL passes through). */
static struct json_object *graph_args(const struct builder *b, size_t i, struct json_object *args)
{
	const struct graph_proc_files *pf;
	int err = 0;

	if (!args || !b->graph)
		return args;
	pf = &b->graph->data.proc_files[i];
	if (pf->known)
		err = put_int(b, args, "files_opened", pf->opened) ?: put_int(b, args, "files_written", pf->written);
	if (!err && b->critical[i])
		err = put_bool(b, args, "critical", true);
	if (!err && shell_call__is(b->m, i))
		err = put_bool(b, args, "make_shell_call", true);
	if (!err && b->graph->proc_slack_ns && b->graph->proc_slack_ns[i] != SLACK_NONE)
		err = put_ms(b, args, "slack_ms", b->graph->proc_slack_ns[i]);
	if (!err)
		err = audit_json__put_start(args, b->meta->starts, b->m, i);
	if (err) {
		json_object_put(args);
		return NULL;
	}
	return args;
}

/* A compiler cache's call (audit/compiler_cache.h): "cache": "hit", "miss" or "uncacheable" (NULL passes through). */
static struct json_object *cache_args(const struct builder *b, size_t i, struct json_object *args)
{
	const char *word = b->meta->audit ? compiler_cache__word(compiler_cache__of(&b->meta->audit->cache, i)) : NULL;

	if (args && word && json_put_str(args, "cache", word)) {
		json_object_put(args);
		return NULL;
	}
	return args;
}

/* An X slice on any track; takes ownership of args. */
static int add_x(struct builder *b, int pid, __s64 tid, const char *cat, const char *name, struct trace_span span,
		 struct json_object *args)
{
	struct json_object *ev = name ? new_event(b, "X", cat, name, pid, tid, span.ts) : NULL;

	return emit_with_args(b, ev, put_int(b, ev, "dur", span.end - span.ts), args);
}

/* An X slice on a lane; takes ownership of the malloc'd name and of args. */
static int add_slice(struct builder *b, const char *cat, char *name, __u32 lane, struct trace_span span,
		     struct json_object *args)
{
	struct track t = lane_track(b, lane);
	int err = add_x(b, t.pid, t.tid, cat, name, span, args);

	free(name);
	return err;
}

static int add_image_slices(struct builder *b, size_t i)
{
	const struct proc_instance *p = &b->m->procs[i];
	const struct image_layout *images = b->layout->procs[i].images;
	struct json_object *args;
	size_t k;
	int err = 0;

	for (k = 0; !err && k < p->nr_execs; k++) {
		args = new_object(b);
		args = json_done(args, put_int(b, args, "image", k) ?: add_image_args(b, args, &p->execs[k]));
		err = add_slice(b, "exec", image_display_name(b->m, p, k), p->lane, images[k].span, args);
	}
	return err;
}

static struct json_object *new_flow(const struct builder *b, const char *ph, __u32 lane, __s64 ts, __s64 id)
{
	struct track t = lane_track(b, lane);
	struct json_object *ev = new_event(b, ph, "process", "fork", t.pid, t.tid, ts);
	int err = put_int(b, ev, "id", id);

	/* Perfetto: bind the end to the enclosing slice, not the next one. */
	if (!err && ph[0] == 'f')
		err = json_put_str(ev, "bp", "e");
	return json_done(ev, err);
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
	int err;

	if (parent < 0 || (size_t)parent >= m->nr_procs || (size_t)parent == i)
		return 0;
	if (procs[i].above == parent)
		return 0;
	/* f before s would be dropped; a child older than its parent is bad data. */
	if (procs[i].span.ts < procs[parent].span.ts)
		return 0;
	id = ++b->last_flow_id;
	err = emit(b, new_flow(b, "s", m->procs[parent].lane, procs[parent].span.ts, id));
	if (!err)
		err = emit(b, new_flow(b, "f", p->lane, procs[i].span.ts, id));
	return err;
}

/*
 * Data edges as flow arrows named "input", from the writer's slice start
 * to the reader's (where DevTools binds flow ends), the file in the s
 * event's args; only where the reader's slice does not start first.
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
		struct json_object *s, *args;
		__s64 id;

		if (procs[e->reader].span.ts < procs[e->writer].span.ts)
			continue;
		id = ++b->last_flow_id;
		s = new_event(b, "s", "process", "input", from.pid, from.tid, procs[e->writer].span.ts);
		args = json_object_new_object();
		err = json_put_int(s, "id", id) ?:
		      json_put(s, "args", json_done(args, json_put_str(args, "file", e->path)));
		err = emit(b, json_done(s, err));
		if (!err) {
			struct json_object *f = new_event(b, "f", "process", "input", to.pid, to.tid,
							  procs[e->reader].span.ts);

			err = emit(b, json_done(f, json_put_int(f, "id", id) ?: json_put_str(f, "bp", "e")));
		}
		b->data_flows++;
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
		struct json_object *e, *args = json_object_new_object();
		char name[96];

		snprintf(name, sizeof(name), "race: %s", x->file);
		e = new_event(b, "i", "race", name, t.pid, t.tid, trace_us(m, x->other_ns));
		err = json_put_str(e, "s", "t") ?:
		      json_put_str(args, "kind", race_kind__key(x->kind)) ?:
		      json_put_str(args, "file", x->file) ?:
		      json_put_int(args, "writer_pid", m->procs[x->writer_step].pid) ?:
		      json_put_int(args, "other_pid", m->procs[x->other_step].pid) ?:
		      json_put_str(args, "advice", x->advice);
		err = emit_with_args(b, e, err, args);
	}
	return err;
}

/* The "Parallelism" trace process: the counters (--sched) and the critical path (--deps). */
static int add_parallelism_name(struct builder *b)
{
	return add_meta(b, COUNTERS_PID, "process_name", 0, json_new_str("Parallelism")) ?:
	       add_meta(b, COUNTERS_PID, "process_sort_index", 0, json_object_new_int(2));
}

/* A track of Parallelism's, named; first_there: Parallelism itself is named here too. */
static int add_parallelism_track(struct builder *b, bool first_there, __s64 tid, const char *name)
{
	return (first_there ? add_parallelism_name(b) : 0) ?:
	       add_meta(b, COUNTERS_PID, "thread_name", tid, json_new_str(name)) ?:
	       add_meta(b, COUNTERS_PID, "thread_sort_index", tid, json_object_new_int(tid));
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
		struct json_object *args;
		struct trace_span span;
		char *name;

		if (!clip_after(b, st->from_ns, st->to_ns, &last_end, &span))
			continue;
		args = json_object_new_object();
		err = json_put_int(args, "pid", p->pid) ?:
		      json_put_ms(args, "held_ms", st->to_ns - st->from_ns) ?:
		      json_put_str(args, "then", graph_link__name(st->via));
		if (!err && st->via == LINK_INPUT)
			err = json_put_str(args, "file", g->data.edges[st->edge].path);
		args = json_done(args, err);
		name = proc_display_name(b->m, p);
		err = add_x(b, COUNTERS_PID, CRITICAL_TID, "critical", name, span, args);
		free(name);
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
		struct json_object *args;
		struct trace_span span;
		char *name;

		if (!clip_after(b, ph->start_ns, ph->end_ns, &last_end, &span))
			continue;
		args = json_object_new_object();
		err = json_put_int(args, "pid", b->m->procs[ph->proc].pid) ?: json_put_bool(args, "serial", ph->serial) ?:
		      (ph->runner >= 0 && ph->jobs.jobs > 0 ? json_put_int(args, "jobs", ph->jobs.jobs) : 0);
		args = json_done(args, err);
		name = proc_display_name(b->m, &b->m->procs[ph->proc]);
		err = add_x(b, COUNTERS_PID, PHASES_TID, "phase", name, span, args);
		free(name);
	}
	return err;
}

static int add_proc(struct builder *b, size_t i)
{
	const struct proc_instance *p = &b->m->procs[i];
	int err;

	err = add_slice(b, "process", proc_display_name(b->m, p), p->lane, b->layout->procs[i].span,
			graph_args(b, i, cache_args(b, i, proc_args(b, p))));
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

	b->by_pid = proc_index__new(b->m);
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

	err = add_meta(b, CPUS_PID, "process_name", 0, json_new_str("CPUs")) ?:
	      add_meta(b, CPUS_PID, "process_sort_index", 0, json_object_new_int(1));
	/* Every CPU, also one that stayed idle: an empty named track is fine. */
	for (i = 0; !err && i < s->nr_cpus; i++) {
		__s64 tid = cpu_tid(s->cpus[i].cpu);

		snprintf(name, sizeof(name), "CPU %u", s->cpus[i].cpu);
		err = add_meta(b, CPUS_PID, "thread_name", tid, json_new_str(name)) ?:
		      add_meta(b, CPUS_PID, "thread_sort_index", tid, json_object_new_int64(tid));
	}
	if (!err)
		err = add_parallelism_name(b) ?:
		      add_meta(b, COUNTERS_PID, "thread_name", COUNTERS_TID, json_new_str("counters")) ?:
		      add_meta(b, COUNTERS_PID, "thread_sort_index", COUNTERS_TID, json_object_new_int(COUNTERS_TID));
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
	struct json_object *ev = new_event(b, "X", "cpu_other", "other (not the build)", CPUS_PID, cpu_tid(cpu), span.ts);

	return emit_with_args(b, ev, put_int(b, ev, "dur", span.end - span.ts) ?: json_put_str(ev, "cname", "grey"),
			      new_object(b));
}

static int add_cpu_slice(struct builder *b, const struct cpu_lane *lane, const struct cpu_slice *sl)
{
	struct json_object *args;
	const char *name;
	char fallback[48];
	struct trace_span span;
	long proc;
	int err;

	if (!trace_layout__clip(b->layout, sl->start_ns, sl->end_ns, &span))
		return 0;
	if (sl->kind == CPU_SLICE_OTHER)
		return add_other_slice(b, lane->cpu, span);
	if (sl->kind == CPU_SLICE_MANY) {
		/* Build threads none of which held the CPU: drawn, so a gap stays idle. */
		snprintf(fallback, sizeof(fallback), "many short processes (%u)", sl->merged);
		args = new_object(b);
		args = json_done(args, put_int(b, args, "intervals", sl->merged));
		if (!args)
			return -ENOMEM;
		return add_x(b, CPUS_PID, cpu_tid(lane->cpu), "cpu", fallback, span, args);
	}
	proc = proc_index__at(b->by_pid, sl->tgid, sl->start_ns);
	if (proc >= 0) {
		name = cached_proc_name(b, proc);
		if (!name)
			return -ENOMEM;
	} else {
		snprintf(fallback, sizeof(fallback), "pid %u", sl->tgid);
		name = fallback;
	}
	args = new_object(b);
	err = put_int(b, args, "pid", sl->tgid) ?: put_int(b, args, "tid", sl->tid);
	if (!err && sl->merged > 1)
		err = put_int(b, args, "intervals", sl->merged);
	args = json_done(args, err);
	if (!args)
		return -ENOMEM;
	return add_x(b, CPUS_PID, cpu_tid(lane->cpu), "cpu", name, span, args);
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
static struct json_object *new_counter_value(double x)
{
	long long milli;
	char text[48];

	if (!(x > -1e12 && x < 1e12)) /* NaN, infinities, nonsense */
		x = 0;
	milli = (long long)(x * 1000.0 + (x < 0 ? -0.5 : 0.5));
	snprintf(text, sizeof(text), "%s%lld.%03lld", milli < 0 ? "-" : "", llabs(milli) / 1000, llabs(milli) % 1000);
	return json_object_new_double_s((double)milli / 1000.0, text);
}

static int add_counter_samples(struct builder *b, __s64 ts, const struct counter_sample *cs)
{
	struct json_object *args;
	int err;

	args = json_object_new_object();
	args = json_done(args, json_put(args, "running", new_counter_value(cs->running)) ?:
				       json_put(args, "runnable", new_counter_value(cs->runnable)));
	err = emit_with_args(b, new_event(b, "C", NULL, "build threads", COUNTERS_PID, COUNTERS_TID, ts), 0, args);
	if (err)
		return err;
	args = json_object_new_object();
	args = json_done(args, json_put(args, "idle", new_counter_value(cs->idle_cpus)));
	return emit_with_args(b, new_event(b, "C", NULL, "CPUs idle", COUNTERS_PID, COUNTERS_TID, ts), 0, args);
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
	struct json_object *args;
	size_t i;
	int err;

	if (!m->nr_mem_samples)
		return 0;
	err = add_meta(b, MEMORY_PID, "process_name", 0, json_new_str("Memory")) ?:
	      add_meta(b, MEMORY_PID, "process_sort_index", 0, json_object_new_int(MEMORY_PID)) ?:
	      add_meta(b, MEMORY_PID, "thread_name", MEMORY_TID, json_new_str("counters")) ?:
	      add_meta(b, MEMORY_PID, "thread_sort_index", MEMORY_TID, json_object_new_int(MEMORY_TID));
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
		args = json_object_new_object();
		args = json_done(args, json_put(args, "MiB", new_counter_value(ms->total_kb / 1024.0)));
		err = emit_with_args(b, new_event(b, "C", NULL, "build memory", MEMORY_PID, MEMORY_TID, ts), 0, args);
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
	      json_put(od, "command_argv", argv_array(json_object_new_array(), info->cmd_argv, cmd_argc(info))) ?:
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

/* Per-proc scratch the builder needs before it emits anything. */
static int builder_init(struct builder *b, const struct model *m, const struct trace_meta *meta, int fd)
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
	b->fd = fd;
	b->buf = malloc(WRITE_BUF_BYTES);
	b->pool = json_pool__new();
	b->layout = meta->layout;
	if (!b->layout)
		b->layout = b->own_layout = trace_layout__new(m);
	if (!b->buf || !b->pool || !b->layout)
		return -ENOMEM;
	return b->sched ? index_pids(b) : 0;
}

static void builder_free(struct builder *b)
{
	size_t i;

	free(b->buf);
	json_pool__free(b->pool);
	trace_layout__free(b->own_layout);
	proc_index__free(b->by_pid);
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
	err = add_meta(b, MERGED_PID, "process_name", 0, json_new_str("Merged traces")) ?:
	      add_meta(b, MERGED_PID, "process_sort_index", 0, json_object_new_int(3));
	if (!err && counters)
		err = add_meta(b, MERGED_PID, "thread_name", MERGED_COUNTERS_TID, json_new_str("counters")) ?:
		      add_meta(b, MERGED_PID, "thread_sort_index", MERGED_COUNTERS_TID,
			       json_object_new_int(MERGED_COUNTERS_TID));
	for (i = 0; !err && i < tm->nr_tracks; i++)
		err = add_meta(b, MERGED_PID, "thread_name", merged_track_tid(i), json_new_str(tm->tracks[i])) ?:
		      add_meta(b, MERGED_PID, "thread_sort_index", merged_track_tid(i),
			       json_object_new_int64(merged_track_tid(i)));
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
	int pid = t.pid;
	__s64 tid = t.tid;
	struct json_object *args = ev->args ? json_object_get(ev->args) : json_object_new_object(), *e;
	int err;

	switch (ev->kind) {
	case MERGED_SLICE:
		return add_x(b, pid, tid, "merged", ev->name, (struct trace_span){ ev->ts, ev->ts + ev->dur }, args);
	case MERGED_INSTANT:
		e = new_event(b, "i", "merged", ev->name, pid, tid, ev->ts);
		return emit_with_args(b, e, json_put_str(e, "s", "t"), args);
	case MERGED_COUNTER:
		e = new_event(b, "C", NULL, ev->name, MERGED_PID, MERGED_COUNTERS_TID, ev->ts);
		return emit_with_args(b, e, 0, args);
	case MERGED_ASYNC:
		e = new_event(b, "b", "merged", ev->name, pid, tid, ev->ts);
		err = emit_with_args(b, e, json_put_int(e, "id", ev->id), args);
		if (err)
			return err;
		e = new_event(b, "e", "merged", ev->name, pid, tid, ev->ts + ev->dur);
		return emit(b, json_done(e, json_put_int(e, "id", ev->id)));
	}
	json_object_put(args);
	return 0;
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

/* The frame's end: otherData (with extra's keys added; extra is taken) and the newline. */
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
		return err;
	}
	return put_str(b, "],\"displayTimeUnit\":\"ms\",\"otherData\":") ?: put_json(b, od) ?: put_str(b, "}\n") ?:
	       flush(b);
}

int chrome_trace__write(const struct model *m, const struct trace_meta *meta, int fd)
{
	static const struct trace_meta no_meta;
	struct builder b;
	int err;

	if (!meta)
		meta = &no_meta;
	err = builder_init(&b, m, meta, fd);
	if (!err)
		err = put_str(&b, "{\"traceEvents\":[");
	if (!err)
		err = add_body(&b, meta);
	if (!err)
		err = add_tail(&b, meta, NULL);
	builder_free(&b);
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
	struct json_object *ev;
	struct track s_at, f_at;
	int saved = b->pid0, err;
	__s64 id;

	if (f_ts < s_ts)
		return 0;
	s_at = layout_track(from->meta, from->meta->layout, from->m->procs[l->from_proc].lane);
	f_at = layout_track(to->meta, to->meta->layout, to->m->procs[l->to_proc].lane);
	id = ++b->last_flow_id;
	b->pid0 = from->pid0;
	ev = new_event(b, "s", "process", l->name, s_at.pid, s_at.tid, s_ts);
	err = emit(b, json_done(ev, json_put_int(ev, "id", id)));
	if (!err) {
		b->pid0 = to->pid0;
		ev = new_event(b, "f", "process", l->name, f_at.pid, f_at.tid, f_ts);
		err = emit(b, json_done(ev, json_put_int(ev, "id", id) ?: json_put_str(ev, "bp", "e")));
	}
	b->pid0 = saved;
	return err;
}

int chrome_trace__write_parts(const struct trace_part *parts, size_t n, const struct trace_link *links,
			      size_t nr_links, struct json_object *extra, int fd)
{
	struct builder b;
	size_t nr_events = 0, k, i;
	__s64 last_flow_id = 0;
	bool live = false;
	int err = 0;

	/* Part 0 last: its builder writes the links and otherData. */
	for (i = 1; !err && i <= n; i++) {
		k = i % n;
		err = builder_init(&b, parts[k].m, parts[k].meta, fd);
		live = true;
		b.pid0 = parts[k].pid0;
		b.host = parts[k].host;
		b.nr_events = nr_events;
		b.last_flow_id = last_flow_id;
		if (!err && i == 1)
			err = put_str(&b, "{\"traceEvents\":[");
		if (!err)
			err = add_body(&b, parts[k].meta);
		if (k)
			err = err ?: flush(&b);
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
	return err;
}
