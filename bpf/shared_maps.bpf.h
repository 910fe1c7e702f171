/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maps, globals and helpers both BPF programs files use.  The two objects
 * are statically linked into one (bpftool gen object): each defines these
 * as __weak and the linker merges the identical definitions, so there is
 * one map of each and one kernel BTF parse at load time.
 */
#ifndef BUILDBPF_SHARED_MAPS_BPF_H
#define BUILDBPF_SHARED_MAPS_BPF_H

#include "events.h"
#include "thread_sched.h"

/* The build's processes, keyed by tgid: see struct bb_proc_acct. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* Allocated as processes appear: preallocating 64K entries costs every
	 * run ~10 ms at start-up.  Safe for tp_btf programs. */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct bb_proc_acct);
} tracked SEC(".maps") __weak;

/* The build's threads, keyed by tid, with --sched: see struct bb_thread. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 262144);
	__type(key, __u32);
	__type(value, struct bb_thread);
} threads SEC(".maps") __weak;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024 * 1024); /* resized by user space */
} events SEC(".maps") __weak;

/* What runs on each CPU: see struct bb_cpu_slot. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bb_cpu_slot);
} cpu_slots SEC(".maps") __weak;

/* Set by user space: idle periods shorter than this are summed, not streamed. */
const volatile __u64 idle_min_ns __weak = 0;

/* Set by user space: wake the reader only when this many bytes wait. */
const volatile __u64 wakeup_bytes __weak = 256 * 1024;

/* Records the ring buffer had no room for: read back by user space. */
__u64 dropped_events __weak = 0;

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

#endif /* BUILDBPF_SHARED_MAPS_BPF_H */
