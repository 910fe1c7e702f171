/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter from hand-built models.  Every trace is written out, read
 * back, parsed strictly (UTF-8 validated) and checked against the rules of
 * shared/TRACE-RULES.md by check_trace_rules(); tests then assert on the
 * parsed structure, never on the text.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "chrome_trace.h"
#include "utf8.h"

#define START_NS 5000000000000ull /* an arbitrary monotonic trace start */
#define MS(x) (START_NS + (__u64)(x) * 1000000ull)

#define W_EXITED(code) ((__u32)(code) << 8)
#define W_SIGNALED(sig) ((__u32)(sig))
#define W_COREDUMP 0x80u

/* ---- building models by hand ---- */

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static size_t count_argv(char **argv)
{
	size_t n = 0;

	while (argv && argv[n])
		n++;
	return n;
}

static struct exec_image image(__u64 start_ns, __u64 end_ns, char **argv, const char *filename)
{
	struct exec_image img = { .start_ns = start_ns, .end_ns = end_ns, .argv = argv };

	img.argc = count_argv(argv);
	img.filename = (char *)filename;
	if (img.argc)
		strncpy(img.comm, argv[0], BB_COMM_LEN);
	return img;
}

static struct proc_instance proc(size_t id, long parent, __u32 pid, __u64 start_ns, __u64 end_ns, __u32 lane,
				 const char *comm)
{
	struct proc_instance p = {
		.id = id,
		.parent = parent,
		.pid = pid,
		.ppid = 1,
		.start_ns = start_ns,
		.end_ns = end_ns,
		.forked = parent >= 0,
		.exited = true,
		.lane = lane,
	};

	strncpy(p.comm, comm, BB_COMM_LEN);
	return p;
}

static void attach(struct proc_instance *p, struct exec_image *execs, size_t nr)
{
	p->execs = execs;
	p->nr_execs = nr;
}

static struct model model_of(struct proc_instance *procs, size_t nr, __u64 end_ns)
{
	struct model m = {
		.procs = procs,
		.nr_procs = nr,
		.start_ns = START_NS,
		.end_ns = end_ns,
		.root_pid = nr ? procs[0].pid : 0,
		.root = nr ? 0 : -1,
	};
	size_t i;

	for (i = 0; i < nr; i++) {
		if (procs[i].lane + 1 > m.nr_lanes)
			m.nr_lanes = procs[i].lane + 1;
	}
	return m;
}

static const struct trace_meta default_meta = {
	.version = "9.9.9",
	.kernel_release = "6.1.0-test",
	.nr_cpus = 8,
	.cmd_argv = ARGV("make", "-j8"),
	.cmd_argc = 2,
	.start_realtime_ns = 1700000000123456789ull,
	.lost_events = 7,
	.args_max = 16384,
	.user = "builder",
};

/* ---- writing and reading back ---- */

static char *write_to_memfd(struct json_object *trace, size_t *len)
{
	int fd = memfd_create("trace", MFD_CLOEXEC);
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap);
	ssize_t n;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write_fd(trace, fd), 0));
	cr_assert(eq(int, (int)lseek(fd, 0, SEEK_SET), 0));
	while ((n = read(fd, buf + used, cap - used - 1)) > 0) {
		used += n;
		if (cap - used < 2)
			buf = realloc(buf, cap *= 2);
	}
	cr_assert(eq(int, (int)n, 0));
	close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
}

/* The raw file: one JSON text and a newline, valid UTF-8, no control bytes. */
static void check_raw_text(const char *text, size_t len)
{
	char *clean;
	size_t i;

	cr_assert(gt(sz, len, 1));
	cr_assert(eq(chr, text[len - 1], '\n'));
	for (i = 0; i + 1 < len; i++)
		cr_assert(ge(u8, (unsigned char)text[i], 0x20), "raw control byte at offset %zu", i);
	cr_assert(eq(sz, strlen(text), len)); /* no NUL either */
	clean = utf8_sanitize(text, len);
	cr_assert(eq(int, strcmp(clean, text), 0), "output is not valid UTF-8");
	free(clean);
}

static struct json_object *parse_strict(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, text, (int)len - 1);
	cr_assert(not(eq(ptr, root, NULL)), "JSON parse error: %s",
		  json_tokener_error_desc(json_tokener_get_error(tok)));
	cr_assert(eq(int, (int)json_tokener_get_parse_end(tok), (int)len - 1));
	json_tokener_free(tok);
	return root;
}

/* ---- reading the parsed trace ---- */

static struct json_object *get(struct json_object *obj, const char *key)
{
	struct json_object *val = NULL;

	if (!json_object_object_get_ex(obj, key, &val))
		return NULL;
	return val;
}

static bool has_int(struct json_object *obj, const char *key)
{
	struct json_object *val = get(obj, key);

	return val && json_object_is_type(val, json_type_int);
}

static int64_t get_int(struct json_object *obj, const char *key)
{
	struct json_object *val = get(obj, key);

	cr_assert(not(eq(ptr, val, NULL)), "no key %s", key);
	cr_assert(json_object_is_type(val, json_type_int), "%s is not an integer", key);
	return json_object_get_int64(val);
}

static const char *get_str(struct json_object *obj, const char *key)
{
	struct json_object *val = get(obj, key);

	cr_assert(not(eq(ptr, val, NULL)), "no key %s", key);
	cr_assert(json_object_is_type(val, json_type_string), "%s is not a string", key);
	return json_object_get_string(val);
}

