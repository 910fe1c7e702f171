/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A go build's own graph, as the integration suites use it for an oracle:
 * `go build -debug-actiongraph=FILE` writes a JSON array of the actions it
 * planned, each with its ID, Mode ("build", "link", ...), Package, Deps (the
 * IDs it waited for), Objdir (its directory under $WORK) and, for what it
 * ran, Cmd (the commands, one string each).  A "build" action whose Cmd
 * holds a compile is a package compiled in this run; the standard library's
 * are precompiled and have none.
 */
#ifndef BUILDBPF_TESTS_GO_ACTIONGRAPH_H
#define BUILDBPF_TESTS_GO_ACTIONGRAPH_H

#include <stddef.h>

enum { BB_GO_MAX_ACTIONS = 512, BB_GO_MAX_DEPS = 128 };

struct bb_go_action {
	int id;
	char mode[32];
	char package[128];
	char objdir[256];
	char compile_out[288]; /* the compile's -o; "": it compiled nothing */
	int deps[BB_GO_MAX_DEPS];
	size_t nr_deps;
};

struct bb_go_actiongraph {
	struct bb_go_action actions[BB_GO_MAX_ACTIONS];
	size_t nr; /* actions[i].id == i */
};

/* Reads the file go wrote; the test fails if it is missing or not as above. */
void bb_go_actiongraph_read(struct bb_go_actiongraph *g, const char *path);

#endif /* BUILDBPF_TESTS_GO_ACTIONGRAPH_H */
