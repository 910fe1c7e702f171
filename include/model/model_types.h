/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the model is: the build's processes, the images each ran, and the
 * run's figures.  model.c builds it from kernel events (model/model.h);
 * the records of one kind it hands to the module of that kind
 * (model/memory.h, model/io.h), which fill their fields here.  Every later
 * stage reads it.
 */
#ifndef BUILDBPF_MODEL_TYPES_H
#define BUILDBPF_MODEL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "events.h"

struct proc_index;

/* One program image a process ran: from its exec to the next exec or exit (72 bytes: a big build holds a million). */
struct exec_image {
	__u64 start_ns; /* the exec */
	__u64 end_ns;	/* the next exec, or the process's end */
	char *filename; /* NUL-terminated copy; raw bytes from the kernel */
	char **argv;	/* argc NUL-terminated words, raw bytes; in model.c's image chunks */
	__u64 peak_rss_kb; /* this image's own peak RSS (model/memory.h); 0: unknown */
	__u32 argc;	   /* the kernel passes at most MAX_ARG_STRINGS (0x7fffffff) */
	__u32 flags;	   /* BB_EXEC_* */
	__u32 args_full_len;
	char comm[BB_COMM_LEN + 1];
	/* image_tool() + 1, kept by the model once the image is whole: naming
	 * asks it a score of times a process.  0: worked out at each call (an
	 * image made elsewhere, or a view of one with other words). */
	__u8 tool_kept;
};
_Static_assert(sizeof(struct exec_image) <= 72, "a million processes: keep exec_image small");

/*
 * One process instance: a pid from its fork (or first sighting) to the exit
 * of its last thread.  A pid the kernel reuses within one trace is a new
 * instance, never a merge.
 */
struct proc_instance {
	/* Process indices are 32 bits: the model refuses a process past INT32_MAX (-EOVERFLOW).  (The fields
	 * are kept in order of size, the flags last: 264 bytes, and a big build holds a million of them.) */
	__u32 id;     /* index in model->procs, in order of start */
	__s32 parent; /* index of the parent instance; -1: not traced */
	__u32 pid;    /* thread group id */
	__u32 ppid;   /* the kernel's real parent tgid, as last reported */
	__u32 ns_pid; /* pid in its own (innermost) PID namespace; 0: unknown */
	__u32 exit_status; /* wait(2) status word; valid when exited */
	__u64 start_ns;	   /* fork, or first sighting when the fork was not seen */
	__u64 end_ns;	   /* exit of the last thread, or trace end if unfinished */
	__u64 ran_before_ns; /* --attach: how long it had run when found (found, below) */
	__u64 utime_ns;	     /* user CPU time, getrusage-style split */
	__u64 stime_ns;	     /* system CPU time */
	__u64 maxrss_kb;     /* the kernel's signal->maxrss: peak RSS over every
			      * image, the one it was forked with included */
	/* Memory (model/memory.h): */
	__u64 peak_rss_kb;	/* peak RSS of its own images */
	__u64 fork_peak_rss_kb; /* of the copy it was forked with; 0: unknown */
	__u64 exec_peak_rss_kb; /* highest of its exec'd images, if exec_peak_seen */
	/* I/O (model/io.h): its threads' summed I/O accounting, if io_seen. */
	struct bb_io_acct io;
	struct bb_sched_acct sched; /* where its threads' time went (--sched) */
	struct exec_image *execs;
	__u32 nr_execs;
	__u32 io_flags; /* BB_IO_*: the figures the kernel counted */
	/* BB_HIDDEN_* (model/hidden.h): the kernel hides it from the user the
	 * trace is for; its I/O, memory and files were not recorded. */
	__u32 hidden;
	__u32 nr_threads; /* threads created while traced (not the leader) */
	__u32 lane;	  /* set by lanes__assign(): 0-based lane */
	/* --follow: the pid of the daemon whose work this is (the daemon itself
	 * or what it started), 0: the command's.  Set by daemons__mark(). */
	__u32 run_by_daemon;
	char comm[BB_COMM_LEN + 1]; /* comm at its last exec; before any, at fork */
	bool forked; /* start_ns is a real fork (false for the root) */
	/* --attach: already running when first tracked (a BB_EV_PROC_FOUND
	 * record); start_ns is then when it was found, and it had run for
	 * ran_before_ns by then (kernel start time to start_ns).  Its first
	 * image is what /proc showed, its CPU times the traced part only. */
	bool found;
	bool exited;	       /* the group-dead exit was seen */
	bool unfinished;       /* still running at trace end: end_ns is the trace end */
	bool exit_record_lost; /* exited, but the status came from waitpid(): its
				* exit record (and CPU totals) were lost */
	bool fork_record_lost; /* seen first at its exec, its fork record lost:
				* start_ns is that exec, later than the fork */
	bool exec_peak_seen;
	bool peak_rss_exact; /* peak_rss_kb came from image records, not maxrss */
	bool oom_killed;     /* the OOM killer chose it */
	bool io_seen;
};
_Static_assert(sizeof(struct proc_instance) <= 264, "a million processes: keep proc_instance small");

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
	/* Its processes by (pid, start) (model/proc_index.h), made once by
	 * model__finish() for every stage that reads records naming a pid;
	 * NULL in a model built by hand (proc_index__of() makes one then). */
	struct proc_index *pids;
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

#endif /* BUILDBPF_MODEL_TYPES_H */
