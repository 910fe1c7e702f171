/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records into the ring buffer, for both BPF program files: the header every
 * record starts with, the drop counter a failed reserve bumps, when to wake
 * the reader, and the on-CPU interval record both the switch and the exit
 * handlers emit.
 */
#ifndef BUILDBPF_EMIT_BPF_H
#define BUILDBPF_EMIT_BPF_H

#include "maps.bpf.h"

static __always_inline __u64 wakeup_flag(void)
{
	/* Waking the reader per event would cost the build a context switch
	 * each time; user space polls on a short timeout instead. */
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline void count_drop(void)
{
	__sync_fetch_and_add(&dropped_events, 1);
}

static __always_inline void fill_header(struct bb_event_header *hdr, __u32 type, __u32 pid, __u32 tgid, __u64 ts)
{
	hdr->ts_ns = ts;
	hdr->type = type;
	hdr->cpu = bpf_get_smp_processor_id();
	hdr->pid = pid;
	hdr->tgid = tgid;
}

/* This CPU's short idle time not yet reported, handed to its next record. */
static __always_inline __u64 take_short_idle(void)
{
	struct bb_cpu_slot *slot;
	__u32 zero = 0;
	__u64 ns;

	slot = bpf_map_lookup_elem(&cpu_slots, &zero);
	if (!slot)
		return 0;
	ns = slot->short_idle_ns;
	slot->short_idle_ns = 0;
	return ns;
}

/* One on-CPU interval of t, [start, now), into the ring buffer. */
static __always_inline void emit_cpu_slice(const struct bb_thread *t, __u32 tid, __u32 end_state, __u64 start,
					   __u64 now)
{
	struct bb_cpu_slice_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop();
		return;
	}
	fill_header(&e->hdr, BB_EV_CPU_SLICE, tid, t->tgid, now);
	e->start_ns = start;
	e->wait_ns = t->last_wait_ns;
	e->short_idle_ns = take_short_idle();
	e->end_state = end_state;
	e->__pad = 0;
	bpf_ringbuf_submit(e, wakeup_flag());
}

#endif /* BUILDBPF_EMIT_BPF_H */
