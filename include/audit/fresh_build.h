/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A build that compiled nothing: cargo or go found every unit fresh (its
 * target directory, its GOCACHE) and ran its compilers only to ask their
 * versions; make or ninja found every target up to date ("Nothing to be
 * done", "no work to do") and ran no job.  An audit of such a run's
 * parallelism is an audit of nothing; the outputs say what happened
 * instead.  Pure.
 */
#ifndef BUILDBPF_AUDIT_FRESH_BUILD_H
#define BUILDBPF_AUDIT_FRESH_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"

struct fresh_build {
	/* The build's runner (borrowed): its first cargo or go, else its first
	 * make or ninja; NULL: none ran. */
	const char *runner;
	bool by_units;	    /* cargo or go: fresh units; make or ninja: jobs */
	size_t nr_compiles; /* rustc on a crate, a build script run, a go tool on a package, a C toolchain step */
	size_t nr_probes;   /* the compilers asked their version or what they make */
	size_t nr_jobs;	    /* what a make or ninja ran (not a runner, not make's $(shell) call) */
};

void fresh_build__compute(struct fresh_build *fb, const struct model *m);
/* A cargo or go build that compiled no unit; a make or ninja one that ran no job and compiled nothing. */
bool fresh_build__nothing_compiled(const struct fresh_build *fb);

#endif /* BUILDBPF_AUDIT_FRESH_BUILD_H */
