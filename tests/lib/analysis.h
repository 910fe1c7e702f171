/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording analysed as `convert` and `report` do it: replayed, its
 * build graph, start causes and audit computed, and the trace, the
 * summary JSON, the SVG and the report rendered (to /dev/null).  What the
 * doubling tests time and the analysis fuzz target runs.  Plain C.
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
