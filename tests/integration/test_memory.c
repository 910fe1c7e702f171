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
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"
#include "lib/hook_fallback.h"

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
	cr_assert(lt(i64, 0, bb_arg_int(sh, "peak_rss_kb")));
	cr_assert(le(i64, bb_arg_int(sh, "peak_rss_kb"), 8 * MIB), "peak %lld", bb_arg_int(sh, "peak_rss_kb"));
	cr_assert(ge(i64, bb_arg_int(sh, "maxrss_kb"), bb_arg_int(sh, "peak_rss_kb")));
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * Where the memory checkpoints were taken is what -v said once loaded and what
 * the audit says: the same hook, one this version knows.
 */
Test(memory, the_audit_says_where_the_checkpoints_were_taken)
{
	static const char *const hooks[] = { "tracepoint", "fentry", "syscall" };
	struct json_object *summary;
	char said[64];
	const char *hook;
	bool known = false;

	bb_run_in(&run, (const char *[]){ "-v", "-o", "t.json", "--summary-json", "s.json", "--", "sh", "-c", "true", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	hook = json_object_get_string(need_field(summary, "mem_hook"));
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		known |= hook && !strcmp(hook, hooks[i]);
	cr_assert(known, "mem_hook %s", hook ? hook : "null");
	snprintf(said, sizeof(said), "buildbpf: memory checkpoints: %s", hook);
	cr_assert(strstr(run.err, said) != NULL, "stderr: %s", run.err);
	json_object_put(summary);
}

/*
 * do_exit holding as many BPF programs as the kernel takes (other tools'
 * fentry programs; here the test's own): the probe still loads fentry, the
 * attach is refused.  The memory checkpoints go to the syscall entry, the
 * file dependencies stay on fentry, and the peak is still recorded.  Runs
 * where --version says fentry for both (the matrix guests).  It waits
 * for the kernel alone (bb_hold_kernel_alone()): another test's length.
 */
Test(memory, a_full_trampoline_on_do_exit_moves_the_checkpoints_to_the_syscall_entry, .timeout = 600)
{
	static const char *const want[] = { "mem_sys_enter", "handle_file_ope", NULL };
	static const char *const unwanted[] = { "mem_do_exit", "mem_begin_new_e", "handle_file_sys", NULL };
	struct bb_fallback_case c = {
		.func = "do_exit",
		.warning = "the fentry memory checkpoints failed (mem_",
		.mem_hook = "syscall",
		.deps_hook = "fentry",
		.want = want,
		.unwanted = unwanted,
		.script = "\"$0\" > census.txt || exit 41; \"$1\" 64 || exit 42; exit 7",
		.status = 7,
	};
	struct json_object *trace, *slices, *hog;
	char hog_path[1024];

	free(bb_require_hook(&run, "memory checkpoints: fentry"));
	free(bb_require_hook(&run, "file dependencies: fentry"));
	snprintf(hog_path, sizeof(hog_path), "%s", bb_test_prog("mem-hog"));
	c.arg1 = hog_path;
	bb_run_with_full_trampoline(&c);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	hog = find_proc(slices, "mem-hog", "64");
	cr_assert(hog != NULL, "mem-hog missing from the trace");
	cr_assert(ge(i64, bb_arg_int(hog, "peak_rss_kb"), 64 * MIB));
	cr_assert(le(i64, bb_arg_int(hog, "peak_rss_kb"), 80 * MIB), "peak %lld", bb_arg_int(hog, "peak_rss_kb"));
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

/*
 * A memory cgroup to run a process in, made under the first hierarchy that
 * has the memory controller: cgroup v2 (memory.max) or v1
 * (memory.limit_in_bytes).  Where none is mounted (a bare test guest) a
 * cgroup2 hierarchy is mounted for the test, and its memory controller
 * enabled for children.  Only this cgroup's processes can be OOM-killed.
 */
struct memcg {
	char dir[320];	 /* the test's cgroup */
	char mount[128]; /* the hierarchy mounted for the test, or "" */
};

static bool file_has_word(const char *path, const char *word)
{
	char *text = bb_read_file(path, NULL), *w, *save = NULL;
	bool found = false;

	for (w = text ? strtok_r(text, " \n", &save) : NULL; w && !found; w = strtok_r(NULL, " \n", &save))
		found = !strcmp(w, word);
	free(text);
	return found;
}

/* The memory hierarchy's root in *root; true for v2. */
static bool find_memory_hierarchy(char *root, size_t size, bool *v2)
{
	char dev[256], dir[256], type[64], opts[512], path[512];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	while (f && !found && fscanf(f, "%255s %255s %63s %511s %*d %*d", dev, dir, type, opts) == 4) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
			found = *v2 = file_has_word(path, "memory");
		} else if (!strcmp(type, "cgroup")) {
			char *o, *save = NULL;

			for (o = strtok_r(opts, ",", &save); o && !found; o = strtok_r(NULL, ",", &save))
				found = !strcmp(o, "memory");
			*v2 = false;
		}
		if (found)
			snprintf(root, size, "%s", dir);
	}
	if (f)
		fclose(f);
	return found;
}

static void write_cg_file(const struct memcg *cg, const char *name, const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cg->dir, name);
	f = fopen(path, "we");
	cr_assert(f != NULL, "%s: %s", path, strerror(errno));
	fputs(value, f);
	cr_assert(eq(int, fclose(f), 0), "%s: %s", path, strerror(errno));
}

