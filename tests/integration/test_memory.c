// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: memory of the traced build (bpf/mem_events.bpf.c,
 * model/memory.h).  Known answers: tests/workloads/mem_hog.c touches a
 * known amount, and a child forked from it inherits a large copy that
 * must not count as its peak.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

#define MIB 1024ll /* in KiB, as peak_rss_kb counts */

TestSuite(memory, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

/* The process slice whose argv[0] ends in prog and argv[1] is arg1. */
static struct json_object *find_proc(struct json_object *slices, const char *prog, const char *arg1)
{
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(ev, 0), *a1 = bb_arg_argv(ev, 1);
		size_t plen = strlen(prog), alen;

		if (!argv0 || (alen = strlen(argv0)) < plen || strcmp(argv0 + alen - plen, prog))
			continue;
		if (a1 && !strcmp(a1, arg1))
			return ev;
	}
	return NULL;
}

/* buildbpf -- sh -c true: the command was forked from buildbpf, tens of MB. */
Test(memory, the_command_does_not_inherit_buildbpfs_peak)
{
	struct json_object *trace, *slices, *sh;

	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--", "sh", "-c", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	sh = find_proc(slices, "sh", "-c");
	cr_assert(sh != NULL, "sh missing from the trace");
	/* /usr/bin/time says about 1.6 MB for sh -c true. */
	cr_assert(gt(i64, bb_arg_int(sh, "peak_rss_kb"), 0));
	cr_assert(le(i64, bb_arg_int(sh, "peak_rss_kb"), 8 * MIB), "peak %lld", bb_arg_int(sh, "peak_rss_kb"));
	cr_assert(ge(i64, bb_arg_int(sh, "maxrss_kb"), bb_arg_int(sh, "peak_rss_kb")));
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * A parent holding 200 MiB forks a child that execs a 4 MiB program, directly
 * or through sh -c 'exec ...': each has its own peak; the kernel's maxrss of
 * the child still has the parent's copy in it, under its own name.
 */
static void check_parent_and_child(const char *const cmd_tail[], size_t child_images)
{
	const char *args[BB_ARGV_MAX] = { "-o", "t.json", "--summary-json", "s.json", "--",
					  bb_test_prog("mem-hog"), "200", "--" };
	struct json_object *trace, *slices, *parent, *child, *summary;
	size_t n = 8, i;

	for (i = 0; cmd_tail[i]; i++)
		args[n++] = cmd_tail[i];
	args[n] = NULL;
	bb_run_in(&run, args, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	parent = find_proc(slices, "mem-hog", "200");
	child = find_proc(slices, "mem-hog", "4");
	cr_assert(parent && child, "mem-hog missing from the trace");
	cr_assert(ge(i64, bb_arg_int(parent, "peak_rss_kb"), 200 * MIB));
	cr_assert(le(i64, bb_arg_int(parent, "peak_rss_kb"), 216 * MIB));
	cr_assert(ge(i64, bb_arg_int(child, "peak_rss_kb"), 4 * MIB));
	cr_assert(le(i64, bb_arg_int(child, "peak_rss_kb"), 12 * MIB), "child peak %lld",
		  bb_arg_int(child, "peak_rss_kb"));
	cr_assert(ge(i64, bb_arg_int(child, "maxrss_kb"), 200 * MIB));
	cr_assert(eq(i64, bb_arg_int(child, "images"), (long long)child_images));
	cr_assert(eq(i64, bb_arg_int(child, "ppid"), bb_arg_int(parent, "pid")));
	/* The audit's top list ranks by the same figure. */
	summary = bb_load_summary(&run, "s.json");
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(
				  json_object_array_get_idx(json_object_object_get(
					  json_object_object_get(summary, "top"), "peak_rss"), 1), "kb")),
		     bb_arg_int(child, "peak_rss_kb")), "%s", json_object_to_json_string(summary));
	cr_assert(eq(i64, json_object_get_int64(bb_other(trace, "lost_events")), 0));
	json_object_put(summary);
	json_object_put(slices);
	json_object_put(trace);
}

Test(memory, a_child_of_a_large_parent_has_its_own_peak)
{
	check_parent_and_child((const char *[]){ bb_test_prog("mem-hog"), "4", NULL }, 1);
}

Test(memory, an_exec_chain_keeps_its_own_peak)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "exec %s 4", bb_test_prog("mem-hog"));
	check_parent_and_child((const char *[]){ "sh", "-c", cmd, NULL }, 2);
}
