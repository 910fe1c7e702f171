/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work done for the build outside the command's tree.  Pure: a finished
 * model in, facts out.
 *
 * --follow PID: a followed daemon's processes (the daemon, found running,
 * and everything it started while traced) are its work, not the
 * command's.  daemons__mark() sets proc_instance.run_by_daemon once, after
 * model__finish() and before the lanes are packed (lanes keep one
 * daemon's work off the command's lanes); the trace, the audit and the
 * report read that one field.
 *
 * Without --follow a daemon's work is simply missing from the trace; what
 * the trace can show is that the build's processes waited on it:
 * daemons__outside_wait() measures that.
 */
#ifndef BUILDBPF_MODEL_DAEMONS_H
#define BUILDBPF_MODEL_DAEMONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>
#include "model/model.h"

/* --follow takes at most this many daemons (the CLI's limit). */
#define DAEMONS_MAX 16

/* Sets every process's run_by_daemon from the --follow pids (nr may be 0). */
void daemons__mark(struct model *m, const pid_t *follow, size_t nr);

/* One followed daemon's share of the trace. */
struct daemon_share {
	__u32 pid;
	long proc;	   /* the daemon's own instance in m->procs; -1: not traced */
	size_t nr_procs;   /* itself and what it started */
	__u64 cpu_ns;	   /* their user + system time (the traced part) */
};

/*
 * The share of follow[k] into out[k], for k < nr.  The command's own
 * share is what remains of the model's totals.
 */
void daemons__shares(const struct model *m, const pid_t *follow, size_t nr, struct daemon_share *out);

/*
 * Time the command's processes waited with nothing traced running for
 * them: per process (not a daemon's), the part of its life with no live
 * traced child and no daemon's work running (what a --follow daemon
 * started), less all of its CPU time and run-queue wait (so never an
 * overestimate), summed.  A distcc client waiting for its remote compile, a
 * download, a sleep: the work, if any, ran outside the trace.
 */
struct outside_wait {
	__u64 wait_ns;	    /* summed over the processes (can exceed the wall with -jN) */
	size_t nr_procs;    /* processes that waited at least OUTSIDE_WAIT_MIN_NS */
	long top;	    /* the one that waited longest, or -1 */
	__u64 top_wait_ns;
};
/* A process waiting less than this is not counted: fork/exec latency, not a wait. */
#define OUTSIDE_WAIT_MIN_NS 50000000ULL

/* 0, or -ENOMEM. */
int daemons__outside_wait(const struct model *m, struct outside_wait *out);

/*
 * Whether the build's time went mostly to waiting outside the trace: the
 * waits add up to more than every traced process's CPU time (cpu_ns, the
 * audit's) and to at least half the wall.  The report says so plainly.
 */
bool daemons__mostly_elsewhere(const struct outside_wait *w, __u64 cpu_ns, __u64 wall_ns);

#endif /* BUILDBPF_MODEL_DAEMONS_H */
