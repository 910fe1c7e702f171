/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter from hand-built models.  Every trace is written out, read
 * back, parsed strictly (UTF-8 validated) and checked against the rules of
 * docs/trace-rules.md by check_trace_rules(); tests then assert on the
 * parsed structure, never on the text.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "report/chrome_trace.h"
#include "model/lanes.h"
#include "model/proc_name.h"
#include "model/trace_layout.h"
#include "util/sorted_search.h"
#include "util/utf8.h"
#include "lib/json_fields.h"
#include "lib/seeded_random.h"
#include "lib/source_file.h"
#include "lib/synth.h"
#include "lib/trace_rules.h"

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

/* A recording's INFO as the trace reads it: started at 1700000000123456789 ns on the wall clock. */
static const struct event_log_info default_info = {
	.buildbpf_version = "9.9.9",
	.kernel_release = "6.1.0-test",
	.online_cpus = 8,
	.cmd_argv = ARGV("make", "-j8"),
	.cmd_argc = 2,
	.start_ns = 1000000000ull,
	.realtime_offset_ns = 1700000000123456789ll - 1000000000ll,
	.args_max = 16384,
	.user = "builder",
};

static const struct trace_meta default_meta = {
	.info = &default_info,
	.lost_events = 7,
};

/* ---- writing and reading back ---- */

static char *write_to_memfd(const struct model *m, const struct trace_meta *meta, size_t *len)
{
	int fd = memfd_create("trace", MFD_CLOEXEC);
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap);
	ssize_t n;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write(m, meta, fd), 0));
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

/* ---- reading the parsed trace ---- */

/* The n-th (0-based) event with phase ph, cat (NULL: any) and name. */
static struct json_object *find_event(struct json_object *root, const char *ph, const char *cat, const char *name,
				      int n)
{
	struct json_object *events = trace_events(root);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", ph) && (!cat || str_field_is(ev, "cat", cat)) &&
		    str_field_is(ev, "name", name) && n-- == 0)
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
	struct json_object *events = trace_events(root);
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		n += str_field_is(ev, "ph", ph) && (!cat || str_field_is(ev, "cat", cat));
	}
	return n;
}

/* Write, read back, check every rule: the parsed trace. */
static struct json_object *export(const struct model *m, const struct trace_meta *meta)
{
	struct json_object *root;
	size_t len;
	char *text;

	text = write_to_memfd(m, meta, &len);
	check_trace_text(text, len);
	root = parse_trace_text(text, len);
	free(text);
	check_trace_rules(root);
	return root;
}

static struct json_object *args_of(struct json_object *ev)
{
	struct json_object *args = field(ev, "args");

	cr_assert(not(eq(ptr, args, NULL)));
	return args;
}

static void assert_argv(struct json_object *args, char **want)
{
	struct json_object *argv = field(args, "argv");
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
	cr_assert(eq(int, (int)int_field(ev, "pid"), 1));
	cr_assert(eq(str, (char *)str_field(args_of(ev), "name"), "make -j8"));
	cr_assert(eq(int, (int)int_field(args_of(must_find(root, "M", NULL, "process_sort_index")), "sort_index"), 0));
	cr_assert(eq(sz, count_events(root, "M", NULL), 2 + 2 * 3));
	ev = find_event(root, "M", NULL, "thread_name", 2);
	cr_assert(eq(int, (int)int_field(ev, "tid"), 3));
	cr_assert(eq(str, (char *)str_field(args_of(ev), "name"), "lane 3"));
	ev = find_event(root, "M", NULL, "thread_sort_index", 2);
	cr_assert(eq(int, (int)int_field(ev, "tid"), 3));
	cr_assert(eq(int, (int)int_field(args_of(ev), "sort_index"), 3));

	/* Five process slices plus A's two images. */
	cr_assert(eq(sz, count_events(root, "X", "process"), 5));
	cr_assert(eq(sz, count_events(root, "X", "exec"), 2));

	ev = must_find(root, "X", "process", "make");
	cr_assert(eq(int, (int)int_field(ev, "tid"), 1));
	cr_assert(eq(i64, int_field(ev, "ts"), 1));
	cr_assert(eq(i64, int_field(ev, "dur"), 100000));

	ev = must_find(root, "X", "process", "cc a.c");
	cr_assert(eq(int, (int)int_field(ev, "tid"), 2));
	cr_assert(eq(i64, int_field(ev, "ts"), 10001));
	cr_assert(eq(i64, int_field(ev, "dur"), 40000));
	args = args_of(ev);
	assert_argv(args, ARGV("cc", "-c", "a.c", "-o", "a.o"));
	cr_assert(eq(str, (char *)str_field(args, "filename"), "/usr/bin/cc"));
	cr_assert(eq(int, (int)int_field(args, "pid"), 101));
	cr_assert(eq(int, (int)int_field(args, "images"), 2));

	/* The images nest in the process slice, back to back. */
	sub0 = must_find(root, "X", "exec", "sh -c cc -c a.c -o a.o");
	sub1 = must_find(root, "X", "exec", "cc a.c");
	cr_assert(eq(int, (int)int_field(sub0, "tid"), 2));
	cr_assert(eq(i64, int_field(sub0, "ts"), 10301));
	cr_assert(eq(i64, int_field(sub0, "dur"), 4700));
	cr_assert(eq(i64, int_field(sub1, "ts"), 15001));
	cr_assert(eq(i64, int_field(sub1, "dur"), 35000));
	cr_assert(eq(int, (int)int_field(args_of(sub0), "image"), 0));
	cr_assert(eq(int, (int)int_field(args_of(sub1), "image"), 1));
	assert_argv(args_of(sub0), ARGV("/bin/sh", "-c", "cc -c a.c -o a.o"));
	cr_assert(eq(str, (char *)str_field(args_of(sub0), "filename"), "/bin/sh"));

	ev = must_find(root, "X", "process", "cc1 a.c");
	cr_assert(eq(int, (int)int_field(ev, "tid"), 2));
	ev = must_find(root, "X", "process", "as -o a.o");
	cr_assert(eq(int, (int)int_field(ev, "tid"), 3));
	json_object_put(root);
}

/*
 * Given a layout (the one the merge placed its events by), the writer
 * draws from it and makes none of its own: a span moved in the given
 * layout moves the slice in the file.
 */
