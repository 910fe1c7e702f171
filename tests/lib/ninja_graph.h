/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ninja build's own graph, as the integration suites use it for an
 * oracle: the steps ninja knows (`-t targets all`, each keyed by the command
 * `-t commands -s` prints for it), the data edges between the steps that ran
 * (explicit and implicit inputs from `-t query`, the compilers' headers from
 * `-t deps`; order-only inputs order steps without feeding them data, so they
 * are no edges), and the steps' durations from `.ninja_log`.
 *
 * A step of a trace is a child of ninja (`/bin/sh -c COMMAND`), bound to
 * ninja's step by that command; every process below it belongs to the step.
 * Processes are keyed by (pid, start), never by pid alone: pids wrap during
 * a build beside other work, and a bare pid then names two processes.
 */
#ifndef BUILDBPF_TESTS_NINJA_GRAPH_H
#define BUILDBPF_TESTS_NINJA_GRAPH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "lib/integration.h"

#define BB_NINJA "/usr/bin/ninja"

enum { BB_NINJA_MAX_STEPS = 512, BB_NINJA_MAX_OUTPUTS = 16 };

struct bb_ninja_step {
	char *cmd;				   /* what ninja runs for it (owned) */
	char *rule;				   /* its ninja rule (owned) */
	char *names[BB_NINJA_MAX_OUTPUTS];   /* its outputs as ninja names them (owned) */
	char *outputs[BB_NINJA_MAX_OUTPUTS]; /* the same, absolute (owned) */
	size_t nr_outputs;
	struct json_object *slice; /* the ninja child that ran it (borrowed from the slices matched); NULL: it did not run */
};

struct bb_step_edge {
	int from, to;	  /* indexes into the steps */
	const char *file; /* the file that made it, inferred edges only */
};

struct bb_ninja_graph {
	const struct bb_run *run; /* names the scratch files of ninja's tool runs */
	char build[PATH_MAX];	  /* the build directory, absolute */
	struct bb_ninja_step steps[BB_NINJA_MAX_STEPS];
	size_t nr_steps;
	struct bb_procs *procs; /* the matched slices by (pid, start) */
};

/* Reads every step ninja knows in g->build (set g->run and g->build first). */
void bb_ninja_read_steps(struct bb_ninja_graph *g);
void bb_ninja_free(struct bb_ninja_graph *g);
/*
 * Binds every child of ninja in the trace's process slices to the step whose
 * command it ran; ninja's slice.  The slices must outlive g's use of them.
 */
struct json_object *bb_ninja_match_steps(struct bb_ninja_graph *g, struct json_object *slices);
/* ninja's data edges between the steps that ran (match first); how many.  The test fails past max. */
size_t bb_ninja_edges(const struct bb_ninja_graph *g, struct bb_step_edge *edges, size_t max);
/* The step that outputs path (absolute), or -1. */
int bb_ninja_producer(const struct bb_ninja_graph *g, const char *path);
/* The step the process of slice belongs to (it, or its ancestor, is a child ninja ran), or -1. */
int bb_ninja_step_of(const struct bb_ninja_graph *g, struct json_object *slice);
/* Whether ninja knows path (a flow's file, as the trace spells it: bb_flow_file_is()) as some step's output. */
bool bb_ninja_declared_output(const struct bb_ninja_graph *g, const char *path);
size_t bb_ninja_steps_run(const struct bb_ninja_graph *g);
/* Each step's duration in ms from .ninja_log (its last entry), -1 for a step with none. */
void bb_ninja_log_durations(const struct bb_ninja_graph *g, double ms[BB_NINJA_MAX_STEPS]);
/*
 * The longest path through edges weighted by ms (-1: no weight, a step
 * that did not run); its length in ms, its steps from first to last in
 * path[] (at most max, *len how many).
 */
double bb_longest_path(size_t nr_steps, const struct bb_step_edge *edges, size_t nr_edges, const double *ms,
		       int *path, size_t max, size_t *len);

bool bb_step_edge_has(const struct bb_step_edge *edges, size_t n, int from, int to);
/* Adds from -> to unless one is -1, they are the same step, or it is there already; the test fails past max. */
void bb_step_edge_add(struct bb_step_edge *edges, size_t *n, size_t max, int from, int to, const char *file);

#endif /* BUILDBPF_TESTS_NINJA_GRAPH_H */
