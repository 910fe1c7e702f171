/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit as JSON: the --summary-json file and the trace's
 * otherData.audit.  Field names are a stable, documented schema
 * (docs/audit.md, "--summary-json fields"), versioned by AUDIT_JSON_VERSION.
 */
#ifndef BUILDBPF_AUDIT_JSON_H
#define BUILDBPF_AUDIT_JSON_H

#include <json-c/json.h>
#include "audit/audit.h"

/* A new json-c object, or NULL on allocation failure. */
struct json_object *audit_json__new(const struct audit *a, const struct model *m);
/*
 * Why process proc started when it did, into o: waited_for (a few words),
 * waited_kind (start_wait__name()), ready_ms and waited_ms (ready to
 * fork).  Nothing when it is not known.  0 or -ENOMEM.  The --summary-json
 * critical path and the trace's slice args share it.
 */
int audit_json__put_start(struct json_object *o, const struct start_causes *sc, const struct model *m,
			  size_t proc);
/* Those fields, for a writer that streams them (the trace); waited_for is written into text. */
struct start_fields {
	const char *waited_for, *waited_kind;
	__u64 ready_ns, waited_ns;
};
/* Room for waited_for's text. */
#define START_TEXT_BYTES 128
/* Process proc's start fields into f: false when not known (nothing to write). */
bool audit_json__start_fields(const struct start_causes *sc, const struct model *m, size_t proc,
			      struct start_fields *f, char *text, size_t size);
/* The -j the build asked for: {tool, requested, unlimited, source, target}.  NULL without memory. */
struct json_object *audit_json__jobs(const struct audit *a);
/* Writes it to fd with a final newline: 0 or -errno.  Does not close fd. */
int audit_json__write(const struct audit *a, const struct model *m, int fd);

#endif /* BUILDBPF_AUDIT_JSON_H */
