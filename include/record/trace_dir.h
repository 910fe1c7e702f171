/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace directory: a private directory exported to the traced command
 * as $BUILDBPF_TRACE_DIR, where its tools write their own traces for
 * buildbpf to merge.  Its life (create, export, keep or remove) is here;
 * merge only reads the files of the path and fd it is given.
 */
#ifndef BUILDBPF_TRACE_DIR_H
#define BUILDBPF_TRACE_DIR_H

#include <stdbool.h>

#define TRACE_DIR_ENV "BUILDBPF_TRACE_DIR"

struct trace_dir {
	char path[4096];
	int fd; /* the directory itself, opened when it was made; -1: none */
	const char *user; /* whom buildbpf acts as (not owned), named in errors; NULL: root */
};

/*
 * Makes a fresh private directory (mkdtemp, mode 0700) under $TMPDIR or
 * /tmp, without following a symlink.  0, or -errno with d->fd -1.
 */
int trace_dir__create(struct trace_dir *d);
/*
 * trace_dir__create() for a run, or nothing when not wanted: on failure a
 * warning is printed and d->fd is -1 (the command runs without one).
 * user: whom buildbpf acts as (run_as__user()), named by a permission
 * error here and in trace_dir__finish(); it must outlive d.
 */
void trace_dir__open_for_run(struct trace_dir *d, bool wanted, const char *user);
/* Whether a tool wrote there (true when that cannot be told). */
bool trace_dir__has_files(const struct trace_dir *d);
/*
 * Removes the directory and everything in it, never following a symlink
 * out of it.  0, or -errno of the first failure.  Closes d->fd.
 */
int trace_dir__remove(struct trace_dir *d);
/*
 * After the run: kept when asked (keep) or, with keep_if_used (record, whose
 * tools' traces are merged at convert time), when a tool wrote there, and
 * the user told where; else removed (a failure is a warning).
 */
void trace_dir__finish(struct trace_dir *d, bool keep, bool keep_if_used);
void trace_dir__close(struct trace_dir *d);

#endif /* BUILDBPF_TRACE_DIR_H */
