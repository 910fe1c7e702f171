/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two modes that load BPF share (trace, record): what is traced
 * besides a command (--attach, --cgroup, --follow) pinned as root, the
 * recorder opened and root left, the records the log could not take said.
 */
#ifndef BUILDBPF_MAIN_TRACING_H
#define BUILDBPF_MAIN_TRACING_H

#include "cli/cli.h"
#include "record/attach.h"
#include "record/privilege.h"
#include "record/record.h"

/* --attach, --cgroup: what is traced instead of a command, checked as root. */
struct outside {
	int pidfd; /* --attach: pins the process; -1: none */
	int follow_fds[CLI_FOLLOW_MAX]; /* --follow: pin the daemons */
	struct cgroup_target cgroup; /* --cgroup */
};

/*
 * Pins what is traced besides (or instead of) a command: --attach,
 * --cgroup, --follow, checked as root before anything loads.  0, or -1
 * (said) with nothing left open.
 */
int outside__open(const struct cli_opts *opts, const struct run_as *ra, struct outside *out);
/* Closes what outside__open() pinned. */
void outside__close(const struct cli_opts *opts, struct outside *out);
/*
 * Loads and attaches the BPF programs, then leaves root for good (before
 * any output path is touched and before the command is forked) and arms
 * the stop signals.  0, or -1 (said).
 */
int tracing__start(const struct cli_opts *opts, const struct run_as *ra, const struct outside *out,
		   struct recorder **rec);
/* Warns of the records that arrived after the log could not be written. */
void tracing__say_unwritten(const struct record_result *res);

#endif /* BUILDBPF_MAIN_TRACING_H */
