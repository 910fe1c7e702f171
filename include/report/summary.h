/* SPDX-License-Identifier: GPL-2.0 */
/* The short report on stderr at the end of a run. */
#ifndef BUILDBPF_SUMMARY_H
#define BUILDBPF_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "model/model.h"

struct summary_info {
	char *const *cmd_argv;
	int cmd_argc;
	__u64 wall_ns;	 /* the build's own wall time */
	int exit_status; /* buildbpf's own exit status: the command's; -1 unknown */
	int term_signal; /* the signal that killed the command (exit_status 128 + it); 0: none */
	__u64 lost_events;
	const char *output_path; /* where the trace went; NULL if nowhere */
	const char *partial_reason; /* why the trace is partial; NULL if it is not */
	bool verbose; /* also the figures only docs/audit.md explains (lanes) */
	/* The brief audit's line says the processes and lost events: no line of their own. */
	bool audit_counts;
};

void summary__print(FILE *out, const struct model *m, const struct summary_info *info);
/* "12 processes" (", 1 still running at the end"): the recording's processes, no newline. */
void summary__put_processes(FILE *out, const struct model *m);
/* "0 lost events", no newline. */
void summary__put_lost_events(FILE *out, __u64 lost_events);
/* Writes s to out with control and non-ASCII bytes as \xNN: terminal-safe. */
void summary__put_escaped(FILE *out, const char *s);

#endif /* BUILDBPF_SUMMARY_H */
