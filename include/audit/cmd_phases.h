/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command's phases: the top-level commands it ran one after another
 * (./configure, then make -j2, then make check), each with its share of the
 * wall, how parallel it ran and the -j of the runner that did its work.
 * Pure: the process tree, the audit's wrapper flags and the model's job
 * slots in, the phases out (the audit keeps them in a->cmd_phases); the
 * report and the JSON present them.
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
#include <stddef.h>
#include <linux/types.h>
#include "graph/job_slots.h"
#include "model/model.h"
#include "model/tool_jobs.h"

/*
 * About one thing at a time: below this average (CPUs busy, or steps
 * alive at once), the build or a phase of it was not parallel.
 */
#define AUDIT_ONE_AT_A_TIME 1.25
/* Phases of the command kept (the longest), and the least share of the wall a phase needs (per mille). */
#define AUDIT_MAX_CMD_PHASES 16
#define AUDIT_CMD_PHASE_MIN_PERMILLE 10

/* One top-level command of the command's run. */
struct audit_cmd_phase {
	long proc;		/* the command that names it: index in model->procs */
	size_t nr_commands;	/* commands that overlapped in it (a pipeline): 1 normally */
	__u64 start_ns, end_ns; /* absolute */
	__u64 cpu_ns;		/* the CPU time of its processes */
	/* Time-integral of its steps alive (processes that are neither its
	 * commands, wrappers nor runners): / wall, the steps at once. */
	__u64 step_ns;
	bool serial;		/* fewer than AUDIT_ONE_AT_A_TIME steps alive and CPUs busy on average */
	bool configure;		/* its command is a configure script (which often re-execs its shell) */
	long runner;		/* the runner that did most of its work; -1: none */
	struct tool_jobs jobs; /* that runner's -j; jobs 0 without one */
};

/* What the phases are read from besides the process tree. */
struct cmd_phases_input {
	const bool *wrapper;	       /* per process: a wrapper (audit/audit.h), whose work is its children's */
	const struct job_slots *slots; /* the model's: a sub-make without -j takes its jobserver's */
	__u64 wall_ns;		       /* the build's: a phase counts from AUDIT_CMD_PHASE_MIN_PERMILLE of it */
	size_t nr_cpus;		       /* online CPUs: a tool's default -j */
	struct jobs_env jobs_env;      /* what the build inherits that a tool reads its -j from */
};

/* Into phases[AUDIT_MAX_CMD_PHASES], in time order, *nr of them (none without a root process).  0, or -ENOMEM. */
int cmd_phases__compute(struct audit_cmd_phase *phases, size_t *nr, const struct model *m,
			const struct cmd_phases_input *in);
/* The phase whose runner did the most work (CPU time), or NULL when no phase had a runner. */
const struct audit_cmd_phase *cmd_phases__build_phase(const struct audit_cmd_phase *phases, size_t nr);

#endif /* BUILDBPF_AUDIT_CMD_PHASES_H */