Test(chrome_trace, draws_from_the_layout_it_is_given)
{
	struct small_build sb;
	struct trace_meta meta = default_meta;
	struct trace_layout *tl;
	struct json_object *root, *ev;

	small_build_init(&sb);
	tl = trace_layout__new(&sb.m);
	cr_assert_not_null(tl);
	tl->procs[3].span.ts += 7;
	tl->procs[3].span.end -= 7;
	meta.layout = tl;
	root = export(&sb.m, &meta);
	ev = must_find(root, "X", "process", "as -o a.o");
	cr_assert(eq(i64, int_field(ev, "ts"), tl->procs[3].span.ts));
	cr_assert(eq(i64, int_field(ev, "dur"), tl->procs[3].span.end - tl->procs[3].span.ts));
	json_object_put(root);
	trace_layout__free(tl);
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
	cr_assert(eq(i64, int_field(s, "id"), int_field(f, "id")));
	cr_assert(eq(int, (int)int_field(s, "tid"), 2));
	cr_assert(eq(i64, int_field(s, "ts"), 10001));
	cr_assert(eq(int, (int)int_field(f, "tid"), 3));
	cr_assert(eq(i64, int_field(f, "ts"), 41001));
	cr_assert(lt(i64, int_field(find_event(root, "s", NULL, "fork", 0), "id"), int_field(s, "id")));
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
	cr_assert(eq(int, (int)int_field(s, "tid"), 1));
	cr_assert(eq(i64, int_field(s, "ts"), 1));
	cr_assert(eq(int, (int)int_field(f, "tid"), 1));
	cr_assert(eq(i64, int_field(f, "ts"), 20001));
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
	cr_assert(eq(ptr, field(args, "filename"), NULL));
	cr_assert(json_object_get_boolean(field(args, "unfinished")));
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "running at trace end"));
	cr_assert(eq(ptr, field(args, "exit_code"), NULL));
	cr_assert(eq(int, (int)int_field(field(root, "otherData"), "unfinished_processes"), 1));
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
	cr_assert(eq(i64, int_field(ev, "ts"), 1)); /* before the start: clamped */
	cr_assert(eq(i64, int_field(ev, "dur"), 9));
	ev = must_find(root, "X", "process", "inner (fork)");
	cr_assert(eq(i64, int_field(ev, "ts"), 2));
	cr_assert(eq(i64, int_field(ev, "dur"), 8));
	ev = must_find(root, "X", "process", "zero (fork)");
	cr_assert(eq(i64, int_field(ev, "ts"), 2));
	cr_assert(eq(i64, int_field(ev, "dur"), 0));
	cr_assert(eq(i64, int_field(field(root, "otherData"), "duration_us"), 9));
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
	cr_assert(eq(i64, int_field(ev, "ts"), 10001));
	cr_assert(eq(i64, int_field(ev, "dur"), 20000));
	ev = must_find(root, "X", "exec", "b");
	cr_assert(eq(i64, int_field(ev, "ts"), 30001));
	cr_assert(eq(i64, int_field(ev, "dur"), 10000));
	ev = must_find(root, "X", "exec", "c");
	cr_assert(eq(i64, int_field(ev, "ts"), 40001));
	cr_assert(eq(i64, int_field(ev, "dur"), 10000));
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
	cr_assert(eq(int, (int)int_field(args_of(must_find(root, "X", "process", "cc x.c")), "images"), 2));
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
	struct event_log_info info = default_info;
	struct trace_meta meta = { .info = &info, .lost_events = 7 };
	struct model m;
	struct json_object *root, *args, *od;
	size_t i;

	p[0] = proc(0, -1, 10, MS(0), MS(10), 0, "evil\xff\n\"");
	img[0] = image(MS(0), MS(10), hostile, "/bin/\xff\"\n\\");
	attach(&p[0], img, 1);
	img[0].flags = BB_EXEC_ARGS_TRUNCATED | BB_EXEC_ARGS_UNREADABLE;
	m = model_of(p, 1, MS(10));
	info.cmd_argv = (char **)hostile;
	info.cmd_argc = (int)count_argv(hostile);
	info.user = "us\xe9r\n";
	info.kernel_release = "6.\xff";
	root = export(&m, &meta);

	/* Exactly one slice: nothing in argv broke out of its string. */
	cr_assert(eq(sz, count_events(root, "X", NULL), 1));
	args = args_of(json_object_array_get_idx(trace_events(root), json_object_array_length(trace_events(root)) - 1));
	assert_argv(args, hostile);
	cr_assert(eq(str, (char *)str_field(args, "filename"), "/bin/\xef\xbf\xbd\"\n\\"));
	cr_assert(eq(str, (char *)str_field(args, "comm"), "evil\xef\xbf\xbd\n\""));
	cr_assert(json_object_get_boolean(field(args, "args_truncated")));
	cr_assert(json_object_get_boolean(field(args, "args_unreadable")));
	od = field(root, "otherData");
	cr_assert(eq(sz, json_object_array_length(field(od, "command_argv")), count_argv(hostile)));
	for (i = 0; hostile[i]; i++) {
		char *clean = utf8_sanitize(hostile[i], strlen(hostile[i]));

		cr_assert(eq(str,
			     (char *)json_object_get_string(json_object_array_get_idx(field(od, "command_argv"), i)),
			     clean));
		free(clean);
	}
	cr_assert(eq(str, (char *)str_field(od, "user"), "us\xef\xbf\xbdr\n"));
	cr_assert(eq(str, (char *)str_field(od, "kernel_release"), "6.\xef\xbf\xbd"));
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
	p[0].peak_rss_kb = 4096;
	p[0].maxrss_kb = 40960; /* the kernel's, the parent's copy included */
	p[0].oom_killed = true;
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
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "exit 3"));
	cr_assert(eq(int, (int)int_field(args, "exit_code"), 3));
	cr_assert(eq(ptr, field(args, "signal"), NULL));
	cr_assert(eq(ptr, field(args, "core_dumped"), NULL));
	cr_assert(eq(ptr, field(args, "unfinished"), NULL));
	cr_assert(eq(int, (int)int_field(args, "pid"), 10));
	cr_assert(eq(int, (int)int_field(args, "ppid"), 77));
	cr_assert(eq(dbl, json_object_get_double(field(args, "cpu_user_ms")), 1234.567));
	cr_assert(eq(dbl, json_object_get_double(field(args, "cpu_sys_ms")), 0.005));
	cr_assert(eq(int, (int)int_field(args, "peak_rss_kb"), 4096));
	cr_assert(eq(int, (int)int_field(args, "maxrss_kb"), 40960));
	cr_assert(eq(int, json_object_get_boolean(field(args, "oom_killed")), 1));
	cr_assert(eq(int, (int)int_field(args, "threads"), 3));
	cr_assert(eq(str, (char *)str_field(args, "comm"), "job"));
	json_object_put(root);

	args = exit_args(W_EXITED(0), true, &root);
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "exit 0"));
	cr_assert(eq(int, (int)int_field(args, "exit_code"), 0));
	json_object_put(root);
}

Test(chrome_trace, killed_by_signal)
{
	struct json_object *root, *args;

	args = exit_args(W_SIGNALED(SIGKILL), true, &root);
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "killed by SIGKILL"));
	cr_assert(eq(int, (int)int_field(args, "signal"), SIGKILL));
	cr_assert(eq(str, (char *)str_field(args, "signal_name"), "SIGKILL"));
	cr_assert(eq(ptr, field(args, "exit_code"), NULL));
	cr_assert(eq(ptr, field(args, "core_dumped"), NULL));
	json_object_put(root);

	args = exit_args(W_SIGNALED(SIGSEGV) | W_COREDUMP, true, &root);
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "killed by SIGSEGV (core dumped)"));
	cr_assert(eq(int, (int)int_field(args, "signal"), SIGSEGV));
	cr_assert(json_object_get_boolean(field(args, "core_dumped")));
	json_object_put(root);
}

Test(chrome_trace, exit_not_seen)
{
	struct json_object *root, *args;

	args = exit_args(0, false, &root);
	cr_assert(eq(str, (char *)str_field(args, "exit_status"), "unknown"));
	cr_assert(eq(ptr, field(args, "exit_code"), NULL));
	json_object_put(root);
}

/*
 * From records: a process whose fork record was lost starts at its exec.
 * The trace says so, as a lost-record count must tell its exec and exit
 * records from those of a process whose fork arrived.
 */
Test(chrome_trace, a_process_first_seen_at_its_exec_says_its_fork_record_was_lost)
{
	struct model *m = model__new(100, MS(0));
	struct json_object *root;

	synth_exec(m, MS(1), 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	synth_fork(m, MS(2), 100, 101, 101, false);
	synth_exec(m, MS(3), 101, 100, "/usr/bin/cc", (const char *[]){ "cc", NULL });
	synth_exit(m, MS(4), 101, 101, true, 0);
	synth_exec(m, MS(5), 102, 100, "/usr/bin/ld", (const char *[]){ "ld", NULL });
	synth_exit(m, MS(6), 102, 102, true, 0);
	synth_exit(m, MS(7), 100, 100, true, 0);
	cr_assert(eq(int, model__finish(m, MS(7)), 0));
	lanes__assign_model(m); /* as replay does */
	root = export(m, &default_meta);
	cr_assert(json_object_get_boolean(field(args_of(must_find(root, "X", "process", "ld")), "fork_record_lost")));
	cr_assert(eq(ptr, field(args_of(must_find(root, "X", "process", "cc")), "fork_record_lost"), NULL));
	cr_assert(eq(ptr, field(args_of(must_find(root, "X", "process", "make")), "fork_record_lost"), NULL),
		  "the command's fork is buildbpf's own, never traced");
	json_object_put(root);
	model__free(m);
}

/* Inside a new PID namespace: ns_pid in args, only where it tells something. */
Test(chrome_trace, ns_pid_only_when_it_differs_from_pid)
{
	static struct proc_instance p[3];
	struct json_object *root, *args;
	struct model m;

	p[0] = proc(0, -1, 100, MS(0), MS(30), 0, "outer");
	p[0].ns_pid = 100; /* the initial namespace: the same number */
	p[1] = proc(1, 0, 101, MS(1), MS(20), 0, "inner");
	p[1].ns_pid = 1;
	p[1].ppid = 100;
	p[2] = proc(2, 1, 102, MS(2), MS(10), 0, "unread");
	p[2].ns_pid = 0; /* unknown */
	p[2].ppid = 101;
	m = model_of(p, 3, MS(30));
	root = export(&m, &default_meta);

	args = args_of(must_find(root, "X", "process", "outer (fork)"));
	cr_assert(eq(int, (int)int_field(args, "pid"), 100));
	cr_assert(eq(ptr, field(args, "ns_pid"), NULL));
	args = args_of(must_find(root, "X", "process", "inner (fork)"));
	cr_assert(eq(int, (int)int_field(args, "pid"), 101));
	cr_assert(eq(int, (int)int_field(args, "ppid"), 100));
	cr_assert(eq(int, (int)int_field(args, "ns_pid"), 1));
	args = args_of(must_find(root, "X", "process", "unread (fork)"));
	cr_assert(eq(int, (int)int_field(args, "pid"), 102));
	cr_assert(eq(ptr, field(args, "ns_pid"), NULL));
	json_object_put(root);
}

/* ---- trace-level metadata ---- */

Test(chrome_trace, other_data_fields)
{
	struct small_build sb;
	struct json_object *root, *od, *argv;

	small_build_init(&sb);
	root = export(&sb.m, &default_meta);
	od = field(root, "otherData");
	cr_assert(eq(str, (char *)str_field(od, "buildbpf_version"), "9.9.9"));
	cr_assert(eq(str, (char *)str_field(od, "kernel_release"), "6.1.0-test"));
	cr_assert(eq(int, (int)int_field(od, "cpu_count"), 8));
	cr_assert(eq(str, (char *)str_field(od, "command"), "make -j8"));
	argv = field(od, "command_argv");
	cr_assert(eq(sz, json_object_array_length(argv), 2));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_array_get_idx(argv, 1)), "-j8"));
	cr_assert(eq(str, (char *)str_field(od, "start_time"), "2023-11-14T22:13:20.123Z"));
	cr_assert(eq(i64, int_field(od, "start_time_unix_ns"), 1700000000123456789ll));
	cr_assert(eq(int, (int)int_field(od, "lost_events"), 7));
	cr_assert(eq(int, (int)int_field(od, "args_max"), 16384));
	cr_assert(eq(str, (char *)str_field(od, "user"), "builder"));
	cr_assert(eq(int, (int)int_field(od, "processes"), 5));
	cr_assert(eq(int, (int)int_field(od, "lanes"), 3));
	cr_assert(eq(int, (int)int_field(od, "unfinished_processes"), 1));
	cr_assert(eq(i64, int_field(od, "duration_us"), 120000));
	json_object_put(root);
}

