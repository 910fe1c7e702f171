/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording analysed as `convert`, `report` and `diff` do it: replayed,
 * its build graph, start causes and audit computed, the trace, summary
 * JSON, SVG and report rendered, and compared with itself (to /dev/null).
 * What the doubling tests time and the fuzz target runs.  Plain C.
 */
#ifndef BUILDBPF_TESTS_ANALYSIS_H
#define BUILDBPF_TESTS_ANALYSIS_H

#include <stdio.h>

/*
 * Analyses the recording read from log.  0; 1 when replay refused it
 * (corrupt, or options it cannot serve); -ENOMEM or another -errno.
 */
int analysis__run(FILE *log);

#endif /* BUILDBPF_TESTS_ANALYSIS_H */
