/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert --add: what the trace says about its hosts, as otherData.hosts
 * (JSON) and as lines of the end-of-run report.  Presents the hosts
 * stage's figures (hosts/hosts.h); computes nothing.
 */
#ifndef BUILDBPF_HOSTS_REPORT_H
#define BUILDBPF_HOSTS_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include "hosts/hosts.h"

/* The trace pid of host h's build (its first trace process). */
int hosts_report__trace_pid0(size_t h);
/* {"hosts": {...}} for chrome_trace__write_parts()'s extra; NULL: out of memory. */
struct json_object *hosts_report__json(const struct host_set *hs);
/* One line per host, the alignment, the audit over all hosts and the remote jobs. */
void hosts_report__print(FILE *f, const struct host_set *hs);

#endif /* BUILDBPF_HOSTS_REPORT_H */
