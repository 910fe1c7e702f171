// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the toolchain's own traces merged into the real trace of a
 * real build: clang -ftime-trace files through --merge, and a script
 * writing its own trace into $BUILDBPF_TRACE_DIR.  Needs root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pwd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(integration_merge, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

static struct json_object *merge_summary(struct json_object *trace)
{
	struct json_object *od, *merge;

	cr_assert(json_object_object_get_ex(trace, "otherData", &od));
	cr_assert(json_object_object_get_ex(od, "merge", &merge), "otherData.merge missing");
	return merge;
}

/* The process slice whose argv has arg (e.g. "b.c"), on the trace. */
static struct json_object *slice_with_arg(struct json_object *slices, const char *prog, const char *arg)
{
	size_t i, j;
	const char *a;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);

		if (!bb_arg_argv(ev, 0) || !strstr(bb_arg_argv(ev, 0), prog))
			continue;
		for (j = 1; (a = bb_arg_argv(ev, j)); j++)
			if (!strcmp(a, arg))
				return ev;
	}
	return NULL;
}

/* How many merged slices named name lie in span's lane and interval. */
static int merged_inside(struct json_object *merged, struct json_object *span, const char *name)
{
	long long ts = int_field(span, "ts"), end = ts + int_field(span, "dur"), tid = int_field(span, "tid");
	size_t i;
	int n = 0;

	for (i = 0; i < json_object_array_length(merged); i++) {
		struct json_object *ev = json_object_array_get_idx(merged, i);
		long long s = int_field(ev, "ts"), e = s + int_field(ev, "dur");

		if (!strcmp(str_field(ev, "name"), name) && int_field(ev, "tid") == tid && int_field(ev, "pid") == 1 &&
		    s >= ts && e <= end)
			n++;
	}
	return n;
}

/* Merged slices inside no clang process slice of their lane. */
static int merged_outside_clang(struct json_object *merged, struct json_object *procs)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < json_object_array_length(merged); i++) {
		struct json_object *ev = json_object_array_get_idx(merged, i);
		long long s = int_field(ev, "ts"), e = s + int_field(ev, "dur");
		bool inside = false;

		for (j = 0; !inside && j < json_object_array_length(procs); j++) {
			struct json_object *p = json_object_array_get_idx(procs, j);
			long long ps = int_field(p, "ts"), pe = ps + int_field(p, "dur");

			inside = bb_arg_argv(p, 0) && strstr(bb_arg_argv(p, 0), "clang") &&
				 int_field(p, "tid") == int_field(ev, "tid") && ps <= s && e <= pe;
		}
		n += !inside;
	}
	return n;
}

Test(integration_merge, clang_time_trace_lands_in_each_clang_slice)
{
	static const char *const srcs[] = { "a.c", "b.c", "c.c", "d.c" };
	struct json_object *trace, *procs, *merged, *merge, *files, *v;
	char name[32], text[256];
	int clamped;
	size_t i;

	cr_assert(eq(int, system("clang --version > /dev/null 2>&1"), 0),
		  "clang is not installed (make test-deps installs it)");
	bb_write_file(&run, "Makefile",
		      "OBJS := obj/a.o obj/b.o obj/c.o obj/d.o\n"
		      "all: $(OBJS)\n"
		      "obj/%.o: %.c\n\t@mkdir -p obj\n\tclang -ftime-trace -O1 -c $< -o $@\n");
	for (i = 0; i < 4; i++) {
		snprintf(text, sizeof(text),
			 "static int g%zu(int x) { return x * %zu; }\nint f%zu(int x) { return g%zu(x) + 1; }\n", i,
			 i + 2, i, i);
		bb_write_file(&run, srcs[i], text);
	}
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--merge", "obj/*.json", "--", "make", "-j2", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "warning"), NULL), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	procs = bb_slices(trace, "process");
	merged = bb_slices(trace, "merged");
	merge = merge_summary(trace);
	cr_assert(json_object_object_get_ex(merge, "files", &v));
	cr_assert(eq(int, json_object_get_int(v), 4), "merged files: %s", json_object_to_json_string(merge));
	cr_assert(json_object_object_get_ex(merge, "clamped", &v));
	clamped = json_object_get_int(v);
	for (i = 0; i < 4; i++) {
		struct json_object *clang = slice_with_arg(procs, "clang", srcs[i]);

		cr_assert_not_null(clang, "no clang process for %s", srcs[i]);
		cr_assert(ge(int, merged_inside(merged, clang, "Frontend"), 1), "no Frontend in clang %s",
			  srcs[i]);
		cr_assert(ge(int, merged_inside(merged, clang, "Backend"), 1), "no Backend in clang %s",
			  srcs[i]);
	}
	cr_assert(eq(int, merged_outside_clang(merged, procs), 0));
	/* Attributed by clang's own pid field, aligned by its beginningOfTime. */
	cr_assert(json_object_object_get_ex(merge, "merged_files", &files));
	for (i = 0; i < json_object_array_length(files); i++) {
		struct json_object *f = json_object_array_get_idx(files, i), *clang;
		const char *path = str_field(f, "path");

		snprintf(name, sizeof(name), "%c.c", path[strlen(path) - 6]);
		clang = slice_with_arg(procs, "clang", name);
		cr_assert(eq(str, (char *)str_field(f, "attributed_by"), "pid field"));
		cr_assert(eq(str, (char *)str_field(f, "clock"), "beginningOfTime"));
		cr_assert(eq(i64, int_field(f, "writer_pid"), bb_arg_int(clang, "pid")), "%s attributed elsewhere",
			  path);
	}
	bb_reliability("clang -ftime-trace merged", "Frontend/Backend inside the right clang slice and lane", trace,
		       "%zu merged slices, %d clamped", json_object_array_length(merged), clamped);
	json_object_put(merged);
	json_object_put(procs);
	json_object_put(trace);
}

