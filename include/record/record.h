/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording: launches the command, captures its process tree's events and
 * streams them into an event log until the command ends.  Knows BPF only
 * through capture; knows nothing of traces.
 */
#ifndef BUILDBPF_RECORD_H
#define BUILDBPF_RECORD_H

#include <stdbool.h>
#include <linux/types.h>
#include <stddef.h>
#include "record/deps_probe.h"
#include "record/launch.h"
#include "sched_level.h"

/* What to record and how: the recorder's own options (main fills them). */
struct record_opts {
	char **cmd_argv;	   /* NULL-terminated */
	int cmd_argc;
	__u32 args_max;		   /* argv bytes kept per exec */
	size_t ringbuf_bytes;	   /* ring buffer size */
	bool verbose;		   /* libbpf's debug messages */
	enum sched_level sched;	   /* scheduler detail recorded */
	__u64 sched_resolution_ns; /* the lanes' resolution, for the idle threshold */
	bool wait_all;		   /* until every descendant has exited */
	enum deps_choice deps;	   /* --deps as given (record/deps_probe.h) */
	__u64 mem_period_ns;	   /* build memory sampled this often; 0: not */
	bool sync_log;		   /* the log is kept: on disk before record__run() returns */
	/* --attach: trace this running process's tree instead of cmd_argv
	 * (0: none); attach_pidfd pins it (attach__open_target()); -1: no
	 * pidfd, the process's exit record ends the trace instead. */
	pid_t attach_pid;
	int attach_pidfd;
	__u64 duration_ns; /* --duration: stop tracing after this long; 0: no limit */
	/* --cgroup: trace the processes of this cgroup v2 (id 0: none), like
	 * --attach but with no root process */
	const char *cgroup_path;
	/* --follow: daemons whose tree is traced beside the command's
	 * (pinned by the caller's pidfds, attach__open_target()) */
	const pid_t *follow;
	const int *follow_pidfds; /* their pidfds (-1: none), nr_follow of them */
	size_t nr_follow;
	__u64 cgroup_id;
	__u32 cgroup_level;
	/* The user the trace is for (the one buildbpf becomes), unless root:
	 * what the kernel would not show them of a process is left out. */
	bool hide_unreadable;
	uid_t viewer_uid;
	gid_t viewer_gid;
};

struct record_result {
	/* buildbpf's exit status: the command's (128+N for signal N), 127/126
	 * when it could not run, 1 when buildbpf failed before it ran */
	int exit_code;
	int died_of;	    /* the signal that killed the command; 0: it exited */
	bool ran;	    /* the command ran: the log is worth converting */
	bool log_complete;  /* every event and the trailer reached the log */
	__u64 events;	    /* records written to the log */
	__u64 unwritten;    /* records that arrived after the log failed */
	__u64 lost_events;  /* records the kernel could not deliver */
	double wall_s;	    /* the command's wall time */
};

struct recorder;

/*
 * Blocks the signals the recording reads and loads and attaches the BPF
 * programs: the one step that needs root, so it comes first (then
 * privilege__drop()).  0, or -1 with a message printed.
 */
int record__open(struct recorder **r, const struct record_opts *opts);
/*
 * With opts->attach_pid: traces that process's tree, existing and new,
 * until a SIGINT/TERM/HUP/QUIT, opts->duration_ns, or the process's exit;
 * no command runs and none is signalled; res->exit_code is 0 unless
 * buildbpf itself failed.  Otherwise:
 * Runs opts->cmd_argv as the user buildbpf now is, traced, streaming every
 * record to log_fd (log_name is for messages), with $BUILDBPF_TRACE_DIR set
 * to trace_dir when not NULL.  Once the command is done the signal mask is
 * buildbpf's own again.  Call once.  Always fills res; messages are printed.
 */
void record__run(struct recorder *r, const struct run_as *ra, int log_fd, const char *log_name,
		 const char *trace_dir, struct record_result *res);
/* Detaches the BPF programs, frees; accepts NULL. */
void record__free(struct recorder *r);

#endif /* BUILDBPF_RECORD_H */