static struct json_object *events_of(struct json_object *root)
{
	struct json_object *events = get(root, "traceEvents");

	cr_assert(not(eq(ptr, events, NULL)));
	cr_assert(json_object_is_type(events, json_type_array));
	return events;
}

static bool str_is(struct json_object *ev, const char *key, const char *want)
{
	struct json_object *val = get(ev, key);

	return val && json_object_is_type(val, json_type_string) && !strcmp(json_object_get_string(val), want);
}

/* The n-th (0-based) event with phase ph, cat (NULL: any) and name. */
static struct json_object *find_event(struct json_object *root, const char *ph, const char *cat, const char *name,
				      int n)
{
	struct json_object *events = events_of(root);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_is(ev, "ph", ph) && (!cat || str_is(ev, "cat", cat)) && str_is(ev, "name", name) && n-- == 0)
			return ev;
	}
	return NULL;
}

static struct json_object *must_find(struct json_object *root, const char *ph, const char *cat, const char *name)
{
	struct json_object *ev = find_event(root, ph, cat, name, 0);

	cr_assert(not(eq(ptr, ev, NULL)), "no %s event %s", ph, name);
	return ev;
}

static size_t count_events(struct json_object *root, const char *ph, const char *cat)
{
	struct json_object *events = events_of(root);
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		n += str_is(ev, "ph", ph) && (!cat || str_is(ev, "cat", cat));
	}
	return n;
}

/* ---- the rules of shared/TRACE-RULES.md ---- */

struct slice {
	int64_t pid, tid, ts, end;
	const char *cat;
};

static bool named(struct json_object *events, const char *what, int64_t pid, int64_t tid)
{
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_is(ev, "ph", "M") && str_is(ev, "name", what) && get_int(ev, "pid") == pid &&
		    (tid < 0 || (has_int(ev, "tid") && get_int(ev, "tid") == tid)))
			return true;
	}
	return false;
}

static void check_event_fields(struct json_object *events, struct json_object *ev)
{
	const char *ph = get_str(ev, "ph");
	struct json_object *args;

	cr_assert(eq(sz, strlen(ph), 1));
	get_str(ev, "name");
	cr_assert(ge(i64, get_int(ev, "pid"), 1));
	cr_assert(lt(i64, get_int(ev, "pid"), INT64_C(1) << 31));
	if (!strcmp(ph, "M")) {
		args = get(ev, "args");
		cr_assert(not(eq(ptr, args, NULL)));
		if (strstr(get_str(ev, "name"), "sort_index"))
			get_int(args, "sort_index");
		else
			get_str(args, "name");
		return;
	}
	cr_assert(ge(i64, get_int(ev, "tid"), 1));
	cr_assert(lt(i64, get_int(ev, "tid"), INT64_C(1) << 31));
	cr_assert(ge(i64, get_int(ev, "ts"), 1));
	cr_assert(named(events, "process_name", get_int(ev, "pid"), -1), "pid without process_name");
	cr_assert(named(events, "thread_name", get_int(ev, "pid"), get_int(ev, "tid")), "tid %lld without thread_name",
		  (long long)get_int(ev, "tid"));
	if (!strcmp(ph, "X"))
		cr_assert(ge(i64, get_int(ev, "dur"), 0));
	else
		cr_assert(ph[0] == 's' || ph[0] == 'f', "unexpected phase %s", ph);
}

/* On one pid/tid, X slices contain one another or do not overlap. */
static void check_nesting(const struct slice *x, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		for (j = i + 1; j < nr; j++) {
			const struct slice *a = &x[i], *b = &x[j];
			bool nest = (a->ts <= b->ts && b->end <= a->end) || (b->ts <= a->ts && a->end <= b->end) ||
				    a->end <= b->ts || b->end <= a->ts;

			if (a->pid != b->pid || a->tid != b->tid)
				continue;
			cr_assert(nest, "X [%lld,%lld) and [%lld,%lld) overlap on tid %lld", (long long)a->ts,
				  (long long)a->end, (long long)b->ts, (long long)b->end, (long long)a->tid);
		}
	}
}

/* DevTools binds a flow end to the slice with the same ts, pid, tid, cat. */
static bool binds(const struct slice *x, size_t nr, struct json_object *flow)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (x[i].pid == get_int(flow, "pid") && x[i].tid == get_int(flow, "tid") &&
		    x[i].ts == get_int(flow, "ts") && !strcmp(x[i].cat, get_str(flow, "cat")))
			return true;
	}
	return false;
}

static void check_flows(struct json_object *events, const struct slice *x, size_t nr_x)
{
	size_t i, j, n = json_object_array_length(events);

	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(events, i), *f = NULL;
		int64_t id;

		if (!str_is(s, "ph", "s") && !str_is(s, "ph", "f"))
			continue;
		id = get_int(s, "id");
		/* Exactly one of each phase per id, never a reuse. */
		for (j = 0; j < n; j++) {
			struct json_object *o = json_object_array_get_idx(events, j);

			if (j == i || (!str_is(o, "ph", "s") && !str_is(o, "ph", "f")) || get_int(o, "id") != id)
				continue;
			cr_assert(not(eq(str, (char *)get_str(o, "ph"), (char *)get_str(s, "ph"))), "flow id %lld reused",
				  (long long)id);
			cr_assert(eq(ptr, f, NULL), "flow id %lld has more than two ends", (long long)id);
			f = o;
		}
		cr_assert(not(eq(ptr, f, NULL)), "flow id %lld has one end", (long long)id);
		cr_assert(binds(x, nr_x, s), "flow %s id %lld binds to no slice", get_str(s, "ph"), (long long)id);
		if (!str_is(s, "ph", "s"))
			continue;
		/* DevTools pairs the ends by cat, name and id. */
		cr_assert(eq(str, (char *)get_str(f, "cat"), (char *)get_str(s, "cat")));
		cr_assert(eq(str, (char *)get_str(f, "name"), (char *)get_str(s, "name")));
		cr_assert(ge(i64, get_int(f, "ts"), get_int(s, "ts")));
		cr_assert(str_is(f, "bp", "e"));
	}
}

