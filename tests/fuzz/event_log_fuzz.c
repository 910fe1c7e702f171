// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as an event log, analysed as `convert` and
 * `report` do it (tests/lib/analysis.h): read, replayed, the build graph,
 * start causes and audit computed, the trace, summary JSON, SVG and report
 * rendered, with the real limits (a week's span, 8192 CPUs, any
 * resolution).  Must never crash, hang or allocate without bound (make
 * fuzz runs it under ASan and UBSan with a timeout and an RSS limit;
 * tests/fixtures and tests/fuzz/seeds seed the corpus, among them the
 * crafted recordings of tests/lib/crafted_log.h that once cost minutes).
 */
#include <stdint.h>
#include <stdio.h>
#include "lib/analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	analysis__run(f);
	fclose(f);
	return 0;
}
