/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A make (or cargo, or go) build made by hand for the start-cause and critical-path tests:
 * its model, file log and start wakes, then the graph stage
 * (graph/graph_run.h) run on them.
 */
#ifndef BUILDBPF_TESTS_MAKE_FIXTURE_H
#define BUILDBPF_TESTS_MAKE_FIXTURE_H

#include "graph/graph_run.h"
#include "model/file_log.h"
#include "model/start_wakes.h"

/* The make's pid; its program begins at 1 ms. */
#define MAKE_FIXTURE_PID 100

struct make_fixture {
	struct model *m;
	struct file_log *fl;
	struct start_wakes *w;
	struct graph_run run; /* its data edges, start causes and critical path */
};

/* The command is make run as argv, from 1 ms on: every job is ready from then on. */
void make_fixture__begin(struct make_fixture *f, const char *const argv[]);
/* The command is program (a path: cargo, go) run as argv, the same way. */
void make_fixture__begin_as(struct make_fixture *f, const char *program, const char *const argv[]);
void make_fixture__end(struct make_fixture *f);

#endif /* BUILDBPF_TESTS_MAKE_FIXTURE_H */
