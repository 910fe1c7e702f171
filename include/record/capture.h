/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture: loads the BPF programs, tracks the command's process tree in the
 * kernel and hands every ring-buffer record to a callback.  The only module
 * that knows libbpf.
 */
#ifndef BUILDBPF_CAPTURE_H
#define BUILDBPF_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "events.h"
#include "record/deps_probe.h"
#include "record/mem_probe.h"

struct capture;

struct capture_opts {
	__u32 args_max;	      /* argv bytes kept per exec */
	size_t ringbuf_bytes; /* ring buffer size, a power of two >= page size */
	bool verbose;	      /* show libbpf's debug messages */
	bool sched;	      /* attach the scheduler programs too */
	__u64 idle_min_ns;    /* shorter idle periods are summed, not streamed */
	enum deps_choice deps; /* the file-dependency programs: --deps as given */
	bool attach;	      /* load the task iterator (--attach, --cgroup) */
	__u64 cgroup_id;      /* --cgroup: the target's id (0: none) */
	__u32 cgroup_level;   /* ... and its depth below the root cgroup */
	bool mem_sampling;    /* follow each process's RSS for capture__mem_sample() */
	/* The user the trace is for, when not root: what the kernel would not
	 * show them of a process (bpf/hidden.bpf.h) is left out. */
	bool hide_unreadable;
	__u32 viewer_uid;
	__u32 viewer_gid;
};

/* Called for every record in delivery order; return <0 to stop consuming. */
typedef int (*capture_record_fn)(void *ctx, const void *rec, size_t len);

/* Opens, configures, loads and attaches.  0, or -errno with a message printed. */
int capture__open(struct capture **out, const struct capture_opts *opts, capture_record_fn fn, void *ctx);
/*
 * Starts tracking pid's process (before it execs).  since_ns is when it was
 * forked: its scheduler accounting starts there, like its span.
 */
int capture__track(struct capture *c, pid_t pid, __u64 since_ns);
/*
 * --attach: tracks an already running process with *acct as its starting
 * totals.  -EEXIST when the kernel tracks it already (its fork was seen).
 */
int capture__seed(struct capture *c, pid_t tgid, const struct bb_proc_acct *acct);
/*
 * --attach, --cgroup: the resident memory of a process tracked while
 * running, which the kernel learns only at its next RSS change of its own
 * (an idle process may make none): read from /proc/PID/statm, once, AFTER
 * the process is tracked, so that any change from then on is the kernel's
 * to record and the kernel's entry, if made first, wins.  No-op without
 * mem_sampling.  0, or -errno.
 */
int capture__seed_rss(struct capture *c, pid_t tgid);
/* --attach: a running thread's scheduler state (no-op without --sched). */
int capture__seed_thread(struct capture *c, pid_t tid, const struct bb_thread *t);
/* Stops tracking a process that was seeded but is gone. */
void capture__untrack(struct capture *c, pid_t tgid);
/*
 * Every task of the system now, from the task iterator (opts.attach):
 * *out is malloc'd, *nr records.  0 or -errno.
 */
int capture__list_tasks(struct capture *c, struct bb_task_seen **out, size_t *nr);
/*
 * Whether the kernel tracks no process of the tree any more: a process
 * leaves the map after its last thread's exit record was submitted (or
 * dropped), so this holds even when exit records were lost.
 */
bool capture__tracking_none(const struct capture *c);
/* An fd that becomes readable when the kernel wakes the reader. */
int capture__epoll_fd(const struct capture *c);
/* Hands every record waiting in the ring buffer to the callback. */
int capture__consume(struct capture *c);
/*
 * Ends scheduler tracing: detaches those programs, delivers what is left in
 * the ring buffer, then hands over one record per CPU for what runs there
 * now (a build thread's on-CPU interval or an idle period, closed at
 * end_ns), so per-CPU time order holds.  No-op without --sched.
 */
int capture__finish_sched(struct capture *c, __u64 end_ns);
/* How file dependencies hook this kernel (the probe's pick, or the fallback it fell to). */
enum deps_hook capture__deps_hook(const struct capture *c);
/* Where the memory programs checkpoint an image's peak here (the probe's pick, or the fallback it fell to). */
enum mem_hook capture__mem_hook(const struct capture *c);
/* Whether the file-dependency programs are attached: --deps, or its default for the hook. */
bool capture__deps_on(const struct capture *c);
/* Number of possible CPUs: the bound of hdr.cpu. */
int capture__nr_cpus(const struct capture *c);
/*
 * The build's resident memory now: the RSS the kernel last saw of each
 * live tracked process, summed, and the largest (hdr and ram_kb are the
 * caller's).  Needs mem_sampling.  0, or -errno.
 */
int capture__mem_sample(const struct capture *c, struct bb_mem_sample_event *e);
/*
 * With kernel.bpf_stats_enabled=1, how often each program ran and its mean
 * time, one line; nothing when no program counted a run.
 */
void capture__print_runs(const struct capture *c, FILE *out);
/* Records the kernel dropped because the ring buffer was full. */
__u64 capture__lost_events(const struct capture *c);
void capture__free(struct capture *c);

#endif /* BUILDBPF_CAPTURE_H */
