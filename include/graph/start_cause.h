/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why each process started when it did.  For every process the build
 * forked: when it could have started (ready: its parent's program had
 * begun and the last writer of its inputs, from the build graph, had
 * ended) and when it did (its fork); the gap between them goes to what
 * the forking thread did meanwhile, from its last wakeup before the fork
 * (model/start_wakes.h):
 *
 *   input        ready when X (or the job containing X) ended, or renamed
 *                the file into place while it ran on, and started at once or
 *                when X's exit (or X, still running) woke its parent: speed
 *                up X;
 *   job slot     ready earlier, but its parent slept until job J's exit woke
 *                it while its pool of slots was full (graph/job_slots.h: a
 *                recursive make's sub-makes share one), or until another
 *                make of its pool handed back the token J held: a slot freed
 *                (more -j would have started it sooner);
 *   after job    the same, but the pool had a free slot: the parent had a
 *                slot free and still waited for J (an order the files do not
 *                show: make's prerequisites read by a later recipe line, a
 *                rename): speed up J;
 *   run queue    its parent was woken, then waited for a CPU;
 *   parent busy  its parent ran (its own work) from ready to the fork;
 *   woken        its parent slept until another build process woke it
 *                without ending (a jobserver token, a pipe);
 *   unexplained  its parent slept until something outside the build woke
 *                it, or no record says;
 *   none         started within START_PROMPT_NS of being ready.
 *
 * A child make forked right after a $(shell) call whose end woke it (the
 * call computed the job's environment) waited for what the call waited for.
 *
 * Pure: the model, its job slots, the data edges and the wake records in;
 * the fifth result of the graph stage (graph/graph_run.h), what the
 * critical path walks through.
 *
 *   struct start_causes sc;
 *   start_causes__compute(&sc, model, graph, &slots, wakes);
 *   ... sc.procs[i] ...
 *   start_causes__free(&sc);
 */
#ifndef BUILDBPF_START_CAUSE_H
#define BUILDBPF_START_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "graph/build_graph.h"
#include "graph/job_slots.h"
#include "model/model.h"
#include "model/start_wakes.h"

/* A start this soon after ready waited for nothing (a fork takes ~0.1 ms). */
#define START_PROMPT_NS 1000000ull

enum start_wait {
	START_UNKNOWN = 0, /* not computed: the root, or no parent traced */
	START_NONE,
	START_INPUT,
	START_JOB_SLOT,
	START_AFTER_JOB,
	START_RUN_QUEUE,
	START_PARENT_BUSY,
	START_WOKEN,
	START_UNEXPLAINED,
};

/*
 * One per process of the build (a million-process build keeps a million):
 * process indices as 32 bits (-1: none), the 8-byte fields first and the
 * small ones together, so that no padding falls between them: 64 bytes.
 * Its own index is its place in start_causes.procs.
 */
struct start_cause {
	__u64 ready_ns; /* absolute; valid unless START_UNKNOWN */
	__u64 start_ns; /* its fork */
	__u64 runq_ns;	/* of the gap, the parent's run-queue wait (--sched); 0: none or unknown */
	__s32 input;	/* the writer whose end made it ready (model->procs); -1: its parent's start did */
	/* What its parent ran before it in turn, whose end made it ready: its
	 * recipe's line before, its shell's command before (graph/job_slots.h
	 * order_before); -1: none, or an input made it ready later */
	__s32 order_before;
	/* The process wait names: the input's writer (INPUT), the job whose
	 * exit woke the parent (JOB_SLOT, AFTER_JOB), the waker (WOKEN); -1: none */
	__s32 by;
	/* JOB_SLOT: the make of the parent's jobserver pool whose job held the
	 * slot, when another than the parent (a sub-make's token); -1: the parent's own */
	__s32 slot_runner;
	enum start_wait wait;
	/* The input was renamed into place while its writer still ran (a
	 * .rmeta cargo pipelines on), and this started before that writer's
	 * end: the rename made it ready, not the end. */
	bool input_running;
	bool wake_record;  /* a start-wake record was found for it */
	char waker_comm[BB_COMM_LEN]; /* START_UNEXPLAINED: the waker outside the build; "" none */
};

struct start_causes {
	struct start_cause *procs; /* one per model->procs; NULL: not computed */
	size_t nr_procs;
	size_t records;	  /* wake records replay accepted, malformed ones included */
	size_t unmatched; /* ... of no known process */
	/* processes per wait, make's $(shell) calls (model/shell_call.h) left out: their wait is make's */
	size_t counts[START_UNEXPLAINED + 1];
	__u64 waited_ns[START_UNEXPLAINED + 1]; /* their gaps (ready to fork) summed */
	size_t shell_calls; /* make's $(shell) calls, each with its cause too */
};

/*
 * 0, or -ENOMEM (sc empty).  w may be NULL (every gap unexplained), g too
 * (no inputs); slots: the model's (graph/job_slots.h), borrowed.
 */
int start_causes__compute(struct start_causes *sc, const struct model *m, const struct build_graph *g,
			  const struct job_slots *slots, const struct start_wakes *w);
void start_causes__free(struct start_causes *sc);

/* "none", "input", "job_slot", "after_job", "run_queue", "parent_busy", "woken", "unexplained", "unknown". */
const char *start_wait__name(enum start_wait wait);

/*
 * What c waited for, in a few words naming the process: "input from gen
 * [123]", "input from rustc [123], still running", "a job slot (cc [124] ended)", "a job slot held by sh [124] of
 * make [99]", "the end of cc [124] (a slot was
 * free)", "the CPU run queue", "its parent (busy)", "woken by make [99]", "unexplained (woken by kworker/0:1)",
 * "nothing".  Returns buf.
 */
const char *start_cause__text(const struct start_cause *c, const struct model *m, char *buf, size_t size);

#endif /* BUILDBPF_START_CAUSE_H */
