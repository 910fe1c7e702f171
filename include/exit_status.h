/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buildbpf's own exit statuses.  Otherwise it exits with the command's
 * status (128+N when the command was killed by signal N, 127/126 when it
 * could not run).
 */
#ifndef BUILDBPF_EXIT_STATUS_H
#define BUILDBPF_EXIT_STATUS_H

#define EXIT_FAILURE_SETUP 1 /* buildbpf failed before the command ran */
#define EXIT_USAGE 2	     /* the command line was refused */
/* buildbpf diff: a --fail-if condition held (2: usage, unreadable input) */
#define EXIT_GATE_FAILED 1

#endif /* BUILDBPF_EXIT_STATUS_H */
