/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recordings crafted to cost the analysis more than their size: each is a
 * family grown by n (processes, images, file records), small at every n a
 * test uses, and one a super-linear stage once took minutes on.  Written
 * with the event log writer, as `convert` and `report` read them.  Plain C
 * (no Criterion): the fuzz seeds are made from them too.
 */
#ifndef BUILDBPF_TESTS_CRAFTED_LOG_H
#define BUILDBPF_TESTS_CRAFTED_LOG_H

#include <stddef.h>

enum crafted_case {
	CRAFTED_CD_CHAIN,	   /* one process exec'ing n times `sh -c 'cd d && true'` */
	CRAFTED_LONG_DIRS,	   /* the same with 50-character directories */
	CRAFTED_LONG_CWD,	   /* n processes under a 200 KB working directory */
	CRAFTED_FORK_CHAINS,	   /* two fork chains n deep: the deepest of one writes a file, all of the other read it */
	CRAFTED_RENAMES,	   /* n writes, n reads, n renames no write matches */
	CRAFTED_EXEC_LOOKBACK,	   /* n writes, n reads, n execs of a program no write matches */
	CRAFTED_WIDE_READERS,	   /* one file written once and read by n processes */
	CRAFTED_SEQUENTIAL_JOBS,   /* one shell running n jobs one after another, each woken by the last */
	CRAFTED_PARALLEL_JOBS,	   /* n jobs alive at once, each started when one ended */
	CRAFTED_PROGRAMS,	   /* n processes, each running a program of its own */
	CRAFTED_DAEMON_WAITS,	   /* a --follow daemon's n jobs, while n processes wait throughout */
	CRAFTED_RUN_QUEUE,	   /* n processes waiting for a CPU at once (--sched=summary) */
	CRAFTED_BIG_BUILD,	   /* a make build of about n processes, every record kind (lib/big_build.h) */
	CRAFTED_NR
};

/* "cd_chain", "long_dirs", ...: the case's name, for messages and seed files. */
const char *crafted__name(enum crafted_case c);
/*
 * Writes case c grown to n as a complete recording (trailer included) to
 * fd, from its current offset.  0, or -errno.
 */
int crafted__write(enum crafted_case c, size_t n, int fd);

#endif /* BUILDBPF_TESTS_CRAFTED_LOG_H */
