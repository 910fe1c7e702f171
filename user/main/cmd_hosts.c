// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf convert A.bbl --add B.bbl ...: every host's log opened as the
 * user and replayed (none of them twice), the hosts aligned and linked
 * (user/hosts/), one trace written with a process group per host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "exit_status.h"
#include "hosts/hosts.h"
#include "main/cmd_hosts.h"
#include "main/recording.h"
#include "output/run_outputs.h"
#include "report/hosts_report.h"
#include "report/run_report.h"
#include "util/term_escape.h"

_Static_assert(CLI_ADD_MAX + 1 <= HOSTS_MAX, "every --add log is a host");

/* The hosts' logs of convert --add: each replayed, none given twice. */
struct host_logs {
	size_t n;
	const char *paths[HOSTS_MAX];
	struct replay rps[HOSTS_MAX];
	struct event_log_reader *readers[HOSTS_MAX];
	struct host hosts[HOSTS_MAX];
};

/* Opens and replays every log.  0, or -1 (said). */
static int load_host_logs(struct host_logs *hl, const struct cli_opts *opts, const struct run_as *ra,
			  volatile sig_atomic_t *stop)
{
	struct replay_opts ropts = read_opts_of(opts, stop);
	struct stat st[HOSTS_MAX];
	char esc[TERM_ESCAPE_BUF], esc2[TERM_ESCAPE_BUF];
	size_t i, j;
	int fd, err;

	hl->n = opts->nr_add + 1;
	hl->paths[0] = opts->log_path;
	for (i = 1; i < hl->n; i++)
		hl->paths[i] = opts->add[i - 1];
	for (i = 0; i < hl->n; i++) {
		fd = open_log(hl->paths[i], ra);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st[i])) {
			st[i].st_dev = 0;
			st[i].st_ino = 0;
		}
		/* One host's log twice would show its build twice, linked to itself. */
		for (j = 0; j < i; j++)
			if (st[j].st_ino && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino) {
				fprintf(stderr, "buildbpf: '%s' is the same recording as '%s': each host's log once\n",
					term_escape(hl->paths[i], esc, sizeof(esc)),
					term_escape(hl->paths[j], esc2, sizeof(esc2)));
				close(fd);
				return -1;
			}
		err = replay_log(fd, hl->paths[i], &ropts, &hl->rps[i], &hl->readers[i], true);
		close(fd);
		if (err)
			return -1;
		hl->hosts[i] = (struct host){ .rp = &hl->rps[i], .log_name = hl->paths[i] };
	}
	return 0;
}

static void free_host_logs(struct host_logs *hl)
{
	for (size_t i = 0; i < HOSTS_MAX; i++) {
		replay__free(&hl->rps[i]);
		event_log_reader__free(hl->readers[i]);
	}
}

/*
 * buildbpf convert A.bbl --add B.bbl ...: one trace of several hosts.  The
 * first log's build keeps its audit (of its own span, computed before the
 * alignment widens it) and merged traces; otherData.hosts has the rest.
 */
int cmd_convert_hosts(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop)
{
	struct run_outputs_spec spec = { .trace = opts->output, .force = opts->force, .writer = run_as__user(ra) };
	struct run_outputs outs = { .trace = { .fd = -1 }, .summary_json = { .fd = -1 }, .svg = { .fd = -1 } };
	static struct host_logs hl; /* large: replays of up to 64 hosts */
	const struct trace_dir no_dir = { .fd = -1 };
	struct trace_meta metas[HOSTS_MAX];
	struct trace_part parts[HOSTS_MAX];
	struct trace_link *links = NULL;
	struct build_graph graph = {}, no_graph = {};
	struct audit audit_buf, *audit = NULL;
	struct trace_merge *merged = NULL;
	struct json_object *extra = NULL;
	struct host_set hs = {};
	const char *written;
	char err[256];
	size_t i;
	int exit_code = EXIT_FAILURE_SETUP;

	memset(&hl, 0, sizeof(hl));
	if (run_outputs__prepare(&outs, &spec) || load_host_logs(&hl, opts, ra, stop))
		goto cleanup;
	audit = compute_audit(&audit_buf, &graph, NULL, &hl.rps[0]);
	if (hosts__align(&hs, hl.hosts, hl.n, err, sizeof(err))) {
		fprintf(stderr, "buildbpf: %s\n", err);
		goto cleanup;
	}
	if (hosts__link_remote_jobs(&hs) || hosts__audit(&hs) || !(links = calloc(hs.nr_links + 1, sizeof(*links))) ||
	    !(extra = hosts_report__json(&hs))) {
		fprintf(stderr, "buildbpf: out of memory aligning the hosts\n");
		goto cleanup;
	}
	merged = merge_traces(opts, &hl.rps[0], &no_dir, stop);
	if (*stop)
		goto cleanup;
	for (i = 0; i < hl.n; i++) {
		fill_meta(&metas[i], &hl.rps[i], i ? NULL : merged, i ? NULL : audit, i ? &no_graph : &graph);
		parts[i] = (struct trace_part){ hl.rps[i].model, &metas[i], hosts_report__trace_pid0(i), hl.hosts[i].name };
	}
	for (i = 0; i < hs.nr_links; i++)
		links[i] = (struct trace_link){ hs.links[i].client_host, hs.links[i].client_proc, hs.links[i].job_host,
						hs.links[i].job_proc, "remote job" };
	written = run_outputs__write_parts(&outs, parts, hl.n, links, hs.nr_links, extra);
	if (!written)
		goto cleanup;
	if (!opts->quiet) {
		/* The first build's own lines in its own span, as a plain convert prints them. */
		hl.rps[0].model->start_ns = hl.hosts[0].own_start_ns;
		hl.rps[0].model->end_ns = hl.hosts[0].own_end_ns;
		run_report__print(stderr, &hl.rps[0], replay__exit_code(&hl.rps[0]), written, merged, audit,
				  opts->verbose);
		hosts_report__print(stderr, &hs);
	}
	exit_code = 0;
cleanup:
	if (*stop)
		exit_code = say_stopped(*stop, NULL);
	json_object_put(extra);
	free(links);
	hosts__free(&hs);
	if (audit)
		audit__free(audit);
	build_graph__free(&graph);
	run_outputs__free(&outs);
	trace_merge__free(merged);
	free_host_logs(&hl);
	return exit_code;
}
