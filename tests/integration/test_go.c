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
 * its exit status, beside the asm, cgo and link steps.  go's own graph of
 * the same run (-debug-actiongraph, lib/go_actiongraph.h) is the oracle for
 * which packages compiled and which archives each compile read.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/go_actiongraph.h"
#include "lib/go_module.h"
#include "lib/input_flows.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(go, .init = integration_setup, .fini = integration_teardown, .timeout = 600);

/* Debian's go (make test-deps). */
#define GO "/usr/bin/go"

/* Long enough a compile of heavy to be seen beside the others, short enough for the suite. */
#define HEAVY_FUNCS 150

/* The module built by `go build -p 2 -debug-actiongraph=ag.json` with an empty GOCACHE, traced with --deps=on: its trace. */
static struct json_object *traced_build(void)
{
	struct go_module gm = { .heavy_funcs = HEAVY_FUNCS };
	char cache[PATH_MAX + 16], gopath[PATH_MAX + 16];

	cr_assert(eq(int, go_module__write(&gm, run.dir), 0));
	snprintf(cache, sizeof(cache), "GOCACHE=%s", bb_path(&run, "gocache"));
	snprintf(gopath, sizeof(gopath), "GOPATH=%s", bb_path(&run, "gopath"));
	bb_run_in(&run,
		  (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", GO, "build", "-p", "2",
				    "-debug-actiongraph=ag.json", "-o", "gomod", ".", NULL },
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

enum { MAX_FLOWS = 512 };

/* The action of g that compiled to path (a flow's file), or -1. */
static int compiled_to(const struct bb_go_actiongraph *g, const char *path)
{
	size_t i;

	for (i = 0; path && i < g->nr; i++)
		if (g->actions[i].compile_out[0] && bb_flow_file_is(path, g->actions[i].compile_out))
			return (int)i;
	return -1;
}

/* Whether go's action a waited for action d. */
static bool depends_on(const struct bb_go_action *a, int d)
{
	size_t k;

	for (k = 0; k < a->nr_deps; k++)
		if (a->deps[k] == d)
			return true;
	return false;
}

/*
 * go's action graph of the same run against the trace: every action that
 * compiled is one traced compile (by its -o in go's $WORK); each compile
 * read the archive of every compiled package go made it wait for, as an
 * input edge from that package's compile or from the go command (which
 * writes the build ID into each archive after its compile); and every such
 * edge between compiles is one of go's.
 */
static void check_against_actiongraph(struct json_object *trace, struct json_object *slices, struct json_object *go)
{
	static struct bb_go_actiongraph g;
	static struct bb_flow flows[MAX_FLOWS];
	struct json_object *compile[BB_GO_MAX_ACTIONS] = { NULL };
	size_t i, k, f, nr_flows, compiled = 0, edges = 0;

	bb_go_actiongraph_read(&g, bb_path(&run, "ag.json"));
	for (i = 0; i < g.nr; i++) {
		if (!g.actions[i].compile_out[0])
			continue;
		cr_assert(eq(str, g.actions[i].mode, "build"), "a compile in go's %s action", g.actions[i].mode);
		compile[i] = bb_only_slice_with_arg(slices, "compile", "-o", g.actions[i].compile_out);
		compiled++;
	}
	cr_assert(eq(sz, compiled, GO_MODULE_NR_PACKAGES + 1), "go compiled the module's packages and main");
	nr_flows = bb_input_flows(trace, slices, flows, MAX_FLOWS);
	for (i = 0; i < g.nr; i++) {
		for (k = 0; compile[i] && k < g.actions[i].nr_deps; k++) {
			int d = g.actions[i].deps[k];
			bool seen = false;

			if (!compile[d])
				continue;
			for (f = 0; f < nr_flows && !seen; f++)
				seen = bb_same_process(flows[f].reader, compile[i]) &&
				       bb_flow_file_is(flows[f].file, g.actions[d].compile_out) &&
				       (bb_same_process(flows[f].writer, compile[d]) || bb_same_process(flows[f].writer, go));
			cr_assert(seen, "go's %s waited for %s: no input edge of its archive", g.actions[i].package,
				  g.actions[d].package);
			edges++;
		}
	}
	/* main over ckit, fastadd and mid, mid over heavy and base, heavy over base. */
	cr_assert(eq(sz, edges, 6));
	for (f = 0; f < nr_flows; f++) {
		int d = compiled_to(&g, flows[f].file);

		for (i = 0; d >= 0 && i < g.nr; i++)
			if (compile[i] && bb_same_process(flows[f].reader, compile[i]))
				cr_assert(depends_on(&g.actions[i], d), "%s read %s's archive, which go did not wait for",
					  g.actions[i].package, g.actions[d].package);
	}
}

/* The same build again with its GOCACHE warm: the report says nothing compiled, not how parallel go's probes were. */
static void check_fresh_rebuild(void)
{
	char cache[PATH_MAX + 16], gopath[PATH_MAX + 16];

	snprintf(cache, sizeof(cache), "GOCACHE=%s", bb_path(&run, "gocache"));
	snprintf(gopath, sizeof(gopath), "GOPATH=%s", bb_path(&run, "gopath"));
	bb_run_in(&run, (const char *[]){ "-o", "fresh.json", "--", GO, "build", "-p", "2", "-o", "gomod", ".", NULL },
		  (const char *[]){ cache, gopath, "GOPROXY=off", "GOFLAGS=-mod=mod", "GO111MODULE=on", "CGO_ENABLED=1",
				    NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "nothing compiled: go found every unit fresh"), NULL)), "%s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "parallel?"), NULL), "%s", run.err);
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
	check_against_actiongraph(trace, slices, go);
	check_fresh_rebuild();
	bb_reliability("generated go module (6 packages, asm, cgo), go build -p 2, empty GOCACHE",
		       "every compile, asm, cgo and the link seen, once, exit 0", trace, "%zu processes",
		       json_object_array_length(slices));
	json_object_put(slices);
	json_object_put(trace);
}
