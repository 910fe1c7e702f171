// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "model/hidden.h"
#include "model/memory.h"
#include "report/summary.h"
#include "util/term_escape.h"

void summary__put_escaped(FILE *out, const char *s)
{
	const unsigned char *c;

	for (c = (const unsigned char *)s; *c; c++) {
		if (term_byte_is_plain(*c))
			fputc(*c, out);
		else
			fprintf(out, "\\x%02x", *c);
	}
}

static void put_command(FILE *out, char *const *argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (i)
			fputc(' ', out);
		summary__put_escaped(out, argv[i]);
	}
}

/* What the kernel hid from the user was not recorded: say so, and why. */
static void put_hidden(FILE *out, const struct model *m)
{
	struct hidden_counts c;

	hidden__count(m, &c);
	if (!c.procs)
		return;
	fprintf(out, "buildbpf: %zu process%s hidden (%zu setuid or setgid, %zu not dumpable): the kernel shows "
		     "their I/O, memory and files only to root, so the trace leaves them out (hidden in the trace)\n",
		c.procs, c.procs == 1 ? "" : "es", c.creds, c.not_dumpable);
}

void summary__print(FILE *out, const struct model *m, const struct summary_info *info)
{
	size_t i, unfinished = 0, oom_killed;
	double wall_s = info->wall_ns / 1e9;

	for (i = 0; i < m->nr_procs; i++)
		unfinished += m->procs[i].unfinished;

	fputs("buildbpf: traced '", out);
	put_command(out, info->cmd_argv, info->cmd_argc);
	if (info->term_signal > 0 && info->exit_status == 128 + info->term_signal)
		fprintf(out, "': killed by SIG%s (exit status %d), %.3f s wall\n", sigabbrev_np(info->term_signal)
			? sigabbrev_np(info->term_signal) : "?", info->exit_status, wall_s);
	else if (info->exit_status >= 0)
		fprintf(out, "': exit status %d, %.3f s wall\n", info->exit_status, wall_s);
	else /* a recording cut short before the command ended */
		fprintf(out, "': exit status unknown, %.3f s wall recorded\n", wall_s);
	fprintf(out, "buildbpf: %zu process%s", m->nr_procs, m->nr_procs == 1 ? "" : "es");
	if (unfinished)
		fprintf(out, " (%zu still running at the end)", unfinished);
	/* Lanes are the trace's rows (nested processes stack), not concurrency. */
	if (info->verbose)
		fprintf(out, ", %zu lane%s at peak", m->nr_lanes, m->nr_lanes == 1 ? "" : "s");
	fprintf(out, ", %llu lost event%s%s\n", (unsigned long long)info->lost_events, info->lost_events == 1 ? "" : "s",
		info->lost_events ? " (the trace is incomplete; try --buffer-size)" : "");
	oom_killed = memory__oom_killed(m);
	if (oom_killed)
		fprintf(out, "buildbpf: OOM KILLED: %zu process%s (oom_killed in the trace)\n", oom_killed,
			oom_killed == 1 ? "" : "es");
	put_hidden(out, m);
	if (info->partial_reason) {
		fputs("buildbpf: the trace is partial: ", out);
		summary__put_escaped(out, info->partial_reason);
		fputc('\n', out);
	}
	if (info->output_path) {
		fputs("buildbpf: trace written to ", out);
		summary__put_escaped(out, info->output_path);
		fputc('\n', out);
	}
}
