/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Processes the kernel hides from the user the trace is for (BB_HIDDEN_*,
 * bpf/hidden.bpf.h): a setuid or setgid program the build ran, one that
 * made itself undumpable.  Their I/O, memory and files were left out when
 * recorded; the model keeps why, and the exporters say it with these.
 */
#ifndef BUILDBPF_MODEL_HIDDEN_H
#define BUILDBPF_MODEL_HIDDEN_H

#include <stddef.h>
#include "model/model.h"

struct hidden_counts {
	size_t procs;	     /* hidden for any reason */
	size_t creds;	     /* of them, BB_HIDDEN_CREDS */
	size_t not_dumpable; /* of them, BB_HIDDEN_NOT_DUMPABLE */
};

void hidden__count(const struct model *m, struct hidden_counts *c);
/* Why, in words, for a nonzero set of BB_HIDDEN_* ("setuid or setgid", ...). */
const char *hidden__why(__u32 hidden);

#endif /* BUILDBPF_MODEL_HIDDEN_H */
