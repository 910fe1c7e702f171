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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/input_flows.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(ninja_oracle, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

#define CMAKE "/usr/bin/cmake"
#define NINJA "/usr/bin/ninja"

enum { MAX_STEPS = 64, MAX_OUTPUTS = 4, MAX_EDGES = 256, MAX_FLOWS = 256 };

struct step {
	char *cmd;			  /* what ninja runs for it (owned) */
	char *rule;			  /* its ninja rule (owned) */
	char *names[MAX_OUTPUTS];	  /* its outputs as ninja names them (owned) */
	char *outputs[MAX_OUTPUTS]; /* the same, absolute (owned) */
	size_t nr_outputs;
	long long pid; /* the ninja child that ran it; 0: it did not run */
};

struct step_edge {
	int from, to;	  /* indexes into the steps */
	const char *file; /* the file that made it, inferred edges only */
};

struct oracle {
	char build[PATH_MAX]; /* the build directory, absolute */
	struct step steps[MAX_STEPS];
	size_t nr_steps;
};

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

/* Runs argv (not traced) in dir; its stdout.  The test fails unless it exits 0. */
static char *run_plain(const char *dir, const char *const argv[])
{
	char out[PATH_MAX], err[PATH_MAX];
	int status;
	pid_t pid;
	bool ok;

	snprintf(out, sizeof(out), "%s.plain.out", run.dir);
	snprintf(err, sizeof(err), "%s.plain.err", run.dir);
	pid = fork();
	cr_assert(ge(int, pid, 0));
	if (pid == 0)
		bb_exec(argv, dir, out, err, NULL);
	cr_assert(eq(int, waitpid(pid, &status, 0), pid));
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	cr_assert(ok, "%s %s failed: %s", argv[0], argv[1], bb_read_file(err, NULL));
	unlink(err);
	return bb_file_text(out, NULL);
}

/* `ninja -C build -t TOOL [ARG]`'s output. */
static char *ninja_tool(const struct oracle *o, const char *tool, const char *arg, const char *arg2)
{
	return run_plain(o->build, (const char *[]){ NINJA, "-t", tool, arg, arg2, NULL });
}

static void absolute(const struct oracle *o, const char *name, char *out, size_t size)
{
	int n = name[0] == '/' ? snprintf(out, size, "%s", name) : snprintf(out, size, "%s/%s", o->build, name);

	cr_assert(n >= 0 && (size_t)n < size, "path too long: %s", name);
}

/* The step that outputs path (absolute), or -1. */
static int producer(const struct oracle *o, const char *path)
{
	size_t i, k;

	for (i = 0; i < o->nr_steps; i++)
		for (k = 0; k < o->steps[i].nr_outputs; k++)
			if (!strcmp(o->steps[i].outputs[k], path))
				return (int)i;
	return -1;
}

static bool is_tool_rule(const char *rule)
{
	return !strcmp(rule, "phony") || !strcmp(rule, "CLEAN") || !strcmp(rule, "HELP") ||
	       !strcmp(rule, "RERUN_CMAKE");
}

/* Every step ninja knows, from `-t targets all`, keyed by its command. */
static void read_steps(struct oracle *o)
{
	char *targets = ninja_tool(o, "targets", "all", NULL), *line, *save = NULL;

	for (line = strtok_r(targets, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sep = strrchr(line, ':'), *cmd, path[PATH_MAX];
		struct step *s = NULL;
		size_t i;

		cr_assert(sep && sep[1] == ' ', "unexpected `ninja -t targets` line: %s", line);
		*sep = 0;
		if (is_tool_rule(sep + 2))
			continue;
		cmd = ninja_tool(o, "commands", "-s", line);
		cmd[strcspn(cmd, "\n")] = 0;
		for (i = 0; i < o->nr_steps && !s; i++)
			if (!strcmp(o->steps[i].cmd, cmd))
				s = &o->steps[i];
		if (!s) {
			cr_assert(lt(sz, o->nr_steps, MAX_STEPS));
			s = &o->steps[o->nr_steps++];
			s->cmd = cmd;
			s->rule = strdup(sep + 2);
		} else {
			free(cmd);
		}
		absolute(o, line, path, sizeof(path));
		if (producer(o, path) >= 0)
			continue; /* gen.h and its absolute spelling */
		cr_assert(lt(sz, s->nr_outputs, MAX_OUTPUTS));
		s->names[s->nr_outputs] = strdup(line);
		s->outputs[s->nr_outputs++] = strdup(path);
	}
	free(targets);
}

static void free_steps(struct oracle *o)
{
	size_t i, k;

	for (i = 0; i < o->nr_steps; i++) {
		free(o->steps[i].cmd);
		free(o->steps[i].rule);
		for (k = 0; k < o->steps[i].nr_outputs; k++) {
			free(o->steps[i].names[k]);
			free(o->steps[i].outputs[k]);
		}
	}
}

static bool has_edge(const struct step_edge *edges, size_t n, int from, int to)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (edges[i].from == from && edges[i].to == to)
			return true;
	return false;
}

static void add_edge(struct step_edge *edges, size_t *n, int from, int to, const char *file)
{
	if (from < 0 || to < 0 || from == to || has_edge(edges, *n, from, to))
		return;
	cr_assert(lt(sz, *n, MAX_EDGES));
	edges[(*n)++] = (struct step_edge){ from, to, file };
}

/* The data inputs of step `to`'s output name, from `ninja -t query`: explicit and implicit, not order-only. */
static void add_query_edges(const struct oracle *o, int to, const char *name, struct step_edge *edges, size_t *n)
{
	char *text = ninja_tool(o, "query", name, NULL), *line, *save = NULL;
	bool inputs = false;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX];

		if (!strncmp(line, "  input:", 8) || !strncmp(line, "  outputs:", 10)) {
			inputs = line[2] == 'i';
			continue;
		}
		if (!inputs || strncmp(line, "    ", 4) || !strncmp(line + 4, "|| ", 3))
			continue;
		absolute(o, line + 4 + (strncmp(line + 4, "| ", 2) ? 0 : 2), path, sizeof(path));
		add_edge(edges, n, producer(o, path), to, NULL);
	}
	free(text);
}

