/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit as text on stderr at the end of a run (unless -q): the answers
 * (audit_answers.h), then the detail in plain words, every line within
 * REPORT_WIDTH; verbose: every figure, in the audit's own terms.
 */
#ifndef BUILDBPF_AUDIT_REPORT_H
#define BUILDBPF_AUDIT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "audit/audit.h"

void audit_report__print(FILE *out, const struct audit *a, const struct model *m, bool verbose);

#endif /* BUILDBPF_AUDIT_REPORT_H */
