// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/input_flows.h"
#include "lib/json_fields.h"
#include "lib/ninja_graph.h"

/* `ninja -t TOOL [ARG...]`'s output in the build directory. */
static char *ninja_tool(const struct bb_ninja_graph *g, const char *tool, const char *arg, const char *arg2)
{
	return bb_run_plain(g->run, g->build, (const char *[]){ BB_NINJA, "-t", tool, arg, arg2, NULL }, false, NULL);
}

static void absolute(const struct bb_ninja_graph *g, const char *name, char *out, size_t size)
{
	int n = name[0] == '/' ? snprintf(out, size, "%s", name) : snprintf(out, size, "%s/%s", g->build, name);

	cr_assert(n >= 0 && (size_t)n < size, "path too long: %s", name);
}

int bb_ninja_producer(const struct bb_ninja_graph *g, const char *path)
{
	size_t i, k;

	for (i = 0; i < g->nr_steps; i++)
		for (k = 0; k < g->steps[i].nr_outputs; k++)
			if (!strcmp(g->steps[i].outputs[k], path))
				return (int)i;
	return -1;
}

/* ninja's own rules and CMake's housekeeping: no step of the build. */
static bool is_tool_rule(const char *rule)
{
	return !strcmp(rule, "phony") || !strcmp(rule, "CLEAN") || !strcmp(rule, "HELP") ||
	       !strcmp(rule, "RERUN_CMAKE");
}

void bb_ninja_read_steps(struct bb_ninja_graph *g)
{
	char *targets = ninja_tool(g, "targets", "all", NULL), *line, *save = NULL;

	for (line = strtok_r(targets, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sep = strrchr(line, ':'), *cmd, path[PATH_MAX];
		struct bb_ninja_step *s = NULL;
		size_t i;

		cr_assert(sep && sep[1] == ' ', "unexpected `ninja -t targets` line: %s", line);
		*sep = 0;
		if (is_tool_rule(sep + 2))
			continue;
		cmd = ninja_tool(g, "commands", "-s", line);
		cmd[strcspn(cmd, "\n")] = 0;
		for (i = 0; i < g->nr_steps && !s; i++)
			if (!strcmp(g->steps[i].cmd, cmd))
				s = &g->steps[i];
		if (!s) {
			cr_assert(lt(sz, g->nr_steps, BB_NINJA_MAX_STEPS));
			s = &g->steps[g->nr_steps++];
			s->cmd = cmd;
			s->rule = strdup(sep + 2);
		} else {
			free(cmd);
		}
		absolute(g, line, path, sizeof(path));
		if (bb_ninja_producer(g, path) >= 0)
			continue; /* an output named twice: relative and absolute */
		cr_assert(lt(sz, s->nr_outputs, BB_NINJA_MAX_OUTPUTS), "too many outputs of %s", s->cmd);
		s->names[s->nr_outputs] = strdup(line);
		s->outputs[s->nr_outputs++] = strdup(path);
	}
	free(targets);
}

void bb_ninja_free(struct bb_ninja_graph *g)
{
	size_t i, k;

	for (i = 0; i < g->nr_steps; i++) {
		free(g->steps[i].cmd);
		free(g->steps[i].rule);
		for (k = 0; k < g->steps[i].nr_outputs; k++) {
			free(g->steps[i].names[k]);
			free(g->steps[i].outputs[k]);
		}
	}
	g->nr_steps = 0;
	bb_procs_free(g->procs);
	g->procs = NULL;
}

bool bb_step_edge_has(const struct bb_step_edge *edges, size_t n, int from, int to)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (edges[i].from == from && edges[i].to == to)
			return true;
	return false;
}

void bb_step_edge_add(struct bb_step_edge *edges, size_t *n, size_t max, int from, int to, const char *file)
{
	if (from < 0 || to < 0 || from == to || bb_step_edge_has(edges, *n, from, to))
		return;
	cr_assert(lt(sz, *n, max));
	edges[(*n)++] = (struct bb_step_edge){ from, to, file };
}