Test(chrome_trace, partial_recording_is_marked)
{
	struct small_build sb;
	struct trace_meta meta = default_meta;
	struct json_object *root, *od, *reason;

	small_build_init(&sb);
	root = export(&sb.m, &meta);
	od = field(root, "otherData");
	cr_assert(not(json_object_get_boolean(field(od, "partial"))));
	cr_assert(not(json_object_object_get_ex(od, "partial_reason", &reason)));
	json_object_put(root);

	meta.partial_reason = "buildbpf received SIGINT: the build was interrupted";
	root = export(&sb.m, &meta);
	od = field(root, "otherData");
	cr_assert(json_object_get_boolean(field(od, "partial")));
	cr_assert(eq(str, (char *)str_field(od, "partial_reason"), (char *)meta.partial_reason));
	json_object_put(root);
}

Test(chrome_trace, empty_model)
{
	struct model m = model_of(NULL, 0, MS(1));
	struct event_log_info info = default_info;
	struct trace_meta meta = { .info = &info, .lost_events = 7 };
	struct json_object *root;

	info.cmd_argv = NULL;
	info.cmd_argc = 0;
	root = export(&m, &meta);
	cr_assert(eq(sz, json_object_array_length(trace_events(root)), 2));
	cr_assert(eq(str, (char *)str_field(args_of(must_find(root, "M", NULL, "process_name")), "name"), "buildbpf"));
	cr_assert(eq(int, (int)int_field(field(root, "otherData"), "processes"), 0));
	cr_assert(eq(str, (char *)str_field(field(root, "otherData"), "command"), ""));
	json_object_put(root);
}

Test(chrome_trace, no_command_names_the_track_after_the_root)
{
	struct small_build sb;
	struct event_log_info info = default_info;
	struct trace_meta meta = { .info = &info, .lost_events = 7 };
	struct json_object *root;

	small_build_init(&sb);
	info.cmd_argv = NULL;
	info.cmd_argc = 0;
	root = export(&sb.m, &meta);
	cr_assert(eq(str, (char *)str_field(args_of(must_find(root, "M", NULL, "process_name")), "name"), "make"));
	json_object_put(root);
}

/* ---- many processes: every rule holds at scale ---- */

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
		long parent = (long)(seeded_random(&seed) % i);
		const struct proc_instance *pp = &procs[parent];
		__u64 lo = procs[i - 1].start_ns > pp->start_ns ? procs[i - 1].start_ns : pp->start_ns;
		__u64 start, end;

		if (lo >= pp->end_ns)
			lo = procs[i - 1].start_ns, parent = (long)i - 1, pp = &procs[parent];
		start = lo + seeded_random(&seed) % ((pp->end_ns - lo) / 4 + 1);
		end = start + seeded_random(&seed) % (pp->end_ns - start + 1);
		procs[i] = proc(i, parent, 1000 + i, start, end, 0, "job");
		procs[i].lane = pack_lane(procs, i, &procs[i]);
		procs[i].unfinished = seeded_random(&seed) % 10 == 0;
		procs[i].exit_status = W_EXITED(seeded_random(&seed) % 3);
	}
	for (i = 0; i < RANDOM_PROCS; i++) {
		size_t nr = seeded_random(&seed) % 4;
		__u64 t = procs[i].start_ns + seeded_random(&seed) % 1000000;

		for (k = 0; k < nr; k++) {
			__u64 next = k + 1 == nr ? procs[i].end_ns : t + seeded_random(&seed) % 3000000;

			execs[i][k] = image(t, next, argvs[seeded_random(&seed) % 3], "/bin/x");
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
	int fd;

	small_build_init(&sb);
	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write(&sb.m, &default_meta, fd), -ENOSPC));
	close(fd);
}

Test(chrome_trace, write_to_bad_fd_is_ebadf)
{
	struct model m = model_of(NULL, 0, MS(1));

	cr_assert(eq(int, chrome_trace__write(&m, &default_meta, -1), -EBADF));
}

Test(chrome_trace, write_through_a_pipe_in_pieces)
{
	static struct proc_instance procs[2000];
	struct json_object *root;
	size_t i, len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	struct model m;
	int pipefd[2];
	pid_t child;
	ssize_t n;
	int status;

	/* Larger than a pipe buffer: the writer must loop over short writes. */
	for (i = 0; i < 2000; i++)
		procs[i] = proc(i, i ? 0 : -1, 10 + i, MS(i), MS(i + 1), i ? 1 : 0, "job");
	procs[0].end_ns = MS(3000);
	m = model_of(procs, 2000, MS(3000));
	cr_assert(eq(int, pipe(pipefd), 0));
	child = fork();
	cr_assert(ge(int, child, 0));
	if (child == 0) {
		close(pipefd[0]);
		_exit(chrome_trace__write(&m, &default_meta, pipefd[1]) ? 1 : 0);
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
	check_trace_text(buf, len);
	root = parse_trace_text(buf, len);
	check_trace_rules(root);
	cr_assert(eq(sz, count_events(root, "X", NULL), 2000));
	json_object_put(root);
	free(buf);
}

/*
 * A write that fails once part of the trace is out (here the file size
 * limit, as a disk filling up mid-trace would) is what the writer returns,
 * after the short write before it filled the file up to the limit.
 */
Test(chrome_trace, write_error_midway_is_returned)
{
	static struct proc_instance procs[2000];
	const struct rlimit limit = { 100000, 100000 };
	struct model m;
	struct stat st;
	int fd, err, status;
	pid_t child;
	size_t i;

	for (i = 0; i < 2000; i++)
		procs[i] = proc(i, i ? 0 : -1, 10 + i, MS(i), MS(i + 1), i ? 1 : 0, "job");
	procs[0].end_ns = MS(3000);
	m = model_of(procs, 2000, MS(3000));
	fd = memfd_create("trace", MFD_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	child = fork();
	cr_assert(ge(int, child, 0));
	if (child == 0) {
		/* With SIGXFSZ ignored, a write past the limit fails with EFBIG. */
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &limit))
			_exit(2);
		err = chrome_trace__write(&m, &default_meta, fd);
		if (err != -EFBIG)
			fprintf(stderr, "chrome_trace__write: %d, not -EFBIG\n", err);
		_exit(err == -EFBIG ? 0 : 1);
	}
	cr_assert(eq(int, waitpid(child, &status, 0), child));
	cr_assert(eq(int, status, 0));
	cr_assert(eq(int, fstat(fd, &st), 0));
	cr_assert(eq(i64, (int64_t)st.st_size, (int64_t)limit.rlim_cur));
	close(fd);
}

/* ---- scheduler data: CPU lanes, counters, accounting ---- */

static struct cpu_slice build_slice(__u64 start_ns, __u64 end_ns, __u32 tgid, __u32 tid, __u32 merged)
{
	return (struct cpu_slice){ start_ns, end_ns, CPU_SLICE_BUILD, tid, tgid, merged };
}

static struct cpu_slice other_slice(__u64 start_ns, __u64 end_ns)
{
	return (struct cpu_slice){ start_ns, end_ns, CPU_SLICE_OTHER, 0, 0, 1 };
}

static struct counter_sample sample(__u64 ts_ns, double running, double runnable, double idle_cpus)
{
	return (struct counter_sample){ ts_ns, running, runnable, idle_cpus };
}

static struct cpu_lane cpu_lane_of(__u32 cpu, struct cpu_slice *slices, size_t nr)
{
	return (struct cpu_lane){ .cpu = cpu, .slices = slices, .nr_slices = nr };
}

