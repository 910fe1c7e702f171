// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "model/make_args.h"
#include "model/tool_kind.h"
#include "util/base_name.h"
#include "audit/audit_jobs.h"

void audit_jobs__from_argv(struct audit_jobs *j, char *const *argv, size_t argc, const char *makeflags,
			   size_t nr_cpus)
{
	enum tool_kind kind;
	const char *tool;
	long jobs = 0;

	memset(j, 0, sizeof(*j));
	if (!argc || !argv[0])
		return;
	tool = base_name(argv[0]);
	/* By the exact name: a make of another name may read its options otherwise. */
	kind = tool_kind__lookup(tool);
	if (kind == TOOL_MAKE) {
		jobs = make_args__jobs(argv, argc);
		j->source = JOBS_ARGUMENT;
		if (!jobs && makeflags) {
			jobs = make_args__makeflags_jobs(makeflags);
			j->source = JOBS_MAKEFLAGS;
		}
		if (!jobs) {
			jobs = 1;
			j->source = JOBS_TOOL_DEFAULT;
		}
	} else if (kind == TOOL_NINJA) {
		jobs = make_args__ninja_jobs(argv, argc);
		j->source = JOBS_ARGUMENT;
		if (!jobs) {
			/* ninja's GuessParallelism() */
			jobs = nr_cpus <= 1 ? 2 : nr_cpus == 2 ? 3 : (long)nr_cpus + 2;
			j->source = JOBS_TOOL_DEFAULT;
		}
	} else if (kind == TOOL_CARGO || kind == TOOL_GO) {
		jobs = kind == TOOL_CARGO ? make_args__cargo_jobs(argv, argc) : make_args__go_jobs(argv, argc);
		j->source = JOBS_ARGUMENT;
		if (!jobs) {
			/*
			 * Both default to the CPU count (go's -p is GOMAXPROCS).  The
			 * recording keeps no $CARGO_BUILD_JOBS, and cargo's config
			 * files are the build's, not read here.
			 */
			jobs = (long)nr_cpus;
			j->source = JOBS_TOOL_DEFAULT;
		}
	} else {
		return;
	}
	j->jobs = jobs;
	snprintf(j->tool, sizeof(j->tool), "%s", tool);
}
