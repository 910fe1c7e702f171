/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The critical path: the chain of build steps, and the waits between
 * them, that determined when the build ended.  Walked back from the
 * command's end over the build graph (graph/build_graph.h) and, when the
 * wake records were there, over why each process started when it did
 * (graph/start_cause.h): a step that waited for a job slot is reached
 * from the job whose end freed it, one its runner started after another
 * job (the runner's order, a recipe's next line) from that job, one that
 * read a file from the file's writer.  A runner holds the path only for
 * its own work (reading its makefiles, its reaction): never for a wait.
 * Pure: the model, the graph and the start causes in, graph->path out.
 *
 *   build_graph__compute(&g, model, file_log);
 *   start_causes__compute(&sc, model, &g, wakes);
 *   critical_path__compute(&g, model, &sc);
 *   ... g.path, g.nr_path, g.path_ns, g.path_wait_ns ...
 */
#ifndef BUILDBPF_CRITICAL_PATH_H
#define BUILDBPF_CRITICAL_PATH_H

#include "graph/build_graph.h"
#include "graph/start_cause.h"
#include "model/model.h"

/*
 * Replaces g->path.  sc may be NULL (no wake records): a start is then
 * reached from its input, the sibling before it when its parent ran its
 * children one at a time, else its parent.  0, or -ENOMEM (path empty).
 */
int critical_path__compute(struct build_graph *g, const struct model *m, const struct start_causes *sc);

#endif /* BUILDBPF_CRITICAL_PATH_H */