/*
 * pid 200 runs twice (the kernel reused it): cc [10,30], then ld [40,60].
 *
 *   CPU 0: make [0,5) | cc [12,20) x3 | other [20,25) | ld [45,50) | make [95,130) past the end
 *   CPU 1: pid 200 [35,38) between its two lives | ld [40,41) | pid 999 [60,70) | 400 ns at 70
 *   CPU 2: idle throughout
 *   CPU 3: only slices outside the trace
 */
struct sched_build {
	struct proc_instance procs[4];
	struct exec_image make_img[1], cc_img[1], ld_img[1];
	struct cpu_slice cpu0[5], cpu1[4], cpu3[2];
	struct cpu_lane cpus[4];
	struct counter_sample samples[5];
	struct model m;
	struct sched_model s;
	struct event_log_info info;
	struct trace_meta meta;
};

static void sched_build_init(struct sched_build *sb)
{
	static char *make_argv[] = { "make", "-j4", NULL };
	static char *cc_argv[] = { "cc", "-c", "a.c", NULL };
	static char *ld_argv[] = { "ld", "-o", "prog", "a.o", NULL };
	struct proc_instance *p = sb->procs;

	memset(sb, 0, sizeof(*sb));
	p[0] = proc(0, -1, 100, MS(0), MS(100), 0, "make");
	p[0].forked = false;
	p[1] = proc(1, 0, 200, MS(10), MS(30), 1, "make");
	p[2] = proc(2, 0, 200, MS(40), MS(60), 1, "make");
	p[3] = proc(3, 0, 300, MS(50), MS(90), 2, "make");
	sb->make_img[0] = image(MS(0), MS(100), make_argv, "/usr/bin/make");
	sb->cc_img[0] = image(MS(10), MS(30), cc_argv, "/usr/bin/cc");
	sb->ld_img[0] = image(MS(40), MS(60), ld_argv, "/usr/bin/ld");
	attach(&p[0], sb->make_img, 1);
	attach(&p[1], sb->cc_img, 1);
	attach(&p[2], sb->ld_img, 1);
	p[1].sched = (struct bb_sched_acct){
		.on_cpu_ns = 8000000,
		.runq_ns = 1234567,
		.blocked_ns = 3000,
		.sleep_ns = 10765433,
		.nr_voluntary = 5,
		.nr_involuntary = 2,
		.nr_migrations = 1,
	};
	sb->m = model_of(p, 4, MS(100));

	sb->cpu0[0] = build_slice(MS(0), MS(5), 100, 100, 1);
	sb->cpu0[1] = build_slice(MS(12), MS(20), 200, 201, 3);
	sb->cpu0[2] = other_slice(MS(20), MS(25));
	sb->cpu0[3] = build_slice(MS(45), MS(50), 200, 200, 1);
	sb->cpu0[4] = build_slice(MS(95), MS(130), 100, 100, 1);
	sb->cpu1[0] = build_slice(MS(35), MS(38), 200, 200, 1);
	sb->cpu1[1] = build_slice(MS(40), MS(41), 200, 200, 1);
	sb->cpu1[2] = build_slice(MS(60), MS(70), 999, 999, 1);
	sb->cpu1[3] = build_slice(MS(70), MS(70) + 400, 300, 300, 1);
	sb->cpu3[0] = other_slice(START_NS - 10000, START_NS);
	sb->cpu3[1] = other_slice(MS(110), MS(120));
	sb->cpus[0] = cpu_lane_of(0, sb->cpu0, 5);
	sb->cpus[1] = cpu_lane_of(1, sb->cpu1, 4);
	sb->cpus[2] = cpu_lane_of(2, NULL, 0);
	sb->cpus[3] = cpu_lane_of(3, sb->cpu3, 2);
	sb->cpus[0].build_ns = 18000000;
	sb->cpus[0].other_ns = 5000000;
	sb->cpus[0].idle_ns = 77000000;
	sb->cpus[0].folded_ns = 1500;
	sb->cpus[0].folded = 4;
	sb->cpus[2].idle_ns = 100000000;

	sb->samples[0] = sample(START_NS - 1000, 9, 9, 9); /* before the trace */
	sb->samples[1] = sample(MS(0), 1, 0, 3);
	sb->samples[2] = sample(MS(10), 2.5, 1.0 / 3, 1.25);
	sb->samples[3] = sample(MS(50) + 500, 3.0006, 2.0 / 3, 0.5);
	sb->samples[4] = sample(MS(150), 7, 7, 7); /* after it */

	sb->s = (struct sched_model){
		.level = SCHED_SUMMARY,
		.resolution_ns = 1000000,
		.bucket_ns = 5000000,
		.start_ns = START_NS,
		.end_ns = MS(100),
		.cpus = sb->cpus,
		.nr_cpus = 4,
		.samples = sb->samples,
		.nr_samples = 5,
		.records = 12345,
		.malformed = 2,
		.reordered = 3,
	};
	sb->info = default_info;
	sb->info.online_cpus = 4;
	sb->meta = default_meta;
	sb->meta.info = &sb->info;
	sb->meta.sched = &sb->s;
}

/* The event with phase ph on (pid, tid) at ts; NULL if there is none. */
static struct json_object *event_at(struct json_object *root, const char *ph, int64_t pid, int64_t tid, int64_t ts)
{
	struct json_object *events = trace_events(root);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", ph) && int_field(ev, "pid") == pid && has_int_field(ev, "tid") &&
		    int_field(ev, "tid") == tid && int_field(ev, "ts") == ts)
			return ev;
	}
	return NULL;
}

static struct json_object *must_be_at(struct json_object *root, const char *ph, int64_t pid, int64_t tid, int64_t ts)
{
	struct json_object *ev = event_at(root, ph, pid, tid, ts);

	cr_assert(not(eq(ptr, ev, NULL)), "no %s event on pid %lld tid %lld at %lld", ph, (long long)pid,
		  (long long)tid, (long long)ts);
	return ev;
}

static size_t count_on_pid(struct json_object *root, int64_t pid)
{
	struct json_object *events = trace_events(root);
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(events); i++)
		n += int_field(json_object_array_get_idx(events, i), "pid") == pid;
	return n;
}

/* The M event what (process_name, thread_sort_index, ...) of pid/tid (tid -1: the process's). */
static struct json_object *meta_of(struct json_object *root, const char *what, int64_t pid, int64_t tid)
{
	struct json_object *events = trace_events(root);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "M") && str_field_is(ev, "name", what) && int_field(ev, "pid") == pid &&
		    (tid < 0 ? !has_int_field(ev, "tid") : has_int_field(ev, "tid") && int_field(ev, "tid") == tid))
			return ev;
	}
	cr_assert(false, "no %s for pid %lld tid %lld", what, (long long)pid, (long long)tid);
	return NULL;
}

static const char *meta_name(struct json_object *root, const char *what, int64_t pid, int64_t tid)
{
	return str_field(args_of(meta_of(root, what, pid, tid)), "name");
}

static int64_t meta_sort(struct json_object *root, const char *what, int64_t pid, int64_t tid)
{
	return int_field(args_of(meta_of(root, what, pid, tid)), "sort_index");
}

Test(chrome_trace, sched_tracks_are_named_and_ordered)
{
	struct sched_build sb;
	struct json_object *root;
	char want[16];
	int cpu;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);

	/* The build first, the CPUs below it, the counters last. */
	cr_assert(eq(str, (char *)meta_name(root, "process_name", 1, -1), "make -j8"));
	cr_assert(eq(i64, meta_sort(root, "process_sort_index", 1, -1), 0));
	cr_assert(eq(str, (char *)meta_name(root, "process_name", 2, -1), "CPUs"));
	cr_assert(eq(i64, meta_sort(root, "process_sort_index", 2, -1), 1));
	cr_assert(eq(str, (char *)meta_name(root, "process_name", 3, -1), "Parallelism"));
	cr_assert(eq(i64, meta_sort(root, "process_sort_index", 3, -1), 2));
	cr_assert(eq(str, (char *)meta_name(root, "thread_name", 3, 3), "counters"));
	cr_assert(eq(i64, meta_sort(root, "thread_sort_index", 3, 3), 3));

	/* Every CPU is named, also the idle one and the one with nothing in the trace. */
	for (cpu = 0; cpu < 4; cpu++) {
		snprintf(want, sizeof(want), "CPU %d", cpu);
		cr_assert(eq(str, (char *)meta_name(root, "thread_name", 2, cpu + 2), want));
		cr_assert(eq(i64, meta_sort(root, "thread_sort_index", 2, cpu + 2), cpu + 2));
	}
	/* 2 + 2 * 3 lanes for the build, 2 + 2 * 4 CPUs, 2 + 2 counters. */
	cr_assert(eq(sz, count_events(root, "M", NULL), 8 + 10 + 4));
	json_object_put(root);
}

/* A named thread as a viewer orders it. */
struct named_thread {
	int64_t tid, sort_index;
	const char *name;
};

/*
 * Perfetto's thread order inside a process (ui ProcessThreadGroups): the
 * thread whose tid is the pid (its "main thread") first, then by tid;
 * versions that read thread_sort_index put it before both.
 */
