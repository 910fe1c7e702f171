/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's memory pressure (PSI): /proc/pressure/memory read at the
 * recording's start and end, into BB_EV_MEM_PSI records (events.h) that go
 * into the event log like the kernel's, so convert and report replay them.
 */
#ifndef BUILDBPF_MEM_PRESSURE_H
#define BUILDBPF_MEM_PRESSURE_H

#include <linux/types.h>
#include "events.h"

/* Parses the file's text ("some ... total=N" and "full ... total=N").  0, or -EINVAL. */
int mem_pressure__parse(const char *text, struct bb_mem_psi_event *e);
/* Reads the running kernel's, stamped ts_ns.  0, or -errno (-ENOENT: no PSI here). */
int mem_pressure__read(struct bb_mem_psi_event *e, __u64 ts_ns);

#endif /* BUILDBPF_MEM_PRESSURE_H */