/* A script's own B/E trace in the directory, written as nobody. */
Test(integration_merge, script_writes_into_the_trace_dir_as_the_user)
{
	struct json_object *trace, *procs, *merged, *sh = NULL, *step = NULL, *files;
	const char *dir;
	size_t i;

	/* nobody writes the trace too. */
	cr_assert(eq(int, chmod(run.dir, 0777), 0));
	bb_run_in(&run,
		  (const char *[]){ "-q", "--user", "nobody", "-o", "t.json", "--", "sh", "-c",
				    "stat -c '%U %a' \"$BUILDBPF_TRACE_DIR\" >&2; "
				    "f=\"$BUILDBPF_TRACE_DIR/sh-$$.json\"; "
				    "echo '[{\"name\":\"step\",\"ph\":\"B\",\"ts\":0,\"tid\":1},' > \"$f\"; "
				    "sleep 0.05; "
				    "echo '{\"name\":\"step\",\"ph\":\"E\",\"ts\":40000,\"tid\":1}]' >> \"$f\"; "
				    "echo garbage > \"$BUILDBPF_TRACE_DIR/bad.json\"",
				    NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "nobody 700"), NULL)), "trace dir not private to nobody: %s", run.err);
	/* One warning line for the garbage file, none for the rest. */
	cr_assert(not(eq(ptr, strstr(run.err, "buildbpf: warning: not merging"), NULL)), "stderr: %s", run.err);
	cr_assert(eq(ptr, strstr(strstr(run.err, "warning") + 1, "warning"), NULL), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	procs = bb_slices(trace, "process");
	merged = bb_slices(trace, "merged");
	for (i = 0; i < json_object_array_length(procs); i++) {
		struct json_object *ev = json_object_array_get_idx(procs, i);

		if (bb_arg_argv(ev, 1) && !strcmp(bb_arg_argv(ev, 0), "sh") && !strcmp(bb_arg_argv(ev, 1), "-c"))
			sh = ev;
	}
	for (i = 0; i < json_object_array_length(merged); i++)
		if (!strcmp(str_field(json_object_array_get_idx(merged, i), "name"), "step"))
			step = json_object_array_get_idx(merged, i);
	cr_assert(sh && step, "sh or its step slice missing");
	cr_assert(eq(i64, int_field(step, "tid"), int_field(sh, "tid")));
	cr_assert(ge(i64, int_field(step, "ts"), int_field(sh, "ts")));
	cr_assert(le(i64, int_field(step, "ts") + int_field(step, "dur"), int_field(sh, "ts") + int_field(sh, "dur")));
	cr_assert(ge(i64, int_field(step, "dur"), 40000));
	/* The directory is gone after the run. */
	cr_assert(json_object_object_get_ex(merge_summary(trace), "merged_files", &files));
	dir = str_field(json_object_array_get_idx(files, 0), "path");
	cr_assert(eq(str, (char *)str_field(json_object_array_get_idx(files, 0), "attributed_by"), "file name"));
	cr_assert(ne(int, access(dir, F_OK), 0), "%s still there", dir);
	bb_reliability("script trace in BUILDBPF_TRACE_DIR", "B/E slice nested in the writer's span; dir 0700 removed",
		       trace, "step %lld us in sh %lld us", int_field(step, "dur"), int_field(sh, "dur"));
	json_object_put(merged);
	json_object_put(procs);
	json_object_put(trace);
}

Test(integration_merge, keep_trace_dir_leaves_it_to_the_user)
{
	struct passwd *pw = getpwnam("nobody");
	const char *kept;
	char cmd[600];
	struct stat st;

	cr_assert_not_null(pw);
	bb_give_to_nobody(run.dir);
	bb_run_in(&run,
		  (const char *[]){ "--keep-trace-dir", "--user", "nobody", "-o", "t.json", "--", "sh", "-c",
				    "echo '[]' > \"$BUILDBPF_TRACE_DIR/empty.json\"", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	kept = bb_kept_trace_dir(&run);
	cr_assert(eq(int, stat(kept, &st), 0), "%s", kept);
	cr_assert(eq(int, (int)st.st_uid, (int)pw->pw_uid));
	cr_assert(eq(int, st.st_mode & 07777, 0700));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kept);
	cr_assert(eq(int, system(cmd), 0));
}
