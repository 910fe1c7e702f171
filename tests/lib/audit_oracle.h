/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading buildbpf's answers on a real build (its --summary-json and trace)
 * beside an oracle: the suites of real builds print what buildbpf named
 * (the critical path's steps, the costliest steps, the what-if rows) as
 * "oracle:" lines, to compare with what the build tool itself knows.
 */
#ifndef BUILDBPF_TESTS_AUDIT_ORACLE_H
#define BUILDBPF_TESTS_AUDIT_ORACLE_H

#include <stddef.h>
#include <json-c/json.h>
#include "lib/ninja_graph.h"

/* obj.key as a number (an integer or a double); the test fails if it is missing. */
double bb_num(struct json_object *obj, const char *key);
/* part of whole in % (100 when whole is 0: nothing was missed). */
double bb_percent(size_t part, size_t whole);
/* (predicted - measured) / measured, in %. */
double bb_error_pct(double predicted, double measured);
/* The load average over the last minute: the context of every timing figure. */
double bb_load_1min(void);
/*
 * "a runner" (it starts jobs) or "a wrapper" (it starts the program that
 * does the work: sh -c, the cc driver), by the first words of buildbpf's
 * name for a process; NULL for anything else (a shell running a script).  Neither is ever the step to speed up.
 */
const char *bb_runner_or_wrapper(const char *name);
/*
 * Prints the summary's critical path: its longest step (what the audit says
 * to speed up; an entry with "step": false, a runner's part, is none) and
 * every runner or wrapper on it holding 1 % of the wall or more; returns
 * how many such.
 */
size_t bb_print_critical_path(struct json_object *summary, const char *build);
/*
 * Prints the ten processes of most CPU time under buildbpf's names, each
 * with its ninja step when g is not NULL; returns how many share a
 * costlier one's name (steps a person cannot tell apart).
 */
size_t bb_print_costliest(struct json_object *slices, const char *build, const struct bb_ninja_graph *g);
/*
 * A race a real build is known to have: its file (the end of the path the
 * summary names, from a "/") and kind ("read_while_written", ...).
 * Each entry's comment says which rule lacks which dependency.
 */
struct bb_known_race {
	const char *file, *kind;
};
/*
 * Prints the summary's races as "oracle:" lines, each marked known or not;
 * returns how many are not in known[0 .. n): reports a person would have to
 * dismiss, or real ones nobody explained yet.
 */
size_t bb_unexplained_races(struct json_object *summary, const char *build, const struct bb_known_race *known,
			    size_t n);
/*
 * The summary's what-if row of jobs slots on cpus CPUs (0 and 0: unlimited) on a quiet machine, else the
 * as-run row of that -j and CPUs (a quiet machine's as-run row stands for both), or NULL.
 */
struct json_object *bb_whatif_row(struct json_object *summary, long long jobs, long long cpus);

#endif /* BUILDBPF_TESTS_AUDIT_ORACLE_H */
