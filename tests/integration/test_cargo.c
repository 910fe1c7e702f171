// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: a cargo build traced.  A generated workspace
 * (lib/cargo_workspace.h: path dependencies only, nothing from a registry)
 * built by Debian's cargo and rustc with an empty target directory: one
 * rustc per unit, a build script compiled and then run (which runs cc and
 * ar), a proc-macro, a bin linked.
 *
 * What holds today is asserted: the build passes through, the trace is
 * valid and lost nothing, and every unit cargo ran is in it, once, with its
 * exit status and its parent.  What cargo's pipelining and codegen threads
 * ask of the graph and the audit (issue 36) is not asserted yet.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/cargo_workspace.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

/* A release build of the workspace takes a minute of CPU on a loaded 2-CPU machine. */
TestSuite(cargo, .init = integration_setup, .fini = integration_teardown, .timeout = 1200);

/* Debian's cargo and rustc (make test-deps), whatever else PATH offers first (rustup's proxies). */
#define CARGO "/usr/bin/cargo"
#define CARGO_ENV(home) (const char *[]){ "RUSTC=/usr/bin/rustc", "PATH=/usr/bin:/bin", home, NULL }

/* Long enough a codegen in heavy to overlap util's rustc, short enough for the suite. */
#define HEAVY_INSTANCES 40

/* A slice's name, as the trace shows it. */
static const char *slice_name(struct json_object *slice)
{
	struct json_object *name;

	return json_object_object_get_ex(slice, "name", &name) ? json_object_get_string(name) : "";
}

/* The process slices whose argv[0] ends with suffix; how many (into found, at most max). */
static size_t slices_ending(struct json_object *slices, const char *suffix, struct json_object **found, size_t max)
{
	size_t i, n = 0, len = strlen(suffix);

	for (i = 0; i < json_object_array_length(slices); i++) {
		const char *a = bb_arg_argv(json_object_array_get_idx(slices, i), 0);

		if (a && strlen(a) >= len && !strcmp(a + strlen(a) - len, suffix)) {
			if (n < max)
				found[n] = json_object_array_get_idx(slices, i);
			n++;
		}
	}
	return n;
}

/* The workspace built from clean by `cargo build --release -j2`, traced with --deps=on: its trace. */
static struct json_object *traced_build(void)
{
	struct cargo_workspace ws = { .instances = HEAVY_INSTANCES };
	char home[PATH_MAX + 16];

	cr_assert(eq(int, cargo_workspace__write(&ws, run.dir), 0));
	snprintf(home, sizeof(home), "CARGO_HOME=%s", bb_path(&run, "cargo-home"));
	bb_run_in(&run,
		  (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", CARGO, "build",
				    "--release", "-j2", NULL },
		  CARGO_ENV(home));
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	json_object_put(bb_load_summary(&run, "s.json"));
	return bb_load_trace(bb_path(&run, "t.json"));
}

Test(cargo, every_unit_of_a_workspace_build_is_seen)
{
	static const char *const crates[] = CARGO_WORKSPACE_CRATES;
	struct json_object *trace = traced_build(), *slices = bb_slices(trace, "process"), *cargo, *script, *cc, *ar;
	struct json_object *found[4];
	char want[64];
	size_t i;

	cargo = bb_only_slice_with_arg(slices, "cargo", "build", NULL);
	cr_assert(eq(str, (char *)slice_name(cargo), "cargo build"));
	cr_assert(eq(i64, bb_arg_int(cargo, "exit_code"), 0));
	/* One rustc per crate, and one for the build script, each run by cargo. */
	for (i = 0; i < CARGO_WORKSPACE_NR_CRATES + 1; i++) {
		const char *crate = i < CARGO_WORKSPACE_NR_CRATES ? crates[i] : "build_script_build";
		struct json_object *rustc = bb_only_slice_with_arg(slices, "rustc", "--crate-name", crate);

		cr_assert(eq(i64, bb_arg_int(rustc, "exit_code"), 0), "rustc of %s", crate);
		cr_assert(eq(i64, bb_arg_int(rustc, "ppid"), bb_arg_int(cargo, "pid")), "rustc of %s", crate);
		/* Named by crate and kind, the build script by its package: never by a hashed path. */
		snprintf(want, sizeof(want), i < CARGO_WORKSPACE_NR_CRATES ? "rustc %s (" : "rustc build script of native",
			 crate);
		cr_assert(eq(int, strncmp(slice_name(rustc), want, strlen(want)), 0), "%s, not %s...",
			  slice_name(rustc), want);
	}
	/* The build script ran once, by cargo, and ran cc and ar itself. */
	cr_assert(eq(sz, slices_ending(slices, "/build-script-build", found, 4), 1));
	script = found[0];
	cr_assert(eq(i64, bb_arg_int(script, "exit_code"), 0));
	cr_assert(eq(i64, bb_arg_int(script, "ppid"), bb_arg_int(cargo, "pid")));
	cr_assert(eq(str, (char *)slice_name(script), "run build script of native"));
	cc = bb_only_slice_with_arg(slices, "cc", "-c", NULL);
	ar = bb_only_slice_with_arg(slices, "ar", "crs", NULL);
	cr_assert(eq(i64, bb_arg_int(cc, "ppid"), bb_arg_int(script, "pid")));
	cr_assert(eq(i64, bb_arg_int(ar, "ppid"), bb_arg_int(script, "pid")));
	cr_assert(eq(i64, bb_arg_int(cc, "exit_code"), 0));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("generated cargo workspace (5 crates, build script, proc-macro), cargo build --release -j2",
		       "every rustc, the build script and its cc seen, once, exit 0", trace, "%zu processes",
		       json_object_array_length(slices));
	json_object_put(slices);
	json_object_put(trace);
}
