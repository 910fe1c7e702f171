// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as an event log, through the reader alone
 * (header, INFO and ARGV frames, every record, the trailer).  The replay
 * target (event_log_fuzz.c) spends most of its time replaying and writing
 * what a hostile seed describes (a week, 8192 CPUs): a few thousand inputs
 * a minute.  This one reaches the frame parsing a hundred times as often.
 */
#include <stdint.h>
#include <stdio.h>
#include "log/event_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event_log_reader *r = NULL;
	const void *rec;
	char err[256];
	size_t len;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (!event_log_reader__open(&r, f, err, sizeof(err))) {
		while (event_log_reader__next(r, &rec, &len, err, sizeof(err)) == 1)
			;
		(void)event_log_reader__trailer(r);
	}
	event_log_reader__free(r);
	fclose(f);
	return 0;
}
