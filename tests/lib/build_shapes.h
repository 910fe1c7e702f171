/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recordings shaped like the builds that cost the analysis more than their
 * size: the shapes of big builds (a kernel's recursive makes sharing one
 * jobserver, a browser's ninja with its long links at the end, cargo's
 * pipelined crates, one long job beside thousands of short ones, a
 * kernel's five processes per compile under a make per directory), each
 * grown by n jobs.  Processes with argv and exits, each job's output file
 * and its start wake (a --deps recording), no scheduler records: what the
 * build graph, the start causes and the critical path read; with
 * build_shape_opts, memory records and compile times of their own.  Written with
 * the event log writer, in time order.  For the doubling tests and the
 * conversion benchmark (bench/gen_log.c).  Plain C.
 */
#ifndef BUILDBPF_TESTS_BUILD_SHAPES_H
#define BUILDBPF_TESTS_BUILD_SHAPES_H

#include <stddef.h>
#include <linux/types.h>

enum build_shape {
	SHAPE_LONG_BESIDE_J1, /* make -j1: one long job (sleep 6) throughout, n compiles one after another */
	SHAPE_LONG_BESIDE_J2, /* make -j2: the same, the compiles in the one slot left */
	SHAPE_LONG_BESIDE_J8, /* make -j8: the same, in seven */
	SHAPE_ALL_AT_ONCE,    /* make -j: n jobs all running at once, ending in another order */
	SHAPE_JOBSERVER,      /* make -j8 running n/8 sub-makes of 8 compiles each, one pool of slots */
	SHAPE_NINJA_LINKS,    /* ninja -j8: n compiles, then a long link per 64 objects and one of them all */
	SHAPE_DEEP_MAKES,     /* n/2 makes each running a compile, then the next make: a chain n deep */
	SHAPE_CARGO_PIPELINE, /* cargo: n crates, each rustc started when the one before wrote its metadata */
	SHAPE_KERNEL,	      /* make -j8, a sub-make per directory of 16: sh, gcc, cc1, as per compile; ar; a link */
	SHAPE_NR
};

/* "long_beside_j1", ...: the shape's name, for messages and gen-log --shape. */
const char *build_shape__name(enum build_shape s);
/* The shape named name; SHAPE_NR: none. */
enum build_shape build_shape__lookup(const char *name);
/* What a shape's recording holds beyond its processes, files and wakes. */
struct build_shape_opts {
	/* 0: every compile of a kind takes the same time (the doubling tests);
	 * else each compile of the kernel shape adds up to 200 us of its own,
	 * drawn from this seed: two seeds, two builds that differ step by step */
	__u64 seed;
	/* each image's peak memory at its exec and its exit, and the
	 * machine's memory every 100 ms, as --mem-period records them */
	bool memory;
};

/*
 * Writes shape s grown to n jobs as a complete recording (trailer
 * included) to fd, from its current offset; o: NULL for the defaults
 * (all zero); the records written in *records (may be NULL).  0, or
 * -errno.
 */
int build_shape__write(enum build_shape s, size_t n, const struct build_shape_opts *o, int fd, __u64 *records);

#endif /* BUILDBPF_TESTS_BUILD_SHAPES_H */