/* The files the compilers reported each step read (`ninja -t deps`: "OUT: #deps ...", then indented paths). */
static void add_deps_edges(const struct oracle *o, struct step_edge *edges, size_t *n)
{
	char *text = ninja_tool(o, "deps", NULL, NULL), *line, *save = NULL;
	int to = -1;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX], *sep;

		if (line[0] != ' ') {
			sep = strstr(line, ": #deps");
			cr_assert(sep != NULL, "unexpected `ninja -t deps` line: %s", line);
			*sep = 0;
			absolute(o, line, path, sizeof(path));
			to = producer(o, path);
			continue;
		}
		absolute(o, line + strspn(line, " "), path, sizeof(path));
		if (to >= 0 && o->steps[to].pid)
			add_edge(edges, n, producer(o, path), to, NULL);
	}
	free(text);
}

static size_t oracle_edges(const struct oracle *o, struct step_edge *edges)
{
	size_t i, k, n = 0;

	for (i = 0; i < o->nr_steps; i++)
		for (k = 0; o->steps[i].pid && k < o->steps[i].nr_outputs; k++)
			add_query_edges(o, (int)i, o->steps[i].names[k], edges, &n);
	add_deps_edges(o, edges, &n);
	/* Only steps that ran are the build's. */
	for (i = 0; i < n; i++)
		cr_assert(ne(i64, o->steps[edges[i].from].pid, 0), "step %s is an input but did not run", o->steps[edges[i].from].cmd);
	return n;
}

/* Binds every child of ninja to the step whose command it ran; returns ninja's pid. */
static long long match_steps(struct oracle *o, struct json_object *slices)
{
	long long ninja = 0;
	size_t i, k, children = 0;

	for (i = 0; i < json_object_array_length(slices) && !ninja; i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(s, 0);

		if (argv0 && !strcmp(argv0, NINJA))
			ninja = bb_arg_int(s, "pid");
	}
	cr_assert(ninja != 0, "no ninja process in the trace");
	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *cmd = bb_arg_argv(s, 2);
		bool found = false;

		if (bb_arg_int(s, "ppid") != ninja)
			continue;
		children++;
		cr_assert(cmd && !strcmp(bb_arg_argv(s, 1), "-c"), "ninja child %s is not sh -c", bb_arg_argv(s, 0));
		for (k = 0; k < o->nr_steps && !found; k++)
			if (!strcmp(o->steps[k].cmd, cmd)) {
				cr_assert(eq(i64, o->steps[k].pid, 0), "step run twice: %s", cmd);
				o->steps[k].pid = bb_arg_int(s, "pid");
				found = true;
			}
		cr_assert(found, "ninja ran a command it does not know: %s", cmd);
	}
	cr_assert(lt(sz, 0, children));
	return ninja;
}

/* The step process pid belongs to (its ancestor that ninja ran), or -1. */
static int step_of(const struct oracle *o, struct json_object *slices, long long pid)
{
	size_t k;
	int depth;

	for (depth = 0; pid > 0 && depth < 64; depth++) {
		struct json_object *s = bb_slice_by_pid(slices, pid);

		for (k = 0; k < o->nr_steps; k++)
			if (o->steps[k].pid == pid)
				return (int)k;
		if (!s)
			return -1;
		pid = bb_arg_int(s, "ppid");
	}
	return -1;
}

static const char *step_name(const struct oracle *o, int i)
{
	return o->steps[i].names[0];
}

