// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as an event log, read, replayed and written
 * as a trace, as `buildbpf convert` does, with its real limits (a week's
 * span, 8192 CPUs, any resolution).  Must never crash, hang or allocate
 * without bound (make fuzz runs it under ASan and UBSan with a 10 s timeout
 * and an RSS limit; tests/fixtures and tests/fuzz/seeds seed the corpus).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "report/chrome_trace.h"
#include "log/event_log.h"
#include "model/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay_opts opts = {};
	struct event_log_reader *r = NULL;
	struct trace_meta meta = {};
	struct replay rp = {};
	char err[256];
	FILE *f;
	int out;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (event_log_reader__open(&r, f, err, sizeof(err)))
		goto out;
	if (!replay__run(&rp, r, &opts, err, sizeof(err))) {
		meta.version = rp.info->buildbpf_version;
		meta.kernel_release = rp.info->kernel_release;
		meta.nr_cpus = rp.info->online_cpus;
		meta.cmd_argv = rp.info->cmd_argv;
		meta.cmd_argc = rp.info->cmd_argc;
		meta.start_realtime_ns = rp.info->start_ns + rp.info->realtime_offset_ns;
		meta.user = rp.info->user;
		meta.sched = rp.sched;
		meta.partial_reason = rp.partial_reason;
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (out >= 0) {
			chrome_trace__write(rp.model, &meta, out);
			close(out);
		}
	}
	replay__free(&rp);
out:
	event_log_reader__free(r);
	fclose(f);
	return 0;
}
