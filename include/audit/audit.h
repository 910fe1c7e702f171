/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parallelism audit: was the build parallel, and if not, where and why.
 * Pure: the process model and the scheduler model in, figures out; the
 * stderr report (report/audit_report.h), the JSON (report/audit_json.h)
 * and the SVG (report/svg.h) only present them.
 *
 *   struct audit a;
 *   audit__compute(&a, model, sched_or_NULL, &input);
 *   ...
 *   audit__free(&a);
 */
#ifndef BUILDBPF_AUDIT_H
#define BUILDBPF_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "deps_hook.h"
#include "mem_hook.h"
#include "graph/graph_run.h"
#include "model/cpu_sched.h"
#include "model/daemons.h"
#include "model/io.h"
#include "model/model.h"
#include "model/parallelism.h"
#include "model/replay.h"
#include "model/tool_jobs.h"
#include "audit/audit_whatif.h"
#include "audit/cmd_phases.h"
#include "audit/compiler_cache.h"
#include "audit/fresh_build.h"
#include "audit/jobs_fit.h"

/* Version of the --summary-json schema; bumped when a field changes meaning. */
#define AUDIT_JSON_VERSION 1
#define AUDIT_TOP 5		/* processes per top list */
#define AUDIT_MAX_PHASES 5	/* serial phases reported */
#define AUDIT_SERIAL_MIN_NS 1000000000ull /* a serial phase counts from 1 s ... */
#define AUDIT_SERIAL_WALL_PERMILLE 20	   /* ... or 2 % of wall, whichever is less */
/*
 * A wrapper hands its work to its children: its own CPU time is at most
 * 5 ms + 5 % of its wall time (a compiler driver's start-up costs 2-4 ms)
 * and its children, together, were alive for at least 80 % of it: sh -c,
 * cc, make, ninja.  So is a process with a child whose program the tool
 * table says wraps another (collect2), whatever its CPU time, and a
 * --follow daemon's process found running (the daemon, its idle workers).  The top lists and the wall by
 * program skip wrappers, so one step of the build is one entry.
 */
#define AUDIT_WRAPPER_CPU_NS 5000000ull
#define AUDIT_WRAPPER_CPU_PERMILLE 50
#define AUDIT_WRAPPER_COVER_PERMILLE 800
/* A cause, a step or a share of the machine counts in the answers from 10 % of the wall. */
#define AUDIT_ANSWER_PERMILLE 100
/* A critical-path step shorter than this (a wrapper's fork and wait) is not listed, unless a file links it. */
#define AUDIT_STEP_MIN_NS 1000000ull

/* What the run knows besides the models. */
struct audit_input {
	size_t nr_cpus;		 /* online CPUs */
	char *const *cmd_argv;	 /* the traced command */
	int cmd_argc;
	struct jobs_env jobs_env; /* what the build inherits that a tool reads its -j from (model/tool_jobs.h) */
	__u64 lost_events;
	const char *partial_reason; /* NULL: the trace is complete */
	/* The model's job slots (graph/job_slots.h), read during audit__compute()
	 * only: the recording computes them once, for the graph too. */
	const struct job_slots *slots;
	/* The build graph (--deps=on); NULL: the chain is a timing estimate. */
	const struct graph_run *graph;
	/* --follow: the daemons traced beside the command (their work is in
	 * cpu_ns and the lists, and split out in daemons[]). */
	const pid_t *follow;
	size_t nr_follow;
	/* Why each process started when it did (--deps=on); NULL: not recorded. */
	const struct start_causes *starts;
	/* How file dependencies hook the recording's kernel, recorded or not:
	 * what --deps=on costs there (UNKNOWN: an older recording). */
	enum deps_hook deps_hook;
	/* Where the memory programs checkpointed (UNKNOWN: an older recording). */
	enum mem_hook mem_hook;
};

/* A process in a top list: index in model->procs and the value it is ranked by. */
struct audit_rank {
	size_t proc;
	__u64 value;
};

struct audit_top {
	struct audit_rank items[AUDIT_TOP];
	size_t nr;
};

struct audit_phase_proc {
	long proc;	 /* index in model->procs; -1 when not found */
	__u32 pid;
	__u64 on_cpu_ns; /* its CPU time in the phase; 0: it only waited */
};

struct audit_phase {
	__u64 start_ns, end_ns; /* absolute */
	struct audit_phase_proc procs[PAR_PHASE_PROCS];
	size_t nr_procs;
	__u64 cpu_ns;	   /* the build's CPU time in it: procs[] share it */
	__u64 parallel_ns; /* time with two or more build threads running in it */
};

