/* SPDX-License-Identifier: GPL-2.0 */
/* The audit's what-if (audit/audit_whatif.h) in words, for the stderr report. */
#ifndef BUILDBPF_WHATIF_REPORT_H
#define BUILDBPF_WHATIF_REPORT_H

#include <stdio.h>
#include "audit/audit.h"

/* "what if? -j2 on 2 CPUs (...)..." answer lines; nothing when not known. */
void whatif_report__answer(FILE *out, const struct audit *a, const struct model *m);
/* The -v table: each critical step's share and wall without it, then the rows. */
void whatif_report__detail(FILE *out, const struct audit *a, const struct model *m);

/* "; outside any job (a runner's own work): N s (S %)" when the critical
 * path's time held by no job is 1 % of the wall or more, and "; waits
 * between the steps (...): N s (S %)" when its waits are; else nothing. */
void whatif_report__put_runner_held(FILE *f, const struct audit *a);

#endif /* BUILDBPF_WHATIF_REPORT_H */
