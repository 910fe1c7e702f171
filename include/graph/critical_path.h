/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The critical path: the chain of build steps, and the waits between
 * them, that determined when the build ended.  Walked back from the
 * command's end over the data edges (graph/build_graph.h) and, when the
 * wake records were there, over why each process started when it did
 * (graph/start_cause.h): a step that waited for a job slot is reached
 * from the job whose end freed it, one its runner started after another
 * job (the runner's order, a recipe's next line) from that job, one that
 * read a file from the file's writer.  A runner holds the path only for
 * its own work (reading its makefiles, its reaction): never for a wait.
 * Pure: the model, the data edges and the start causes in, the path out:
 * the last result of the graph stage (graph/graph_run.h).
 *
 *   struct critical_path cp;
 *   critical_path__compute(&cp, model, &graph, &starts_or_NULL);
 *   ... cp.steps[0 .. cp.nr), cp.held_ns, cp.wait_ns ...
 *   critical_path__free(&cp);
 */
#ifndef BUILDBPF_CRITICAL_PATH_H
#define BUILDBPF_CRITICAL_PATH_H

#include <stddef.h>
#include <linux/types.h>
#include "graph/build_graph.h"
#include "graph/start_cause.h"
#include "model/model.h"

/* How the critical path reached a step: what the step waited for. */
enum graph_link {
	LINK_END = 0,	/* the build's end: the command itself */
	LINK_WAIT,	/* its parent ended after waiting for it */
	LINK_INPUT,	/* it wrote a file the next step read */
	LINK_SPAWN,	/* it forked the next step */
	LINK_SLOT,	/* its end freed the job slot the next step waited for */
	LINK_ORDER,	/* its runner (or shell) started the next step after it ended: their order */
};

/*
 * One step of the critical path: process proc holds the path during
 * [from_ns, to_ns]; via says how the step after it (later in time) was
 * reached from it.
 */
struct critical_step {
	size_t proc;
	__u64 from_ns, to_ns;
	enum graph_link via;
	long edge; /* LINK_INPUT: index in graph->edges; else -1 */
};

struct critical_path {
	struct critical_step *steps; /* oldest first; none without a root process */
	size_t nr;
	__u64 held_ns; /* the time its steps held it, summed */
	__u64 wait_ns; /* the time between one step's end and the next one's start: waits */
};

/*
 * g: the data edges (their proc_input).  sc may be NULL (no wake records):
 * a start is then reached from its input, the sibling before it when its
 * parent ran its children one at a time, else its parent.  0, or -ENOMEM
 * (cp empty).
 */
int critical_path__compute(struct critical_path *cp, const struct model *m, const struct build_graph *g,
			   const struct start_causes *sc);
void critical_path__free(struct critical_path *cp);

/* "wait", "input", "spawn", "slot", "order", "end". */
const char *graph_link__name(enum graph_link link);

#endif /* BUILDBPF_CRITICAL_PATH_H */
