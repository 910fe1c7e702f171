/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reconstruction: kernel events in, a model of the build's process tree
 * out.  Pure: no libbpf, no I/O, so it is tested from synthetic events.
 *
 *   struct model *m = model__new(root_pid, start_ns);
 *   model__add_event(m, rec, len);   ... for every record, any order
 *   model__finish(m, end_ns);        sorts, rebuilds, closes
 *   lanes__assign_model(m);          packs lanes (model/lanes.h)
 *   ... read m->procs[0 .. m->nr_procs) ...
 *   model__free(m);
 */
#ifndef BUILDBPF_MODEL_H
#define BUILDBPF_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "events.h"

/* One program image a process ran: from its exec to the next exec or exit. */
struct exec_image {
	__u64 start_ns; /* the exec */
	__u64 end_ns;	/* the next exec, or the process's end */
	char *filename; /* NUL-terminated copy; raw bytes from the kernel */
	char **argv;	/* argc NUL-terminated words, raw bytes, in one block argv[0] starts */
	size_t argc;
	__u32 flags; /* BB_EXEC_* */
	__u32 args_full_len;
	char comm[BB_COMM_LEN + 1];
	__u64 peak_rss_kb; /* this image's own peak RSS (model/memory.h); 0: unknown */
};

/*
 * One process instance: a pid from its fork (or first sighting) to the exit
 * of its last thread.  A pid the kernel reuses within one trace is a new
 * instance, never a merge.
 */
struct proc_instance {
	size_t id;	/* index in model->procs, in order of start */
	long parent;	/* index of the parent instance; -1: not traced */
	__u32 pid;	/* thread group id */
	__u32 ppid;	/* the kernel's real parent tgid, as last reported */
	__u32 ns_pid;	/* pid in its own (innermost) PID namespace; 0: unknown */
	__u64 start_ns; /* fork, or first sighting when the fork was not seen */
	__u64 end_ns;	/* exit of the last thread, or trace end if unfinished */
	bool forked;	/* start_ns is a real fork (false for the root) */
	/* --attach: already running when first tracked (a BB_EV_PROC_FOUND
	 * record); start_ns is then when it was found, and it had run for
	 * ran_before_ns by then (kernel start time to start_ns).  Its first
	 * image is what /proc showed, its CPU times the traced part only. */
	bool found;
	__u64 ran_before_ns;
	bool exited;	/* the group-dead exit was seen */
	bool unfinished; /* still running at trace end: end_ns is the trace end */
	bool exit_record_lost; /* exited, but the status came from waitpid(): its
				* exit record (and CPU totals) were lost */
	bool fork_record_lost; /* seen first at its exec, its fork record lost:
				* start_ns is that exec, later than the fork */
	__u32 exit_status; /* wait(2) status word; valid when exited */
	__u64 utime_ns;	   /* user CPU time, getrusage-style split */
	__u64 stime_ns;	   /* system CPU time */
	__u64 maxrss_kb;   /* the kernel's signal->maxrss: peak RSS over every
			    * image, the one it was forked with included */
	/* Memory (model/memory.h): */
	__u64 peak_rss_kb;	/* peak RSS of its own images */
	__u64 fork_peak_rss_kb; /* of the copy it was forked with; 0: unknown */
	__u64 exec_peak_rss_kb; /* highest of its exec'd images, if exec_peak_seen */
	bool exec_peak_seen;
	bool peak_rss_exact; /* peak_rss_kb came from image records, not maxrss */
	bool oom_killed;     /* the OOM killer chose it */
	/* BB_HIDDEN_* (model/hidden.h): the kernel hides it from the user the
	 * trace is for; its I/O, memory and files were not recorded. */
	__u32 hidden;
	/* I/O (model/io.h): its threads' summed I/O accounting, if io_seen. */
	struct bb_io_acct io;
	__u32 io_flags; /* BB_IO_*: the figures the kernel counted */
	bool io_seen;
	struct bb_sched_acct sched; /* where its threads' time went (--sched) */
	__u32 nr_threads;  /* threads created while traced (not the leader) */
	char comm[BB_COMM_LEN + 1]; /* comm at its last exec; before any, at fork */
	struct exec_image *execs;
	size_t nr_execs;
	__u32 lane; /* set by lanes__assign(): 0-based lane */
	/* --follow: the pid of the daemon whose work this is (the daemon itself
	 * or what it started), 0: the command's.  Set by daemons__mark(). */
	__u32 run_by_daemon;
};

/* One reading of the build's memory (model/memory.h). */
struct mem_sample {
	__u64 ts_ns;
	__u64 total_kb;
};

