/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data edges of a trace, as the integration suites read them: each
 * "input" flow arrow (writer's slice start -> reader's slice start, the
 * file in the start event's args) with the two process slices it binds to.
 */
#ifndef BUILDBPF_TESTS_INPUT_FLOWS_H
#define BUILDBPF_TESTS_INPUT_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct bb_flow {
	const char *file;			/* borrowed from the trace */
	struct json_object *writer, *reader; /* process slices, borrowed from slices */
};

/*
 * The trace's "input" flows, each with its two slices from slices (the
 * trace's process slices, bb_slices(trace, "process")); returns how many.
 * The test fails if there are more than max or a flow binds to no slice.
 */
size_t bb_input_flows(struct json_object *trace, struct json_object *slices, struct bb_flow *out, size_t max);

/*
 * Whether a flow's file names path (absolute): the trace spells a file from
 * its file system's root, or its last components after "…" when the path
 * was deeper than a record keeps (docs/dependencies.md), so a suffix of path
 * that starts at a "/".
 */
bool bb_flow_file_is(const char *file, const char *path);

#endif /* BUILDBPF_TESTS_INPUT_FLOWS_H */
