/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic hosts for the convert --add tests: one host's replayed log as
 * convert has it, its processes, and distcc's two sides (a client on a
 * host whose root is pid 100, a daemon's job on one whose root is 200).
 */
#ifndef BUILDBPF_TESTS_SYNTH_HOSTS_H
#define BUILDBPF_TESTS_SYNTH_HOSTS_H

#include <linux/types.h>
#include "log/event_log.h"
#include "model/replay.h"

#define SYNTH_MS 1000000ull

struct synth_host {
	struct event_log_info info;
	struct replay rp;
};

void synth_host_begin(struct synth_host *th, const char *name, __s64 offset, __u64 start_ns, __u32 root, long cpus);
/* The model finished at end_ns, its lanes and layout made. */
void synth_host_end(struct synth_host *th, __u64 end_ns);
void synth_host_free(struct synth_host *th);
/* pid runs argv from start to end (ns of its own host), with CPU time cpu_ns. */
void synth_host_proc(struct synth_host *th, __u32 pid, __u32 parent, __u64 start, __u64 end, __u64 cpu_ns,
		     const char *const argv[]);
/* A distcc client under pid 100: pid runs `distcc cc OPT -c SRC -o out.o`, its cpp child pid+1 ending at sent. */
void synth_distcc_client(struct synth_host *a, __u32 pid, const char *src, const char *opt, __u64 start, __u64 sent,
			 __u64 end);
/* A job under pid 200: the compiler distccd runs on its temporary input (pid), with cc1 below (pid+1). */
void synth_distcc_job(struct synth_host *b, __u32 pid, const char *input, const char *opt, __u64 start, __u64 end);

#endif /* BUILDBPF_TESTS_SYNTH_HOSTS_H */
