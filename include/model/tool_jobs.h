/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j a runner was asked for, read from its command line and what it
 * inherits (struct jobs_env), in the order the tool itself reads them.
 * One finding for every stage that needs it: the job slots cargo and go
 * hold (graph/job_slots.h), the audit's -j and each phase's.  Pure: which
 * command speaks for the build is the audit's choice (audit/audit.c), and
 * each phase's its runner's (audit/cmd_phases.h); this reads one command
 * line.
 */
#ifndef BUILDBPF_MODEL_TOOL_JOBS_H
#define BUILDBPF_MODEL_TOOL_JOBS_H

#include <stddef.h>
#include "log/event_log.h"
#include "model/model.h"

enum tool_jobs_source {
	JOBS_UNKNOWN = 0,   /* not a build tool we can read */
	JOBS_ARGUMENT,	    /* -jN, -j N, --jobs=N on the command (cargo: also --config build.jobs=N) */
	JOBS_MAKEFLAGS,	    /* from $MAKEFLAGS */
	JOBS_TOOL_DEFAULT,  /* the tool's own default (make: 1, ninja: CPUs + 2, cargo and go: the CPUs) */
	JOBS_CARGO_BUILD_JOBS, /* cargo: from $CARGO_BUILD_JOBS */
	JOBS_CARGO_CONFIG,  /* cargo: from build.jobs in its config files */
	JOBS_GOFLAGS,	    /* go: from -p=N in $GOFLAGS */
	JOBS_GO_ENV,	    /* go: from -p=N in GOFLAGS of its env file (`go env -w`) */
};

/* The -j a build asked for.  jobs: 0 unknown, -1 unlimited (-j alone). */
struct tool_jobs {
	long jobs;
	enum tool_jobs_source source;
	char tool[16]; /* "make", "ninja", "cargo", "go", or "" */
	/* JOBS_CARGO_CONFIG, JOBS_GO_ENV: the file that set it (borrowed from the recording); else NULL */
	const char *config_file;
};

/*
 * What a command inherits that its tool may read a job count from, each
 * NULL when unset: the recording's (log/event_log.h), as changed by an
 * `env NAME=VALUE` before the tool (tool_jobs__env_argv()).
 */
struct jobs_env {
	const char *makeflags;
	const char *cargo_build_jobs;
	const char *goflags;
	const char *cargo_config_jobs; /* build.jobs in cargo's config files */
	const char *cargo_config_file;
	const char *go_env_goflags;    /* GOFLAGS in go's env file, read only when $GOFLAGS is unset or empty */
	const char *go_env_file;
};

/*
 * The job count a command line asks for: make/gmake (-jN, -j N, -j,
 * --jobs[=N], clustered short options like -kj8, then $MAKEFLAGS),
 * ninja/samu (-jN, -j N, default CPUs + 2), cargo (-j, --config
 * build.jobs, $CARGO_BUILD_JOBS, its config files, default the CPUs) and
 * go (-p, $GOFLAGS, else GOFLAGS of its env file, default the CPUs).
 * jobs 0 for anything else.  env
 * may be NULL (nothing inherited).
 */
void tool_jobs__from_argv(struct tool_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env,
			   size_t nr_cpus);
/*
 * An `env [-i] [-u NAME] NAME=VALUE... COMMAND` image before the tool's:
 * its assignments of the variables of e, applied to e (pointing into
 * argv).  Any other image leaves e as it is.
 */
void tool_jobs__env_argv(struct jobs_env *e, char *const *argv, size_t argc);
/* What the recording says the command inherited (pointing into info): its MAKEFLAGS and what the recorder kept. */
struct jobs_env tool_jobs__env_of_log(const struct event_log_info *info);
/* How far above a process the settings it inherits are looked for. */
#define TOOL_JOBS_MAX_ABOVE 32

/*
 * The job count the last image of m's process proc asks for, with what it
 * inherits: env as changed on the way down to that image, by an `env
 * NAME=VALUE` image, and by a shell's -c script (`MAKEFLAGS=-j1 make`,
 * `export CARGO_BUILD_JOBS=2; cargo build`), in the process or in those
 * up to TOOL_JOBS_MAX_ABOVE above it.
 */
void tool_jobs__of_proc(struct tool_jobs *j, const struct model *m, size_t proc, const struct jobs_env *env,
			size_t nr_cpus);
/* Where a -j came from, in words: "from the command", "its default", "from CARGO_BUILD_JOBS", ... */
const char *tool_jobs__source_text(enum tool_jobs_source source);

#endif /* BUILDBPF_MODEL_TOOL_JOBS_H */
