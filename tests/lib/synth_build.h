/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole synthetic builds for the diff's unit tests: a root make, the
 * processes it runs (each with a parent, argv, CPU time), the files they
 * write and read (optional), then the model finished, its build graph
 * computed and audited as replay and main would (--sched=off).
 */
#ifndef BUILDBPF_TESTS_SYNTH_BUILD_H
#define BUILDBPF_TESTS_SYNTH_BUILD_H

#include <linux/types.h>
#include "diff/diff.h"
#include "graph/graph_run.h"
#include "model/file_log.h"
#include "model/model.h"
#include "audit/audit.h"

#define SB_MS 1000000ull
#define SB_T0 (1000 * SB_MS)

struct synth_build {
	struct model *m;
	struct file_log *fl; /* NULL until synth_build__file(): no build graph */
	struct graph_run g;
	struct audit a;
	struct diff_side side;
	__u32 root_pid;
};

/* A build rooted at root_pid running "make -j2" in cwd (NULL: unknown). */
void synth_build__start(struct synth_build *b, __u32 root_pid, const char *cwd);
/* The same with the command path and argv (a shell, a script). */
void synth_build__start_cmd(struct synth_build *b, __u32 root_pid, const char *cwd, const char *path,
			    const char *const argv[]);
/*
 * Process pid, child of parent_pid, runs path with argv over [from_ms,
 * to_ms) after the start, using cpu_ms of CPU time.
 */
void synth_build__proc(struct synth_build *b, __u32 pid, __u32 parent_pid, const char *path,
		       const char *const argv[], __u64 from_ms, __u64 to_ms, __u64 cpu_ms);
/*
 * Process pid opens file ino (path) at at_ms, for writing or reading: the
 * build then has a build graph (--deps=on), computed at the finish.
 */
void synth_build__file(struct synth_build *b, __u32 pid, __u64 at_ms, __u64 ino, bool write, const char *path);
/* Ends the root at end_ms, finishes, names the steps (model/step_names.h) and audits. */
void synth_build__finish(struct synth_build *b, __u64 end_ms);
void synth_build__free(struct synth_build *b);

#endif /* BUILDBPF_TESTS_SYNTH_BUILD_H */
