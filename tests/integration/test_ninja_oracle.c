// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the build graph buildbpf infers from the kernel (--deps),
 * against one an independent tool knows.  A generated CMake project is built
 * by ninja under buildbpf; ninja's own view of the same build is the oracle:
 * for every step that ran, its explicit and implicit inputs (`ninja -t
 * query`) and the headers its compiler reported (`ninja -t deps`), each
 * mapped to the step that outputs it.  Order-only dependencies order steps
 * without feeding them data, so they are no oracle edges.
 *
 * A step is a child of ninja (`/bin/sh -c COMMAND`), matched to ninja's step
 * by that command: the one `ninja -t commands -s OUTPUT` prints for the
 * step's output file.  Every process below it belongs to the step.  An
 * inferred edge is an "input" flow of the trace whose writer and reader
 * belong to two different steps.
 *
 * The project: a generator program built first, run to write gen.h (which
 * two of six library sources include) and, undeclared, gen.log; a static
 * library; a program linked against it; and a custom target that copies
 * gen.log, ordered after the generator by add_dependencies() alone.  The
 * edge into that copy is real but not declared: the one extra edge, and it
 * must be explained by its file being no output ninja knows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/audit_oracle.h"
#include "lib/input_flows.h"
#include "lib/integration.h"
#include "lib/json_fields.h"
#include "lib/ninja_graph.h"

