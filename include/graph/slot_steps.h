/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slots held in a pool over time (graph/job_slots.h), kept as one step
 * function per top make whose pool has sub-makes: built by one sweep over
 * the starts and ends of the pool's makes and their children, looked up by
 * binary search.  A pool without sub-makes is its children alive, counted
 * the same way.  The sweep keeps, per make, whether it holds a slot at all
 * (not how many), so a job under a chain of sub-makes thousands deep costs
 * one step up, not one per make.  Pure: the pools' indexes in, the steps
 * out.
 */
#ifndef BUILDBPF_GRAPH_SLOT_STEPS_H
#define BUILDBPF_GRAPH_SLOT_STEPS_H

#include <stddef.h>
#include <linux/types.h>
#include "model/model.h"

/* The pools as job_slots__init() indexes them, borrowed (graph/job_slots.h says what each is). */
struct slot_pools {
	const struct model *m;
	const __u32 *pool;
	const __s32 *runner, *via;
	const __u32 *child_off, *children;
	const __u64 *starts, *ends;
	const __u32 *sub_off, *subs;
};

/* CSR: per pool's top make with sub-makes, from when on (at) its pool held how many slots (held). */
struct slot_steps {
	size_t *off, *held;
	__u64 *at;
};

/* The steps of every pool of sp.  0, or -ENOMEM (st empty). */
int slot_steps__build(struct slot_steps *st, const struct slot_pools *sp);
void slot_steps__free(struct slot_steps *st);

/* Slots held by make (or any process) p's jobs at ts: by its steps when p's pool has them, else counted. */
size_t slot_steps__held(const struct slot_steps *st, const struct slot_pools *sp, size_t p, __u64 ts);

#endif /* BUILDBPF_GRAPH_SLOT_STEPS_H */
