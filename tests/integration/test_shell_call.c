// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: make's $(shell) calls are told from its recipe jobs by the
 * kernel (BB_EXEC_OUTPUT_CAPTURED: the child's stdout is a pipe make
 * reads).  A makefile whose $(shell) calls and recipe lines all run
 * `/bin/sh -c '...; ...'` (shell builtins last: no exec replaces the
 * shell): one call while make parses, one per recipe line for an exported
 * variable (kbuild's KERNELRELEASE); the calls are flagged and no jobs,
 * the two recipes are jobs.
 */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(shell_call, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

/* Whether slice is make's `/bin/sh -c cmd` whose cmd contains word. */
static bool runs(struct json_object *slice, const char *word)
{
	const char *a0 = bb_arg_argv(slice, 0), *a2 = a0 ? bb_arg_argv(slice, 2) : NULL;

	return a0 && a2 && !strcmp(a0, "/bin/sh") && strstr(a2, word);
}

Test(shell_call, makes_shell_calls_are_flagged_and_no_jobs)
{
	struct json_object *trace, *slices, *summary, *whatif;
	size_t i, calls = 0, recipes = 0;

	bb_write_file(&run, "Makefile",
		      "PARSED := $(shell echo parsed-call; true)\n"
		      "export RELEASE = $(shell echo env-call; true)\n"
		      "all: b\n"
		      "a:\n\tsleep 0.1; echo recipe-a $(PARSED)\n"
		      "b: a\n\tsleep 0.1; echo recipe-b\n"
		      ".PHONY: all a b\n");
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", "make", "-s",
					  "-j2", NULL },
		  (const char *[]){ "MAKEFLAGS=", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		bool flagged = bb_arg_flag(s, "make_shell_call");

		if (runs(s, "recipe-")) { /* recipe-a's line has the parse's call's output too */
			cr_assert(not(flagged), "a recipe flagged: %s", json_object_to_json_string(s));
			recipes++;
		} else if (runs(s, "parsed-call") || runs(s, "env-call")) {
			cr_assert(flagged, "a $(shell) call not flagged: %s", json_object_to_json_string(s));
			calls++;
		} else {
			cr_assert(not(flagged), "flagged: %s", json_object_to_json_string(s));
		}
	}
	cr_assert(eq(sz, recipes, 2));
	/* The parse's, and the exported variable's for each recipe line at least. */
	cr_assert(ge(sz, calls, 3), "%zu $(shell) calls", calls);
	summary = bb_load_summary(&run, "s.json");
	whatif = need_field(summary, "what_if");
	cr_assert(eq(i64, json_object_get_int64(need_field(whatif, "jobs_simulated")), 2));
	cr_assert(eq(i64, json_object_get_int64(need_field(whatif, "shell_calls")), (int64_t)calls));
	cr_assert(eq(i64, json_object_get_int64(need_field(need_field(summary, "start_waits"), "shell_calls")),
		     (int64_t)calls));
	json_object_put(summary);
	json_object_put(trace);
}