static void memcg_make(struct memcg *cg, const char *limit)
{
	char root[256], ctl[512];
	bool v2 = false;

	cg->mount[0] = '\0';
	if (!find_memory_hierarchy(root, sizeof(root), &v2)) {
		snprintf(cg->mount, sizeof(cg->mount), "%s/cgroup2", run.dir);
		cr_assert(eq(int, mkdir(cg->mount, 0755), 0));
		if (mount("none", cg->mount, "cgroup2", 0, NULL)) {
			rmdir(cg->mount);
			cg->mount[0] = '\0';
			cr_skip_test("no memory cgroup here, and cgroup2 cannot be mounted: %s", strerror(errno));
		}
		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", cg->mount);
		snprintf(cg->dir, sizeof(cg->dir), "%s", cg->mount);
		if (!file_has_word(ctl, "memory"))
			write_cg_file(cg, "cgroup.subtree_control", "+memory");
		snprintf(root, sizeof(root), "%s", cg->mount);
		v2 = true;
	}
	snprintf(cg->dir, sizeof(cg->dir), "%s/buildbpf-test-oom-%d", root, (int)getpid());
	cr_assert(eq(int, mkdir(cg->dir, 0755), 0), "%s: %s", cg->dir, strerror(errno));
	write_cg_file(cg, v2 ? "memory.max" : "memory.limit_in_bytes", limit);
}

static void memcg_remove(struct memcg *cg)
{
	int i;

	/* The killed process leaves the cgroup when it is reaped, which
	 * buildbpf's exit implies; its removal may still lag a moment. */
	for (i = 0; i < 50 && rmdir(cg->dir) && errno == EBUSY; i++)
		usleep(20000);
	if (cg->mount[0]) {
		umount(cg->mount);
		rmdir(cg->mount);
	}
}

