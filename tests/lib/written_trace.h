/* SPDX-License-Identifier: GPL-2.0 */
/* The trace the writer makes of a model, read back for the unit suites. */
#ifndef BUILDBPF_TESTS_WRITTEN_TRACE_H
#define BUILDBPF_TESTS_WRITTEN_TRACE_H

#include <json-c/json.h>
#include "model/model.h"
#include "report/chrome_trace.h"

/*
 * chrome_trace__write() into memory, parsed back strictly; the test fails
 * unless it keeps every rule of docs/trace-rules.md (lib/trace_rules.h).
 */
struct json_object *written_trace(const struct model *m, const struct trace_meta *meta);

/* The process slice (cat "process") of pid in a parsed trace, or NULL. */
struct json_object *written_trace_proc_slice(struct json_object *trace, long long pid);

#endif /* BUILDBPF_TESTS_WRITTEN_TRACE_H */
