// SPDX-License-Identifier: GPL-2.0
/*
 * buildbpf convert A.bbl --add B.bbl ...: every host's log opened as the
 * user and replayed (none of them twice), the hosts aligned and linked
 * (user/hosts/), one trace written with a process group per host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exit_status.h"
#include "hosts/hosts.h"
#include "main/cmd_hosts.h"
#include "main/recording.h"
#include "output/run_outputs.h"
#include "report/hosts_report.h"
#include "report/run_report.h"
#include "util/term_escape.h"

_Static_assert(CLI_ADD_MAX + 1 <= HOSTS_MAX, "every --add log is a host");

/*
 * buildbpf convert A.bbl --add B.bbl ...: one trace of several hosts.  The
 * first log's build keeps its audit (of its own span) and merged traces;
 * otherData.hosts has the rest.
 */
int cmd_convert_hosts(const struct cli_opts *opts, const struct run_as *ra, volatile sig_atomic_t *stop)
{
	const struct recording_opts ropts = recording_opts__read(opts, stop);
	struct run_outputs_spec spec = { .trace = opts->output, .force = opts->force, .writer = run_as__user(ra) };
	struct run_outputs outs = RUN_OUTPUTS_INIT;
	static struct host_recordings hr; /* large: recordings of up to 64 hosts */
	const struct trace_dir no_dir = { .fd = -1 };
	const struct merge_sources src = merge_sources__of(opts, &no_dir);
	const char *paths[HOSTS_MAX];
	struct trace_meta metas[HOSTS_MAX];
	struct trace_part parts[HOSTS_MAX];
	struct trace_link *links = NULL;
	struct json_object *extra = NULL;
	const struct host_set *hs = &hr.set;
	struct run_report report;
	const char *written;
	size_t i, n = opts->nr_add + 1;
	int exit_code = EXIT_FAILURE_SETUP;

	memset(&hr, 0, sizeof(hr));
	paths[0] = opts->log_path;
	for (i = 1; i < n; i++)
		paths[i] = opts->add[i - 1];
	if (run_outputs__prepare(&outs, &spec) || host_recordings__open(&hr, paths, n, ra, &ropts))
		goto cleanup;
	if (!(links = calloc(hs->nr_links + 1, sizeof(*links))) || !(extra = hosts_report__json(hs))) {
		fprintf(stderr, "buildbpf: out of memory aligning the hosts\n");
		goto cleanup;
	}
	recording__merge(&hr.recs[0], &src, stop);
	if (*stop)
		goto cleanup;
	for (i = 0; i < n; i++) {
		recording__meta(&hr.recs[i], &metas[i]);
		parts[i] = (struct trace_part){ hr.recs[i].rp.model, &metas[i], hosts_report__trace_pid0(i),
						hr.hosts[i].name };
	}
	for (i = 0; i < hs->nr_links; i++)
		links[i] = (struct trace_link){ hs->links[i].client_host, hs->links[i].client_proc,
						hs->links[i].job_host, hs->links[i].job_proc, "remote job" };
	written = run_outputs__write_parts(&outs, parts, n, links, hs->nr_links, extra);
	if (!written)
		goto cleanup;
	if (!opts->quiet) {
		/* The first build's own lines, in its own span, as a plain convert prints them. */
		report = recording__report(&hr.recs[0], replay__exit_code(&hr.recs[0].rp), written, opts->verbose);
		run_report__print(stderr, &report);
		hosts_report__print(stderr, hs);
	}
	exit_code = 0;
cleanup:
	if (*stop)
		exit_code = say_stopped(*stop, NULL);
	json_object_put(extra);
	free(links);
	run_outputs__free(&outs);
	host_recordings__free(&hr);
	return exit_code;
}
