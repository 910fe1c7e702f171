/* SPDX-License-Identifier: GPL-2.0 */
/* The audit's what-if (audit/audit_whatif.h) in words, for the stderr report. */
#ifndef BUILDBPF_WHATIF_REPORT_H
#define BUILDBPF_WHATIF_REPORT_H

#include <stdio.h>
#include "audit/audit.h"

/*
 * "what if? predicted: -j2 on 2 CPUs 3.10 s (as run; ...); on a quiet
 * machine: ..." answer lines; nothing when not known.  brief: the rows
 * only, without what each row's note adds (the outside work, the data path).
 */
void whatif_report__answer(FILE *out, const struct audit *a, bool brief);
/* "-j4 on 4 CPUs 2.34 s": a row as the answers quote it, its figure as the what-if prints it. */
void whatif_report__put_row(FILE *f, const struct whatif_row *r);
/* The -v detail: the model's assumptions, the rows with what each assumes, each critical step's share
 * and wall without it. */
void whatif_report__detail(FILE *out, const struct audit *a, const struct model *m);

/* "; outside any job (a runner's own work): N s (S %)" when the critical
 * path's time held by no job is 1 % of the wall or more, and "; waits
 * between the steps (...): N s (S %)" when its waits are; else nothing. */
void whatif_report__put_runner_held(FILE *f, const struct audit *a);

#endif /* BUILDBPF_WHATIF_REPORT_H */
