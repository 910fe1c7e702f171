/* SPDX-License-Identifier: GPL-2.0 */
/*
 * I/O of each process, from the BB_EV_PROC_IO records (events.h).  Pure,
 * part of the model stage: model.c hands each record to the process it is
 * about; the exporters sum processes with io__sum() (the build, a program).
 *
 * The figures are the kernel's per-task I/O accounting summed over the
 * process's threads (bpf/proc_io.bpf.h).  A process without a record (still
 * running at the end, its record lost, a recording made before they
 * existed) has no figures (io_seen false), which is not the same as 0; nor
 * has a figure whose BB_IO_* flag the kernel left clear.
 */
#ifndef BUILDBPF_MODEL_IO_H
#define BUILDBPF_MODEL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model_types.h"

/* A sum of processes' I/O: only processes with figures count. */
struct io_totals {
	struct bb_io_acct io;
	__u32 flags;	 /* BB_IO_* any of them counted */
	size_t nr_procs; /* processes with figures */
};

/* Minimum length of an I/O record of this type; 0: not an I/O record. */
size_t io__record_size(__u32 type);
/* Applies one BB_EV_PROC_IO record to its process. */
void io__apply(struct proc_instance *p, const struct bb_proc_io_event *e);
/* Adds p's figures, if it has any, to t. */
void io__sum(struct io_totals *t, const struct proc_instance *p);
/* The build's: every process's figures summed. */
void io__build_totals(const struct model *m, struct io_totals *t);

#endif /* BUILDBPF_MODEL_IO_H */
