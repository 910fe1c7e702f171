/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic kernel records for the pure-stage unit tests. */
#ifndef BUILDBPF_TESTS_SYNTH_H
#define BUILDBPF_TESTS_SYNTH_H

#include <stdbool.h>
#include <linux/types.h>
#include "model/model.h"

/*
 * Fork and exec records carry the namespace pid of a process in the initial
 * PID namespace (ns_tgid == tgid) unless made with the _ns variants.
 */
void synth_fork(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 child_tid, bool thread);
/* A new process (not a thread) whose own PID namespace numbers it ns_tgid. */
void synth_fork_ns(struct model *m, __u64 ts, __u32 parent_tgid, __u32 child_tgid, __u32 ns_tgid);
/* argv: NULL-terminated; the record's argv area is NUL-separated. */
void synth_exec(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *const argv[]);
void synth_exec_ns(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, __u32 ns_tgid, const char *filename,
		   const char *const argv[]);
/* The raw argv area as the kernel hands it over, for cut or odd argv. */
void synth_exec_raw(struct model *m, __u64 ts, __u32 tgid, __u32 ppid, const char *filename, const char *args,
		    size_t args_len, __u32 flags);
void synth_exit(struct model *m, __u64 ts, __u32 tgid, __u32 tid, bool group_dead, __u32 status);
/* A group-dead exit with CPU accounting. */
void synth_exit_acct(struct model *m, __u64 ts, __u32 tgid, __u32 status, __u64 utime, __u64 stime, __u64 sum_exec,
		     __u64 maxrss_kb);

#endif /* BUILDBPF_TESTS_SYNTH_H */
