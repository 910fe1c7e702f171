/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reconstruction: kernel events in, a model of the build's process tree
 * out (what the model is: model/model_types.h).  Pure: no libbpf, no I/O,
 * so it is tested from synthetic events.
 *
 *   struct model *m = model__new(root_pid, start_ns);
 *   model__add_event(m, rec, len);   ... for every record, any order
 *   model__finish(m, end_ns);        sorts, rebuilds, closes
 *   lanes__assign_model(m);          packs lanes (model/lanes.h)
 *   ... read m->procs[0 .. m->nr_procs) ...
 *   model__free(m);
 */
#ifndef BUILDBPF_MODEL_H
#define BUILDBPF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/model_types.h"

struct model *model__new(__u32 root_pid, __u64 start_ns);
/*
 * Copies one ring-buffer record.  Returns 0, or -EINVAL for a record that is
 * too short for its type or of an unknown type (counted in stats.malformed).
 */
int model__add_event(struct model *m, const void *rec, size_t len);
/*
 * Orders the buffered events by timestamp (stable: same-timestamp records
 * keep ring-buffer order), builds the instances, closes the ones still
 * running at end_ns as unfinished.  Call once; lanes are packed after it
 * (lanes__assign_model()), where each process ran is inferred
 * (proc_dirs__attach()), by the layers above the model.
 */
int model__finish(struct model *m, __u64 end_ns);
/* Keeps a copy of the command's working directory (drops m->dirs, inferred from it).  0, or -ENOMEM. */
int model__set_cwd(struct model *m, const char *cwd);
void model__free(struct model *m);

/* p's topmost traced ancestor: p itself when its parent was not traced. */
const struct proc_instance *proc_top(const struct model *m, const struct proc_instance *p);

/*
 * The program a process ran last: its image's basename (its comm before any
 * exec).  What the audit's "by program" figures, the SVG's colours and the
 * diff group by.
 */
const char *proc_program(const struct proc_instance *p);

/*
 * Sorts the n proc indexes in procs by proc_program(), equal programs in
 * index order, so that each program's processes come together.  0 or -ENOMEM.
 */
int model__sort_by_program(const struct model *m, size_t *procs, size_t n);

/* The image a process ran at time ts; NULL before its first exec. */
const struct exec_image *proc_image_at(const struct proc_instance *p, __u64 ts_ns);

/*
 * The process tree as arrays (CSR): the children of procs[i] are
 * (*children)[(*child_off)[i] .. (*child_off)[i + 1]), in model order.
 * *child_off has nr_procs + 1 entries, *children at least one; the caller
 * frees both.  32-bit, as a process's index is (model_types.h).  0, or
 * -ENOMEM with both NULL.
 */
int model__index_children(const struct model *m, __u32 **child_off, __u32 **children);
/*
 * Whether procs[parent] ran its children one at a time: each child (in
 * model order, from model__index_children()'s arrays) forked when every
 * child before it had ended.  Ends that touch count: a shell forks its next
 * command as soon as it reaps the one before, and the two clocks may read
 * the same nanosecond.  A parent of one child, or of none, did.
 */
bool model__children_one_at_a_time(const struct model *m, const __u32 *child_off, const __u32 *children,
				   size_t parent);

#endif /* BUILDBPF_MODEL_H */