static void check_trace_rules(struct json_object *root)
{
	struct json_object *events = events_of(root), *od;
	size_t i, n = json_object_array_length(events), nr_x = 0;
	struct slice *x = calloc(n + 1, sizeof(*x));

	cr_assert(eq(str, (char *)get_str(root, "displayTimeUnit"), "ms"));
	od = get(root, "otherData");
	cr_assert(not(eq(ptr, od, NULL)));
	cr_assert(named(events, "process_name", 1, -1), "the trace process has no name");
	for (i = 0; i < n; i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		check_event_fields(events, ev);
		if (!str_is(ev, "ph", "X"))
			continue;
		x[nr_x++] = (struct slice){
			.pid = get_int(ev, "pid"),
			.tid = get_int(ev, "tid"),
			.ts = get_int(ev, "ts"),
			.end = get_int(ev, "ts") + get_int(ev, "dur"),
			.cat = get_str(ev, "cat"),
		};
	}
	check_nesting(x, nr_x);
	check_flows(events, x, nr_x);
	free(x);
}

/* Build, write, read back, check every rule: the parsed trace. */
static struct json_object *export(const struct model *m, const struct trace_meta *meta)
{
	struct json_object *trace = chrome_trace__build(m, meta), *root;
	size_t len;
	char *text;

	cr_assert(not(eq(ptr, trace, NULL)));
	text = write_to_memfd(trace, &len);
	json_object_put(trace);
	check_raw_text(text, len);
	root = parse_strict(text, len);
	free(text);
	check_trace_rules(root);
	return root;
}

static struct json_object *args_of(struct json_object *ev)
{
	struct json_object *args = get(ev, "args");

	cr_assert(not(eq(ptr, args, NULL)));
	return args;
}

static void assert_argv(struct json_object *args, char **want)
{
	struct json_object *argv = get(args, "argv");
	size_t i, n = count_argv(want);

	cr_assert(not(eq(ptr, argv, NULL)));
	cr_assert(json_object_is_type(argv, json_type_array));
	cr_assert(eq(sz, json_object_array_length(argv), n));
	for (i = 0; i < n; i++) {
		char *clean = utf8_sanitize(want[i], strlen(want[i]));

		cr_assert(eq(str, (char *)json_object_get_string(json_object_array_get_idx(argv, i)), clean));
		free(clean);
	}
}

/* ---- a small build: make, a compile through sh, a fork, a straggler ---- */

/*
 *   lane 0: make [0,100]
 *   lane 1:      A: sh -> cc [10,50] { cc1 [20,40] }    ld [55,120, unfinished]
 *   lane 2:                              as [41,49]
 */
struct small_build {
	struct proc_instance procs[5];
	struct exec_image make_img[1], a_img[2], cc1_img[1], as_img[1], c_img[1];
	struct model m;
};

