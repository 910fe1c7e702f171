// SPDX-License-Identifier: GPL-2.0
/*
 * Record once, convert many (root, real BPF): the event log of a real
 * build converts to exactly the trace the one-step run wrote; record,
 * convert and report as a user runs them.  Kill -9 and a failed trace
 * write are in the faults suite.
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

TestSuite(record, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

Test(record, a_kept_log_converts_to_the_same_trace_byte_for_byte)
{
	struct json_object *trace;
	char *one_step, *converted;
	size_t a, b;
	struct stat st;

	bb_write_fanout_makefile(&run, 40, "@sh -c 'echo $@ > $@'");
	/* The tools' own traces are files beside the log, not in it: none here. */
	bb_run_in(&run, (const char *[]){ "--no-trace-dir", "--log", "build.bbl", "-o", "t.json", "--", "make", "-j2",
					  NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "recording kept in build.bbl") != NULL, "stderr: %s", run.err);
	cr_assert_eq(stat(bb_path(&run, "build.bbl"), &st), 0);
	cr_assert(eq(u32, st.st_mode & 07777, 0644));
	one_step = bb_file_text(bb_path(&run, "t.json"), &a);

	bb_run_in(&run, (const char *[]){ "convert", "build.bbl", "-o", "c.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, ": 41 processes") /* the audit line, or its own */ != NULL, "stderr: %s", run.err);
	converted = bb_file_text(bb_path(&run, "c.json"), &b);
	cr_assert(eq(sz, a, b), "one-step trace %zu bytes, converted %zu", a, b);
	cr_assert(memcmp(one_step, converted, a) == 0, "the converted trace differs from the one-step trace");
	trace = bb_load_trace(bb_path(&run, "c.json"));
	cr_assert(eq(i64, bb_other_int(trace, "processes"), 41));
	cr_log_info("record round trip: %lld-byte log, %zu-byte trace, identical", (long long)st.st_size, a);
	bb_reliability("one-step trace vs convert of its kept log (make -j2, 40 targets)",
		       "the two traces are byte-for-byte identical; 41 processes", trace,
		       "%lld-byte log, %zu-byte trace", (long long)st.st_size, a);
	json_object_put(trace);
	free(one_step);
	free(converted);
}

/* Converts the kept log with extra arguments; the trace must be t.json's bytes. */
static void assert_converts_to_the_same_bytes(const char *what, const char *const convert_args[])
{
	const char *args[BB_ARGV_MAX] = { "convert", "-q", "-f", "build.bbl", "-o", "c.json" };
	char *one_step, *converted;
	size_t a, b, n = 6, i;

	for (i = 0; convert_args[i]; i++)
		args[n++] = convert_args[i];
	args[n] = NULL;
	one_step = bb_file_text(bb_path(&run, "t.json"), &a);
	bb_run_in(&run, args, NULL);
	cr_assert(eq(int, run.status, 0), "%s: stderr: %s", what, run.err);
	converted = bb_file_text(bb_path(&run, "c.json"), &b);
	cr_assert(eq(sz, a, b), "%s: one-step trace %zu bytes, converted %zu", what, a, b);
	cr_assert(memcmp(one_step, converted, a) == 0, "%s: the converted trace differs from the one-step trace", what);
	free(one_step);
	free(converted);
}

Test(record, a_kept_log_converts_to_the_same_trace_with_the_trace_directory)
{
	const char *kept;
	char merge_glob[400], cmd[450];

	/* The default run: a trace directory nobody wrote to. */
	bb_run_in(&run, (const char *[]){ "-q", "--log", "build.bbl", "-o", "t.json", "--", "sh", "-c", "true; true",
					  NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	assert_converts_to_the_same_bytes("empty trace directory", (const char *[]){ NULL });

	/* A tool wrote its trace there: kept, and merged again at convert. */
	bb_run_in(&run,
		  (const char *[]){ "-f", "--keep-trace-dir", "--log", "build.bbl", "-o", "t.json", "--", "sh", "-c",
				    "echo '[{\"ph\":\"X\",\"name\":\"step\",\"ts\":1,\"dur\":1}]' "
				    "> \"$BUILDBPF_TRACE_DIR/sh-$$.json\"; sleep 0.05",
				    NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	/* kept points into run.err, which the next run replaces: use it first. */
	kept = bb_kept_trace_dir(&run);
	snprintf(merge_glob, sizeof(merge_glob), "%s/**", kept);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kept);
	assert_converts_to_the_same_bytes("merged trace directory", (const char *[]){ "--merge", merge_glob, NULL });
	cr_assert(eq(int, system(cmd), 0));
}

Test(record, record_convert_and_report_as_a_user_runs_them)
{
	struct json_object *trace;

	bb_write_fanout_makefile(&run, 10, "@sh -c 'echo $@ > $@'");
	bb_run_in(&run, (const char *[]){ "record", "-o", "b.bbl", "--", "sh", "-c", "make -j2; exit 5", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 5), "record's status is the command's; stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: recording written to b.bbl; convert it with: buildbpf convert 'b.bbl'") !=
		  NULL, "stderr: %s", run.err);

	/* Not overwritten without -f, and refused before anything runs. */
	bb_run_in(&run, (const char *[]){ "record", "-o", "b.bbl", "--", "touch", "ran", NULL }, NULL);
	cr_assert(eq(int, run.status, 1), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "'b.bbl' exists; not overwriting it") != NULL, "stderr: %s", run.err);
	cr_assert(access(bb_path(&run, "ran"), F_OK) != 0, "the command ran although the log was refused");

	bb_run_in(&run, (const char *[]){ "report", "b.bbl", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.out, "exit status 5") != NULL, "stdout: %s", run.out);
	cr_assert(strstr(run.out, ": 12 processes") != NULL, "stdout: %s", run.out);

	/* Re-rendered with less scheduler detail; more is refused. */
	bb_run_in(&run, (const char *[]){ "convert", "-q", "--sched=off", "b.bbl", "-o", "off.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "off.json"));
	cr_assert(eq(i64, bb_other_int(trace, "processes"), 12));
	json_object_put(trace);
	bb_run_in(&run, (const char *[]){ "convert", "--sched=full", "b.bbl", "-o", "full.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 1), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "recorded with --sched=summary: --sched=full needs a recording made with it") !=
		  NULL, "stderr: %s", run.err);
	cr_assert(access(bb_path(&run, "full.json"), F_OK) != 0);

	/* Not a recording: one clear line, no trace. */
	bb_write_file(&run, "junk.bbl", "{\"traceEvents\": []}");
	bb_run_in(&run, (const char *[]){ "convert", "junk.bbl", "-o", "j.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 1));
	cr_assert(eq(str, run.err, "buildbpf: 'junk.bbl': not a buildbpf recording (no BUILDBPF header)\n"));
	cr_assert(access(bb_path(&run, "j.json"), F_OK) != 0);
}

Test(record, the_temporary_log_of_a_one_step_run_is_removed)
{
	char tmpdir_env[300];

	cr_assert_eq(mkdir(bb_path(&run, "tmp"), 0755), 0);
	snprintf(tmpdir_env, sizeof(tmpdir_env), "TMPDIR=%s", bb_path(&run, "tmp"));
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "true", NULL }, (const char *[]){ tmpdir_env, NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(eq(str, run.err, ""));
	cr_assert_eq(rmdir(bb_path(&run, "tmp")), 0, "the temporary log was left in $TMPDIR: %s", strerror(errno));
}
