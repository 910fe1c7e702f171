/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace file: checked and created before the build starts, written to
 * a temporary name in the same directory and renamed over the final name
 * only when complete.  Never silently overwrites.
 */
#ifndef BUILDBPF_OUTPUT_H
#define BUILDBPF_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include "util/as_user.h"

struct output {
	char *path;	/* what the user asked for */
	char *tmp_path; /* .NAME.XXXXXX beside it */
	int fd;		/* open on tmp_path */
	bool force;	/* replace an existing file */
};

/*
 * Checks that path can be created (refusing an existing file unless force,
 * and always a directory, FIFO or device) and creates the temporary file,
 * mode 0666 less the umask (as open(2) would make the output), owned by
 * whoever buildbpf runs as (the user, under sudo).  0, or -1 with a one-line
 * message printed that names the file as `what` ("trace") and the option
 * that chose it (opt, "-o").  writer: the user buildbpf left root for
 * (under sudo or --user), NULL when it did not: a permission error names
 * them, since root could have written there and the user must see why
 * buildbpf did not.
 */
int output__prepare(struct output *o, const char *path, const char *what, const char *opt, bool force,
		    const char *writer);
/*
 * What follows strerror(err) in an error about an output written as writer
 * (NULL: buildbpf stayed root): for a permission error, as whom buildbpf
 * writes and to choose a path they can (util/as_user.h); else "".  buf
 * (AS_USER_HINT_BUF bytes) holds the text.
 */
const char *output__permission_hint(int err, const char *writer, char *buf, size_t size);
/* Makes the written temporary file the output.  0, or -errno. */
int output__commit(struct output *o);
/*
 * Removes the temporary file.  0, or -errno when it could not be removed
 * (an immutable directory, say): tmp_path then still names it, for the
 * caller to report, until output__free().
 */
int output__discard(struct output *o);
void output__free(struct output *o);

/*
 * Creates a fresh file BASE.XXXXXX SUFFIX in $TMPDIR (or /tmp), mode 0600
 * whatever the umask (other users share that directory): for a trace that
 * could not be written where asked, and for the one-step path's event log.  Returns an fd and sets *path (malloc'd),
 * or -errno.
 */
int output__create_fallback(const char *base, const char *suffix, char **path);
/*
 * What follows strerror(err) when output__create_fallback() failed with
 * -err, as writer (NULL: root): where else to make it, and for a
 * permission error as whom buildbpf writes.  buf (AS_USER_HINT_BUF bytes)
 * holds the text.
 */
const char *output__fallback_hint(int err, const char *writer, char *buf, size_t size);
/*
 * Creates path itself, not a temporary beside it (record's event log: a
 * crash leaves it where the user asked), mode 0666 less the umask, with output__prepare()'s checks,
 * refusals and writer.  An fd, or -1 with a one-line message printed.
 */
int output__create_direct(const char *path, const char *what, const char *opt, bool force, const char *writer);

#endif /* BUILDBPF_OUTPUT_H */
