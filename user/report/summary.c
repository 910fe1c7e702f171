// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "model/hidden.h"
#include "model/memory.h"
#include "report/report_text.h"
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

/*
 * The command, escaped, in at most room columns: cut in the middle ("..."),
 * its start (the tool) and its end (the targets) kept; room 0: whole.
 */
static void put_command_within(FILE *out, char *const *argv, int argc, size_t room)
{
	char *text = NULL;
	size_t len = 0, head;
	FILE *mem = open_memstream(&text, &len);

	if (!mem) {
		put_command(out, argv, argc);
		return;
	}
	put_command(mem, argv, argc);
	fclose(mem);
	if (!room || len <= room || room < 8) {
		fputs(text, out);
	} else {
		head = (room - 3) / 2;
		fprintf(out, "%.*s...%s", (int)head, text, text + len - (room - 3 - head));
	}
	free(text);
}

/* "': exit status 0, 1.234 s wall": what follows the command on its line. */
static void put_status(FILE *out, const struct summary_info *info)
{
	double wall_s = info->wall_ns / 1e9;

	if (info->term_signal > 0 && info->exit_status == 128 + info->term_signal)
		fprintf(out, "': killed by SIG%s (exit status %d), %.3f s wall\n", sigabbrev_np(info->term_signal)
			? sigabbrev_np(info->term_signal) : "?", info->exit_status, wall_s);
	else if (info->exit_status >= 0)
		fprintf(out, "': exit status %d, %.3f s wall\n", info->exit_status, wall_s);
	else /* a recording cut short before the command ended */
		fprintf(out, "': exit status unknown, %.3f s wall recorded\n", wall_s);
}

void summary__put_processes(FILE *out, const struct model *m)
{
	size_t i, unfinished = 0;

	for (i = 0; i < m->nr_procs; i++)
		unfinished += m->procs[i].unfinished;
	fprintf(out, "%zu process%s", m->nr_procs, m->nr_procs == 1 ? "" : "es");
	if (unfinished)
		fprintf(out, " (%zu still running at the end)", unfinished);
}

void summary__put_lost_events(FILE *out, __u64 lost_events)
{
	fprintf(out, "%llu lost event%s", (unsigned long long)lost_events, lost_events == 1 ? "" : "s");
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
	static const char lead[] = "buildbpf: traced '";
	size_t oom_killed, room = 0;
	char status[128];
	FILE *mem;

	/* By default the line fits REPORT_WIDTH, the command cut to make room; -v has it whole. */
	mem = info->verbose ? NULL : fmemopen(status, sizeof(status), "w");
	if (mem) {
		put_status(mem, info);
		room = (size_t)ftell(mem) - 1; /* its newline */
		fclose(mem);
		room = REPORT_WIDTH > sizeof(lead) - 1 + room ? REPORT_WIDTH - (sizeof(lead) - 1) - room : 1;
	}
	fputs(lead, out);
	put_command_within(out, info->cmd_argv, info->cmd_argc, room);
	put_status(out, info);
	if (!info->audit_counts) {
		fputs("buildbpf: ", out);
		summary__put_processes(out, m);
		/* Lanes are the trace's rows (nested processes stack), not concurrency. */
		if (info->verbose)
			fprintf(out, ", %zu lane%s at peak", m->nr_lanes, m->nr_lanes == 1 ? "" : "s");
		fputs(", ", out);
		summary__put_lost_events(out, info->lost_events);
		fputs(info->lost_events ? " (the trace is incomplete; try --buffer-size)\n" : "\n", out);
	}
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