static int64_t perfetto_pid;
static bool perfetto_reads_sort_index;

static int cmp_perfetto_thread(const void *a, const void *b)
{
	const struct named_thread *x = a, *y = b;
	bool xm = x->tid == perfetto_pid, ym = y->tid == perfetto_pid;

	if (perfetto_reads_sort_index && x->sort_index != y->sort_index)
		return x->sort_index < y->sort_index ? -1 : 1;
	if (xm != ym)
		return xm ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The names of pid's threads, comma-separated, in Perfetto's order. */
static void perfetto_thread_order(struct json_object *root, int64_t pid, bool reads_sort_index, char *out,
				  size_t size)
{
	struct json_object *events = trace_events(root);
	struct named_thread threads[16];
	size_t i, n = 0, used = 0;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (!str_field_is(ev, "ph", "M") || !str_field_is(ev, "name", "thread_name") ||
		    int_field(ev, "pid") != pid)
			continue;
		cr_assert(lt(sz, n, 16));
		threads[n].tid = int_field(ev, "tid");
		threads[n].name = str_field(args_of(ev), "name");
		threads[n].sort_index = meta_sort(root, "thread_sort_index", pid, threads[n].tid);
		n++;
	}
	perfetto_pid = pid;
	perfetto_reads_sort_index = reads_sort_index;
	qsort(threads, n, sizeof(*threads), cmp_perfetto_thread);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		used += snprintf(out + used, size - used, "%s%s", i ? "," : "", threads[i].name);
}

/*
 * The tracks come out in their natural order in Perfetto, the version that
 * reads the sort indexes and the one that does not: lane 1, 2, 3; CPU 0, 1,
 * 2, 3 (CPU 1 at tid 2 in pid 2 was Perfetto's "main thread" and drawn
 * first); processes by process_sort_index: the build, CPUs, Parallelism.
 */
Test(chrome_trace, tracks_in_perfetto_order)
{
	static const char *want[] = { "lane 1,lane 2,lane 3", "CPU 0,CPU 1,CPU 2,CPU 3", "counters" };
	struct sched_build sb;
	struct json_object *root;
	char order[256];
	int64_t pid;
	int reads;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);
	for (pid = 1; pid <= 3; pid++) {
		cr_assert(eq(i64, meta_sort(root, "process_sort_index", pid, -1), pid - 1));
		for (reads = 0; reads < 2; reads++) {
			perfetto_thread_order(root, pid, reads, order, sizeof(order));
			cr_assert(eq(str, order, (char *)want[pid - 1]), "pid %lld, sort index %s", (long long)pid,
				  reads ? "read" : "ignored");
		}
	}
	json_object_put(root);
}

Test(chrome_trace, cpu_slices_named_through_pid_reuse)
{
	struct sched_build sb;
	struct json_object *root, *ev, *args;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);

	ev = must_be_at(root, "X", 2, 2, 1);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "make"));
	cr_assert(eq(str, (char *)str_field(ev, "cat"), "cpu"));
	cr_assert(eq(i64, int_field(ev, "dur"), 5000));
	args = args_of(ev);
	cr_assert(eq(int, (int)int_field(args, "pid"), 100));
	cr_assert(eq(int, (int)int_field(args, "tid"), 100));
	cr_assert(eq(ptr, field(args, "intervals"), NULL));

	/* pid 200's first life, a thread of it, three intervals merged. */
	ev = must_be_at(root, "X", 2, 2, 12001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "cc a.c"));
	cr_assert(eq(i64, int_field(ev, "dur"), 8000));
	args = args_of(ev);
	cr_assert(eq(int, (int)int_field(args, "pid"), 200));
	cr_assert(eq(int, (int)int_field(args, "tid"), 201));
	cr_assert(eq(int, (int)int_field(args, "intervals"), 3));

	/* Its second life is another program. */
	ev = must_be_at(root, "X", 2, 2, 45001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "ld -o prog"));
	cr_assert(eq(int, (int)int_field(args_of(ev), "pid"), 200));
	ev = must_be_at(root, "X", 2, 3, 40001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "ld -o prog"));
	/* Between the two: the last one to start. */
	ev = must_be_at(root, "X", 2, 3, 35001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "cc a.c"));

	/* No instance with that pid; one that never exec'd. */
	ev = must_be_at(root, "X", 2, 3, 60001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "pid 999"));
	cr_assert(eq(int, (int)int_field(args_of(ev), "pid"), 999));
	ev = must_be_at(root, "X", 2, 3, 70001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "make (fork)"));
	cr_assert(eq(i64, int_field(ev, "dur"), 0));
	json_object_put(root);
}

Test(chrome_trace, cpu_slices_of_other_work_and_at_the_edges)
{
	struct sched_build sb;
	struct json_object *root, *ev, *args;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);

	ev = must_be_at(root, "X", 2, 2, 20001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "other (not the build)"));
	cr_assert(eq(str, (char *)str_field(ev, "cat"), "cpu_other"));
	cr_assert(eq(i64, int_field(ev, "dur"), 5000));
	args = args_of(ev);
	cr_assert(json_object_is_type(args, json_type_object));
	cr_assert(eq(int, json_object_object_length(args), 0));

	/* Past the end: cut at the trace end. */
	ev = must_be_at(root, "X", 2, 2, 95001);
	cr_assert(eq(i64, int_field(ev, "dur"), 5000));
	/* CPU 3's slices lie wholly outside; CPU 2 was idle. */
	cr_assert(eq(sz, count_events(root, "X", "cpu"), 8));
	cr_assert(eq(sz, count_events(root, "X", "cpu_other"), 1));
	cr_assert(eq(sz, count_on_pid(root, 2), 9 + 2 + 2 * 4));
	json_object_put(root);
}

/*
 * Work outside the build has the reserved neutral colour (cname "grey",
 * which catapult draws grey); nothing of the build has a cname, so no build
 * step looks like it.
 */
Test(chrome_trace, other_work_is_grey_and_nothing_else_is)
{
	struct sched_build sb;
	struct json_object *root, *events, *ev;
	size_t i, grey = 0;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);
	events = trace_events(root);
	for (i = 0; i < json_object_array_length(events); i++) {
		ev = json_object_array_get_idx(events, i);
		if (str_field_is(ev, "cat", "cpu_other")) {
			cr_assert(eq(str, (char *)str_field(ev, "cname"), "grey"));
			grey++;
		} else {
			cr_assert(not(json_object_object_get_ex(ev, "cname", NULL)), "%s",
				  json_object_to_json_string(ev));
		}
	}
	cr_assert(eq(sz, grey, 1));
	json_object_put(root);
}

/* Build threads none of which held a SUMMARY bucket: one slice saying so, not a gap. */
Test(chrome_trace, many_short_processes_are_one_named_slice)
{
	struct sched_build sb;
	struct cpu_slice many[1];
	struct json_object *root, *ev, *args;

	sched_build_init(&sb);
	many[0] = build_slice(MS(30), MS(40), 0, 0, 57);
	many[0].kind = CPU_SLICE_MANY;
	sb.cpus[2] = cpu_lane_of(2, many, 1);
	root = export(&sb.m, &sb.meta);
	ev = must_be_at(root, "X", 2, 4, 30001);
	cr_assert(eq(str, (char *)str_field(ev, "name"), "many short processes (57)"));
	cr_assert(eq(str, (char *)str_field(ev, "cat"), "cpu"));
	cr_assert(eq(i64, int_field(ev, "dur"), 10000));
	args = args_of(ev);
	cr_assert(eq(int, (int)int_field(args, "intervals"), 57));
	cr_assert(eq(ptr, field(args, "pid"), NULL));
	json_object_put(root);
}

Test(chrome_trace, sched_accounting_in_process_args)
{
	struct sched_build sb;
	struct json_object *root, *args;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);
	args = args_of(must_find(root, "X", "process", "cc a.c"));
	cr_assert(eq(dbl, double_field(args, "on_cpu_ms"), 8.0));
	cr_assert(eq(dbl, double_field(args, "runq_wait_ms"), 1.234));
	cr_assert(eq(dbl, double_field(args, "blocked_ms"), 0.003));
	cr_assert(eq(dbl, double_field(args, "sleep_ms"), 10.765));
	cr_assert(eq(int, (int)int_field(args, "switches_voluntary"), 5));
	cr_assert(eq(int, (int)int_field(args, "switches_involuntary"), 2));
	cr_assert(eq(int, (int)int_field(args, "migrations"), 1));
	/* Recorded but zero for the others: present all the same. */
	args = args_of(must_find(root, "X", "process", "ld -o prog"));
	cr_assert(eq(dbl, double_field(args, "on_cpu_ms"), 0.0));
	cr_assert(eq(int, (int)int_field(args, "migrations"), 0));
	json_object_put(root);
}

