/* SPDX-License-Identifier: GPL-2.0 */
/* The -j that fits the machine's memory (audit/jobs_fit.h) in words: the audit's answer and --summary-json's reason. */
#ifndef BUILDBPF_JOBS_FIT_REPORT_H
#define BUILDBPF_JOBS_FIT_REPORT_H

#include <stdio.h>
#include "audit/jobs_fit.h"

/* Why there is no answer, in words ("too few runs ..."); NULL for JOBS_FIT_OK. */
const char *jobs_fit_report__reason(enum jobs_fit_verdict v);
/* Past this many jobs per CPU the memory's -j says nothing: the CPUs are the limit first. */
#define JOBS_FIT_CPU_MULTIPLE 4

/* The audit's answer, one wrapped line; nothing unless the verdict is JOBS_FIT_OK.  cpus: the
 * machine's (0: unknown); a -j beyond JOBS_FIT_CPU_MULTIPLE x cpus is said as "memory is not the limit". */
void jobs_fit_report__print(FILE *out, const struct jobs_fit *fit, const struct model *m, size_t cpus);
/* The same answer in one short line: the -j and each job's memory, or that memory is not the limit. */
void jobs_fit_report__brief(FILE *out, const struct jobs_fit *fit, size_t cpus);

#endif /* BUILDBPF_JOBS_FIT_REPORT_H */