/* The data inputs of step `to`'s output name, from `ninja -t query`: explicit and implicit, not order-only. */
static void add_query_edges(const struct bb_ninja_graph *g, int to, const char *name, struct bb_step_edge *edges,
			    size_t *n, size_t max)
{
	char *text = ninja_tool(g, "query", name, NULL), *line, *save = NULL;
	bool inputs = false;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX];

		if (!strncmp(line, "  input:", 8) || !strncmp(line, "  outputs:", 10)) {
			inputs = line[2] == 'i';
			continue;
		}
		if (!inputs || strncmp(line, "    ", 4) || !strncmp(line + 4, "|| ", 3))
			continue;
		absolute(g, line + 4 + (strncmp(line + 4, "| ", 2) ? 0 : 2), path, sizeof(path));
		bb_step_edge_add(edges, n, max, bb_ninja_producer(g, path), to, NULL);
	}
	free(text);
}

/* The files the compilers reported each step read (`ninja -t deps`: "OUT: #deps ...", then indented paths). */
static void add_deps_edges(const struct bb_ninja_graph *g, struct bb_step_edge *edges, size_t *n, size_t max)
{
	char *text = ninja_tool(g, "deps", NULL, NULL), *line, *save = NULL;
	int to = -1;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[PATH_MAX], *sep;

		if (line[0] != ' ') {
			sep = strstr(line, ": #deps");
			cr_assert(sep != NULL, "unexpected `ninja -t deps` line: %s", line);
			*sep = 0;
			absolute(g, line, path, sizeof(path));
			to = bb_ninja_producer(g, path);
			continue;
		}
		absolute(g, line + strspn(line, " "), path, sizeof(path));
		if (to >= 0 && g->steps[to].slice)
			bb_step_edge_add(edges, n, max, bb_ninja_producer(g, path), to, NULL);
	}
	free(text);
}

size_t bb_ninja_edges(const struct bb_ninja_graph *g, struct bb_step_edge *edges, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < g->nr_steps; i++)
		for (k = 0; g->steps[i].slice && k < g->steps[i].nr_outputs; k++)
			add_query_edges(g, (int)i, g->steps[i].names[k], edges, &n, max);
	add_deps_edges(g, edges, &n, max);
	/* Only steps that ran are the build's. */
	for (i = 0; i < n; i++)
		cr_assert(g->steps[edges[i].from].slice != NULL, "step %s is an input but did not run",
			  g->steps[edges[i].from].cmd);
	return n;
}

struct json_object *bb_ninja_match_steps(struct bb_ninja_graph *g, struct json_object *slices)
{
	struct json_object *ninja = NULL;
	size_t i, k, children = 0;

	for (i = 0; i < json_object_array_length(slices) && !ninja; i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(s, 0);

		if (argv0 && (!strcmp(argv0, BB_NINJA) || !strcmp(argv0, "ninja")))
			ninja = s;
	}
	cr_assert(ninja != NULL, "no ninja process in the trace");
	bb_procs_free(g->procs);
	g->procs = bb_procs_new(slices);
	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *cmd = bb_arg_argv(s, 2);
		bool found = false;

		if (!bb_same_process(bb_procs_parent(g->procs, s), ninja))
			continue;
		children++;
		cr_assert(cmd && !strcmp(bb_arg_argv(s, 1), "-c"), "ninja child %s is not sh -c", bb_arg_argv(s, 0));
		for (k = 0; k < g->nr_steps && !found; k++)
			if (!strcmp(g->steps[k].cmd, cmd)) {
				cr_assert(g->steps[k].slice == NULL, "step run twice: %s", cmd);
				g->steps[k].slice = s;
				found = true;
			}
		cr_assert(found, "ninja ran a command it does not know: %s", cmd);
	}
	cr_assert(lt(sz, 0, children));
	return ninja;
}

