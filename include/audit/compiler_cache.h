/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiler caches seen for what they are: each call of ccache or sccache
 * (as "ccache gcc", CMake's launcher, or a masquerade symlink such as
 * /usr/lib/ccache/gcc) told as a hit or a miss by what ran under it, and
 * counted.  Pure: a finished model in, figures out; the audit report, the
 * JSON and the trace present them.
 *
 * What each outcome looks like in the process tree:
 *   direct hit        the wrapper ran no compiler at all
 *   preprocessed hit  it ran only the preprocessor (gcc -E, cc1 -E)
 *   miss              a compiler ran without -E (cc1, as, gcc -c)
 *   uncacheable       the wrapper exec'd the compiler in its own process
 *                     (ccache falls back so: linking, -E, conftest probes),
 *                     or sccache's client ran it itself (a link)
 * sccache runs the compilers in its server, which the first client starts
 * and which outlives it: the server's compiles are given to the client
 * whose call they overlap and whose source or output their argv names.
 * A server started before the trace is outside it (unless --follow): its
 * clients' calls are unknown, never hits.
 */
#ifndef BUILDBPF_AUDIT_COMPILER_CACHE_H
#define BUILDBPF_AUDIT_COMPILER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/model.h"

enum cache_call {
	CACHE_NONE = 0,		/* not a cache's call */
	CACHE_HIT_DIRECT,	/* answered with no compiler run */
	CACHE_HIT_PREPROCESSED, /* answered after the preprocessor only */
	CACHE_MISS,		/* the compiler ran */
	CACHE_UNCACHEABLE,	/* handed to the compiler uncached */
	CACHE_SERVER,		/* a cache's server (sccache): its compiles are its clients' */
	CACHE_UNKNOWN,		/* an sccache call whose server ran outside the trace */
};

struct compiler_cache {
	char tool[16]; /* "ccache", "sccache", "ccache+sccache"; "" without a call */
	size_t nr_calls; /* every call: the five below add up to it */
	size_t nr_hits_direct, nr_hits_preprocessed, nr_misses, nr_uncacheable, nr_unknown;
	/* What the calls cost: CPU of the call and of what ran for it (its
	 * subtree, and a server's compiles given to it), wall of the call. */
	__u64 miss_cpu_ns, miss_wall_ns;
	__u64 hit_cpu_ns, hit_wall_ns;
	/* Hits whose step (the same command line) also missed in this log:
	 * that miss's cost less the hit's, summed over them. */
	size_t nr_saved;
	__u64 saved_cpu_ns, saved_wall_ns;
	/* Per process in model->procs (NULL without a call): the call's
	 * outcome for the cache's own process, CACHE_NONE for the rest. */
	unsigned char *call;
	/* Per process: the outcome of the call it ran for (the call itself
	 * included), so a step under a hit (cc1 -E) is named as one. */
	unsigned char *work;
	/* Per process: a call's CPU, its own and its work's (a server's: its own); 0 for the rest. */
	__u64 *call_cpu_ns;
	size_t nr_procs; /* entries in call and work */
};

/* 0, or -ENOMEM (c empty). */
int compiler_cache__compute(struct compiler_cache *c, const struct model *m);
void compiler_cache__free(struct compiler_cache *c);
/*
 * A call's outcome in one word: "hit" (either kind), "miss", "uncacheable",
 * "unknown"; NULL for CACHE_NONE and CACHE_SERVER.
 */
const char *compiler_cache__word(enum cache_call call);
/*
 * What the call hit (in hit_c over hit_m) saved against miss, a miss of
 * its step (in miss_c over miss_m: this log, or a diff's base): the miss's
 * CPU and wall less the hit's, none where the hit cost more.  Added to
 * *cpu_ns and *wall_ns.
 */
void compiler_cache__add_saving(const struct compiler_cache *miss_c, const struct model *miss_m, size_t miss,
				const struct compiler_cache *hit_c, const struct model *hit_m, size_t hit,
				__u64 *cpu_ns, __u64 *wall_ns);
/* A hit of either kind. */
bool compiler_cache__is_hit(enum cache_call call);
/* proc's outcome as a call (CACHE_NONE for a model without calls or an index out of range). */
enum cache_call compiler_cache__of(const struct compiler_cache *c, size_t proc);
/* The outcome of the call proc ran for, or its own as a call; CACHE_NONE: it ran for none. */
enum cache_call compiler_cache__step(const struct compiler_cache *c, size_t proc);

#endif /* BUILDBPF_AUDIT_COMPILER_CACHE_H */
