/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two builds compared, as JSON (`buildbpf diff --json FILE`): the schema
 * is in docs/diff.md, versioned by DIFF_JSON_VERSION.
 * Times in milliseconds, like the audit's JSON; a figure a build did not
 * record is null, never 0.
 */
#ifndef BUILDBPF_DIFF_JSON_H
#define BUILDBPF_DIFF_JSON_H

#include <stdio.h>
#include <json-c/json.h>
#include "diff/diff.h"

#define DIFF_JSON_VERSION 1

/* A new json-c object, or NULL on allocation failure. */
struct json_object *diff_json__new(const struct diff *d);
/* Writes it to out with a final newline: 0, -ENOMEM or -EIO. */
int diff_json__write(const struct diff *d, FILE *out);

#endif /* BUILDBPF_DIFF_JSON_H */
