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
 * "Parallelism" (pid 3), the counters on a single thread.
 *
 * The trace is streamed: each event is built as a small json-c object,
 * serialised into a write buffer and freed as the next one comes, so
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
#include "report/chrome_trace.h"
#include "util/json_put.h"
#include "model/proc_name.h"
#include "model/trace_layout.h"
#include "merge/trace_merge.h"
#include "util/utf8.h"
#include "version.h"

/* Our own trace pids: real pids are reused by the kernel (TRACE-RULES 6). */
#define TRACE_PID 1
#define CPUS_PID 2
#define COUNTERS_PID 3
/* Merged traces with no traced writer, and merged counters. */
#define MERGED_PID 4
#define MERGED_COUNTERS_TID 1
/* Counter events need a tid like any other event (TRACE-RULES 2). */
#define COUNTERS_TID 1
/* The process track's name is the command line, cut to stay readable. */
#define TRACK_NAME_MAX_BYTES 80
/* Plain: no indentation, the file is for viewers and can be large. */
#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
/* Output gathered per write(2): not a system call per event. */
#define WRITE_BUF_BYTES (64 * 1024)

/* One proc in the pid index the CPU slices are named through. */
struct pid_key {
	__u32 pid;
	__u64 start_ns;
	size_t proc;
};

struct builder {
	const struct model *m;
	int fd;			    /* where the trace goes */
	char *buf;		    /* WRITE_BUF_BYTES: output not yet written */
	size_t buf_used;
	int write_err;		    /* the first write error; nothing is written after it */
	struct json_object *slot;   /* a one-element array: the value being written */
	size_t nr_events;	    /* in traceEvents so far */
	struct trace_layout *layout; /* where each process slice goes */
	__s64 last_flow_id;
	const struct sched_model *sched; /* NULL: no scheduler data */
	struct pid_key *by_pid;		 /* with sched: every proc, by (pid, start) */
	char **cpu_names;		 /* with sched: per proc, its display name once needed */
};

/*
 * json-c helpers: each takes ownership of val, also when it fails.
 * Keys are always string literals, each added once: json-c may keep them
 * without a copy (which also avoids json-c 0.16 leaking its copy when the
 * insert fails) and skip the duplicate lookup.
 */
