/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event log (.bbl): a recording of one traced build, streamed to disk
 * while the build runs, converted to a trace afterwards (or later, again,
 * with other options).
 *
 * Layout, in the recording machine's byte order (little-endian on x86-64;
 * byte_order tells a reader on another machine that it cannot read it):
 *
 *   file header   magic "BUILDBPF", __u32 version, __u32 byte_order
 *   frames        __u32 type, __u32 len, len payload bytes, zero padding to
 *                 a multiple of 8
 *
 * The frames, in this order:
 *   INFO     once: a JSON object (json-c) describing the recording, below
 *   ARGV     once: the command line, each argument NUL-terminated
 *   EVENT    any number: one kernel record (include/events.h) as captured
 *   TRAILER  once, last: struct bbl_trailer, written when the build ended
 *
 * A log without its trailer was cut short (buildbpf killed, disk full): it
 * converts up to its last complete frame.  Anything else out of place is
 * corrupt and refused.
 */
#ifndef BUILDBPF_EVENT_LOG_H
#define BUILDBPF_EVENT_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "deps_hook.h"
#include "mem_hook.h"
#include "sched_level.h"

#define BBL_MAGIC "BUILDBPF"
#define BBL_MAGIC_LEN 8
#define BBL_VERSION 1
#define BBL_BYTE_ORDER 0x01020304u
/* No frame is larger: the largest record, an exec with a PATH_MAX name and
 * 128 KiB of argv, is about 133 KiB.  A reader never allocates more. */
#define BBL_FRAME_MAX (256u << 10)
/* More CPUs than this is not a machine we record on: refused as corrupt. */
#define BBL_MAX_CPUS 8192

enum bbl_frame_type {
	BBL_FRAME_INFO = 1,
	BBL_FRAME_ARGV = 2,
	BBL_FRAME_EVENT = 3,
	BBL_FRAME_TRAILER = 4,
};

/*
 * What the command's cargo and go read a job count from besides their
 * command line, as the recorder found it when it launched the command;
 * each NULL when unset.  Only these named variables of the environment
 * buildbpf gave the command are kept, and cargo's config files and go's
 * env file are read as the user, before the command runs.
 */
struct bbl_jobs_settings {
	char *cargo_build_jobs;	 /* $CARGO_BUILD_JOBS */
	char *goflags;		 /* $GOFLAGS (its -p=N) */
	char *cargo_config_jobs; /* build.jobs, as cargo finds its config files from the command's directory */
	char *cargo_config_file; /* the file that set it */
	char *go_env_goflags;	 /* GOFLAGS in go's env file (`go env -w`), read as the user: record/go_env.h */
	char *go_env_file;	 /* that file */
};

struct bbl_file_header {
	char magic[BBL_MAGIC_LEN];
	__u32 version;
	__u32 byte_order;
};

struct bbl_frame {
	__u32 type; /* enum bbl_frame_type */
	__u32 len;  /* payload bytes, padding excluded */
};

enum bbl_trailer_flags {
	BBL_EXITED = 1 << 0,	     /* wait_status and exit_ns are valid */
	BBL_CAPTURE_FAILED = 1 << 1, /* reading the ring buffer failed mid-build */
};

struct bbl_trailer {
	__u64 lost_events; /* records the kernel could not deliver */
	__u64 end_ns;	   /* where the trace ends (CLOCK_MONOTONIC) */
	__u64 exit_ns;	   /* when waitpid() saw the command end */
	__s32 wait_status; /* the command's wait(2) status */
	__u32 flags;	   /* enum bbl_trailer_flags */
	__u32 signal_seen; /* first SIGINT/TERM/HUP/QUIT buildbpf got, or 0 */
	__u32 __pad;
	__u64 events; /* EVENT frames before this one */
};

_Static_assert(sizeof(struct bbl_file_header) == 16, "bbl_file_header ABI");
_Static_assert(sizeof(struct bbl_frame) == 8, "bbl_frame ABI");
_Static_assert(sizeof(struct bbl_trailer) == 48, "bbl_trailer ABI");

