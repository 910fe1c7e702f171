/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cargo or go build that compiled nothing: the tool found every unit
 * fresh (its target directory, its GOCACHE) and ran its compilers only to
 * ask their versions.  An audit of such a run's parallelism is an audit of
 * nothing; the report says what happened instead.  Pure.
 */
#ifndef BUILDBPF_AUDIT_FRESH_BUILD_H
#define BUILDBPF_AUDIT_FRESH_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model.h"

struct fresh_build {
	const char *runner; /* "cargo" or "go", the first such runner of the build (borrowed); NULL: none ran */
	size_t nr_compiles; /* rustc on a crate, a build script run, a go tool on a package, a C toolchain step */
	size_t nr_probes;   /* the compilers asked their version or what they make */
};

void fresh_build__compute(struct fresh_build *fb, const struct model *m);
/* A cargo or go build that compiled no unit. */
bool fresh_build__nothing_compiled(const struct fresh_build *fb);

#endif /* BUILDBPF_AUDIT_FRESH_BUILD_H */
