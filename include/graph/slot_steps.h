/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slots held in a pool over time (graph/job_slots.h), kept as one step
 * function per top make whose pool has sub-makes: built by one sweep over
 * the starts and ends of the pool's makes and their children, looked up by
 * binary search.  A pool without sub-makes is its children alive, counted
 * the same way.  The sweep keeps, per make, whether it holds a slot at all
 * (not how many), so a job under a chain of sub-makes thousands deep costs
 * one step up, not one per make.  Pure.
 */
#ifndef BUILDBPF_GRAPH_SLOT_STEPS_H
#define BUILDBPF_GRAPH_SLOT_STEPS_H

#include <stddef.h>
#include <linux/types.h>
#include "graph/job_slots.h"

/* Fills s->step_off, step_at and step_held from s's indexes.  0, or -ENOMEM. */
int slot_steps__build(struct job_slots *s);

/* Slots held by make (or any process) p's jobs at ts: by its steps when p's pool has them, else counted. */
size_t slot_steps__held(const struct job_slots *s, size_t p, __u64 ts);

#endif /* BUILDBPF_GRAPH_SLOT_STEPS_H */