static bool compile_to_link(const struct oracle *o, const struct step_edge *e)
{
	return !strncmp(o->steps[e->from].rule, "C_COMPILER", 10) && strstr(o->steps[e->to].rule, "LINKER");
}

static size_t steps_run(const struct oracle *o)
{
	size_t i, n = 0;

	for (i = 0; i < o->nr_steps; i++)
		n += o->steps[i].pid != 0;
	return n;
}

/*
 * Whether ninja knows path (the trace's spelling: from the root of its file
 * system, so a suffix of the absolute path) as some step's output.
 */
static bool declared_output(const struct oracle *o, const char *path)
{
	size_t i, k, n = strlen(path);

	for (i = 0; i < o->nr_steps; i++)
		for (k = 0; k < o->steps[i].nr_outputs; k++) {
			const char *out = o->steps[i].outputs[k];
			size_t m = strlen(out);

			if (path[0] == '/' && m >= n && !strcmp(out + m - n, path))
				return true;
		}
	return false;
}

static double percent(size_t part, size_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

Test(ninja_oracle, inferred_step_edges_match_what_ninja_knows)
{
	struct step_edge truth[MAX_EDGES], found[MAX_EDGES];
	size_t nr_truth, nr_found = 0, nr_flows, i, hits = 0, c2l = 0, c2l_hits = 0, extra = 0;
	static struct oracle o;
	struct json_object *trace, *slices;
	struct bb_flow flows[MAX_FLOWS];

	cr_assert(access(CMAKE, X_OK) == 0 && access(NINJA, X_OK) == 0,
		  "this test needs Debian's cmake and ninja-build (" CMAKE ", " NINJA ")");
	write_project();
	snprintf(o.build, sizeof(o.build), "%s/b", run.dir);
	free(run_plain(run.dir, (const char *[]){ CMAKE, "-G", "Ninja", "-S", "src", "-B", "b", NULL }));
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--", NINJA, "-C", "b", "-j2", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);

	read_steps(&o);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	match_steps(&o, slices);
	nr_truth = oracle_edges(&o, truth);

	nr_flows = bb_input_flows(trace, slices, flows, MAX_FLOWS);
	for (i = 0; i < nr_flows; i++)
		add_edge(found, &nr_found, step_of(&o, slices, bb_arg_int(flows[i].writer, "pid")),
			 step_of(&o, slices, bb_arg_int(flows[i].reader, "pid")), flows[i].file);

	for (i = 0; i < nr_truth; i++) {
		bool hit = has_edge(found, nr_found, truth[i].from, truth[i].to);

		hits += hit;
		if (compile_to_link(&o, &truth[i])) {
			c2l++;
			c2l_hits += hit;
		}
		if (!hit)
			cr_log_info("ninja oracle: missed %s -> %s", step_name(&o, truth[i].from), step_name(&o, truth[i].to));
	}
	for (i = 0; i < nr_found; i++) {
		const struct step_edge *e = &found[i];

		if (has_edge(truth, nr_truth, e->from, e->to))
			continue;
		extra++;
		cr_log_info("ninja oracle: extra edge %s -> %s through %s (%s)", step_name(&o, e->from),
			    step_name(&o, e->to), e->file,
			    declared_output(&o, e->file) ? "a declared output: unexplained" : "an output ninja does not know");
		/* Explained only if ninja could not know it: the file is no declared output. */
		cr_assert(not(declared_output(&o, e->file)), "unexplained extra edge through %s", e->file);
	}
	cr_log_info("ninja oracle: %zu steps ran; ninja's edges %zu (%zu compile -> link), inferred %zu: "
		    "precision %.1f %%, recall %.1f %%, compile -> link recall %.1f %%, %zu extra (all undeclared files)",
		    steps_run(&o), nr_truth, c2l, nr_found,
		    percent(hits, nr_found), percent(hits, nr_truth), percent(c2l_hits, c2l), extra);

	/* The project's known shape: gen.c.o -> gen, 6 objects -> libutil.a, main.c.o and libutil.a -> app. */
	cr_assert(ge(sz, c2l, 8), "ninja's graph lost its links: %zu compile -> link edges", c2l);
	cr_assert(eq(sz, c2l_hits, c2l), "compile -> link recall must be 100 %%: %s", run.err);
	/* The report's copy of gen.log: real, undeclared, and seen. */
	cr_assert(eq(sz, extra, 1), "stderr: %s", run.err);
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	bb_reliability("CMake + ninja, edges against ninja -t query/deps",
		       "compile -> link recall 100 %, every extra edge an undeclared file", trace,
		       "precision %.0f %%, recall %.0f %%", percent(hits, nr_found), percent(hits, nr_truth));
	json_object_put(slices);
	json_object_put(trace);
	free_steps(&o);
}
