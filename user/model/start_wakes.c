// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "model/start_wakes.h"

struct start_wakes *start_wakes__new(void)
{
	return calloc(1, sizeof(struct start_wakes));
}

int start_wakes__add(struct start_wakes *w, const void *rec, size_t len)
{
	struct bb_start_wake_event e;
	struct start_wake *k;

	if (len != sizeof(e)) {
		w->malformed++;
		return -EINVAL;
	}
	if (array_grow((void **)&w->recs, &w->cap, w->nr + 1, sizeof(*w->recs)))
		return -ENOMEM;
	memcpy(&e, rec, sizeof(e)); /* (rec may be unaligned in the log's buffer) */
	k = &w->recs[w->nr++];
	*k = (struct start_wake){
		.fork_ns = e.hdr.ts_ns,
		.wake_ns = e.wake_ns,
		.runq_ns = e.runq_ns,
		.exit_wake_ns = e.exit_wake_ns,
		.exit_runq_ns = e.exit_runq_ns,
		.child_tgid = e.hdr.tgid,
		.parent_tgid = e.parent_tgid,
		.waker_tgid = e.waker_tgid,
		.exit_waker_tgid = e.exit_waker_tgid,
		.flags = e.flags,
	};
	memcpy(k->waker_comm, e.waker_comm, sizeof(k->waker_comm));
	k->waker_comm[BB_COMM_LEN - 1] = 0; /* raw bytes from the kernel: always a string */
	return 0;
}

void start_wakes__release(struct start_wakes *w)
{
	if (!w)
		return;
	free(w->recs);
	w->recs = NULL;
	w->nr = w->cap = 0;
}

void start_wakes__free(struct start_wakes *w)
{
	start_wakes__release(w);
	free(w);
}
