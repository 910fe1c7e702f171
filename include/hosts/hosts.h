/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several machines, one trace (`convert A.bbl --add B.bbl`): the logs of
 * one build recorded on different hosts — the client's build and each
 * distccd worker's --attach recording — placed side by side on their wall
 * clocks.  Pure: replayed logs in, aligned models, the remote jobs linked
 * to the client processes that waited for them, and the audit over every
 * CPU of every host out.  No I/O, no clock.
 *
 * Each host keeps its own model (its pids, its CPUs, its layout): pids of
 * two machines are not one namespace, so they are never mixed into one
 * model; the trace writer gives each host its own trace processes.  What
 * the alignment changes is each model's time origin: every host's model
 * starts at the same wall-clock instant (the earliest host's start) and
 * ends at the same one (the latest end), expressed in that host's own
 * CLOCK_MONOTONIC, so trace_us() of any host is microseconds since one
 * common start.
 *
 *   struct host hosts[n] = { { .rp = &replay_a, .log_name = "a.bbl" }, ... };
 *   struct host_set hs;
 *   hosts__align(&hs, hosts, n, err, sizeof(err));   rebases, relays out
 *   hosts__link_remote_jobs(&hs);                    distcc client <-> job
 *   hosts__audit(&hs);
 *   ...
 *   hosts__free(&hs);
 */
#ifndef BUILDBPF_HOSTS_H
#define BUILDBPF_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "model/replay.h"

/* At most this many logs in one trace: A plus 63 --add. */
#define HOSTS_MAX 64
/* Logs whose wall-clock spans lie further apart than this are not one build. */
#define HOSTS_MAX_GAP_NS (3600ull * 1000000000ull)

/* One host's recording. */
struct host {
	struct replay *rp;    /* replayed; its model and layout are rebased by hosts__align() */
	const char *log_name; /* for messages */
	char name[80];	      /* INFO's host, else "host N"; unique in the set ("NAME #2") */
	__s64 realtime_offset_ns;
	/* Bounds of its model before the alignment, in its own clock. */
	__u64 own_start_ns, own_end_ns;
	/* Its clock relative to the first log's: a time t of this host is
	 * t + shift_ns in the first host's CLOCK_MONOTONIC. */
	__s64 shift_ns;
};

/* How a remote job was matched to the client process that waited for it. */
enum remote_match {
	MATCH_SOURCE = 0, /* the job's argv names the client's source file (pump mode) */
	MATCH_WINDOW,	  /* the only client in whose time window the job fits, same flags */
	MATCH_END_ORDER,  /* of several such clients, the first to end after the job did */
	MATCH_KINDS,
};

struct remote_link {
	size_t client_host, client_proc; /* the `distcc cc -c foo.c` process */
	size_t job_host, job_proc;	 /* the compiler the daemon ran for it */
	enum remote_match how;
	__u64 wait_ns;	 /* the client's wait: from its send to its end */
	__u64 job_ns;	 /* the job's wall time */
	__u64 job_cpu_ns; /* CPU of the job and its descendants (cc1, as) */
};

/* The audit over every CPU of every host, on the common time line. */
struct hosts_audit {
	__u64 wall_ns;	      /* the common span: earliest start to latest end */
	size_t nr_cpus;	      /* every host's online CPUs */
	__u64 cpu_ns;	      /* CPU time of every traced process of every host */
	double utilisation;   /* cpu_ns / (nr_cpus * wall_ns) */
	double parallelism;   /* cpu_ns / wall_ns: average busy CPUs */
	double peak_running;  /* highest sum of the hosts' "running" counters (--sched) */
	bool peak_known;      /* every host recorded scheduler counters */
	/* distcc: the client processes, the daemons' jobs, and what matched */
	size_t clients, jobs, matched;
	size_t by[MATCH_KINDS];
	size_t arrows_not_drawn; /* matched, but the job starts before its client in the trace */
	__u64 client_wall_ns;	/* wall time of every distcc client */
	__u64 local_wait_ns;	/* matched clients' wait for their job */
	__u64 remote_job_ns;	/* matched jobs' wall time */
	__u64 remote_cpu_ns;	/* every job's CPU, descendants included */
};

struct host_set {
	struct host *hosts;
	size_t nr;
	__u64 start_wall_ns, end_wall_ns; /* the common span, ns since the epoch */
	/* The alignment's accuracy: the largest pairwise sum of the hosts'
	 * offset read errors and NTP estimated errors; known only when every
	 * log recorded them and every clock was NTP-synchronised. */
	__u64 accuracy_ns;
	bool accuracy_known;
	const char *accuracy_note; /* why it is not known; NULL when it is */
	struct remote_link *links;
	size_t nr_links;
	struct hosts_audit audit;
};

/*
 * Names the hosts, checks the logs can be placed (each records a
 * wall-clock offset; their spans lie within HOSTS_MAX_GAP_NS of one
 * another) and rebases every model onto the common span, its layout
 * rebuilt.  hs borrows hosts.  0, or -errno with a one-line reason in err.
 */
int hosts__align(struct host_set *hs, struct host *hosts, size_t n, char *err, size_t err_size);
/* Where a time of host h lies on the common time line: ns since the common start. */
__s64 hosts__common_ns(const struct host_set *hs, size_t h, __u64 ns);
/*
 * Links each distcc job a daemon ran (a compiler whose input is distccd's
 * temporary file, or the client's source in pump mode) to the distcc
 * client on another host that waited for it.  0, or -ENOMEM.
 */
int hosts__link_remote_jobs(struct host_set *hs);
/* Fills hs->audit (after the links).  0, or -ENOMEM. */
int hosts__audit(struct host_set *hs);
void hosts__free(struct host_set *hs);

const char *remote_match_name(enum remote_match how);

#endif /* BUILDBPF_HOSTS_H */
