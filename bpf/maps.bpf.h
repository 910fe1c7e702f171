/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps and globals both BPF program files use.  The two objects are
 * statically linked into one (bpftool gen object): each defines these as
 * __weak and the linker merges the identical definitions, so there is one
 * map of each and one kernel BTF parse at load time.  Building and
 * submitting records is emit.bpf.h's.
 */
#ifndef BUILDBPF_MAPS_BPF_H
#define BUILDBPF_MAPS_BPF_H

#include "events.h"
#include "thread_sched.h"

/* The build's processes, keyed by tgid: see struct bb_proc_acct. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* Allocated as processes appear: preallocating BB_PROCS_MAX entries
	 * costs every run ~10 ms at start-up.  Safe in tracepoints from 6.1,
	 * whose hash maps allocate from any context (preflight.c checks). */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, __u32);
	__type(value, struct bb_proc_acct);
} tracked SEC(".maps") __weak;

/* The build's threads, keyed by tid, with --sched: see struct bb_thread. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1); /* sized by user space (capture.c) */
	__type(key, __u32);
	__type(value, struct bb_thread);
} threads SEC(".maps") __weak;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096); /* sized by user space: --buffer-size */
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

#endif /* BUILDBPF_MAPS_BPF_H */