TestSuite(ninja_oracle, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

#define CMAKE "/usr/bin/cmake"

enum { MAX_EDGES = 256, MAX_FLOWS = 256 };

static void write_project(void)
{
	char src[PATH_MAX];
	int i;

	snprintf(src, sizeof(src), "%s/src", run.dir);
	cr_assert(eq(int, mkdir(src, 0755), 0));
	bb_write_file(&run, "src/CMakeLists.txt",
		      "cmake_minimum_required(VERSION 3.13)\n"
		      "project(oracle C)\n"
		      "add_executable(gen gen.c)\n"
		      "add_custom_command(OUTPUT gen.h COMMAND gen gen.h DEPENDS gen)\n"
		      "add_custom_target(genh DEPENDS gen.h)\n"
		      "add_library(util STATIC u1.c u2.c u3.c u4.c u5.c u6.c ${CMAKE_CURRENT_BINARY_DIR}/gen.h)\n"
		      "target_include_directories(util PRIVATE ${CMAKE_CURRENT_BINARY_DIR})\n"
		      "add_executable(app main.c)\n"
		      "target_link_libraries(app util)\n"
		      "add_custom_target(report ALL COMMAND cp gen.log report.txt)\n"
		      "add_dependencies(report genh)\n");
	bb_write_file(&run, "src/gen.c",
		      "#include <stdio.h>\n"
		      "static int put(const char *path, const char *text)\n"
		      "{\n\tFILE *f = fopen(path, \"w\");\n\n"
		      "\treturn !f || fputs(text, f) < 0 || fclose(f) != 0;\n}\n"
		      "int main(int argc, char **argv)\n"
		      "{\n\treturn argc != 2 || put(argv[1], \"#define GEN 40\\n\") || put(\"gen.log\", \"gen ran\\n\");\n}\n");
	for (i = 1; i <= 6; i++) {
		char name[32], text[128];

		snprintf(name, sizeof(name), "src/u%d.c", i);
		/* u1 and u4 read the generated header. */
		snprintf(text, sizeof(text), "%sint u%d(void) { return %s; }\n", i % 3 == 1 ? "#include \"gen.h\"\n" : "",
			 i, i == 1 ? "GEN" : i == 4 ? "GEN - 40" : "1");
		bb_write_file(&run, name, text);
	}
	bb_write_file(&run, "src/main.c",
		      "int u1(void), u2(void), u3(void), u4(void), u5(void), u6(void);\n"
		      "int main(void) { return u1() + u2() + u3() + u4() + u5() + u6() != 44; }\n");
}

static const char *step_name(const struct bb_ninja_graph *o, int i)
{
	return o->steps[i].names[0];
}

static bool compile_to_link(const struct bb_ninja_graph *o, const struct bb_step_edge *e)
{
	return !strncmp(o->steps[e->from].rule, "C_COMPILER", 10) && strstr(o->steps[e->to].rule, "LINKER");
}

Test(ninja_oracle, inferred_step_edges_match_what_ninja_knows)
{
	struct bb_step_edge truth[MAX_EDGES], found[MAX_EDGES];
	size_t nr_truth, nr_found = 0, nr_flows, i, hits = 0, c2l = 0, c2l_hits = 0, extra = 0;
	static struct bb_ninja_graph o;
	struct json_object *trace, *slices;
	struct bb_flow flows[MAX_FLOWS];

	cr_assert(access(CMAKE, X_OK) == 0 && access(BB_NINJA, X_OK) == 0,
		  "this test needs Debian's cmake and ninja-build (" CMAKE ", " BB_NINJA ")");
	write_project();
	snprintf(o.build, sizeof(o.build), "%s/b", run.dir);
	o.run = &run;
	free(bb_run_plain(&run, run.dir, (const char *[]){ CMAKE, "-G", "Ninja", "-S", "src", "-B", "b", NULL }, false,
			  NULL));
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--", BB_NINJA, "-C", "b", "-j2", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);

	bb_ninja_read_steps(&o);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	bb_ninja_match_steps(&o, slices);
	nr_truth = bb_ninja_edges(&o, truth, MAX_EDGES);

	nr_flows = bb_input_flows(trace, slices, flows, MAX_FLOWS);
	for (i = 0; i < nr_flows; i++)
		bb_step_edge_add(found, &nr_found, MAX_EDGES, bb_ninja_step_of(&o, flows[i].writer),
				 bb_ninja_step_of(&o, flows[i].reader), flows[i].file);

	for (i = 0; i < nr_truth; i++) {
		bool hit = bb_step_edge_has(found, nr_found, truth[i].from, truth[i].to);

		hits += hit;
		if (compile_to_link(&o, &truth[i])) {
			c2l++;
			c2l_hits += hit;
		}
		if (!hit)
			cr_log_info("ninja oracle: missed %s -> %s", step_name(&o, truth[i].from), step_name(&o, truth[i].to));
	}
	for (i = 0; i < nr_found; i++) {
		const struct bb_step_edge *e = &found[i];

		if (bb_step_edge_has(truth, nr_truth, e->from, e->to))
			continue;
		extra++;
		cr_log_info("ninja oracle: extra edge %s -> %s through %s (%s)", step_name(&o, e->from),
			    step_name(&o, e->to), e->file,
			    bb_ninja_declared_output(&o, e->file) ? "a declared output: unexplained" : "an output ninja does not know");
		/* Explained only if ninja could not know it: the file is no declared output. */
		cr_assert(not(bb_ninja_declared_output(&o, e->file)), "unexplained extra edge through %s", e->file);
	}
	cr_log_info("ninja oracle: %zu steps ran; ninja's edges %zu (%zu compile -> link), inferred %zu: "
		    "precision %.1f %%, recall %.1f %%, compile -> link recall %.1f %%, %zu extra (all undeclared files)",
		    bb_ninja_steps_run(&o), nr_truth, c2l, nr_found,
		    bb_percent(hits, nr_found), bb_percent(hits, nr_truth), bb_percent(c2l_hits, c2l), extra);

	/* The project's known shape: gen.c.o -> gen, 6 objects -> libutil.a, main.c.o and libutil.a -> app. */
	cr_assert(ge(sz, c2l, 8), "ninja's graph lost its links: %zu compile -> link edges", c2l);
	cr_assert(eq(sz, c2l_hits, c2l), "compile -> link recall must be 100 %%: %s", run.err);
	/* The report's copy of gen.log: real, undeclared, and seen. */
	cr_assert(eq(sz, extra, 1), "stderr: %s", run.err);
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("CMake + ninja, edges against ninja -t query/deps",
		       "compile -> link recall 100 %, every extra edge an undeclared file", trace,
		       "precision %.0f %%, recall %.0f %%", bb_percent(hits, nr_found), bb_percent(hits, nr_truth));
	json_object_put(slices);
	json_object_put(trace);
	bb_ninja_free(&o);
}