static void small_build_init(struct small_build *sb)
{
	/* Static: the model points at them after this function returns. */
	static char *make_argv[] = { "make", "-j8", NULL };
	static char *sh_argv[] = { "/bin/sh", "-c", "cc -c a.c -o a.o", NULL };
	static char *cc_argv[] = { "cc", "-c", "a.c", "-o", "a.o", NULL };
	static char *cc1_argv[] = { "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "a.c", "-o", "/tmp/cc0.s", NULL };
	static char *as_argv[] = { "as", "--64", "-o", "a.o", "/tmp/cc0.s", NULL };
	static char *ld_argv[] = { "ld", "-o", "prog", "a.o", NULL };
	struct proc_instance *p = sb->procs;

	memset(sb, 0, sizeof(*sb));
	p[0] = proc(0, -1, 100, MS(0), MS(100), 0, "make");
	p[0].forked = false;
	p[1] = proc(1, 0, 101, MS(10), MS(50), 1, "make");
	p[2] = proc(2, 1, 102, MS(20), MS(40), 1, "cc");
	p[3] = proc(3, 1, 103, MS(41), MS(49), 2, "cc");
	p[4] = proc(4, 0, 104, MS(55), MS(120), 1, "make");
	sb->make_img[0] = image(MS(0), MS(100), make_argv, "/usr/bin/make");
	sb->a_img[0] = image(MS(10) + 300000, MS(15), sh_argv, "/bin/sh");
	sb->a_img[1] = image(MS(15), MS(50), cc_argv, "/usr/bin/cc");
	sb->cc1_img[0] = image(MS(20), MS(40), cc1_argv, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1");
	sb->as_img[0] = image(MS(41), MS(49), as_argv, "/usr/bin/as");
	sb->c_img[0] = image(MS(56), MS(120), ld_argv, "/usr/bin/ld");
	attach(&p[0], sb->make_img, 1);
	attach(&p[1], sb->a_img, 2);
	attach(&p[2], sb->cc1_img, 1);
	attach(&p[3], sb->as_img, 1);
	attach(&p[4], sb->c_img, 1);
	p[4].unfinished = true;
	p[4].exited = false;
	sb->m = model_of(p, 5, MS(120));
}

Test(chrome_trace, small_build_slices_and_names)
{
	struct small_build sb;
	struct json_object *root, *ev, *args, *sub0, *sub1;

	small_build_init(&sb);
	root = export(&sb.m, &default_meta);

	/* One trace process named after the command, one thread per lane. */
	ev = must_find(root, "M", NULL, "process_name");
	cr_assert(eq(int, (int)get_int(ev, "pid"), 1));
	cr_assert(eq(str, (char *)get_str(args_of(ev), "name"), "make -j8"));
	cr_assert(eq(int, (int)get_int(args_of(must_find(root, "M", NULL, "process_sort_index")), "sort_index"), 0));
	cr_assert(eq(sz, count_events(root, "M", NULL), 2 + 2 * 3));
	ev = find_event(root, "M", NULL, "thread_name", 2);
	cr_assert(eq(int, (int)get_int(ev, "tid"), 3));
	cr_assert(eq(str, (char *)get_str(args_of(ev), "name"), "lane 3"));
	ev = find_event(root, "M", NULL, "thread_sort_index", 2);
	cr_assert(eq(int, (int)get_int(ev, "tid"), 3));
	cr_assert(eq(int, (int)get_int(args_of(ev), "sort_index"), 3));

	/* Five process slices plus A's two images. */
	cr_assert(eq(sz, count_events(root, "X", "process"), 5));
	cr_assert(eq(sz, count_events(root, "X", "exec"), 2));

	ev = must_find(root, "X", "process", "make");
	cr_assert(eq(int, (int)get_int(ev, "tid"), 1));
	cr_assert(eq(i64, get_int(ev, "ts"), 1));
	cr_assert(eq(i64, get_int(ev, "dur"), 100000));

	ev = must_find(root, "X", "process", "cc a.c");
	cr_assert(eq(int, (int)get_int(ev, "tid"), 2));
	cr_assert(eq(i64, get_int(ev, "ts"), 10001));
	cr_assert(eq(i64, get_int(ev, "dur"), 40000));
	args = args_of(ev);
	assert_argv(args, ARGV("cc", "-c", "a.c", "-o", "a.o"));
	cr_assert(eq(str, (char *)get_str(args, "filename"), "/usr/bin/cc"));
	cr_assert(eq(int, (int)get_int(args, "pid"), 101));
	cr_assert(eq(int, (int)get_int(args, "images"), 2));

	/* The images nest in the process slice, back to back. */
	sub0 = must_find(root, "X", "exec", "sh -c cc -c a.c -o a.o");
	sub1 = must_find(root, "X", "exec", "cc a.c");
	cr_assert(eq(int, (int)get_int(sub0, "tid"), 2));
	cr_assert(eq(i64, get_int(sub0, "ts"), 10301));
	cr_assert(eq(i64, get_int(sub0, "dur"), 4700));
	cr_assert(eq(i64, get_int(sub1, "ts"), 15001));
	cr_assert(eq(i64, get_int(sub1, "dur"), 35000));
	cr_assert(eq(int, (int)get_int(args_of(sub0), "image"), 0));
	cr_assert(eq(int, (int)get_int(args_of(sub1), "image"), 1));
	assert_argv(args_of(sub0), ARGV("/bin/sh", "-c", "cc -c a.c -o a.o"));
	cr_assert(eq(str, (char *)get_str(args_of(sub0), "filename"), "/bin/sh"));

	ev = must_find(root, "X", "process", "cc1 a.c");
	cr_assert(eq(int, (int)get_int(ev, "tid"), 2));
	ev = must_find(root, "X", "process", "as cc0.s");
	cr_assert(eq(int, (int)get_int(ev, "tid"), 3));
	json_object_put(root);
}

Test(chrome_trace, flows_only_where_not_drawn_below_the_parent)
{
	struct small_build sb;
	struct json_object *root, *s, *f;

	small_build_init(&sb);
	root = export(&sb.m, &default_meta);

	/* A (lane 1, parent make on lane 0), as (lane 2, parent A on lane 1) and
	 * ld (lane 1, parent make): three arrows; cc1 sits right under A. */
	cr_assert(eq(sz, count_events(root, "s", NULL), 3));
	cr_assert(eq(sz, count_events(root, "f", NULL), 3));

	/* as's arrow leaves A's process slice and lands on as's slice. */
	s = find_event(root, "s", "process", "fork", 1);
	f = find_event(root, "f", "process", "fork", 1);
	cr_assert(eq(i64, get_int(s, "id"), get_int(f, "id")));
	cr_assert(eq(int, (int)get_int(s, "tid"), 2));
	cr_assert(eq(i64, get_int(s, "ts"), 10001));
	cr_assert(eq(int, (int)get_int(f, "tid"), 3));
	cr_assert(eq(i64, get_int(f, "ts"), 41001));
	cr_assert(lt(i64, get_int(find_event(root, "s", NULL, "fork", 0), "id"), get_int(s, "id")));
	json_object_put(root);
}

Test(chrome_trace, same_lane_child_under_a_sibling_gets_a_flow)
{
	struct proc_instance p[3];
	struct model m;
	struct json_object *root, *s, *f;

	/* All on lane 0: make [0,100], its children x [10,50] and y [20,30].
	 * x sits right under make; y is drawn under x, its sibling, so it
	 * needs an arrow from make although they share the lane. */
	p[0] = proc(0, -1, 10, MS(0), MS(100), 0, "make");
	p[1] = proc(1, 0, 11, MS(10), MS(50), 0, "x");
	p[2] = proc(2, 0, 12, MS(20), MS(30), 0, "y");
	m = model_of(p, 3, MS(100));
	root = export(&m, &default_meta);
	cr_assert(eq(sz, count_events(root, "s", NULL), 1));
	s = must_find(root, "s", "process", "fork");
	f = must_find(root, "f", "process", "fork");
	cr_assert(eq(int, (int)get_int(s, "tid"), 1));
	cr_assert(eq(i64, get_int(s, "ts"), 1));
	cr_assert(eq(int, (int)get_int(f, "tid"), 1));
	cr_assert(eq(i64, get_int(f, "ts"), 20001));
	json_object_put(root);
}

Test(chrome_trace, fork_without_exec_and_unfinished)
{
	struct proc_instance p[2];
	struct exec_image img[1];
	struct model m;
	struct json_object *root, *args;

	p[0] = proc(0, -1, 10, MS(0), MS(100), 0, "make");
	img[0] = image(MS(0), MS(100), ARGV("make"), "/usr/bin/make");
	attach(&p[0], img, 1);
	p[1] = proc(1, 0, 11, MS(10), MS(100), 0, "make");
	p[1].exited = false;
	p[1].unfinished = true;
	m = model_of(p, 2, MS(100));
	root = export(&m, &default_meta);
	args = args_of(must_find(root, "X", "process", "make (fork)"));
	assert_argv(args, ARGV(NULL));
	cr_assert(eq(ptr, get(args, "filename"), NULL));
	cr_assert(json_object_get_boolean(get(args, "unfinished")));
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "running at trace end"));
	cr_assert(eq(ptr, get(args, "exit_code"), NULL));
	cr_assert(eq(int, (int)get_int(get(root, "otherData"), "unfinished_processes"), 1));
	/* Directly under its parent on lane 0: no arrow. */
	cr_assert(eq(sz, count_events(root, "s", NULL), 0));
	json_object_put(root);
}

