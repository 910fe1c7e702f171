/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where merged traces come from: a directory given by fd (the trace
 * directory the command wrote in, record/trace_dir.h), and --merge paths
 * or globs ('**' matches any number of directories).  Each regular file
 * found is read (up to the size cap) and handed to trace_merge__add(); a
 * file that cannot be read or merged gets one warning line.  No libbpf: unit-tested on temporary trees.
 */
#ifndef BUILDBPF_TRACE_FILES_H
#define BUILDBPF_TRACE_FILES_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "merge/trace_merge.h"

/* Bounds on a walk, against hostile or runaway trees. */
#define TRACE_FILES_MAX_DEPTH 32
#define TRACE_FILES_MAX_FILES 100000

struct trace_files;

/* Feeds tm; warnings ("buildbpf: warning: ...") go to warn. */
struct trace_files *trace_files__new(struct trace_merge *tm, FILE *warn);
/*
 * When *stop becomes non-zero (a signal handler's flag), the walks end at
 * the next file with -EINTR.
 */
void trace_files__set_stop(struct trace_files *tf, const volatile sig_atomic_t *stop);
/* Every regular file under dir_fd, any depth, symlinks not followed.  0, -ENOMEM or -EINTR. */
int trace_files__add_dir(struct trace_files *tf, int dir_fd, const char *dir_path);
/* A path, or a glob(7) pattern where a '**' component matches zero or more directories.  0, -ENOMEM or -EINTR. */
int trace_files__add_glob(struct trace_files *tf, const char *pattern);
/* Files seen (merged or skipped). */
size_t trace_files__count(const struct trace_files *tf);
void trace_files__free(struct trace_files *tf);

#endif /* BUILDBPF_TRACE_FILES_H */
