/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much scheduler detail a recording holds and a conversion draws: chosen
 * on the command line, written into the event log, read by the scheduler
 * model.  Its own header, so that the log format and the CLI need nothing of
 * the model.
 */
#ifndef BUILDBPF_SCHED_LEVEL_H
#define BUILDBPF_SCHED_LEVEL_H

enum sched_level {
	SCHED_OFF = 0,	   /* no sched programs attached, no CPU lanes */
	SCHED_SUMMARY = 1, /* per resolution bucket, what held the CPU most (default) */
	SCHED_FULL = 2,	   /* every on-CPU interval */
};

#define SCHED_DEFAULT_RESOLUTION_NS 10000000ull /* 10 ms */

#endif /* BUILDBPF_SCHED_LEVEL_H */