Test(chrome_trace, timestamps_are_relative_integer_us_from_one)
{
	struct proc_instance p[3];
	struct model m;
	struct json_object *root, *ev;

	/* Sub-microsecond times: integer division keeps nesting exact. */
	p[0] = proc(0, -1, 10, START_NS - 5000, START_NS + 9999, 0, "early");
	p[1] = proc(1, 0, 11, START_NS + 1999, START_NS + 9999, 0, "inner");
	p[2] = proc(2, 0, 12, START_NS + 1500, START_NS + 1700, 1, "zero");
	m = model_of(p, 3, START_NS + 9999);
	root = export(&m, &default_meta);

	ev = must_find(root, "X", "process", "early (fork)");
	cr_assert(eq(i64, get_int(ev, "ts"), 1)); /* before the start: clamped */
	cr_assert(eq(i64, get_int(ev, "dur"), 9));
	ev = must_find(root, "X", "process", "inner (fork)");
	cr_assert(eq(i64, get_int(ev, "ts"), 2));
	cr_assert(eq(i64, get_int(ev, "dur"), 8));
	ev = must_find(root, "X", "process", "zero (fork)");
	cr_assert(eq(i64, get_int(ev, "ts"), 2));
	cr_assert(eq(i64, get_int(ev, "dur"), 0));
	cr_assert(eq(i64, get_int(get(root, "otherData"), "duration_us"), 9));
	json_object_put(root);
}

Test(chrome_trace, exec_slices_clamped_into_the_process)
{
	struct proc_instance p[1];
	struct exec_image img[3];
	struct model m;
	struct json_object *root, *ev;

	/* Recorded times that disagree: an image before the fork, images that
	 * overlap, one past the exit.  The slices still nest. */
	p[0] = proc(0, -1, 10, MS(10), MS(50), 0, "x");
	img[0] = image(MS(5), MS(30), ARGV("a"), "/a");
	img[1] = image(MS(20), MS(40), ARGV("b"), "/b");
	img[2] = image(MS(35), MS(90), ARGV("c"), "/c");
	attach(&p[0], img, 3);
	m = model_of(p, 1, MS(100));
	root = export(&m, &default_meta);
	ev = must_find(root, "X", "exec", "a");
	cr_assert(eq(i64, get_int(ev, "ts"), 10001));
	cr_assert(eq(i64, get_int(ev, "dur"), 20000));
	ev = must_find(root, "X", "exec", "b");
	cr_assert(eq(i64, get_int(ev, "ts"), 30001));
	cr_assert(eq(i64, get_int(ev, "dur"), 10000));
	ev = must_find(root, "X", "exec", "c");
	cr_assert(eq(i64, get_int(ev, "ts"), 40001));
	cr_assert(eq(i64, get_int(ev, "dur"), 10000));
	json_object_put(root);
}

