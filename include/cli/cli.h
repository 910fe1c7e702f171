/* SPDX-License-Identifier: GPL-2.0 */
/* Command line of buildbpf. */
#ifndef BUILDBPF_CLI_H
#define BUILDBPF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "sched_level.h"
#include "diff/fail_if.h"
#include "model/daemons.h"

#define CLI_DEFAULT_OUTPUT "buildbpf-trace.json"
#define CLI_DEFAULT_LOG "buildbpf.bbl"
#define CLI_DEFAULT_RINGBUF (16u << 20)
/* --merge may be given this many times. */
#define CLI_MERGE_MAX 64
/* --fail-if may be given this many times. */
#define CLI_FAIL_IF_MAX 32
/* --follow may be given this many times. */
#define CLI_FOLLOW_MAX DAEMONS_MAX
/* convert --add may be given this many times (hosts/hosts.h: HOSTS_MAX logs in all). */
#define CLI_ADD_MAX 63

/* What buildbpf was asked to do: its first argument names it. */
enum cli_mode {
	CLI_TRACE,   /* buildbpf [OPTIONS] -- CMD: record, convert, report */
	CLI_RECORD,  /* buildbpf record -o LOG -- CMD: only the event log */
	CLI_CONVERT, /* buildbpf convert LOG -o TRACE */
	CLI_REPORT,  /* buildbpf report LOG */
	CLI_DIFF,    /* buildbpf diff OLD NEW */
};

/* --mem-period: the build-memory counter's sampling period. */
#define CLI_MEM_PERIOD_DEFAULT_NS 100000000ull

struct cli_opts {
	enum cli_mode mode;
	const char *log_path; /* convert, report: the recording to read */
	const char *output;
	bool output_given; /* -o: report refuses it */
	const char *keep_log; /* trace: also keep the event log here */
	const char *summary_json; /* --summary-json: the audit as JSON; NULL: none */
	const char *svg;	  /* --svg: the build drawn; NULL: none */
	const char *html;	  /* --html: the build (diff: both) on one page; NULL: none */
	const char *markdown;	  /* --markdown: the build's summary for CI (not diff's: diff_markdown); NULL: none */
	bool force;
	const char *user;
	bool keep_root;
	bool keep_env;	/* --user: keep buildbpf's environment */
	bool wait_all; /* keep tracing until every descendant has exited */
	bool quiet;
	bool no_progress; /* --no-progress: no progress line on a terminal (convert, report, diff) */
	bool verbose;
	bool version; /* -V printed the build's lines; main adds the kernel's */
	__u32 args_max;
	size_t ringbuf_bytes;
	enum sched_level sched;	 /* --sched */
	bool sched_given;	 /* convert, report: else the recording's */
	__u64 sched_resolution_ns; /* --sched-resolution */
	bool resolution_given;
	bool deps;		 /* --deps: file dependencies (record; convert can drop them) */
	bool deps_given;	 /* convert, report: else the recording's */
	__u64 mem_period_ns; /* --mem-period; 0: off */
	const char *merge[CLI_MERGE_MAX]; /* --merge paths or globs, in order */
	size_t nr_merge;
	bool keep_trace_dir;	/* leave $BUILDBPF_TRACE_DIR in place */
	bool no_trace_dir;	/* export no $BUILDBPF_TRACE_DIR */
	size_t merge_max_file;	/* --merge-max-file: bytes */
	size_t merge_max_events; /* --merge-max-events: over all files */
	/* diff OLD NEW: the two recordings, the reports ("-": stdout), the gate */
	const char *diff_old, *diff_new;
	const char *diff_json, *diff_markdown;
	struct fail_if fail_if[CLI_FAIL_IF_MAX];
	size_t nr_fail_if;
	pid_t attach_pid;	/* --attach: trace this running tree, no command; 0: none */
	__u64 duration_ns;	/* --duration: stop after this long; 0: no limit */
	const char *cgroup;	/* --cgroup: trace this cgroup v2's processes, no command */
	pid_t follow[CLI_FOLLOW_MAX]; /* --follow: daemons whose new work is traced too */
	size_t nr_follow;
	/* convert --add: recordings of other hosts put in the same trace */
	const char *add[CLI_ADD_MAX];
	size_t nr_add;
	char **cmd_argv; /* NULL-terminated, points into argv */
	int cmd_argc;
};

/*
 * Parses argv (systemd's parse_argv shape): < 0 on a usage error (message
 * printed to err), 0 when the program should exit successfully now (--help,
 * --version printed to out), > 0 to go on and trace opts->cmd_argv.  The
 * first argument names the mode; each mode's parser reads its rows of the
 * option table and makes its own checks (cli/cli_run.h, cli/cli_diff.h).
 */
int cli__parse(struct cli_opts *opts, int argc, char **argv, FILE *out, FILE *err);


#endif /* BUILDBPF_CLI_H */
