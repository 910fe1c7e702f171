/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The start-wake records of a recording (--deps=on, bpf/start_wake.bpf.c):
 * for each process the build forked, the forking thread's last wakeup
 * and its waker.  Checked and copied in arrival order; replay fills it,
 * graph/start_cause.h reads it.  Pure.
 *
 *   struct start_wakes *w = start_wakes__new();
 *   start_wakes__add(w, rec, len);   ... each BB_EV_START_WAKE record
 *   start_wakes__release(w);         the records given back once read (optional)
 *   start_wakes__free(w);
 */
#ifndef BUILDBPF_START_WAKES_H
#define BUILDBPF_START_WAKES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "events.h"

/*
 * What the start causes read of one BB_EV_START_WAKE record (events.h
 * says what each field means): 80 bytes kept of its 104, one per process
 * the build forked.
 */
struct start_wake {
	__u64 fork_ns;	/* the record's time: the fork */
	__u64 wake_ns;
	__u64 runq_ns;
	__u64 exit_wake_ns;
	__u64 exit_runq_ns;
	__u32 child_tgid;
	__u32 parent_tgid;
	__u32 waker_tgid;
	__u32 exit_waker_tgid;
	__u32 flags;		      /* BB_WAKE_* */
	char waker_comm[BB_COMM_LEN]; /* always a string */
};

struct start_wakes {
	struct start_wake *recs; /* arrival order */
	size_t nr, cap;
	size_t malformed; /* refused by size */
};

static inline bool start_wakes__is_record(__u32 type)
{
	return type == BB_EV_START_WAKE;
}

struct start_wakes *start_wakes__new(void);
/* Keeps one BB_EV_START_WAKE record.  0, -EINVAL (malformed: counted), -ENOMEM. */
int start_wakes__add(struct start_wakes *w, const void *rec, size_t len);
/* Frees the records (nr 0 after), the malformed count kept; w may be NULL. */
void start_wakes__release(struct start_wakes *w);
void start_wakes__free(struct start_wakes *w);

#endif /* BUILDBPF_START_WAKES_H */