Test(chrome_trace, child_straddling_an_exec_keeps_the_process_whole)
{
	struct proc_instance p[2];
	struct exec_image img[2];
	struct model m;
	struct json_object *root;

	/* sh forks a background child on its own lane, then execs cc while the
	 * child still runs: image slices would cut through the child. */
	p[0] = proc(0, -1, 10, MS(0), MS(100), 0, "sh");
	img[0] = image(MS(0), MS(30), ARGV("sh", "-c", "bg & exec cc x.c"), "/bin/sh");
	img[1] = image(MS(30), MS(100), ARGV("cc", "x.c"), "/usr/bin/cc");
	attach(&p[0], img, 2);
	p[1] = proc(1, 0, 11, MS(20), MS(40), 0, "sh");
	m = model_of(p, 2, MS(100));
	root = export(&m, &default_meta);
	cr_assert(eq(sz, count_events(root, "X", "exec"), 0));
	cr_assert(eq(sz, count_events(root, "X", "process"), 2));
	cr_assert(eq(int, (int)get_int(args_of(must_find(root, "X", "process", "cc x.c")), "images"), 2));
	json_object_put(root);
}

Test(chrome_trace, child_inside_one_image_keeps_exec_slices)
{
	struct proc_instance p[2];
	struct exec_image img[2];
	struct model m;
	struct json_object *root;

	p[0] = proc(0, -1, 10, MS(0), MS(100), 0, "sh");
	img[0] = image(MS(0), MS(30), ARGV("sh", "-c", "exec cc x.c"), "/bin/sh");
	img[1] = image(MS(30), MS(100), ARGV("cc", "x.c"), "/usr/bin/cc");
	attach(&p[0], img, 2);
	p[1] = proc(1, 0, 11, MS(40), MS(60), 0, "cc");
	m = model_of(p, 2, MS(100));
	root = export(&m, &default_meta);
	cr_assert(eq(sz, count_events(root, "X", "exec"), 2));
	cr_assert(eq(sz, count_events(root, "s", NULL), 0));
	json_object_put(root);
}

/* ---- hostile bytes ---- */

Test(chrome_trace, hostile_argv_gives_valid_json)
{
	static char *hostile[] = {
		"/tmp/\xff\xfe\x80x",
		"quote\"back\\slash",
		"new\nline\r\ttab",
		"esc\x1b[31mred\x1b[0m",
		"bell\x07" "del\x7f",
		"lone\x80\xbf continuation",
		"overlong\xc0\xaf surrogate\xed\xa0\x80 big\xf4\x90\x80\x80",
		"cut\xe2\x82",
		"</script><!--",
		"\"}]},{\"ph\":\"X\"",
		"",
		NULL,
	};
	struct proc_instance p[1];
	struct exec_image img[1];
	struct trace_meta meta = default_meta;
	struct model m;
	struct json_object *root, *args, *od;
	size_t i;

	p[0] = proc(0, -1, 10, MS(0), MS(10), 0, "evil\xff\n\"");
	img[0] = image(MS(0), MS(10), hostile, "/bin/\xff\"\n\\");
	attach(&p[0], img, 1);
	img[0].flags = BB_EXEC_ARGS_TRUNCATED | BB_EXEC_ARGS_UNREADABLE;
	m = model_of(p, 1, MS(10));
	meta.cmd_argv = hostile;
	meta.cmd_argc = (int)count_argv(hostile);
	meta.user = "us\xe9r\n";
	meta.kernel_release = "6.\xff";
	root = export(&m, &meta);

	/* Exactly one slice: nothing in argv broke out of its string. */
	cr_assert(eq(sz, count_events(root, "X", NULL), 1));
	args = args_of(json_object_array_get_idx(events_of(root), json_object_array_length(events_of(root)) - 1));
	assert_argv(args, hostile);
	cr_assert(eq(str, (char *)get_str(args, "filename"), "/bin/\xef\xbf\xbd\"\n\\"));
	cr_assert(eq(str, (char *)get_str(args, "comm"), "evil\xef\xbf\xbd\n\""));
	cr_assert(json_object_get_boolean(get(args, "args_truncated")));
	cr_assert(json_object_get_boolean(get(args, "args_unreadable")));
	od = get(root, "otherData");
	cr_assert(eq(sz, json_object_array_length(get(od, "command_argv")), count_argv(hostile)));
	for (i = 0; hostile[i]; i++) {
		char *clean = utf8_sanitize(hostile[i], strlen(hostile[i]));

		cr_assert(eq(str, (char *)json_object_get_string(json_object_array_get_idx(get(od, "command_argv"), i)),
			     clean));
		free(clean);
	}
	cr_assert(eq(str, (char *)get_str(od, "user"), "us\xef\xbf\xbdr\n"));
	cr_assert(eq(str, (char *)get_str(od, "kernel_release"), "6.\xef\xbf\xbd"));
	json_object_put(root);
}

/* ---- exit status ---- */

static struct json_object *exit_args(__u32 status, bool exited, struct json_object **root)
{
	static struct proc_instance p[1];
	struct model m;

	p[0] = proc(0, -1, 10, MS(0), MS(10), 0, "job");
	p[0].exit_status = status;
	p[0].exited = exited;
	p[0].utime_ns = 1234567891;
	p[0].stime_ns = 5000;
	p[0].maxrss_kb = 4096;
	p[0].nr_threads = 3;
	p[0].ppid = 77;
	m = model_of(p, 1, MS(10));
	*root = export(&m, &default_meta);
	return args_of(must_find(*root, "X", "process", "job (fork)"));
}

