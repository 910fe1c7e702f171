/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j a runner was asked for, read from its command line and what it
 * inherits (struct jobs_env), in the order the tool itself reads them.
 * Pure: which command speaks for the build is the audit's choice
 * (audit.c), and each phase's its runner's (audit/cmd_phases.h); this
 * reads one command line.
 */
#ifndef BUILDBPF_AUDIT_JOBS_H
#define BUILDBPF_AUDIT_JOBS_H

#include <stddef.h>

enum audit_jobs_source {
	JOBS_UNKNOWN = 0,   /* not a build tool we can read */
	JOBS_ARGUMENT,	    /* -jN, -j N, --jobs=N on the command (cargo: also --config build.jobs=N) */
	JOBS_MAKEFLAGS,	    /* from $MAKEFLAGS */
	JOBS_TOOL_DEFAULT,  /* the tool's own default (make: 1, ninja: CPUs + 2, cargo and go: the CPUs) */
	JOBS_CARGO_BUILD_JOBS, /* cargo: from $CARGO_BUILD_JOBS */
	JOBS_CARGO_CONFIG,  /* cargo: from build.jobs in its config files */
	JOBS_GOFLAGS,	    /* go: from -p=N in $GOFLAGS */
};

/* The -j a build asked for.  jobs: 0 unknown, -1 unlimited (-j alone). */
struct audit_jobs {
	long jobs;
	enum audit_jobs_source source;
	char tool[16]; /* "make", "ninja", "cargo", "go", or "" */
	/* JOBS_CARGO_CONFIG: the file that set it (borrowed from the recording); else NULL */
	const char *config_file;
};

/*
 * What a command inherits that its tool may read a job count from, each
 * NULL when unset: the recording's (log/event_log.h), as changed by an
 * `env NAME=VALUE` before the tool (audit_jobs__env_argv()).
 */
struct jobs_env {
	const char *makeflags;
	const char *cargo_build_jobs;
	const char *goflags;
	const char *cargo_config_jobs; /* build.jobs in cargo's config files */
	const char *cargo_config_file;
};

/*
 * The job count a command line asks for: make/gmake (-jN, -j N, -j,
 * --jobs[=N], clustered short options like -kj8, then $MAKEFLAGS),
 * ninja/samu (-jN, -j N, default CPUs + 2), cargo (-j, --config
 * build.jobs, $CARGO_BUILD_JOBS, its config files, default the CPUs) and
 * go (-p, $GOFLAGS, default the CPUs).  jobs 0 for anything else.  env
 * may be NULL (nothing inherited).
 */
void audit_jobs__from_argv(struct audit_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env,
			   size_t nr_cpus);
/*
 * An `env [-i] [-u NAME] NAME=VALUE... COMMAND` image before the tool's:
 * its assignments of the variables of e, applied to e (pointing into
 * argv).  Any other image leaves e as it is.
 */
void audit_jobs__env_argv(struct jobs_env *e, char *const *argv, size_t argc);
/* Where a -j came from, in words: "from the command", "its default", "from CARGO_BUILD_JOBS", ... */
const char *audit_jobs__source_text(enum audit_jobs_source source);

#endif /* BUILDBPF_AUDIT_JOBS_H */
