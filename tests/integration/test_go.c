// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: a go build traced.  A generated module (lib/go_module.h:
 * standard library imports only) built by Debian's go with an empty
 * GOCACHE, so every package of the module compiles: go's compile per
 * package, asm for the assembly package, cgo and gcc for the cgo package,
 * link for the program.  The standard library comes precompiled with go
 * 1.19 and compiles nothing.
 *
 * What holds today is asserted: the build passes through, the trace is
 * valid and lost nothing, and every package's compile is in it, once, with
 * its exit status, beside the asm, cgo and link steps.  What go's -p and
 * its multi-threaded compiles ask of the audit (issue 36) is not asserted
 * yet.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/go_module.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(go, .init = integration_setup, .fini = integration_teardown, .timeout = 600);

/* Debian's go (make test-deps). */
#define GO "/usr/bin/go"

/* Long enough a compile of heavy to be seen beside the others, short enough for the suite. */
#define HEAVY_FUNCS 150

/* The module built by `go build -p 2` with an empty GOCACHE, traced with --deps=on: its trace. */
static struct json_object *traced_build(void)
{
	struct go_module gm = { .heavy_funcs = HEAVY_FUNCS };
	char cache[PATH_MAX + 16], gopath[PATH_MAX + 16];

	cr_assert(eq(int, go_module__write(&gm, run.dir), 0));
	snprintf(cache, sizeof(cache), "GOCACHE=%s", bb_path(&run, "gocache"));
	snprintf(gopath, sizeof(gopath), "GOPATH=%s", bb_path(&run, "gopath"));
	bb_run_in(&run,
		  (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", GO, "build", "-p", "2",
				    "-o", "gomod", ".", NULL },
		  (const char *[]){ cache, gopath, "GOPROXY=off", "GOFLAGS=-mod=mod", "GO111MODULE=on", "CGO_ENABLED=1",
				    NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	json_object_put(bb_load_summary(&run, "s.json"));
	return bb_load_trace(bb_path(&run, "t.json"));
}

/* A slice's name, as the trace shows it. */
static const char *slice_name(struct json_object *slice)
{
	struct json_object *name;

	return json_object_object_get_ex(slice, "name", &name) ? json_object_get_string(name) : "";
}

Test(go, every_package_of_a_module_build_is_seen)
{
	static const char *const packages[] = GO_MODULE_PACKAGES;
	struct json_object *trace = traced_build(), *slices = bb_slices(trace, "process"), *go, *step;
	char path[128];
	size_t i;

	go = bb_only_slice_with_arg(slices, "go", "build", NULL);
	cr_assert(eq(i64, bb_arg_int(go, "exit_code"), 0));
	cr_assert(eq(str, (char *)slice_name(go), "go build"));
	/* One compile per package and one for main, each run by the go command. */
	for (i = 0; i < GO_MODULE_NR_PACKAGES + 1; i++) {
		if (i < GO_MODULE_NR_PACKAGES)
			snprintf(path, sizeof(path), GO_MODULE_PATH "/%s", packages[i]);
		else
			snprintf(path, sizeof(path), "main");
		step = bb_only_slice_with_arg(slices, "compile", "-p", path);
		cr_assert(eq(i64, bb_arg_int(step, "exit_code"), 0), "compile of %s", path);
		cr_assert(eq(i64, bb_arg_int(step, "ppid"), bb_arg_int(go, "pid")), "compile of %s", path);
		/* Named by its package, never by go's $WORK. */
		cr_assert(eq(int, strcmp(slice_name(step) + strlen("compile "), path), 0), "%s", slice_name(step));
	}
	/* The assembly package's asm (symbols, then the object), the cgo package's cgo, the program's link. */
	cr_assert(ge(sz, bb_slices_with_arg(slices, "asm", "-p", GO_MODULE_PATH "/fastadd", NULL, 0), 2));
	step = bb_only_slice_with_arg(slices, "cgo", "-importpath", GO_MODULE_PATH "/ckit");
	cr_assert(eq(i64, bb_arg_int(step, "exit_code"), 0));
	step = bb_only_slice_with_arg(slices, "link", "-o", NULL);
	cr_assert(eq(i64, bb_arg_int(step, "exit_code"), 0));
	cr_assert(eq(i64, bb_arg_int(step, "ppid"), bb_arg_int(go, "pid")));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("generated go module (6 packages, asm, cgo), go build -p 2, empty GOCACHE",
		       "every compile, asm, cgo and the link seen, once, exit 0", trace, "%zu processes",
		       json_object_array_length(slices));
	json_object_put(slices);
	json_object_put(trace);
}
