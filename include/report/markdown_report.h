/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build as GitHub-flavoured Markdown, for a CI job's summary
 * ($GITHUB_STEP_SUMMARY) or a merge-request comment: the answers, then the
 * critical path, the what-if and the top steps as tables
 * (report/report_tables.h).  Always under MARKDOWN_REPORT_MAX characters,
 * GitHub's limit for a step summary: a section that would pass it is left
 * out and the page says so.  Names from the build are escaped.
 */
#ifndef BUILDBPF_MARKDOWN_REPORT_H
#define BUILDBPF_MARKDOWN_REPORT_H

#include <stdio.h>
#include "audit/audit.h"

#define MARKDOWN_REPORT_MAX 65536

/* 0, or -errno (-EIO for a stream error). */
int markdown_report__write(FILE *out, const struct audit *a, const struct model *m);
/* The same under max characters (tests: a bound a small build reaches). */
int markdown_report__write_max(FILE *out, const struct audit *a, const struct model *m, size_t max);

#endif /* BUILDBPF_MARKDOWN_REPORT_H */