struct model_stats {
	size_t events;	    /* kernel records accepted */
	size_t memory_records; /* of them, BB_EV_MEM_IMAGE (2 per process: its forked copy, its last image) */
	size_t user_records;   /* records user space added (memory pressure, samples) */
	size_t io_records;     /* of the kernel's, BB_EV_PROC_IO (1 per process, at its end) */
	size_t malformed;   /* records rejected by size or type checks */
	size_t reordered;   /* records whose timestamp was older than one before */
	size_t orphan_events; /* exec/exit of a pid with no live instance */
	size_t pid_reuses;  /* a fork reused a pid that was still live to us */
};

struct model {
	struct proc_instance *procs; /* sorted by (start_ns, creation order) */
	size_t nr_procs;
	size_t nr_lanes;
	__u64 start_ns; /* trace start: the launcher's fork of the command */
	__u64 end_ns;	/* trace end: the command's exit (or later) */
	__u32 root_pid;
	long root; /* index of the root instance, -1 if never seen */
	/* The command's working directory at launch (absolute); NULL: not
	 * recorded.  The kernel reports no process's cwd, so this is the one
	 * directory known for sure. */
	char *cwd;
	/* Where each process and image ran (model/proc_dirs.h) and each
	 * process's name as a step told apart from the others
	 * (model/step_names.h): made by the replay from the finished model,
	 * NULL until then.  Each is kept with the function that frees it, so
	 * that the model needs none of the files that name its processes. */
	struct proc_dirs *dirs;
	void (*free_dirs)(struct proc_dirs *dirs);
	struct step_names *names;
	void (*free_names)(struct step_names *names);
	struct model_stats stats;
	/* Memory pressure (PSI) at the recording's start and end, nr_psi of
	 * them seen (model/memory.h). */
	struct bb_mem_psi_event psi_first, psi_last;
	size_t nr_psi;
	/* The build's memory over time (--mem-period), in time order, and the
	 * sample of its peak with the five largest processes then. */
	struct mem_sample *mem_samples;
	size_t nr_mem_samples, mem_samples_cap;
	struct bb_mem_sample_event mem_peak; /* valid when nr_mem_samples */
	struct model_priv *priv; /* buffered events, pid index */
};

struct model *model__new(__u32 root_pid, __u64 start_ns);
/*
 * Copies one ring-buffer record.  Returns 0, or -EINVAL for a record that is
 * too short for its type or of an unknown type (counted in stats.malformed).
 */
int model__add_event(struct model *m, const void *rec, size_t len);
/*
 * Orders the buffered events by timestamp (stable: same-timestamp records
 * keep ring-buffer order), builds the instances, closes the ones still
 * running at end_ns as unfinished.  Call once; lanes are packed after it
 * (lanes__assign_model()), where each process ran is inferred
 * (proc_dirs__attach()), by the layers above the model.
 */
int model__finish(struct model *m, __u64 end_ns);
/* Keeps a copy of the command's working directory (drops m->dirs, inferred from it).  0, or -ENOMEM. */
int model__set_cwd(struct model *m, const char *cwd);
void model__free(struct model *m);

/* p's topmost traced ancestor: p itself when its parent was not traced. */
const struct proc_instance *proc_top(const struct model *m, const struct proc_instance *p);

/*
 * The program a process ran last: its image's basename (its comm before any
 * exec).  What the audit's "by program" figures, the SVG's colours and the
 * diff group by.
 */
const char *proc_program(const struct proc_instance *p);

/*
 * Sorts the n proc indexes in procs by proc_program(), equal programs in
 * index order, so that each program's processes come together.  0 or -ENOMEM.
 */
int model__sort_by_program(const struct model *m, size_t *procs, size_t n);

/* The image a process ran at time ts; NULL before its first exec. */
const struct exec_image *proc_image_at(const struct proc_instance *p, __u64 ts_ns);

/*
 * The process tree as arrays (CSR): the children of procs[i] are
 * (*children)[(*child_off)[i] .. (*child_off)[i + 1]), in model order.
 * *child_off has nr_procs + 1 entries, *children at least one; the caller
 * frees both.  0, or -ENOMEM with both NULL.
 */
int model__index_children(const struct model *m, size_t **child_off, size_t **children);
/*
 * Whether procs[parent] ran its children one at a time: each child (in
 * model order, from model__index_children()'s arrays) forked when every
 * child before it had ended.  Ends that touch count: a shell forks its next
 * command as soon as it reaps the one before, and the two clocks may read
 * the same nanosecond.  A parent of one child, or of none, did.
 */
bool model__children_one_at_a_time(const struct model *m, const size_t *child_off, const size_t *children,
				   size_t parent);

#endif /* BUILDBPF_MODEL_H */