Test(chrome_trace, exit_code)
{
	struct json_object *root, *args;

	args = exit_args(W_EXITED(3), true, &root);
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "exit 3"));
	cr_assert(eq(int, (int)get_int(args, "exit_code"), 3));
	cr_assert(eq(ptr, get(args, "signal"), NULL));
	cr_assert(eq(ptr, get(args, "core_dumped"), NULL));
	cr_assert(eq(ptr, get(args, "unfinished"), NULL));
	cr_assert(eq(int, (int)get_int(args, "pid"), 10));
	cr_assert(eq(int, (int)get_int(args, "ppid"), 77));
	cr_assert(eq(dbl, json_object_get_double(get(args, "cpu_user_ms")), 1234.567));
	cr_assert(eq(dbl, json_object_get_double(get(args, "cpu_sys_ms")), 0.005));
	cr_assert(eq(int, (int)get_int(args, "peak_rss_kb"), 4096));
	cr_assert(eq(int, (int)get_int(args, "threads"), 3));
	cr_assert(eq(str, (char *)get_str(args, "comm"), "job"));
	json_object_put(root);

	args = exit_args(W_EXITED(0), true, &root);
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "exit 0"));
	cr_assert(eq(int, (int)get_int(args, "exit_code"), 0));
	json_object_put(root);
}

Test(chrome_trace, killed_by_signal)
{
	struct json_object *root, *args;

	args = exit_args(W_SIGNALED(SIGKILL), true, &root);
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "killed by SIGKILL"));
	cr_assert(eq(int, (int)get_int(args, "signal"), SIGKILL));
	cr_assert(eq(str, (char *)get_str(args, "signal_name"), "SIGKILL"));
	cr_assert(eq(ptr, get(args, "exit_code"), NULL));
	cr_assert(eq(ptr, get(args, "core_dumped"), NULL));
	json_object_put(root);

	args = exit_args(W_SIGNALED(SIGSEGV) | W_COREDUMP, true, &root);
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "killed by SIGSEGV (core dumped)"));
	cr_assert(eq(int, (int)get_int(args, "signal"), SIGSEGV));
	cr_assert(json_object_get_boolean(get(args, "core_dumped")));
	json_object_put(root);
}

Test(chrome_trace, exit_not_seen)
{
	struct json_object *root, *args;

	args = exit_args(0, false, &root);
	cr_assert(eq(str, (char *)get_str(args, "exit_status"), "unknown"));
	cr_assert(eq(ptr, get(args, "exit_code"), NULL));
	json_object_put(root);
}

/* ---- trace-level metadata ---- */

Test(chrome_trace, other_data_fields)
{
	struct small_build sb;
	struct json_object *root, *od, *argv;

	small_build_init(&sb);
	root = export(&sb.m, &default_meta);
	od = get(root, "otherData");
	cr_assert(eq(str, (char *)get_str(od, "buildbpf_version"), "9.9.9"));
	cr_assert(eq(str, (char *)get_str(od, "kernel_release"), "6.1.0-test"));
	cr_assert(eq(int, (int)get_int(od, "cpu_count"), 8));
	cr_assert(eq(str, (char *)get_str(od, "command"), "make -j8"));
	argv = get(od, "command_argv");
	cr_assert(eq(sz, json_object_array_length(argv), 2));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_array_get_idx(argv, 1)), "-j8"));
	cr_assert(eq(str, (char *)get_str(od, "start_time"), "2023-11-14T22:13:20.123Z"));
	cr_assert(eq(i64, get_int(od, "start_time_unix_ns"), 1700000000123456789ll));
	cr_assert(eq(int, (int)get_int(od, "lost_events"), 7));
	cr_assert(eq(int, (int)get_int(od, "args_max"), 16384));
	cr_assert(eq(str, (char *)get_str(od, "user"), "builder"));
	cr_assert(eq(int, (int)get_int(od, "processes"), 5));
	cr_assert(eq(int, (int)get_int(od, "lanes"), 3));
	cr_assert(eq(int, (int)get_int(od, "unfinished_processes"), 1));
	cr_assert(eq(i64, get_int(od, "duration_us"), 120000));
	json_object_put(root);
}

Test(chrome_trace, empty_model)
{
	struct model m = model_of(NULL, 0, MS(1));
	struct trace_meta meta = default_meta;
	struct json_object *root;

	meta.cmd_argv = NULL;
	meta.cmd_argc = 0;
	root = export(&m, &meta);
	cr_assert(eq(sz, json_object_array_length(events_of(root)), 2));
	cr_assert(eq(str, (char *)get_str(args_of(must_find(root, "M", NULL, "process_name")), "name"), "buildbpf"));
	cr_assert(eq(int, (int)get_int(get(root, "otherData"), "processes"), 0));
	cr_assert(eq(str, (char *)get_str(get(root, "otherData"), "command"), ""));
	json_object_put(root);
}

Test(chrome_trace, no_command_names_the_track_after_the_root)
{
	struct small_build sb;
	struct trace_meta meta = default_meta;
	struct json_object *root;

	small_build_init(&sb);
	meta.cmd_argv = NULL;
	meta.cmd_argc = 0;
	root = export(&sb.m, &meta);
	cr_assert(eq(str, (char *)get_str(args_of(must_find(root, "M", NULL, "process_name")), "name"), "make"));
	json_object_put(root);
}

