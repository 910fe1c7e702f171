// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the audit of a real traced make -j2 whose last step is a
 * deliberate serial one, and the --summary-json/--svg output rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(audit_integration, .init = integration_setup, .fini = integration_teardown, .timeout = 180);

/* Four 0.3 s jobs for -j2, then a 1.5 s step that nothing runs beside. */
static void write_makefile(void)
{
	char text[2048];
	const char *burn = bb_test_prog("cpu-burn");

	snprintf(text, sizeof(text),
		 "all: link\n"
		 "a1 a2 a3 a4:\n\t%s 1 0.3\n"
		 "link: a1 a2 a3 a4\n\t%s 1 1.5\n"
		 ".PHONY: all link a1 a2 a3 a4\n",
		 burn, burn);
	bb_write_file(&run, "Makefile", text);
}

/* The pid of the cpu-burn run with SECONDS as its second argument. */
static long long burn_pid(struct json_object *trace, const char *seconds)
{
	struct json_object *slices = bb_slices(trace, "process");
	long long pid = -1;
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *a0 = bb_arg_argv(ev, 0), *a2 = bb_arg_argv(ev, 2);

		if (a0 && strstr(a0, "cpu-burn") && a2 && !strcmp(a2, seconds))
			pid = bb_arg_int(ev, "pid");
	}
	json_object_put(slices);
	return pid;
}

Test(audit_integration, serial_step_of_a_real_make_is_the_top_phase)
{
	struct json_object *summary, *trace, *phases, *top, *jobs, *proc;
	long long link_pid;
	char *svg = NULL;
	size_t len = 0;
	FILE *f;

	write_makefile();
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--svg", "t.svg", "--", "make",
					  "-s", "-j2", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: audit: ") != NULL, "stderr: %s", run.err);
	cr_assert(strstr(run.err, "make -j2 (from the command)") != NULL, "stderr: %s", run.err);

	trace = bb_load_trace(bb_path(&run, "t.json"));
	link_pid = burn_pid(trace, "1.5");
	cr_assert(lt(i64, 0, link_pid), "the link step is not in the trace");
	summary = bb_load_summary(&run, "s.json");
	cr_assert(eq(int, json_object_get_int(need_field(summary, "version")), 1));
	jobs = need_field(summary, "jobs");
	cr_assert(eq(int, json_object_get_int(need_field(jobs, "requested")), 2));
	cr_assert(eq(str, (char *)json_object_get_string(need_field(jobs, "source")), "argument"));

	phases = need_field(need_field(summary, "serial_phases"), "phases");
	cr_assert(ge(sz, json_object_array_length(phases), 1), "stderr: %s", run.err);
	top = json_object_array_get_idx(phases, 0);
	/* 1.5 s of CPU; on a loaded machine it may take longer, never less. */
	cr_assert(ge(dbl, json_object_get_double(need_field(top, "duration_ms")), 1300.0), "stderr: %s", run.err);
	proc = json_object_array_get_idx(need_field(top, "processes"), 0);
	cr_assert(not(eq(ptr, proc, NULL)));
	cr_assert(eq(i64, json_object_get_int64(need_field(proc, "pid")), link_pid), "stderr: %s", run.err);
	cr_assert(strstr(json_object_get_string(need_field(proc, "name")), "cpu-burn") != NULL);

	/* The same audit rides in the trace's metadata. */
	cr_assert(eq(int,
		     json_object_get_int(need_field(need_field(need_field(trace, "otherData"), "audit"), "version")),
		     1));
	bb_check_summary(need_field(need_field(trace, "otherData"), "audit"));

	f = fopen(bb_path(&run, "t.svg"), "r");
	cr_assert(not(eq(ptr, f, NULL)), "no SVG written");
	cr_assert(getdelim(&svg, &len, '\0', f) > 0);
	fclose(f);
	cr_assert(strstr(svg, "<svg ") != NULL);
	cr_assert(strstr(svg, "class=\"serial\"") != NULL);
	free(svg);
	json_object_put(summary);
	json_object_put(trace);
}

/* Checked before the build: an existing file stops it from running at all. */
Test(audit_integration, existing_summary_file_is_refused_before_the_build)
{
	bb_write_file(&run, "s.json", "keep me\n");
	bb_run_in(&run, (const char *[]){ "-o", "t.json", "--summary-json", "s.json", "--", "touch", "ran", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 1), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "buildbpf: '") != NULL && strstr(run.err, "another --summary-json") != NULL,
		  "stderr: %s", run.err);
	cr_assert(access(bb_path(&run, "ran"), F_OK) != 0, "the command ran");
	cr_assert(access(bb_path(&run, "t.json"), F_OK) != 0, "a trace was written");
}

Test(audit_integration, quiet_hides_the_report_and_sched_off_says_what_is_missing)
{
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "audit") == NULL, "stderr: %s", run.err);

	bb_run_in(&run, (const char *[]){ "-f", "-o", "t.json", "--sched=off", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(strstr(run.err, "unavailable (traced with --sched=off)") != NULL, "stderr: %s", run.err);
}
