/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process instances of a model by (pid, start): records name a process
 * by its pid and a time, and the kernel reuses pids, so the instance meant
 * is the one of that pid alive then.  Pure.
 *
 *   struct proc_index *x = proc_index__new(model);
 *   long i = proc_index__at(x, pid, ts);
 *   proc_index__free(x);
 *
 * A finished model holds one (model->pids): stages borrow it through
 * proc_index__of() rather than sort a million keys each.
 */
#ifndef BUILDBPF_PROC_INDEX_H
#define BUILDBPF_PROC_INDEX_H

#include <stddef.h>
#include <linux/types.h>
#include "model/model.h"

/* 16 bytes: a finished model holds one a process. */
struct proc_index_key {
	__u64 start_ns;
	__u32 pid;
	__u32 proc; /* index in model->procs: 32-bit, as proc_instance's (model/model_types.h) */
};

struct proc_index {
	struct proc_index_key *keys; /* by (pid, start, proc) */
	size_t nr;
};

/* NULL without memory.  The model must not change while the index is used. */
struct proc_index *proc_index__new(const struct model *m);
/*
 * The instance of pid alive at ts: the last one to start no later than ts
 * (instances of one pid follow one another); when none had started, the
 * first one (a process tracked before its first sighting, as the root).
 * -1: no instance has that pid.
 */
long proc_index__at(const struct proc_index *x, __u32 pid, __u64 ts);
/* The last instance of pid to start no later than ts.  -1: none had started. */
long proc_index__started(const struct proc_index *x, __u32 pid, __u64 ts);
/* The instance of pid whose start is nearest ts, before or after it.  -1: none has that pid. */
long proc_index__nearest(const struct proc_index *x, __u32 pid, __u64 ts);
void proc_index__free(struct proc_index *x);
/*
 * The model's index (m->pids), or, for a model built by hand, a new one
 * left in *own for the caller to free; *own is NULL otherwise.  NULL
 * without memory.
 */
const struct proc_index *proc_index__of(const struct model *m, struct proc_index **own);

#endif /* BUILDBPF_PROC_INDEX_H */
