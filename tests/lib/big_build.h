/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording shaped like a large C build, of any size: a root make runs
 * one sub-make per directory, which runs each compile as sh -c -> gcc ->
 * cc1, then as, and every so many a link (sh -> ld) of the objects just
 * built, as many at once as there are CPUs.  Every process has argv, an
 * exit status, CPU times, a peak RSS and I/O; with a scheduler level its
 * on-CPU slices and the CPUs' idle periods; with deps its file opens,
 * file counts and start wakes.  Written with the event log writer, in time
 * order, as `buildbpf record` writes them.  For the conversion benchmark
 * (bench/gen_log.c) and the scale tests.  Plain C.
 */
#ifndef BUILDBPF_TESTS_BIG_BUILD_H
#define BUILDBPF_TESTS_BIG_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "sched_level.h"

struct big_build {
	size_t procs;		 /* processes to start, about (whole jobs) */
	unsigned int cpus;	 /* CPUs, and jobs run at once */
	enum sched_level sched; /* what the recording holds */
	bool deps;		 /* file and start-wake records */
	__u64 seed;		 /* of the durations; the same seed, the same log */
	__s64 realtime_offset_ns; /* the wall clock's, as a recording reads it; 0: none (no convert --add) */
};

/*
 * Writes the build b describes as a complete recording (trailer included)
 * to fd, from its current offset; the records written in *records (may be
 * NULL).  0, or -errno.
 */
int big_build__write(const struct big_build *b, int fd, __u64 *records);

#endif /* BUILDBPF_TESTS_BIG_BUILD_H */
