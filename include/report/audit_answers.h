/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit's answers, one line each, in the order people ask them: was it
 * parallel, would more CPUs or jobs help, was the machine shared, where did
 * the time go, what to speed up.  The figures and the rules that decide
 * them are in audit.c; this only says them.
 */
#ifndef BUILDBPF_AUDIT_ANSWERS_H
#define BUILDBPF_AUDIT_ANSWERS_H

#include <stdio.h>
#include "audit/audit.h"

/* "make -j2 (from the command)", or "job count unknown". */
void audit_answers__put_jobs(FILE *out, const struct audit_jobs *j);
void audit_answers__print(FILE *out, const struct audit *a, const struct model *m);

#endif /* BUILDBPF_AUDIT_ANSWERS_H */