/* ---- many processes: every rule holds at scale ---- */

static __u64 rand_next(__u64 *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/* Smallest lane on which the span nests with every span already there. */
static __u32 pack_lane(const struct proc_instance *procs, size_t nr, const struct proc_instance *p)
{
	__u32 lane;
	size_t i;

	for (lane = 0;; lane++) {
		bool ok = true;

		for (i = 0; ok && i < nr; i++) {
			const struct proc_instance *q = &procs[i];

			if (q->lane != lane)
				continue;
			ok = (q->start_ns <= p->start_ns && p->end_ns <= q->end_ns) || q->end_ns <= p->start_ns ||
			     p->end_ns <= q->start_ns;
		}
		if (ok)
			return lane;
	}
}

#define RANDOM_PROCS 400

Test(chrome_trace, random_trees_keep_every_rule)
{
	static struct proc_instance procs[RANDOM_PROCS];
	static struct exec_image execs[RANDOM_PROCS][3];
	char **argvs[] = { ARGV("cc", "-c", "x.c"), ARGV("sh", "-c", "true"), ARGV("ld", "-o", "a") };
	__u64 seed = 42;
	struct json_object *root;
	struct model m;
	size_t i, k;

	procs[0] = proc(0, -1, 1000, MS(0), MS(10000), 0, "make");
	for (i = 1; i < RANDOM_PROCS; i++) {
		/* A child of a random earlier proc, starting no earlier than the
		 * previous one so the array stays sorted by start. */
		long parent = (long)(rand_next(&seed) % i);
		const struct proc_instance *pp = &procs[parent];
		__u64 lo = procs[i - 1].start_ns > pp->start_ns ? procs[i - 1].start_ns : pp->start_ns;
		__u64 start, end;

		if (lo >= pp->end_ns)
			lo = procs[i - 1].start_ns, parent = (long)i - 1, pp = &procs[parent];
		start = lo + rand_next(&seed) % ((pp->end_ns - lo) / 4 + 1);
		end = start + rand_next(&seed) % (pp->end_ns - start + 1);
		procs[i] = proc(i, parent, 1000 + i, start, end, 0, "job");
		procs[i].lane = pack_lane(procs, i, &procs[i]);
		procs[i].unfinished = rand_next(&seed) % 10 == 0;
		procs[i].exit_status = W_EXITED(rand_next(&seed) % 3);
	}
	for (i = 0; i < RANDOM_PROCS; i++) {
		size_t nr = rand_next(&seed) % 4;
		__u64 t = procs[i].start_ns + rand_next(&seed) % 1000000;

		for (k = 0; k < nr; k++) {
			__u64 next = k + 1 == nr ? procs[i].end_ns : t + rand_next(&seed) % 3000000;

			execs[i][k] = image(t, next, argvs[rand_next(&seed) % 3], "/bin/x");
			t = next;
		}
		attach(&procs[i], execs[i], nr);
	}
	m = model_of(procs, RANDOM_PROCS, MS(10000));
	root = export(&m, &default_meta);
	cr_assert(eq(sz, count_events(root, "X", "process"), RANDOM_PROCS));
	cr_assert(eq(sz, count_events(root, "s", NULL), count_events(root, "f", NULL)));
	json_object_put(root);
}

/* ---- writing ---- */

Test(chrome_trace, write_to_full_device_is_enospc)
{
	struct small_build sb;
	struct json_object *trace;
	int fd;

	small_build_init(&sb);
	trace = chrome_trace__build(&sb.m, &default_meta);
	cr_assert(not(eq(ptr, trace, NULL)));
	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write_fd(trace, fd), -ENOSPC));
	close(fd);
	json_object_put(trace);
}

Test(chrome_trace, write_to_bad_fd_is_ebadf)
{
	struct model m = model_of(NULL, 0, MS(1));
	struct json_object *trace = chrome_trace__build(&m, &default_meta);

	cr_assert(eq(int, chrome_trace__write_fd(trace, -1), -EBADF));
	json_object_put(trace);
}

Test(chrome_trace, write_through_a_pipe_in_pieces)
{
	static struct proc_instance procs[2000];
	struct json_object *trace, *root;
	size_t i, len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	int pipefd[2];
	pid_t child;
	ssize_t n;
	int status;

	/* Larger than a pipe buffer: the writer must loop over short writes. */
	for (i = 0; i < 2000; i++)
		procs[i] = proc(i, i ? 0 : -1, 10 + i, MS(i), MS(i + 1), i ? 1 : 0, "job");
	procs[0].end_ns = MS(3000);
	{
		struct model m = model_of(procs, 2000, MS(3000));

		trace = chrome_trace__build(&m, &default_meta);
	}
	cr_assert(eq(int, pipe(pipefd), 0));
	child = fork();
	cr_assert(ge(int, child, 0));
	if (child == 0) {
		close(pipefd[0]);
		_exit(chrome_trace__write_fd(trace, pipefd[1]) ? 1 : 0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	close(pipefd[0]);
	cr_assert(eq(int, waitpid(child, &status, 0), child));
	cr_assert(eq(int, status, 0));
	buf[len] = '\0';
	check_raw_text(buf, len);
	root = parse_strict(buf, len);
	check_trace_rules(root);
	cr_assert(eq(sz, count_events(root, "X", NULL), 2000));
	json_object_put(root);
	json_object_put(trace);
	free(buf);
}