int bb_ninja_step_of(const struct bb_ninja_graph *g, struct json_object *slice)
{
	size_t k;
	int depth;

	for (depth = 0; slice && depth < 64; depth++) {
		for (k = 0; k < g->nr_steps; k++)
			if (bb_same_process(g->steps[k].slice, slice))
				return (int)k;
		slice = bb_procs_parent(g->procs, slice);
	}
	return -1;
}

bool bb_ninja_declared_output(const struct bb_ninja_graph *g, const char *path)
{
	size_t i, k;

	for (i = 0; i < g->nr_steps; i++)
		for (k = 0; k < g->steps[i].nr_outputs; k++)
			if (bb_flow_file_is(path, g->steps[i].outputs[k]))
				return true;
	return false;
}

size_t bb_ninja_steps_run(const struct bb_ninja_graph *g)
{
	size_t i, n = 0;

	for (i = 0; i < g->nr_steps; i++)
		n += g->steps[i].slice != NULL;
	return n;
}

void bb_ninja_log_durations(const struct bb_ninja_graph *g, double ms[BB_NINJA_MAX_STEPS])
{
	char path[PATH_MAX + 16], *text, *line, *save = NULL;
	size_t i;

	for (i = 0; i < BB_NINJA_MAX_STEPS; i++)
		ms[i] = -1;
	snprintf(path, sizeof(path), "%s/.ninja_log", g->build);
	text = bb_file_text(path, NULL);
	/* "# ninja log v5", then: start_ms TAB end_ms TAB mtime TAB output TAB hash; later lines win. */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char out[PATH_MAX], abs[PATH_MAX];
		long long start, end;
		int step;

		if (line[0] == '#')
			continue;
		cr_assert(sscanf(line, "%lld\t%lld\t%*s\t%4095[^\t]", &start, &end, out) == 3,
			  "unexpected .ninja_log line: %s", line);
		absolute(g, out, abs, sizeof(abs));
		step = bb_ninja_producer(g, abs);
		if (step >= 0)
			ms[step] = (double)(end - start);
	}
	free(text);
}

/* The longest path ending at step i (memoized in best[], the step before it in prev[]). */
static double longest_to(size_t i, const struct bb_step_edge *edges, size_t nr_edges, const double *ms, double *best,
			 int *prev, int depth)
{
	size_t e;

	cr_assert(lt(int, depth, BB_NINJA_MAX_STEPS), "the step graph has a cycle");
	if (best[i] >= 0)
		return best[i];
	best[i] = ms[i] > 0 ? ms[i] : 0;
	prev[i] = -1;
	for (e = 0; e < nr_edges; e++) {
		double via;

		if (edges[e].to != (int)i || ms[edges[e].from] < 0)
			continue;
		via = longest_to((size_t)edges[e].from, edges, nr_edges, ms, best, prev, depth + 1) +
		      (ms[i] > 0 ? ms[i] : 0);
		if (via > best[i]) {
			best[i] = via;
			prev[i] = edges[e].from;
		}
	}
	return best[i];
}

double bb_longest_path(size_t nr_steps, const struct bb_step_edge *edges, size_t nr_edges, const double *ms,
		       int *path, size_t max, size_t *len)
{
	double best[BB_NINJA_MAX_STEPS], longest = 0;
	int prev[BB_NINJA_MAX_STEPS], last = -1, i;
	size_t k, n = 0;

	cr_assert(le(sz, nr_steps, BB_NINJA_MAX_STEPS));
	for (k = 0; k < nr_steps; k++)
		best[k] = -1;
	for (k = 0; k < nr_steps; k++)
		if (ms[k] >= 0 && longest_to(k, edges, nr_edges, ms, best, prev, 0) > longest) {
			longest = best[k];
			last = (int)k;
		}
	for (i = last; i >= 0; i = prev[i])
		n++;
	*len = n < max ? n : max;
	/* Walks back from the last step: fills path[] from its end. */
	for (i = last, k = n; i >= 0; i = prev[i], k--)
		if (k - 1 < max)
			path[k - 1] = i;
	return longest;
}
