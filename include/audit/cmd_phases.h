/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command's phases: the top-level commands it ran one after another
 * (./configure, then make -j2, then make check), each with its share of the
 * wall, how parallel it ran and the -j of the runner that did its work.
 * Pure: computed by audit__compute() from the process tree and the audit's
 * wrapper flags into a->cmd_phases; the report and the JSON present them.
 *
 * A phase is one child of the command's process (commands that overlapped,
 * a pipeline or `a & b`, make one phase), or, when the command is itself a
 * runner (make, ninja, cmake) or ran nothing, the command.  A command that
 * execs a runner at the end (`bash -c 'a && make'`) has that runner as its
 * last phase, with the children it started after the exec.
 */
#ifndef BUILDBPF_AUDIT_CMD_PHASES_H
#define BUILDBPF_AUDIT_CMD_PHASES_H

#include <stdbool.h>
#include <linux/types.h>

struct audit;
struct audit_input;
struct model;

/* 0, or -ENOMEM.  a->wrapper is set; a->wall_ns and a->nr_cpus too. */
int cmd_phases__compute(struct audit *a, const struct model *m, const struct audit_input *in);
/* The phase whose runner did the most work (CPU time), or NULL when no phase had a runner. */
const struct audit_cmd_phase *cmd_phases__build_phase(const struct audit *a);
/* Whether a phase held enough of the wall to be named as the thing to speed up. */
bool cmd_phases__stands_out(const struct audit *a, const struct audit_cmd_phase *ph);
/* Whether [start, end) lies more than half within a phase that stands out: a stretch of it said already. */
bool cmd_phases__mostly_within_stand_out(const struct audit *a, __u64 start_ns, __u64 end_ns);

#endif /* BUILDBPF_AUDIT_CMD_PHASES_H */
