/* SPDX-License-Identifier: GPL-2.0 */
/* Compiler caches' calls (audit/compiler_cache.h) as the audit's line and --summary-json's object. */
#ifndef BUILDBPF_COMPILER_CACHE_REPORT_H
#define BUILDBPF_COMPILER_CACHE_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include "audit/compiler_cache.h"

/*
 * "compiler cache: ccache, 84 calls: 80 hits (80 direct), 4 misses (3.20 s
 * CPU, 1.10 s wall), 2 uncacheable; ..." on one wrapped line; nothing
 * without a call.
 */
void compiler_cache_report__print(FILE *out, const struct compiler_cache *c);
/* After a step's name on the critical path: " (cache hit)", " (cache miss)"; nothing for a step no call ran. */
void compiler_cache_report__put_step(FILE *out, const struct compiler_cache *c, long proc);
/* The "compiler_cache" object (docs/audit.md), for a build with a call.  NULL without memory. */
struct json_object *compiler_cache_report__json(const struct compiler_cache *c);

#endif /* BUILDBPF_COMPILER_CACHE_REPORT_H */
