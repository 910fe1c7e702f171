/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -j a make, ninja, cargo or go command line asks for, read as the
 * tool reads its options.  One reader for the audit's job count (audit/audit.c) and the
 * job slots make's sub-makes share (graph/job_slots.c).  Pure.
 */
#ifndef BUILDBPF_MODEL_MAKE_ARGS_H
#define BUILDBPF_MODEL_MAKE_ARGS_H

#include <stddef.h>

/* make's argv[1..argc) up to "--": the -j it gives.  0: none; -1: -j alone (no limit); else N. */
long make_args__jobs(char *const *argv, size_t argc);
/* $MAKEFLAGS ("kj8 --no-print-directory -- VAR=x" or " -j8"): the same. */
long make_args__makeflags_jobs(const char *flags);
/* ninja's argv: 0 none, -1 no limit (-j0), else N. */
long make_args__ninja_jobs(char *const *argv, size_t argc);
/* cargo's argv (-jN, -j N, --jobs N, --jobs=N, before "--"): 0 none or unreadable, else N. */
long make_args__cargo_jobs(char *const *argv, size_t argc);
/* The go command's argv (-p N, -p=N, before its first package): 0 none or unreadable, else N. */
long make_args__go_jobs(char *const *argv, size_t argc);
/*
 * cargo's argv: the job count as written (-jN, -j N, --jobs=N, --jobs N,
 * else --config build.jobs=N), not yet read (it may be negative); NULL: none.
 */
const char *make_args__cargo_jobs_arg(char *const *argv, size_t argc);
/*
 * A cargo job count as cargo reads it (from its argv, $CARGO_BUILD_JOBS or
 * build.jobs): N; -N: the CPUs less N, at least 1; 0: cargo's default
 * ("default", or not a count).
 */
long make_args__cargo_jobs_value(const char *value, size_t nr_cpus);
/* $GOFLAGS ("-p=4 -mod=mod"): the -p=N it gives; 0: none. */
long make_args__goflags_jobs(const char *goflags);

#endif /* BUILDBPF_MODEL_MAKE_ARGS_H */