/* CPU time of every process that ran one program (its last image). */
struct audit_program {
	char *name; /* basename, raw bytes */
	__u64 cpu_ns;
	size_t nr_procs;
	/* Wall time during which at least one of its processes that is not a
	 * wrapper was alive: how long the build spent in this program. */
	__u64 wall_ns;
	struct io_totals io; /* its processes' I/O (model/io.h) */
};

/* Was it parallel?  The average running against what could run (audit.c). */
enum audit_parallel {
	AUDIT_PARALLEL_NO,     /* about one at a time on average */
	AUDIT_PARALLEL_PARTLY,
	AUDIT_PARALLEL_YES,    /* at least 3/4 of what the jobs and CPUs allowed */
	AUDIT_PARALLEL_STARVED, /* not yes, though jobs enough for every CPU were ready most of the time */
};

/*
 * Would more CPUs or more jobs help?  The cause that held the most wall
 * time, if it held at least AUDIT_ANSWER_PERMILLE of it (audit.c).
 */
enum audit_help {
	AUDIT_HELP_NONE = 0, /* no cause held 10 % of the wall */
	AUDIT_HELP_CPUS,     /* build jobs waited for a CPU that other jobs held */
	AUDIT_HELP_JOBS,     /* -j jobs ran, fewer than the CPUs, and a CPU idled */
	AUDIT_HELP_ORDER,    /* fewer than -j ran and a CPU idled: the build's order */
	AUDIT_HELP_QUIETER,  /* build jobs waited while a CPU ran outside work */
	AUDIT_HELP_UNKNOWN,  /* --sched=off: no figures */
};

struct audit {
	/* The span measured: the model's when computed.  The text report's
	 * times count from start_ns (a hosts trace's alignment moves the
	 * model's start later; the JSON's count from the trace's start). */
	__u64 start_ns;
	__u64 wall_ns;
	size_t nr_cpus;
	__u64 cpu_ns;	     /* user + system time of every process */
	double utilisation;  /* cpu_ns / (wall_ns * nr_cpus) */
	enum sched_level sched; /* SCHED_OFF: the figures below marked (sched) are unavailable */
	const struct parallelism *par; /* (sched) histograms, owned by the sched model */
	double avg_running;  /* (sched) build CPU time / wall */
	/* The -j of the command, else of the phase whose runner did the most work. */
	struct tool_jobs jobs;
	size_t jobs_target;  /* what "fewer jobs" is measured against: jobs capped at the CPUs */
	__u64 lost_ns;	     /* (sched) fewer than jobs_target ran while a CPU idled */
	/* (sched) the CPU time idle then, summed over the CPUs, at most the
	 * jobs_target - k CPUs that k running left the build: what the order cost */
	__u64 lost_cpu_ns;
	__u64 runq_wait_ns;  /* (sched) the build's run-queue wait, summed over its threads */
	__u64 runq_wall_ns;  /* (sched) wall time with at least one build thread waiting */
	__u64 noisy_ns;	     /* (sched) build threads waited while a CPU ran outside work */
	__u64 ready_full_ns; /* (sched) build threads ready (running or waiting) numbered the CPUs or more */
	/* (sched) CPU time outside work held during the build, summed over the
	 * CPUs: the sched model's cpus[].other_ns (otherData.sched.cpus[].other_ms) */
	__u64 other_ns;
	double other_share; /* (sched) other_ns / (wall_ns * nr_cpus) */
	size_t cpus_build_ran; /* (sched) CPUs that ran the build for 1 % of its CPU time or more */
	/* The answers, from the figures above. */
	enum audit_parallel parallel;
	enum audit_help help;
	__u64 help_ns;	 /* wall time of the cause help names; 0 for NONE and UNKNOWN */
	__u64 starved_ns; /* (sched) wall time build jobs waited with every CPU on the build */
	__u64 at_jobs_idle_ns; /* (sched) exactly -j ran (< CPUs) while a CPU idled */
	__u64 serial_threshold_ns;
	struct audit_phase phases[AUDIT_MAX_PHASES]; /* (sched) longest first */
	size_t nr_phases;
	/* The command's phases, in time order (audit/cmd_phases.h); none without a root process. */
	struct audit_cmd_phase cmd_phases[AUDIT_MAX_CMD_PHASES];
	size_t nr_cmd_phases;
	/* Critical chain: indexes in model->procs, oldest first.  With a build
	 * graph, its critical path (steps that held it for AUDIT_STEP_MIN or
	 * more); else a timing estimate over the leaf processes. */
	size_t *chain;
	size_t nr_chain;
	__u64 chain_busy_ns; /* time the chain's processes themselves ran (graph: the time its entries held the path) */
	__u64 chain_wait_ns; /* graph: the path's time between its entries: waits for a slot, the runner's order, a CPU */
	/* graph: of chain_busy_ns, held by no job (a runner's own work, what no
	 * runner started), the parts too short to list in chain too: the one
	 * figure for "outside any job" in the header, the what-if and the JSON. */
	__u64 chain_no_job_ns;
	const struct graph_run *graph; /* not owned; NULL: the chain is the estimate */
	size_t *chain_step; /* with graph: chain[i] is graph->path.steps[chain_step[i]] */
	struct audit_whatif whatif; /* with graph and jobs: the what-if (audit/audit_whatif.h) */
	const struct start_causes *starts; /* not owned; NULL: not recorded */
	enum deps_hook deps_hook;	   /* audit_input's */
	enum mem_hook mem_hook;		   /* audit_input's */
	struct audit_top top_wall, top_cpu, top_rss, top_wait; /* top_wait: (sched) */
	/* I/O (model/io.h): the build's, and the steps that wrote most to
	 * storage (by write_bytes; empty where the kernel does not count it). */
	struct io_totals io;
	struct audit_top top_write;
	struct audit_program *programs; /* most CPU first */
	size_t nr_programs;
	bool *wrapper; /* per process in model->procs: a wrapper (see above) */
	__u64 lost_events;
	/* --follow: each daemon's share of the figures above (model/daemons.h). */
	struct daemon_share *daemons;
	size_t nr_daemons;
	/* The command's processes' waits with nothing traced running for them,
	 * and whether they outweigh the traced CPU (model/daemons.h). */
	struct outside_wait outside_wait;
	bool mostly_elsewhere;
	size_t oom_killed; /* processes the OOM killer chose */
	bool psi_known;	   /* the machine's memory stall was recorded: */
	__u64 psi_some_us, psi_full_us;
	struct jobs_fit fit; /* the -j that fits the RAM (audit/jobs_fit.h) */
	struct compiler_cache cache; /* ccache's and sccache's calls (audit/compiler_cache.h) */
	struct fresh_build fresh;    /* a cargo or go build that compiled nothing (audit/fresh_build.h) */
	const char *partial_reason;
};