Test(memory, an_oom_killed_process_is_flagged)
{
	struct json_object *trace, *slices, *hog, *summary;
	struct memcg cg;
	char cmd[768];

	memcg_make(&cg, "48M");
	snprintf(cmd, sizeof(cmd), "echo $$ > %s/cgroup.procs && exec %s 256", cg.dir, bb_test_prog("mem-hog"));
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "sh", "-c", cmd, NULL },
		  NULL);
	memcg_remove(&cg);
	cr_assert(eq(int, run.status, 128 + 9), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	hog = find_proc(slices, "mem-hog", "256");
	cr_assert(hog != NULL, "mem-hog missing from the trace");
	cr_assert(bb_arg_flag(hog, "oom_killed"));
	cr_assert(eq(i64, bb_arg_int(hog, "signal"), 9));
	/* Killed near the limit, far below what it asked for. */
	cr_assert(le(i64, bb_arg_int(hog, "peak_rss_kb"), 64 * MIB), "peak %lld", bb_arg_int(hog, "peak_rss_kb"));
	cr_assert(eq(i64, json_object_get_int64(bb_other(trace, "lost_events")), 0));
	cr_assert(strstr(run.err, "OOM KILLED: 1 process") != NULL, "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(json_object_object_get(summary, "memory"),
									"oom_killed")),
		     1));
	json_object_put(summary);
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * Two 100 MiB holders, alone and then side by side: the counter rises past
 * each, the side-by-side peak is the sum, and it falls when they exit.  The
 * pair meets before holding: in an emulated guest beside a loaded host, one
 * took longer to touch its memory than the other held its own (peak 177.7
 * MiB), so "side by side" is not left to time.
 */
Test(memory, build_memory_rises_and_falls_with_its_processes)
{
	char cmd[1024];
	const char *hog = bb_test_prog("mem-hog");
	struct json_object *trace, *summary, *mem, *top;
	double mb[4096], peak = 0;
	long long ts[4096];
	size_t n, i, at = 0;

	snprintf(cmd, sizeof(cmd),
		 "%s 100 --hold 600; sleep 0.3; d=$(mktemp -d); %s 100 --meet $d 2 --hold 800 & "
		 "%s 100 --meet $d 2 --hold 800; wait; rm -r $d",
		 hog, hog, hog);
	/* -v: the build's memory peak is among its figures. */
	bb_run_in(&run, (const char *[]){ "-v", "-o", "t.json", "--summary-json", "s.json", "--mem-period", "50ms", "--",
					  "sh", "-c", cmd, NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	n = bb_counter(trace, "build memory", "MiB", mb, ts, 4096);
	cr_assert(lt(sz, 20, n), "%zu points", n);
	for (i = 0; i < n; i++)
		if (mb[i] > peak) {
			peak = mb[i];
			at = i;
		}
	/* The sum of the two (and their shell), not one of them. */
	cr_assert(ge(dbl, peak, 200.0), "peak %.1f MiB", peak);
	cr_assert(le(dbl, peak, 230.0), "peak %.1f MiB", peak);
	/* The first hog alone: above 100 MiB and below the pair, before the peak. */
	for (i = 0; i < at && mb[i] < 100.0; i++)
		;
	cr_assert(lt(sz, i, at));
	cr_assert(lt(dbl, mb[i], 200.0));
	/* Between the two phases (sleep 0.3) it fell back, and at the end too. */
	for (; i < at && mb[i] >= 50.0; i++)
		;
	cr_assert(lt(sz, i, at), "never fell between the two phases");
	cr_assert(lt(dbl, mb[n - 1], 50.0), "end %.1f MiB", mb[n - 1]);

	summary = bb_load_summary(&run, "s.json");
	mem = json_object_object_get(summary, "memory");
	cr_assert(ge(i64, json_object_get_int64(json_object_object_get(mem, "peak_kb")), 200 * MIB));
	cr_assert(lt(i64, 0, json_object_get_int64(json_object_object_get(mem, "ram_kb"))));
	top = json_object_array_get_idx(json_object_object_get(mem, "peak_top"), 0);
	cr_assert(ge(i64, json_object_get_int64(json_object_object_get(top, "kb")), 100 * MIB));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(top, "name")), "mem-hog"));
	cr_assert(strstr(run.err, "build memory: peak") != NULL, "stderr: %s", run.err);
	json_object_put(summary);
	json_object_put(trace);
}
