/* SPDX-License-Identifier: GPL-2.0 */
/* The audit as text on stderr at the end of a run (unless -q). */
#ifndef BUILDBPF_AUDIT_REPORT_H
#define BUILDBPF_AUDIT_REPORT_H

#include <stdio.h>
#include "report/audit.h"

void audit_report__print(FILE *out, const struct audit *a, const struct model *m);

#endif /* BUILDBPF_AUDIT_REPORT_H */