static void assert_counters(struct json_object *root, int64_t ts, double running, double runnable, double idle)
{
	struct json_object *threads = NULL, *idle_ev = NULL, *events = trace_events(root);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (!str_field_is(ev, "ph", "C") || int_field(ev, "ts") != ts)
			continue;
		cr_assert(eq(int, (int)int_field(ev, "pid"), 3));
		cr_assert(eq(int, (int)int_field(ev, "tid"), 3));
		if (str_field_is(ev, "name", "build threads")) {
			cr_assert(eq(ptr, threads, NULL), "two build threads samples at %lld", (long long)ts);
			threads = ev;
		} else {
			cr_assert(str_field_is(ev, "name", "CPUs idle"));
			cr_assert(eq(ptr, idle_ev, NULL), "two CPUs idle samples at %lld", (long long)ts);
			idle_ev = ev;
		}
	}
	cr_assert(not(eq(ptr, threads, NULL)), "no build threads sample at %lld", (long long)ts);
	cr_assert(not(eq(ptr, idle_ev, NULL)), "no CPUs idle sample at %lld", (long long)ts);
	cr_assert(eq(int, json_object_object_length(args_of(threads)), 2));
	cr_assert(eq(dbl, double_field(args_of(threads), "running"), running));
	cr_assert(eq(dbl, double_field(args_of(threads), "runnable"), runnable));
	cr_assert(eq(int, json_object_object_length(args_of(idle_ev)), 1));
	cr_assert(eq(dbl, double_field(args_of(idle_ev), "idle"), idle));
}

Test(chrome_trace, counters_rounded_and_closed_at_the_end)
{
	struct sched_build sb;
	struct json_object *root;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);
	/* Three samples inside the trace and the closing pair: 2 events each. */
	cr_assert(eq(sz, count_events(root, "C", NULL), 8));
	assert_counters(root, 1, 1.0, 0.0, 3.0);
	assert_counters(root, 10001, 2.5, 0.333, 1.25);
	assert_counters(root, 50001, 3.001, 0.667, 0.5);
	/* The last values again at the trace end, so the tracks reach it. */
	assert_counters(root, 100001, 3.001, 0.667, 0.5);
	json_object_put(root);
}

Test(chrome_trace, counters_need_no_closing_sample_at_the_end)
{
	struct sched_build sb;
	struct json_object *root;

	sched_build_init(&sb);
	sb.samples[4] = sample(MS(100), 0, 0, 4);
	root = export(&sb.m, &sb.meta);
	cr_assert(eq(sz, count_events(root, "C", NULL), 8));
	assert_counters(root, 100001, 0.0, 0.0, 4.0);
	json_object_put(root);
}

Test(chrome_trace, other_data_sched)
{
	struct sched_build sb;
	struct json_object *root, *sched, *cpus, *cpu;

	sched_build_init(&sb);
	root = export(&sb.m, &sb.meta);
	sched = field(field(root, "otherData"), "sched");
	cr_assert(not(eq(ptr, sched, NULL)));
	cr_assert(json_object_is_type(sched, json_type_object));
	cr_assert(eq(str, (char *)str_field(sched, "level"), "summary"));
	cr_assert(eq(i64, int_field(sched, "resolution_us"), 1000));
	cr_assert(eq(i64, int_field(sched, "counter_bucket_us"), 5000));
	cr_assert(eq(i64, int_field(sched, "records"), 12345));
	cr_assert(eq(i64, int_field(sched, "reordered"), 3));
	cr_assert(eq(i64, int_field(sched, "malformed"), 2));
	cpus = field(sched, "cpus");
	cr_assert(json_object_is_type(cpus, json_type_array));
	cr_assert(eq(sz, json_object_array_length(cpus), 4));
	cpu = json_object_array_get_idx(cpus, 0);
	cr_assert(eq(i64, int_field(cpu, "cpu"), 0));
	cr_assert(eq(dbl, double_field(cpu, "build_ms"), 18.0));
	cr_assert(eq(dbl, double_field(cpu, "other_ms"), 5.0));
	cr_assert(eq(dbl, double_field(cpu, "idle_ms"), 77.0));
	cr_assert(eq(dbl, double_field(cpu, "folded_ms"), 0.001));
	cr_assert(eq(i64, int_field(cpu, "folded_slices"), 4));
	cr_assert(eq(i64, int_field(cpu, "slices"), 5));
	cpu = json_object_array_get_idx(cpus, 2);
	cr_assert(eq(i64, int_field(cpu, "cpu"), 2));
	cr_assert(eq(dbl, double_field(cpu, "idle_ms"), 100.0));
	cr_assert(eq(i64, int_field(cpu, "slices"), 0));
	json_object_put(root);

	sb.s.level = SCHED_FULL;
	sb.s.resolution_ns = 0;
	root = export(&sb.m, &sb.meta);
	sched = field(field(root, "otherData"), "sched");
	cr_assert(eq(str, (char *)str_field(sched, "level"), "full"));
	cr_assert(eq(i64, int_field(sched, "resolution_us"), 0));
	json_object_put(root);
}

Test(chrome_trace, sched_off_emits_no_cpu_tracks)
{
	struct sched_build sb;
	struct json_object *root, *args, *sched;

	sched_build_init(&sb);
	sb.meta.sched = NULL;
	root = export(&sb.m, &sb.meta);
	cr_assert(eq(sz, count_on_pid(root, 2), 0));
	cr_assert(eq(sz, count_on_pid(root, 3), 0));
	cr_assert(eq(sz, count_events(root, "C", NULL), 0));
	cr_assert(eq(sz, count_events(root, "X", "cpu"), 0));
	cr_assert(eq(sz, count_events(root, "X", "process"), 4));
	args = args_of(must_find(root, "X", "process", "cc a.c"));
	cr_assert(eq(ptr, field(args, "on_cpu_ms"), NULL));
	cr_assert(eq(ptr, field(args, "runq_wait_ms"), NULL));
	cr_assert(eq(ptr, field(args, "blocked_ms"), NULL));
	cr_assert(eq(ptr, field(args, "sleep_ms"), NULL));
	cr_assert(eq(ptr, field(args, "switches_voluntary"), NULL));
	cr_assert(eq(ptr, field(args, "switches_involuntary"), NULL));
	cr_assert(eq(ptr, field(args, "migrations"), NULL));
	sched = field(field(root, "otherData"), "sched");
	cr_assert(not(eq(ptr, sched, NULL)));
	cr_assert(eq(str, (char *)json_object_get_string(sched), "off"));
	json_object_put(root);

	/* No meta at all is the same. */
	root = export(&sb.m, NULL);
	cr_assert(eq(sz, count_on_pid(root, 2) + count_on_pid(root, 3), 0));
	cr_assert(eq(str, (char *)json_object_get_string(field(field(root, "otherData"), "sched")), "off"));
	json_object_put(root);
}

Test(chrome_trace, sched_with_no_slices_and_no_samples)
{
	struct proc_instance p[1];
	struct cpu_lane cpus[2] = { cpu_lane_of(0, NULL, 0), cpu_lane_of(1, NULL, 0) };
	struct sched_model s = { .level = SCHED_SUMMARY, .cpus = cpus, .nr_cpus = 2 };
	struct trace_meta meta = default_meta;
	struct model m;
	struct json_object *root;

	p[0] = proc(0, -1, 10, MS(0), MS(10), 0, "make");
	m = model_of(p, 1, MS(10));
	meta.sched = &s;
	root = export(&m, &meta);
	cr_assert(eq(sz, count_events(root, "C", NULL), 0));
	cr_assert(eq(sz, count_on_pid(root, 2), 2 + 2 * 2));
	json_object_put(root);
}

/* ---- many CPU slices: names through the pid index, every rule ---- */

#define RANDOM_SCHED_PROCS 300
#define RANDOM_SCHED_PIDS 12
#define RANDOM_SCHED_CPUS 4
#define RANDOM_SCHED_SLICES 4000
#define RANDOM_SCHED_END_MS 10000

static int cmp_start(const void *a, const void *b)
{
	const struct proc_instance *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* The name a CPU slice of tgid starting at ts must carry, by a plain scan. */
static char *expected_cpu_name(const struct proc_instance *procs, size_t nr, __u32 tgid, __u64 ts)
{
	const struct proc_instance *best = NULL, *first = NULL;
	char *name;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (procs[i].pid != tgid)
			continue;
		if (procs[i].start_ns <= ts && (!best || procs[i].start_ns >= best->start_ns))
			best = &procs[i];
		if (!first || procs[i].start_ns < first->start_ns)
			first = &procs[i];
	}
	if (best || first)
		return proc_display_name(NULL, best ? best : first);
	cr_assert(ge(int, asprintf(&name, "pid %u", tgid), 1));
	return name;
}

struct slice_at_us {
	const struct cpu_slice *slices;
	int64_t ts;
};

/* Whether slice i starts, in the trace's microseconds, before ts. */
static bool slice_starts_before_us(const void *key, size_t i)
{
	const struct slice_at_us *at = key;

	return (int64_t)((at->slices[i].start_ns - START_NS) / 1000 + 1) < at->ts;
}