/* What a replayed recording tells the audit; slots, graph and starts are left NULL for the caller. */
struct audit_input audit_input__of_replay(const struct replay *rp);

/* 0, or -ENOMEM (a freed, empty audit). */
int audit__compute(struct audit *a, const struct model *m, const struct sched_model *s,
		   const struct audit_input *in);
void audit__free(struct audit *a);

/*
 * Whether process proc (in the audited model) is a step of the build:
 * not a wrapper (above), whose work is its children's.  The one rule for
 * naming steps by their own time: the top lists, the wall by program and
 * the diff's step tables list only steps, so a compile is its cc1, never
 * also its make, ninja, sh -c or cc driver.
 */
bool audit__is_step(const struct audit *a, size_t proc);

/*
 * With the build graph: the critical path's waits between the chain entry
 * before a->chain[i] and it (the path's entries too short to list between
 * them included), and in *named the path entry after the longest of them,
 * whose start cause names what it waited for.  0: none.
 */
__u64 audit__chain_wait_before(const struct audit *a, size_t i, size_t *named);

/* How long a->chain[i] held the path (with the graph), or ran (the estimate). */
__u64 audit__chain_held(const struct audit *a, const struct model *m, size_t i);
/*
 * The chain entries a list of at most max shows: those that held the path
 * longest (audit__chain_held(); of equal ones the earlier), among those keep
 * accepts (NULL: all), so a list cut short still names the longest step
 * wherever it is.  Marks them in listed[a->nr_chain], cleared by the caller,
 * to be listed in path order; returns how many.
 */
size_t audit__chain_longest(const struct audit *a, const struct model *m, size_t max,
			    bool (*keep)(const struct audit *a, size_t i), bool *listed);

/* Whether a phase of the command held enough of the wall to be named as the thing to speed up. */
bool audit__cmd_phase_stands_out(const struct audit *a, const struct audit_cmd_phase *ph);
/* Whether [start, end) lies more than half within a phase that stands out: a stretch of it said already. */
bool audit__mostly_within_standing_phase(const struct audit *a, __u64 start_ns, __u64 end_ns);

#endif /* BUILDBPF_AUDIT_H */
