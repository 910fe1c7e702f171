/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The short answers read off the what-if's rows (audit/audit_whatif.h), so
 * that "more CPUs or jobs?", "machine shared?" and "speed up?" quote the
 * figures the what-if prints and cannot disagree with them: which row the
 * others are measured against, the row with more jobs on its CPUs, the row
 * with more CPUs, and the critical step whose removal gains the most.
 * Pure: computed by audit__compute() into audit_whatif.answer, once the rows are.
 */
#ifndef BUILDBPF_WHATIF_ANSWER_H
#define BUILDBPF_WHATIF_ANSWER_H

#include <stdbool.h>
#include <linux/types.h>

struct audit;
struct audit_whatif;

struct whatif_answer {
	/* Indexes in audit_whatif.rows; -1: none. */
	int base;	/* the build's own -j on a quiet machine (rows[0] when the machine was quiet) */
	int as_run;	/* rows[0] when base is not it (a busy or confined machine) */
	bool confined;	/* as run had fewer CPUs than base (taskset): not the outside work's doing */
	int more_jobs;	/* the fastest row with more jobs than base on base's CPUs */
	int more_cpus;	/* the fastest row with more CPUs than base (not the unlimited one) */
	/* Each helps when its row is AUDIT_ANSWER_PERMILLE faster than the one it is
	 * weighed against: base; more CPUs against the faster of base and more jobs,
	 * so "more CPUs" is never the gain more jobs alone would give. */
	bool quieter_helps, more_jobs_help, more_cpus_help;
	/* The a->chain entry whose removal gains the most at base; -1: none simulated. */
	long step;
	bool step_helps; /* its wall without it is AUDIT_ANSWER_PERMILLE below base's */
};

/* w: its rows and without_ns computed; a: the audit they are of. */
void whatif_answer__compute(struct whatif_answer *ans, const struct audit_whatif *w, const struct audit *a);
/* to_ns is at least AUDIT_ANSWER_PERMILLE below from_ns: the one rule for "helps". */
bool whatif_answer__helps(__u64 from_ns, __u64 to_ns);

#endif /* BUILDBPF_WHATIF_ANSWER_H */
