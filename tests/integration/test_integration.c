// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the real binary loads the BPF programs and traces real
 * commands.  Needs root; skipped with the reason printed where BPF cannot
 * load at all.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"


/* The slice of the process whose argv[0] ends in prog and has argument arg. */
static struct json_object *find_exec(struct json_object *slices, const char *prog, const char *arg)
{
	size_t i, j;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(ev, 0), *a;
		size_t plen = strlen(prog), alen;

		if (!argv0 || (alen = strlen(argv0)) < plen || strcmp(argv0 + alen - plen, prog))
			continue;
		for (j = 1; (a = bb_arg_argv(ev, j)); j++)
			if (!arg || !strcmp(a, arg))
				return ev;
		if (!arg)
			return ev;
	}
	return NULL;
}

TestSuite(integration, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

Test(integration, shell_with_background_children)
{
	struct json_object *trace, *slices, *sh, *slow, *fast;
	double stall = bb_cpu_stall_ms();

	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "sh", "-c",
					  "sleep 0.4 & sleep 0.1 & wait; exit 0", NULL }, NULL);
	stall = bb_cpu_stall_ms() - stall;
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	json_object_put(bb_load_summary(&run, "s.json"));
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	sh = find_exec(slices, "sh", "-c");
	slow = find_exec(slices, "sleep", "0.4");
	fast = find_exec(slices, "sleep", "0.1");
	cr_assert(sh && slow && fast, "processes missing from the trace");
	cr_assert(eq(i64, bb_arg_int(slow, "ppid"), bb_arg_int(sh, "pid")));
	cr_assert(eq(i64, bb_arg_int(fast, "ppid"), bb_arg_int(sh, "pid")));
	/* Durations in microseconds; what a busy machine adds is the time tasks waited for a CPU. */
	cr_assert(ge(i64, int_field(slow, "dur"), 390000));
	cr_assert(le(dbl, int_field(slow, "dur"), 2000000 + stall * 1000), "sleep 0.4 took %lld us, %.0f ms of CPU wait",
		  int_field(slow, "dur"), stall);
	cr_assert(ge(i64, int_field(fast, "dur"), 90000));
	/* Which sleep asked for less: their time asleep, not their wall time, which a CPU wait after the
	 * wake-up can stretch by more than the 0.3 s between them on a busy machine. */
	cr_assert(lt(dbl, bb_arg_double(fast, "sleep_ms"), bb_arg_double(slow, "sleep_ms")), "sleep 0.1 slept %.1f ms, "
		  "sleep 0.4 %.1f ms", bb_arg_double(fast, "sleep_ms"), bb_arg_double(slow, "sleep_ms"));
	cr_assert(ge(i64, int_field(sh, "dur"), int_field(slow, "dur")));
	/* Both sleeps overlap in time, so they cannot share a lane. */
	cr_assert(ne(i64, int_field(slow, "tid"), int_field(fast, "tid")));
	cr_assert(eq(i64, json_object_get_int64(bb_other(trace, "lost_events")), 0));
	cr_assert(strstr(run.err, "0 lost events") != NULL, "summary: %s", run.err);
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * 200 jobs and their forks: a few seconds here, but in a TCG guest of the
 * kernel matrix beside a loaded host (another guest, CPU hogs) 143 s once,
 * past the suite's 120 s; the killed test's buildbpf then ran on beside
 * the next test.
 */
Test(integration, make_j2_with_200_targets_loses_nothing, .timeout = 600)
{
	struct json_object *trace, *slices, *make;
	char name[16];
	int i;

	bb_write_fanout_makefile(&run, 200, "@cp /dev/null $@");
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "make", "-j2", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	json_object_put(bb_load_summary(&run, "s.json"));
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	make = find_exec(slices, "make", "-j2");
	cr_assert(make != NULL);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "t%03d", i);
		struct json_object *cp = find_exec(slices, "cp", name);

		cr_assert(cp != NULL, "no process made %s", name);
		/* make runs a recipe without shell metacharacters directly. */
		cr_assert(eq(i64, bb_arg_int(cp, "ppid"), bb_arg_int(make, "pid")), "%s has the wrong parent", name);
		cr_assert(eq(i64, bb_arg_int(cp, "exit_code"), 0));
	}
	cr_assert(eq(i64, json_object_get_int64(bb_other(trace, "lost_events")), 0));
	/* Two jobs at a time: a handful of lanes, not one per process. */
	cr_assert(le(i64, json_object_get_int64(bb_other(trace, "lanes")), 4));
	json_object_put(slices);
	json_object_put(trace);
}