Test(chrome_trace, random_cpu_lanes_keep_every_rule)
{
	static struct proc_instance procs[RANDOM_SCHED_PROCS];
	static struct exec_image execs[RANDOM_SCHED_PROCS];
	static char prog[RANDOM_SCHED_PROCS][32];
	static char *argvs[RANDOM_SCHED_PROCS][2];
	static struct cpu_slice slices[RANDOM_SCHED_CPUS][RANDOM_SCHED_SLICES];
	static char *want[RANDOM_SCHED_CPUS][RANDOM_SCHED_SLICES];
	struct cpu_lane cpus[RANDOM_SCHED_CPUS];
	struct counter_sample samples[RANDOM_SCHED_END_MS / 100];
	struct sched_model s = { .level = SCHED_FULL, .bucket_ns = 100000000 };
	struct trace_meta meta = default_meta;
	struct json_object *root, *events;
	__u64 seed = 7, t[RANDOM_SCHED_PIDS];
	bool done[RANDOM_SCHED_PIDS] = { false };
	size_t i, k, nr = 1, nr_done = 0, cpu, checked = 0;
	struct model m;

	/* The root, then the instances of a few pids, each pid living again and
	 * again, never twice at once. */
	procs[0] = proc(0, -1, 1, MS(0), MS(RANDOM_SCHED_END_MS), 0, "make");
	for (i = 0; i < RANDOM_SCHED_PIDS; i++)
		t[i] = MS(seeded_random(&seed) % 100);
	while (nr < RANDOM_SCHED_PROCS && nr_done < RANDOM_SCHED_PIDS) {
		size_t pid = seeded_random(&seed) % RANDOM_SCHED_PIDS;
		__u64 start = t[pid], end = start + 1000 + seeded_random(&seed) % 200000000;

		if (done[pid])
			continue;
		if (end > MS(RANDOM_SCHED_END_MS)) {
			done[pid] = true;
			nr_done++;
			continue;
		}
		procs[nr] = proc(0, -1, 1000 + (__u32)pid, start, end, 0, "job");
		t[pid] = end + seeded_random(&seed) % 50000000;
		nr++;
	}
	qsort(procs + 1, nr - 1, sizeof(procs[0]), cmp_start);
	for (i = 0; i < nr; i++) {
		procs[i].id = i;
		procs[i].lane = pack_lane(procs, i, &procs[i]);
		snprintf(prog[i], sizeof(prog[i]), "prog%zu", i);
		argvs[i][0] = prog[i];
		execs[i] = image(procs[i].start_ns, procs[i].end_ns, argvs[i], prog[i]);
		/* A few fork without exec: named after their comm. */
		if (i % 7)
			attach(&procs[i], &execs[i], 1);
	}

	/* Back-to-back or spaced slices on each CPU, at least 1 us long, so
	 * their starts are distinct in microseconds. */
	for (cpu = 0; cpu < RANDOM_SCHED_CPUS; cpu++) {
		__u64 at = MS(0);

		for (k = 0; k < RANDOM_SCHED_SLICES; k++) {
			__u64 len = 1000 + seeded_random(&seed) % 2000000;
			__u32 roll = seeded_random(&seed) % 10;
			__u32 tgid = roll == 0 ? 1 : roll == 1 ? 77 : 1000 + seeded_random(&seed) % RANDOM_SCHED_PIDS;

			if (roll == 9) {
				slices[cpu][k] = other_slice(at, at + len);
				want[cpu][k] = strdup("other (not the build)");
			} else {
				slices[cpu][k] = build_slice(at, at + len, tgid, tgid, 1 + roll % 3);
				want[cpu][k] = expected_cpu_name(procs, nr, tgid, at);
			}
			at += len + (seeded_random(&seed) % 2 ? 0 : seeded_random(&seed) % 500000);
		}
		cr_assert(lt(u64, at, MS(RANDOM_SCHED_END_MS)), "slices run past the trace end");
		cpus[cpu] = cpu_lane_of((__u32)cpu, slices[cpu], RANDOM_SCHED_SLICES);
	}
	for (i = 0; i < RANDOM_SCHED_END_MS / 100; i++)
		samples[i] = sample(MS(i * 100), (double)(seeded_random(&seed) % 5000) / 1000,
				    (double)(seeded_random(&seed) % 3000) / 1000,
				    (double)(seeded_random(&seed) % 4000) / 1000);
	s.start_ns = START_NS;
	s.end_ns = MS(RANDOM_SCHED_END_MS);
	s.cpus = cpus;
	s.nr_cpus = RANDOM_SCHED_CPUS;
	s.samples = samples;
	s.nr_samples = RANDOM_SCHED_END_MS / 100;
	m = model_of(procs, nr, MS(RANDOM_SCHED_END_MS));
	meta.sched = &s;
	root = export(&m, &meta);

	/* Each CPU slice, found by its start, carries the name a scan gives. */
	events = trace_events(root);
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);
		struct slice_at_us at;
		size_t lo;

		if (!str_field_is(ev, "ph", "X") || int_field(ev, "pid") != 2)
			continue;
		cpu = (size_t)int_field(ev, "tid") - 2;
		cr_assert(lt(sz, cpu, RANDOM_SCHED_CPUS));
		at = (struct slice_at_us){ slices[cpu], int_field(ev, "ts") };
		lo = sorted_first_not_before(0, RANDOM_SCHED_SLICES, slice_starts_before_us, &at);
		cr_assert(lt(sz, lo, RANDOM_SCHED_SLICES));
		cr_assert(eq(i64, (int64_t)((slices[cpu][lo].start_ns - START_NS) / 1000 + 1), at.ts));
		cr_assert(eq(str, (char *)str_field(ev, "name"), want[cpu][lo]), "CPU %zu slice %zu", cpu, lo);
		checked++;
	}
	cr_assert(eq(sz, checked, RANDOM_SCHED_CPUS * RANDOM_SCHED_SLICES));
	cr_assert(eq(sz, count_events(root, "C", NULL), 2 * (RANDOM_SCHED_END_MS / 100 + 1)));
	json_object_put(root);
	for (cpu = 0; cpu < RANDOM_SCHED_CPUS; cpu++) {
		for (k = 0; k < RANDOM_SCHED_SLICES; k++)
			free(want[cpu][k]);
	}
}

/* ---- a trace too large to hold: memory follows the model ---- */

#define MANY_SLICES 200000 /* over 4 CPUs */
#define MANY_CPUS 4
#define MANY_PROCS 64
/* Peak RSS the writer may add; holding the trace as one json-c tree took
 * ~2.3 KB per event, over 400 MB here. */
#define MANY_RSS_BUDGET_KB (16 * 1024)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

struct many_counts {
	char *names[MANY_PROCS]; /* per tgid - 1000: the name its slices carry */
	size_t meta, proc_slices, flows, cpu_slices, other;
};

static void count_many(struct json_object *ev, void *ctx)
{
	struct many_counts *c = ctx;
	const char *ph = str_field(ev, "ph");
	int64_t tgid;

	if (!strcmp(ph, "M")) {
		c->meta++;
	} else if (!strcmp(ph, "X") && int_field(ev, "pid") == 1) {
		c->proc_slices++;
	} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
		c->flows++;
	} else if (!strcmp(ph, "X") && int_field(ev, "pid") == 2) {
		cr_assert(ge(i64, int_field(ev, "tid"), 2));
		cr_assert(le(i64, int_field(ev, "tid"), MANY_CPUS + 1));
		cr_assert(ge(i64, int_field(ev, "ts"), 1));
		cr_assert(ge(i64, int_field(ev, "dur"), 0));
		if (str_field_is(ev, "cat", "cpu")) {
			tgid = int_field(args_of(ev), "pid");
			cr_assert(ge(i64, tgid, 1000));
			cr_assert(lt(i64, tgid, 1000 + MANY_PROCS));
			cr_assert(eq(str, (char *)str_field(ev, "name"), c->names[tgid - 1000]));
		} else {
			cr_assert(eq(str, (char *)str_field(ev, "name"), "other (not the build)"));
		}
		c->cpu_slices++;
	} else {
		c->other++;
	}
}

/*
 * A trace too large to parse as one tree: each element of traceEvents is
 * parsed on its own, strictly, handed to visit and freed; what follows the
 * array is parsed as an object of its own and returned.
 */
