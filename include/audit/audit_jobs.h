/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j a runner was asked for, read from its command line and the
 * $MAKEFLAGS it inherits.  Pure: which command speaks for the build is
 * the audit's choice (audit.c), and each phase's its runner's
 * (audit/cmd_phases.h); this reads one command line.
 */
#ifndef BUILDBPF_AUDIT_JOBS_H
#define BUILDBPF_AUDIT_JOBS_H

#include <stddef.h>

enum audit_jobs_source {
	JOBS_UNKNOWN = 0,   /* not a build tool we can read */
	JOBS_ARGUMENT,	    /* -jN, -j N, --jobs=N on the command */
	JOBS_MAKEFLAGS,	    /* from $MAKEFLAGS */
	JOBS_TOOL_DEFAULT,  /* the tool's own default (make: 1, ninja: CPUs + 2) */
};

/* The -j a build asked for.  jobs: 0 unknown, -1 unlimited (-j alone). */
struct audit_jobs {
	long jobs;
	enum audit_jobs_source source;
	char tool[16]; /* "make", "ninja", or "" */
};

/*
 * The job count a command line asks for: make/gmake (-jN, -j N, -j,
 * --jobs[=N], clustered short options like -kj8, then $MAKEFLAGS) and
 * ninja/samu (-jN, -j N, default CPUs + 2).  jobs 0 for anything else.
 */
void audit_jobs__from_argv(struct audit_jobs *j, char *const *argv, size_t argc, const char *makeflags,
			   size_t nr_cpus);

#endif /* BUILDBPF_AUDIT_JOBS_H */
