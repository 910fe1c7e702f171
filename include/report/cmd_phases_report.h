/* SPDX-License-Identifier: GPL-2.0 */
/* The command's phases (audit/cmd_phases.h) in words, for the audit's answers. */
#ifndef BUILDBPF_CMD_PHASES_REPORT_H
#define BUILDBPF_CMD_PHASES_REPORT_H

#include <stdio.h>
#include "audit/audit.h"

/* "phases: configure 359.10 s (81 %): one step at a time, ...; make ..." when there are two or more. */
void cmd_phases_report__answer(FILE *out, const struct audit *a, const struct model *m);
/*
 * The "speed up?" lines for the phases that ran one step at a time and
 * held 10 % of the wall (audit__cmd_phase_stands_out), longest first, the first
 * starting with lead; how many were said.
 */
size_t cmd_phases_report__speed_up(FILE *out, const struct audit *a, const struct model *m, const char *lead,
				   const char *next, size_t max);

#endif /* BUILDBPF_CMD_PHASES_REPORT_H */