static struct json_object *parse_event_by_event(const char *text, size_t len,
						void (*visit)(struct json_object *ev, void *ctx), void *ctx)
{
	static const char head[] = "{\"traceEvents\":[";
	struct json_tokener *tok = json_tokener_new();
	struct json_object *ev, *rest;
	size_t at = sizeof(head) - 1;
	char *tail;

	cr_assert(ge(sz, len, at + 1));
	cr_assert(eq(int, memcmp(text, head, at), 0));
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	while (at < len && text[at] != ']') {
		json_tokener_reset(tok);
		ev = json_tokener_parse_ex(tok, text + at, (int)(len - at));
		cr_assert(not(eq(ptr, ev, NULL)), "event at offset %zu: %s", at,
			  json_tokener_error_desc(json_tokener_get_error(tok)));
		cr_assert(json_object_is_type(ev, json_type_object));
		visit(ev, ctx);
		json_object_put(ev);
		at += json_tokener_get_parse_end(tok);
		cr_assert(at < len && (text[at] == ',' || text[at] == ']'), "offset %zu: no , or ] after an event", at);
		if (text[at] == ',')
			cr_assert(at + 1 < len && text[++at] != ']', "offset %zu: trailing comma", at);
	}
	json_tokener_free(tok);
	cr_assert(at + 1 < len && text[at + 1] == ',', "offset %zu: nothing after traceEvents", at);
	/* "],REST}\n" -> "{REST}\n" */
	tail = strndup(text + at + 1, len - at - 1);
	tail[0] = '{';
	rest = parse_trace_text(tail, len - at - 1);
	free(tail);
	return rest;
}

static long peak_rss_kb(void)
{
	struct rusage ru;

	cr_assert(eq(int, getrusage(RUSAGE_SELF, &ru), 0));
	return ru.ru_maxrss;
}

Test(chrome_trace, many_cpu_slices_stream_in_little_memory)
{
	static struct proc_instance procs[MANY_PROCS];
	struct cpu_slice *slices = calloc(MANY_SLICES, sizeof(*slices));
	struct cpu_lane cpus[MANY_CPUS];
	struct sched_model s = { .level = SCHED_FULL, .bucket_ns = 1000000 };
	struct many_counts counts = { .meta = 0 };
	struct trace_meta meta = default_meta;
	struct json_object *rest;
	size_t i, k, per_cpu = MANY_SLICES / MANY_CPUS;
	long before_kb, after_kb;
	struct model m;
	struct stat st;
	char *text;
	int fd;

	/* make on lane 0, its children one after another on lane 1. */
	cr_assert(not(eq(ptr, slices, NULL)));
	procs[0] = proc(0, -1, 1000, MS(0), MS(1000), 0, "make");
	for (i = 1; i < MANY_PROCS; i++)
		procs[i] = proc(i, 0, 1000 + i, MS(10 * i), MS(10 * i + 9), 1, "cc");
	for (i = 0; i < MANY_PROCS; i++)
		counts.names[i] = proc_display_name(NULL, &procs[i]);
	/* 4 us apart on every CPU: 200 ms of back-to-back switching, every
	 * tenth slice something outside the build. */
	for (i = 0; i < MANY_CPUS; i++) {
		for (k = 0; k < per_cpu; k++) {
			__u64 at = START_NS + k * 4000 + i * 1000;
			__u32 tgid = 1000 + (__u32)((k + i) % MANY_PROCS);

			slices[i * per_cpu + k] = k % 10 == 9 ? other_slice(at, at + 3000)
							      : build_slice(at, at + 3000, tgid, tgid, 1);
		}
		cpus[i] = cpu_lane_of((__u32)i, slices + i * per_cpu, per_cpu);
	}
	s.start_ns = START_NS;
	s.end_ns = MS(1000);
	s.cpus = cpus;
	s.nr_cpus = MANY_CPUS;
	m = model_of(procs, MANY_PROCS, MS(1000));
	meta.sched = &s;

	/* The file's pages are page cache, not this process's RSS. */
	fd = memfd_create("trace", MFD_CLOEXEC);
	cr_assert(ge(int, fd, 0));
	before_kb = peak_rss_kb();
	cr_assert(eq(int, chrome_trace__write(&m, &meta, fd), 0));
	after_kb = peak_rss_kb();
	cr_log_info("%d slices: peak RSS %ld -> %ld KB", MANY_SLICES, before_kb, after_kb);
#ifndef UNDER_ASAN
	/* (ASan's quarantine keeps freed memory resident: no bound there.) */
	cr_assert(lt(long, after_kb - before_kb, MANY_RSS_BUDGET_KB), "the writer grew the peak RSS by %ld KB",
		  after_kb - before_kb);
#endif

	cr_assert(eq(int, fstat(fd, &st), 0));
	text = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	cr_assert(not(eq(ptr, text, MAP_FAILED)));
	cr_assert(eq(chr, text[st.st_size - 1], '\n'));
	rest = parse_event_by_event(text, st.st_size, count_many, &counts);
	cr_assert(eq(sz, counts.cpu_slices, MANY_SLICES));
	cr_assert(eq(sz, counts.proc_slices, MANY_PROCS));
	cr_assert(eq(sz, counts.flows, 2 * (MANY_PROCS - 1)));
	/* Both processes, both lanes and the counter thread, every CPU: named, ordered. */
	cr_assert(eq(sz, counts.meta, 2 + 2 * 2 + 6 + 2 * MANY_CPUS));
	cr_assert(eq(sz, counts.other, 0));
	cr_assert(eq(str, (char *)str_field(rest, "displayTimeUnit"), "ms"));
	cr_assert(eq(i64, int_field(field(rest, "otherData"), "processes"), MANY_PROCS));
	json_object_put(rest);
	munmap(text, st.st_size);
	close(fd);
	for (i = 0; i < MANY_PROCS; i++)
		free(counts.names[i]);
	free(slices);
}

/* ---- every arg key the trace writes is documented in docs/trace.md ---- */

/* Where the slice arguments are documented, from the top of the tree. */
#define ARGS_DOC "docs/trace.md"

/* Whether the slice-argument table of docs/trace.md has a row for key. */
/* A row whose first cell names key: "| `key` |", or "| `a`, `key`, `b` |" for keys documented together. */
static bool args_doc_has_row(const char *doc, const char *key)
{
	char quoted[96];
	const char *at, *line;

	snprintf(quoted, sizeof(quoted), "`%s`", key);
	for (at = strstr(doc, quoted); at; at = strstr(at + 1, quoted)) {
		for (line = at; line > doc && line[-1] != '\n'; line--)
			;
		if (!strncmp(line, "| `", 3) && !memchr(line + 1, '|', (size_t)(at - line - 1)) &&
		    (at[strlen(quoted)] == ',' || !strncmp(at + strlen(quoted), " |", 2)))
			return true;
	}
	return false;
}

/*
 * Every arg_*(b, "key", ...) in the writer, read from its source: also the keys only
 * rare processes get (core_dumped, ns_pid, args_unreadable).  A new key
 * without a row in docs/trace.md fails here.
 */
Test(chrome_trace, every_arg_key_in_the_source_is_in_docs_trace)
{
	char *src = bb_read_source("user/report/chrome_trace.c"), *doc = bb_read_source(ARGS_DOC);
	const char *at = src;
	char key[64];
	size_t keys = 0, len;

	/* The writer puts each arg with an arg_*() helper: arg_int(b, "pid", ...). */
	while ((at = strstr(at, "(b, \"")) != NULL) {
		const char *name = at + strlen("(b, \""), *call = at;

		at = name;
		while (call > src && (call[-1] == '_' || (call[-1] >= 'a' && call[-1] <= 'z')))
			call--;
		if (strncmp(call, "arg_", strlen("arg_")))
			continue;
		len = strcspn(name, "\"");
		cr_assert(lt(sz, len, sizeof(key)));
		memcpy(key, name, len);
		key[len] = '\0';
		cr_assert(args_doc_has_row(doc, key), "%s has no row \"| `%s` |\" for the arg the trace writes", ARGS_DOC,
			  key);
		keys++;
	}
	/* The scan sees the writer's keys (argv ... intervals, idle). */
	cr_assert(ge(sz, keys, 30), "only %zu arg keys found in user/report/chrome_trace.c", keys);
	free(src);
	free(doc);
}

static void assert_args_documented(struct json_object *root, const char *doc, size_t *seen)
{
	struct json_object *events = trace_events(root), *args;
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "M") || str_field_is(ev, "cat", "merged") ||
		    !json_object_object_get_ex(ev, "args", &args))
			continue;
		json_object_object_foreach(args, key, val) {
			(void)val;
			cr_assert(args_doc_has_row(doc, key), "%s has no row for arg \"%s\" of %s", ARGS_DOC, key,
				  json_object_to_json_string(ev));
			(*seen)++;
		}
	}
}

/* The same from written traces: keys put there by any other path. */
Test(chrome_trace, every_arg_key_written_is_in_docs_trace)
{
	char *doc = bb_read_source(ARGS_DOC);
	struct small_build small;
	struct sched_build sched;
	struct json_object *root;
	size_t seen = 0;

	small_build_init(&small);
	root = export(&small.m, &default_meta);
	assert_args_documented(root, doc, &seen);
	json_object_put(root);
	sched_build_init(&sched);
	root = export(&sched.m, &sched.meta);
	assert_args_documented(root, doc, &seen);
	json_object_put(root);
	exit_args(W_EXITCODE(0, SIGSEGV) | 0x80, true, &root);
	assert_args_documented(root, doc, &seen);
	json_object_put(root);
	cr_assert(lt(sz, 0, seen));
	free(doc);
}