Test(integration, exit_status_passes_through)
{
	bb_run_in(&run, (const char *[]){ "-q", "-o", "a.json", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	bb_run_in(&run, (const char *[]){ "-q", "-o", "b.json", "--", "sh", "-c", "exit 3", NULL }, NULL);
	cr_assert(eq(int, run.status, 3), "stderr: %s", run.err);
	bb_run_in(&run, (const char *[]){ "-q", "-o", "c.json", "--", "sh", "-c", "kill -KILL $$", NULL }, NULL);
	cr_assert(eq(int, run.status, 128 + 9), "stderr: %s", run.err);

	struct json_object *trace = bb_load_trace(bb_path(&run, "c.json"));
	struct json_object *slices = bb_slices(trace, "process");
	struct json_object *sh = find_exec(slices, "sh", "-c");

	cr_assert(sh != NULL);
	cr_assert(eq(i64, bb_arg_int(sh, "signal"), 9));
	json_object_put(slices);
	json_object_put(trace);
}

Test(integration, command_not_found_is_127)
{
	struct stat st;

	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--", "no-such-command-buildbpf", NULL }, NULL);
	cr_assert(eq(int, run.status, 127));
	cr_assert(strstr(run.err, "buildbpf: cannot run 'no-such-command-buildbpf': command not found") != NULL,
		  "stderr: %s", run.err);
	cr_assert(stat(bb_path(&run, "t.json"), &st) != 0, "a trace was written for a command that never ran");
}

/*
 * sudo's PATH can name a directory the user cannot search (root's own): a
 * name in none of PATH's directories is still not found, as a shell says,
 * though glibc's execvp reports EACCES for it.
 */
Test(integration, command_not_found_behind_an_unsearchable_directory_is_127)
{
	char path_env[PATH_MAX];

	bb_give_to_nobody(run.dir);
	cr_assert(eq(int, mkdir(bb_path(&run, "root-only"), 0700), 0));
	snprintf(path_env, sizeof(path_env), "PATH=%s:/usr/bin:/bin", bb_path(&run, "root-only"));
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "no-such-command-buildbpf", NULL },
		  (const char *[]){ "SUDO_UID=65534", "SUDO_GID=65534", path_env, NULL });
	cr_assert(eq(int, run.status, 127), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: cannot run 'no-such-command-buildbpf': command not found") != NULL,
		  "stderr: %s", run.err);
}

Test(integration, not_executable_is_126)
{
	bb_write_file(&run, "script.sh", "#!/bin/sh\nexit 0\n");
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "./script.sh", NULL }, NULL);
	cr_assert(eq(int, run.status, 126), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "Permission denied") != NULL, "stderr: %s", run.err);
}

Test(integration, command_runs_as_the_sudo_user)
{
	struct stat st;

	bb_give_to_nobody(run.dir);
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "id", "-u", NULL },
		  (const char *[]){ "SUDO_UID=65534", "SUDO_GID=65534", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(eq(str, run.out, "65534\n"));
	cr_assert(eq(int, stat(bb_path(&run, "t.json"), &st), 0));
	cr_assert(eq(u32, st.st_uid, 65534), "the trace belongs to uid %u", st.st_uid);
	cr_assert(eq(u32, st.st_mode & 0777, 0644));

	/* --keep-root keeps root. */
	bb_run_in(&run, (const char *[]){ "-q", "--keep-root", "-o", "u.json", "--", "id", "-u", NULL },
		  (const char *[]){ "SUDO_UID=65534", "SUDO_GID=65534", NULL });
	cr_assert(eq(str, run.out, "0\n"));
}

Test(integration, existing_output_is_not_overwritten_without_force)
{
	struct json_object *trace;
	char *text;
	FILE *f;

	bb_write_file(&run, "t.json", "keep me\n");
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--", "true", NULL }, NULL);
	cr_assert(ne(int, run.status, 0));
	cr_assert(strstr(run.err, "exists") != NULL, "stderr: %s", run.err);
	cr_assert(strstr(run.err, "--force") != NULL, "no hint: %s", run.err);
	f = fopen(bb_path(&run, "t.json"), "r");
	cr_assert_not_null(f);
	text = calloc(1, 64);
	cr_assert(fread(text, 1, 63, f) > 0);
	fclose(f);
	cr_assert(eq(str, text, "keep me\n"));
	free(text);

	bb_run_in(&run, (const char *[]){ "-f", "-o", "t.json", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	json_object_put(trace);
}

Test(integration, unwritable_output_fails_before_the_build)
{
	bb_run_in(&run, (const char *[]){ "-o", "no/such/dir/t.json", "--", "touch", "ran", NULL }, NULL);
	cr_assert(ne(int, run.status, 0));
	cr_assert(strstr(run.err, "buildbpf: cannot create the trace") != NULL, "stderr: %s", run.err);
	cr_assert(access(bb_path(&run, "ran"), F_OK) != 0, "the command ran although the output was unwritable");
}

Test(integration, hostile_argv_stays_valid_json)
{
	struct json_object *trace;

	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "sh", "-c", "true", "x",
					  "\xff\xfe bad utf8", "quote\"back\\slash", "new\nline", "\x1b[31mred",
					  NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	json_object_put(trace);
}