/* The recording's INFO and ARGV frames. */
struct event_log_info {
	char *buildbpf_version;
	char *kernel_release; /* uname -r of the recording machine */
	char *user;	      /* the user the command ran as */
	long online_cpus;     /* CPUs online when recording */
	__u32 possible_cpus;  /* bound of every record's hdr.cpu */
	long page_size;
	__u64 start_ns; /* CLOCK_MONOTONIC at the command's fork: the trace start */
	/* CLOCK_REALTIME - CLOCK_MONOTONIC at the start: a monotonic time plus
	 * this is wall-clock ns since the epoch */
	__s64 realtime_offset_ns;
	/* How well that offset is known, for placing logs of several hosts
	 * side by side (`convert --add`).  Optional in INFO (absent in
	 * recordings made before it existed: 0, unknown):
	 * realtime_offset_err_ns: half the tightest paired read's window;
	 * clock_esterror_us: the kernel's NTP estimated error (adjtimex);
	 * clock_synced: the kernel's clock was NTP-synchronised. */
	__u64 realtime_offset_err_ns;
	__u64 clock_esterror_us;
	bool clock_synced;
	/* The recording machine's host name (uname nodename); NULL when
	 * unknown (recordings made before it was kept).  Optional in INFO. */
	char *host;
	__u32 root_pid;	      /* the command's pid */
	__u32 args_max;	      /* --args-max in force */
	__u64 ringbuf_bytes;  /* --buffer-size */
	enum sched_level sched;	   /* what the kernel side recorded */
	__u64 sched_resolution_ns; /* --sched-resolution when recording */
	bool wait_all;
	/* --deps=on: file records were recorded ("deps" in INFO; absent in
	 * recordings made before it existed: off). */
	bool deps;
	/* How file dependencies hook the recording's kernel, recorded or not
	 * ("deps_hook" in INFO: "fentry", "syscall"; absent in recordings made
	 * before it was kept: UNKNOWN). */
	enum deps_hook deps_hook;
	/* Where the memory programs checkpointed an image's peak ("mem_hook"
	 * in INFO: "tracepoint", "fentry", "syscall"; absent in recordings
	 * made before it was kept: UNKNOWN). */
	enum mem_hook mem_hook;
	/* --attach: root_pid was running before the trace (its tree is seeded
	 * with BB_EV_PROC_FOUND records); cmd_argv is its /proc cmdline.
	 * Optional in INFO: absent is false. */
	bool attached;
	/* --cgroup: the cgroup v2 directory traced (root_pid is 0 then: no
	 * process is the root); NULL: none.  Optional in INFO. */
	char *cgroup;
	/* --follow: the daemons traced beside the command (their processes
	 * are theirs, not the command's).  Optional in INFO: an int array. */
	const pid_t *follow;
	size_t nr_follow;
	/* --mem-period when recording; 0: the build's memory was not sampled
	 * (also in recordings made before it existed) */
	__u64 mem_period_ns;
	/* The CPUs online when recording, in the kernel's list format
	 * ("0-3,8"); NULL when unknown.  Offline possible CPUs send no records. */
	char *online_cpu_list;
	/* MAKEFLAGS in the command's environment (the job count make
	 * inherits); NULL when unset. */
	char *makeflags;
	/* Where cargo and go take a job count from besides their command
	 * line; "jobs_settings" in INFO, optional. */
	struct bbl_jobs_settings jobs_settings;
	/* PATH the command ran with (two traces of one build can differ by
	 * it: sudo's secure_path); NULL when unset or unknown. */
	char *path_env;
	/* The command's working directory when it was launched, where slice
	 * names take relative paths from; NULL when unknown (recordings made
	 * before it was kept, or getcwd() failed). */
	char *cwd;
	char **cmd_argv; /* NULL-terminated */
	int cmd_argc;
};

void event_log_info__free(struct event_log_info *info);

/* ---- writing ---- */

struct event_log_writer;

/*
 * Writes the file header, INFO and ARGV frames to fd (not closed by the
 * writer).  0, or -errno.
 */
int event_log_writer__open(struct event_log_writer **out, int fd, const struct event_log_info *info);
/*
 * Copies one record into the write buffer; writes the buffer out only when
 * it is full, so the ring-buffer callback stays a memcpy.  0, or -errno of
 * a failed write (every later call fails the same way).
 */
int event_log_writer__add(struct event_log_writer *w, const void *rec, size_t len);
/* Writes out what is buffered: the event loop calls it after each poll. */
int event_log_writer__flush(struct event_log_writer *w);
/*
 * Appends the trailer and flushes; with sync, fsyncs too (a log that must
 * outlive buildbpf; the one-step path's temporary log is read back at once).
 * 0, or -errno.
 */
int event_log_writer__finish(struct event_log_writer *w, const struct bbl_trailer *trailer, bool sync);
/* EVENT frames accepted so far. */
__u64 event_log_writer__events(const struct event_log_writer *w);
void event_log_writer__free(struct event_log_writer *w);

/* ---- reading ---- */

struct event_log_reader;

/*
 * Reads and checks the header, INFO and ARGV frames.  0, or -errno with a
 * one-line reason (no "buildbpf:" prefix, no path) in err: -EBADMSG for a
 * file that is not a log or is corrupt, -EPROTONOSUPPORT for another format
 * version or byte order, -ENODATA when it ends before its INFO/ARGV.
 */
int event_log_reader__open(struct event_log_reader **out, FILE *f, char *err, size_t err_size);
const struct event_log_info *event_log_reader__info(const struct event_log_reader *r);
/*
 * The next record: 1 with *rec and *len set (valid until the next call), 0 at
 * the trailer (the log is complete), -ENODATA where the log was cut short
 * (a partial frame, or zeros where the file was never written), -EBADMSG
 * for a corrupt frame, or -errno of a read error; err says which.
 */
int event_log_reader__next(struct event_log_reader *r, const void **rec, size_t *len, char *err, size_t err_size);
/* The trailer once __next() returned 0; NULL before, or if there is none. */
const struct bbl_trailer *event_log_reader__trailer(const struct event_log_reader *r);
/* File offset of the end of the last complete frame. */
__u64 event_log_reader__offset(const struct event_log_reader *r);
void event_log_reader__free(struct event_log_reader *r);

#endif /* BUILDBPF_EVENT_LOG_H */