static int obj_put(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add_ex(obj, key, val,
				      JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

static int arr_put(struct json_object *arr, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_array_add(arr, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

/* obj with key: val added; NULL, both freed, on failure.  Chains. */
static struct json_object *with(struct json_object *obj, const char *key, struct json_object *val)
{
	if (!obj) {
		json_object_put(val);
		return NULL;
	}
	if (obj_put(obj, key, val)) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

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

/*
 * Serialises val and writes it; takes ownership of val (NULL: -ENOMEM).
 * val goes in as the one element of b->slot, an array kept for the whole
 * trace, and stays there until the next value replaces (and frees) it.
 * json-c's print buffer, the array's, so grows to the largest value once
 * rather than from nothing for every event; besides the reallocations
 * that saves, a failed growth, which json-c ignores in the middle of an
 * object and writes the object truncated, can only come on the few values
 * larger than all before them.
 */
static int put_json(struct builder *b, struct json_object *val)
{
	const char *text;
	size_t len;

	if (!val)
		return -ENOMEM;
	if (json_object_array_put_idx(b->slot, 0, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	text = json_object_to_json_string_length(b->slot, JSON_FLAGS, &len);
	if (!text || len < 2)
		return -ENOMEM;
	/* "[val]" */
	return put_text(b, text + 1, len - 2);
}

/*
 * The next element of traceEvents, written at once: only the event at
 * hand is ever in memory.  Takes ownership of ev.
 */
static int emit(struct builder *b, struct json_object *ev)
{
	int err;

	if (!ev)
		return -ENOMEM;
	err = b->nr_events++ ? put_text(b, ",", 1) : 0;
	if (err) {
		json_object_put(ev);
		return err;
	}
	return put_json(b, ev);
}

/* A JSON string from raw kernel bytes: always valid UTF-8. */
static struct json_object *new_clean_string(const char *raw, size_t len)
{
	struct json_object *str;
	char *clean = utf8_sanitize(raw, len);

	if (!clean)
		return NULL;
	str = json_object_new_string(clean);
	free(clean);
	return str;
}

/* Takes ownership of the malloc'd s. */
static struct json_object *new_owned_string(char *s)
{
	struct json_object *str = s ? json_object_new_string(s) : NULL;

	free(s);
	return str;
}

static struct json_object *new_argv(char *const *argv, size_t argc)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	if (!arr)
		return NULL;
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i] ? argv[i] : "";

		if (arr_put(arr, new_clean_string(arg, strlen(arg)))) {
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* An event with the fields every phase has; M events get ts 0 (see below). */
static struct json_object *new_event(const char *ph, const char *cat, const char *name, int pid, __s64 tid, __s64 ts)
{
	struct json_object *ev = json_object_new_object();

	if (!ev)
		return NULL;
	if (obj_put(ev, "ph", json_object_new_string(ph)) ||
	    (cat && obj_put(ev, "cat", json_object_new_string(cat))) ||
	    obj_put(ev, "name", json_object_new_string(name)) || obj_put(ev, "pid", json_object_new_int(pid)) ||
	    (tid > 0 && obj_put(ev, "tid", json_object_new_int64(tid))) || obj_put(ev, "ts", json_object_new_int64(ts))) {
		json_object_put(ev);
		return NULL;
	}
	return ev;
}

static __s64 lane_tid(__u32 lane)
{
	return (__s64)lane + 1;
}

/*
 * Metadata names a track and orders it.  tid 0 means the process itself.
 * ts 0 on M is what Chrome itself writes: metadata is outside the
 * timeline, and viewers that sort by ts need a number there.
 */
static int add_meta(struct builder *b, int pid, const char *what, __s64 tid, struct json_object *arg)
{
	const char *key = strstr(what, "sort_index") ? "sort_index" : "name";

	return emit(b, with(new_event("M", NULL, what, pid, tid, 0), "args", with(json_object_new_object(), key, arg)));
}

static size_t cmd_argc(const struct trace_meta *meta)
{
	return meta->cmd_argv && meta->cmd_argc > 0 ? (size_t)meta->cmd_argc : 0;
}

/* The trace process's name: the command, else the root's name. */
static char *track_name(const struct model *m, const struct trace_meta *meta)
{
	if (cmd_argc(meta))
		return argv_display_name(meta->cmd_argv, cmd_argc(meta), TRACK_NAME_MAX_BYTES);
	if (m->root >= 0 && (size_t)m->root < m->nr_procs)
		return proc_display_name(&m->procs[m->root]);
	return strdup("buildbpf");
}

static int add_track_names(struct builder *b, const struct trace_meta *meta)
{
	char name[32];
	size_t i;
	int err;

	err = add_meta(b, TRACE_PID, "process_name", 0, new_owned_string(track_name(b->m, meta)));
	if (!err)
		err = add_meta(b, TRACE_PID, "process_sort_index", 0, json_object_new_int(0));
	for (i = 0; !err && i < b->layout->nr_lanes; i++) {
		__s64 tid = lane_tid(b->layout->lanes[i]);

		snprintf(name, sizeof(name), "lane %lld", (long long)tid);
		err = add_meta(b, TRACE_PID, "thread_name", tid, json_object_new_string(name));
		if (!err)
			err = add_meta(b, TRACE_PID, "thread_sort_index", tid, json_object_new_int64(tid));
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
static int add_exit_status(struct json_object *args, const struct proc_instance *p)
{
	int status = (int)p->exit_status, err;
	char text[64], sig[32];

	if (!p->exited)
		return obj_put(args, "exit_status",
			       json_object_new_string(p->unfinished ? "running at trace end" : "unknown"));
	if (WIFEXITED(status)) {
		snprintf(text, sizeof(text), "exit %d", WEXITSTATUS(status));
		return obj_put(args, "exit_status", json_object_new_string(text)) ?:
			       obj_put(args, "exit_code", json_object_new_int(WEXITSTATUS(status)));
	}
	if (WIFSIGNALED(status)) {
		signal_name(WTERMSIG(status), sig, sizeof(sig));
		snprintf(text, sizeof(text), "killed by %s%s", sig, WCOREDUMP(status) ? " (core dumped)" : "");
		err = obj_put(args, "exit_status", json_object_new_string(text)) ?:
			      obj_put(args, "signal", json_object_new_int(WTERMSIG(status))) ?:
			      obj_put(args, "signal_name", json_object_new_string(sig));
		if (!err && WCOREDUMP(status))
			err = obj_put(args, "core_dumped", json_object_new_boolean(1));
		return err;
	}
	snprintf(text, sizeof(text), "status 0x%x", p->exit_status);
	return obj_put(args, "exit_status", json_object_new_string(text));
}

static int add_image_args(struct json_object *args, const struct exec_image *img)
{
	int err = obj_put(args, "argv", new_argv(img ? img->argv : NULL, img ? img->argc : 0));

	if (!err && img && img->filename)
		err = obj_put(args, "filename", new_clean_string(img->filename, strlen(img->filename)));
	return err;
}

/* Where the process's threads spent their lifetime, from the sched tracepoints. */
static int add_sched_args(struct json_object *args, const struct bb_sched_acct *acct)
{
	return obj_put(args, "on_cpu_ms", json_new_ms(acct->on_cpu_ns)) ?:
	       obj_put(args, "runq_wait_ms", json_new_ms(acct->runq_ns)) ?:
	       obj_put(args, "blocked_ms", json_new_ms(acct->blocked_ns)) ?:
	       obj_put(args, "sleep_ms", json_new_ms(acct->sleep_ns)) ?:
	       obj_put(args, "switches_voluntary", json_object_new_int64(acct->nr_voluntary)) ?:
	       obj_put(args, "switches_involuntary", json_object_new_int64(acct->nr_involuntary)) ?:
	       obj_put(args, "migrations", json_object_new_int64(acct->nr_migrations));
}

/*
 * README, "Reading the trace": a process slice's pid and ppid are the
 * kernel's global ids, the ones ps and /proc show outside the build.
 * "ns_pid" is the pid the process has in its own PID namespace, the one the
 * build itself sees ($$, getpid(), pid files) when it runs in a new one
 * (unshare --pid --fork, a container).  It is there only when it differs
 * from pid, so the trace of an ordinary build has none.
 */
static int add_ns_pid(struct json_object *args, const struct proc_instance *p)
{
	if (!p->ns_pid || p->ns_pid == p->pid)
		return 0;
	return obj_put(args, "ns_pid", json_object_new_int64(p->ns_pid));
}

/* sched: whether the sched accounting was recorded (all zero otherwise). */
static struct json_object *proc_args(const struct proc_instance *p, bool sched)
{
	const struct exec_image *last = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	struct json_object *args = json_object_new_object();
	int err;

	if (!args)
		return NULL;
	err = add_image_args(args, last) ?:
	      obj_put(args, "pid", json_object_new_int64(p->pid)) ?:
	      obj_put(args, "ppid", json_object_new_int64(p->ppid)) ?:
	      add_ns_pid(args, p) ?:
	      add_exit_status(args, p) ?:
	      obj_put(args, "cpu_user_ms", json_new_ms(p->utime_ns)) ?:
	      obj_put(args, "cpu_sys_ms", json_new_ms(p->stime_ns)) ?:
	      obj_put(args, "peak_rss_kb", json_object_new_int64(p->maxrss_kb)) ?:
	      obj_put(args, "threads", json_object_new_int64(p->nr_threads)) ?:
	      obj_put(args, "images", json_object_new_int64(p->nr_execs)) ?:
	      obj_put(args, "comm", new_clean_string(p->comm, strnlen(p->comm, BB_COMM_LEN)));
	if (!err && sched)
		err = add_sched_args(args, &p->sched);
	if (!err && p->unfinished)
		err = obj_put(args, "unfinished", json_object_new_boolean(1));
	if (!err && p->exit_record_lost)
		err = obj_put(args, "exit_record_lost", json_object_new_boolean(1));
	if (!err && any_exec_flag(p, BB_EXEC_ARGS_TRUNCATED))
		err = obj_put(args, "args_truncated", json_object_new_boolean(1));
	if (!err && any_exec_flag(p, BB_EXEC_ARGS_UNREADABLE))
		err = obj_put(args, "args_unreadable", json_object_new_boolean(1));
	if (!err && any_exec_flag(p, BB_EXEC_FILENAME_TRUNCATED))
		err = obj_put(args, "filename_truncated", json_object_new_boolean(1));
	if (err) {
		json_object_put(args);
		return NULL;
	}
	return args;
}

/* An X slice on any track; takes ownership of args. */
static int add_x(struct builder *b, int pid, __s64 tid, const char *cat, const char *name, struct trace_span span,
		 struct json_object *args)
{
	struct json_object *ev = name ? new_event("X", cat, name, pid, tid, span.ts) : NULL;

	if (!ev) {
		json_object_put(args);
		return -ENOMEM;
	}
	ev = with(ev, "dur", json_object_new_int64(span.end - span.ts));
	return emit(b, with(ev, "args", args));
}

/* An X slice on a lane; takes ownership of the malloc'd name and of args. */
static int add_slice(struct builder *b, const char *cat, char *name, __u32 lane, struct trace_span span,
		     struct json_object *args)
{
	int err = add_x(b, TRACE_PID, lane_tid(lane), cat, name, span, args);

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
		args = with(json_object_new_object(), "image", json_object_new_int64(k));
		if (args && add_image_args(args, &p->execs[k])) {
			json_object_put(args);
			args = NULL;
		}
		err = add_slice(b, "exec", image_display_name(&p->execs[k]), p->lane, images[k].span, args);
	}
	return err;
}

static struct json_object *new_flow(const char *ph, __u32 lane, __s64 ts, __s64 id)
{
	struct json_object *ev = new_event(ph, "process", "fork", TRACE_PID, lane_tid(lane), ts);

	ev = with(ev, "id", json_object_new_int64(id));
	/* Perfetto: bind the end to the enclosing slice, not the next one. */
	if (ph[0] == 'f')
		ev = with(ev, "bp", json_object_new_string("e"));
	return ev;
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
	err = emit(b, new_flow("s", m->procs[parent].lane, procs[parent].span.ts, id));
	if (!err)
		err = emit(b, new_flow("f", p->lane, procs[i].span.ts, id));
	return err;
}

static int add_proc(struct builder *b, size_t i)
{
	const struct proc_instance *p = &b->m->procs[i];
	int err;

	err = add_slice(b, "process", proc_display_name(p), p->lane, b->layout->procs[i].span,
			proc_args(p, b->sched != NULL));
	if (!err && !b->layout->procs[i].flat)
		err = add_image_slices(b, i);
	if (!err)
		err = add_fork_flow(b, i);
	return err;
}

/* ---- CPU lanes and parallelism counters (scheduler data) ---- */

static int cmp_pid_key(const void *a, const void *b)
{
	const struct pid_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/*
 * CPU lanes can hold millions of slices, each named after the process that
 * ran: sorting the procs by (pid, start) once makes that a binary search.
 */
static int index_pids(struct builder *b)
{
	const struct model *m = b->m;
	size_t i, n = m->nr_procs ? m->nr_procs : 1;

	b->by_pid = malloc(n * sizeof(*b->by_pid));
	b->cpu_names = calloc(n, sizeof(*b->cpu_names));
	if (!b->by_pid || !b->cpu_names)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++)
		b->by_pid[i] = (struct pid_key){ m->procs[i].pid, m->procs[i].start_ns, i };
	qsort(b->by_pid, m->nr_procs, sizeof(*b->by_pid), cmp_pid_key);
	return 0;
}

/*
 * The instance of tgid that was alive at ts: the kernel reuses pids, so the
 * last one to start no later than ts (instances of one pid follow one
 * another).  A tracked tgid running before any of its instances started is
 * the first one, seen late (the root starts at its first sighting).  -1:
 * no instance has that pid.
 */
static long proc_at(const struct builder *b, __u32 tgid, __u64 ts)
{
	size_t lo = 0, hi = b->m->nr_procs, mid;

	/* hi: the first key after (tgid, ts). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->by_pid[mid].pid < tgid || (b->by_pid[mid].pid == tgid && b->by_pid[mid].start_ns <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (hi > 0 && b->by_pid[hi - 1].pid == tgid)
		return (long)b->by_pid[hi - 1].proc;
	if (hi < b->m->nr_procs && b->by_pid[hi].pid == tgid)
		return (long)b->by_pid[hi].proc;
	return -1;
}

/* The display name of proc i, computed once: it names every slice it ran. */
static const char *cached_proc_name(struct builder *b, size_t i)
{
	if (!b->cpu_names[i])
		b->cpu_names[i] = proc_display_name(&b->m->procs[i]);
	return b->cpu_names[i];
}

static __s64 cpu_tid(__u32 cpu)
{
	return (__s64)cpu + 1;
}

static int add_cpu_track_names(struct builder *b)
{
	const struct sched_model *s = b->sched;
	char name[32];
	size_t i;
	int err;

	err = add_meta(b, CPUS_PID, "process_name", 0, json_object_new_string("CPUs")) ?:
	      add_meta(b, CPUS_PID, "process_sort_index", 0, json_object_new_int(1)) ?:
	      add_meta(b, COUNTERS_PID, "process_name", 0, json_object_new_string("Parallelism")) ?:
	      add_meta(b, COUNTERS_PID, "process_sort_index", 0, json_object_new_int(2)) ?:
	      add_meta(b, COUNTERS_PID, "thread_name", COUNTERS_TID, json_object_new_string("counters")) ?:
	      add_meta(b, COUNTERS_PID, "thread_sort_index", COUNTERS_TID, json_object_new_int(COUNTERS_TID));
	/* Every CPU, also one that stayed idle: an empty named track is fine. */
	for (i = 0; !err && i < s->nr_cpus; i++) {
		__s64 tid = cpu_tid(s->cpus[i].cpu);

		snprintf(name, sizeof(name), "CPU %u", s->cpus[i].cpu);
		err = add_meta(b, CPUS_PID, "thread_name", tid, json_object_new_string(name)) ?:
		      add_meta(b, CPUS_PID, "thread_sort_index", tid, json_object_new_int64(tid));
	}
	return err;
}

static int add_cpu_slice(struct builder *b, const struct cpu_lane *lane, const struct cpu_slice *sl)
{
	struct json_object *args;
	const char *name;
	char fallback[32];
	struct trace_span span;
	long proc;

	if (!trace_layout__clip(b->layout, sl->start_ns, sl->end_ns, &span))
		return 0;
	if (sl->kind != CPU_SLICE_BUILD)
		return add_x(b, CPUS_PID, cpu_tid(lane->cpu), "cpu_other", "other (not the build)", span,
			     json_object_new_object());
	proc = proc_at(b, sl->tgid, sl->start_ns);
	if (proc >= 0) {
		name = cached_proc_name(b, proc);
		if (!name)
			return -ENOMEM;
	} else {
		snprintf(fallback, sizeof(fallback), "pid %u", sl->tgid);
		name = fallback;
	}
	args = with(json_object_new_object(), "pid", json_object_new_int64(sl->tgid));
	args = with(args, "tid", json_object_new_int64(sl->tid));
	if (sl->merged > 1)
		args = with(args, "merged", json_object_new_int64(sl->merged));
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

	args = with(json_object_new_object(), "running", new_counter_value(cs->running));
	args = with(args, "runnable", new_counter_value(cs->runnable));
	err = emit(b, with(new_event("C", NULL, "build threads", COUNTERS_PID, COUNTERS_TID, ts), "args", args));
	if (err)
		return err;
	args = with(json_object_new_object(), "idle", new_counter_value(cs->idle_cpus));
	return emit(b, with(new_event("C", NULL, "CPUs idle", COUNTERS_PID, COUNTERS_TID, ts), "args", args));
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

	cpu = with(cpu, "cpu", json_object_new_int64(lane->cpu));
	cpu = with(cpu, "build_ms", json_new_ms(lane->build_ns));
	cpu = with(cpu, "other_ms", json_new_ms(lane->other_ns));
	cpu = with(cpu, "idle_ms", json_new_ms(lane->idle_ns));
	cpu = with(cpu, "folded_ms", json_new_ms(lane->folded_ns));
	cpu = with(cpu, "folded_slices", json_object_new_int64((__s64)lane->folded));
	return with(cpu, "slices", json_object_new_int64((__s64)lane->nr_slices));
}

/* otherData.sched: how the CPU lanes were recorded, and each CPU's totals. */
static struct json_object *new_sched_summary(const struct sched_model *s)
{
	struct json_object *sched, *cpus = json_object_new_array();
	size_t i;

	for (i = 0; cpus && i < s->nr_cpus; i++) {
		if (arr_put(cpus, new_cpu_summary(&s->cpus[i]))) {
			json_object_put(cpus);
			cpus = NULL;
		}
	}
	sched = with(json_object_new_object(), "level", json_object_new_string(sched_level_name(s->level)));
	sched = with(sched, "resolution_us", json_object_new_int64((__s64)(s->resolution_ns / 1000)));
	sched = with(sched, "counter_bucket_us", json_object_new_int64((__s64)(s->bucket_ns / 1000)));
	sched = with(sched, "cpus", cpus);
	sched = with(sched, "records", json_object_new_int64((__s64)s->records));
	sched = with(sched, "reordered", json_object_new_int64((__s64)s->reordered));
	return with(sched, "malformed", json_object_new_int64((__s64)s->malformed));
}

static struct json_object *new_iso8601(__u64 realtime_ns)
{
	time_t secs = (time_t)(realtime_ns / 1000000000ull);
	char date[32], text[48];
	struct tm tm;

	if (!gmtime_r(&secs, &tm) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm))
		return json_object_new_string("");
	snprintf(text, sizeof(text), "%s.%03lluZ", date,
		 (unsigned long long)(realtime_ns % 1000000000ull / 1000000ull));
	return json_object_new_string(text);
}

static struct json_object *new_opt_string(const char *s)
{
	return new_clean_string(s ? s : "", s ? strlen(s) : 0);
}

static struct json_object *other_data(const struct builder *b, const struct trace_meta *meta)
{
	const struct model *m = b->m;
	struct json_object *od = json_object_new_object();
	size_t i, unfinished = 0;
	int err;

	if (!od)
		return NULL;
	for (i = 0; i < m->nr_procs; i++)
		unfinished += m->procs[i].unfinished;
	err = obj_put(od, "buildbpf_version", new_opt_string(meta->version ? meta->version : BUILDBPF_VERSION)) ?:
	      obj_put(od, "kernel_release", new_opt_string(meta->kernel_release)) ?:
	      obj_put(od, "cpu_count", json_object_new_int64(meta->nr_cpus)) ?:
	      obj_put(od, "command", new_owned_string(argv_display_name(meta->cmd_argv, cmd_argc(meta), 0))) ?:
	      obj_put(od, "command_argv", new_argv(meta->cmd_argv, cmd_argc(meta))) ?:
	      obj_put(od, "start_time", new_iso8601(meta->start_realtime_ns)) ?:
	      obj_put(od, "start_time_unix_ns", json_object_new_int64((__s64)meta->start_realtime_ns)) ?:
	      obj_put(od, "lost_events", json_object_new_int64((__s64)meta->lost_events)) ?:
	      obj_put(od, "partial", json_object_new_boolean(meta->partial_reason != NULL)) ?:
	      obj_put(od, "args_max", json_object_new_int64(meta->args_max)) ?:
	      obj_put(od, "user", new_opt_string(meta->user)) ?:
	      obj_put(od, "processes", json_object_new_int64(m->nr_procs)) ?:
	      obj_put(od, "records", json_object_new_int64(m->stats.events)) ?:
	      obj_put(od, "orphan_records", json_object_new_int64(m->stats.orphan_events)) ?:
	      obj_put(od, "lanes", json_object_new_int64(b->layout->nr_lanes)) ?:
	      obj_put(od, "unfinished_processes", json_object_new_int64(unfinished)) ?:
	      obj_put(od, "duration_us", json_object_new_int64(trace_us(m, m->end_ns) - 1)) ?:
	      obj_put(od, "sched", b->sched ? new_sched_summary(b->sched) : json_object_new_string("off"));
	if (!err && meta->partial_reason)
		err = obj_put(od, "partial_reason", new_opt_string(meta->partial_reason));
	if (!err && meta->merge)
		err = obj_put(od, "merge", trace_merge__summary(meta->merge));
	if (!err && meta->audit)
		err = obj_put(od, "audit", audit_json__new(meta->audit, m));
	if (err) {
		json_object_put(od);
		return NULL;
	}
	return od;
}

/* Per-proc scratch the builder needs before it emits anything. */
static int builder_init(struct builder *b, const struct model *m, const struct sched_model *sched, int fd)
{
	memset(b, 0, sizeof(*b));
	b->m = m;
	b->sched = sched;
	b->fd = fd;
	b->buf = malloc(WRITE_BUF_BYTES);
	b->slot = json_object_new_array();
	b->layout = trace_layout__new(m);
	if (!b->buf || !b->slot || !b->layout)
		return -ENOMEM;
	return sched ? index_pids(b) : 0;
}

static void builder_free(struct builder *b)
{
	size_t i;

	free(b->buf);
	json_object_put(b->slot);
	trace_layout__free(b->layout);
	free(b->by_pid);
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
	err = add_meta(b, MERGED_PID, "process_name", 0, json_object_new_string("Merged traces")) ?:
	      add_meta(b, MERGED_PID, "process_sort_index", 0, json_object_new_int(3));
	if (!err && counters)
		err = add_meta(b, MERGED_PID, "thread_name", MERGED_COUNTERS_TID, json_object_new_string("counters")) ?:
		      add_meta(b, MERGED_PID, "thread_sort_index", MERGED_COUNTERS_TID,
			       json_object_new_int(MERGED_COUNTERS_TID));
	for (i = 0; !err && i < tm->nr_tracks; i++)
		err = add_meta(b, MERGED_PID, "thread_name", merged_track_tid(i), json_object_new_string(tm->tracks[i])) ?:
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
	int pid = ev->proc >= 0 ? TRACE_PID : MERGED_PID;
	__s64 tid = ev->proc >= 0 ? lane_tid(b->m->procs[ev->proc].lane) : merged_track_tid(ev->track);
	struct json_object *args = ev->args ? json_object_get(ev->args) : json_object_new_object(), *e;
	int err;

	switch (ev->kind) {
	case MERGED_SLICE:
		return add_x(b, pid, tid, "merged", ev->name, (struct trace_span){ ev->ts, ev->ts + ev->dur }, args);
	case MERGED_INSTANT:
		e = with(new_event("i", "merged", ev->name, pid, tid, ev->ts), "s", json_object_new_string("t"));
		return emit(b, with(e, "args", args));
	case MERGED_COUNTER:
		return emit(b, with(new_event("C", NULL, ev->name, MERGED_PID, MERGED_COUNTERS_TID, ev->ts), "args",
				    args));
	case MERGED_ASYNC:
		e = with(new_event("b", "merged", ev->name, pid, tid, ev->ts), "id", json_object_new_int64(ev->id));
		err = emit(b, with(e, "args", args));
		if (!err)
			err = emit(b, with(new_event("e", "merged", ev->name, pid, tid, ev->ts + ev->dur), "id",
					   json_object_new_int64(ev->id)));
		return err;
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

int chrome_trace__write(const struct model *m, const struct trace_meta *meta, int fd)
{
	static const struct trace_meta no_meta;
	struct builder b;
	size_t i;
	int err;

	if (!meta)
		meta = &no_meta;
	err = builder_init(&b, m, meta->sched, fd);
	if (!err)
		err = put_str(&b, "{\"traceEvents\":[");
	if (!err)
		err = add_track_names(&b, meta);
	if (!err && b.sched)
		err = add_cpu_track_names(&b);
	for (i = 0; !err && i < m->nr_procs; i++)
		err = add_proc(&b, i);
	if (!err && b.sched)
		err = add_cpu_slices(&b) ?: add_counters(&b);
	if (!err && meta->merge)
		err = add_merged(&b, meta->merge);
	if (!err)
		err = put_str(&b, "],\"displayTimeUnit\":\"ms\",\"otherData\":") ?: put_json(&b, other_data(&b, meta)) ?:
		      put_str(&b, "}\n") ?: flush(&b);
	builder_free(&b);
	return err;
}
