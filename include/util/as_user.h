/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a file operation was refused to buildbpf started as root: it had left
 * root for a user (under sudo, or --user) before touching the path.  Root
 * could have read or written there, so an error that did not say as whom
 * would leave the user guessing.  Every such message is made here:
 *
 *   cannot create the trace 'out/t.json': Permission denied (buildbpf writes
 *   as alice, not root; choose a path alice can write)
 */
#ifndef BUILDBPF_AS_USER_H
#define BUILDBPF_AS_USER_H

#include <stddef.h>
#include "util/term_escape.h"

/* Room for as_user__hint()'s text: the user's name at most twice, escaped, and the advice. */
#define AS_USER_HINT_BUF (2 * TERM_ESCAPE_BUF + 256)

/*
 * For a permission error (err: EACCES or EPERM, as errno, positive) while
 * buildbpf acts as user (NULL: it stayed root), writes
 * " (buildbpf VERB as USER, not root; ADVICE)" into buf, without "; ADVICE"
 * when advice is NULL; in advice, "{}" stands for the user's name (once).
 * Otherwise buf is "".  Returns buf.
 */
const char *as_user__hint(char *buf, size_t size, int err, const char *user, const char *verb, const char *advice);

#endif /* BUILDBPF_AS_USER_H */
