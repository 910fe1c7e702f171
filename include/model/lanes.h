/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lane packing: places process spans on the fewest lanes such that the
 * spans of one lane nest properly (contain one another or do not overlap),
 * which is what a Chrome trace thread needs to draw every slice.  A layer
 * above the model: it reads a finished model (model__finish()) and the
 * model never calls it.
 */
#ifndef BUILDBPF_LANES_H
#define BUILDBPF_LANES_H

#include <stddef.h>
#include "model/model.h"

/*
 * procs must be sorted by (start_ns, id) and parents must come before their
 * children.  Sets procs[i].lane and returns the number of lanes used.
 * Deterministic: the same spans always give the same lanes.
 */
size_t lanes__assign(struct proc_instance *procs, size_t nr);
/* Packs a finished model's processes: sets every lane and m->nr_lanes. */
void lanes__assign_model(struct model *m);

#endif /* BUILDBPF_LANES_H */
