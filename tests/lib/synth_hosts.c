// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <criterion/criterion.h>
#include "model/lanes.h"
#include "model/trace_layout.h"
#include "lib/synth.h"
#include "lib/synth_hosts.h"

void synth_host_begin(struct synth_host *th, const char *name, __s64 offset, __u64 start_ns, __u32 root, long cpus)
{
	memset(th, 0, sizeof(*th));
	th->info.host = (char *)name;
	th->info.realtime_offset_ns = offset;
	th->info.start_ns = start_ns;
	th->info.root_pid = root;
	th->info.online_cpus = cpus;
	th->rp.info = &th->info;
	th->rp.model = model__new(root, start_ns);
	cr_assert_not_null(th->rp.model);
}

void synth_host_end(struct synth_host *th, __u64 end_ns)
{
	cr_assert_eq(model__finish(th->rp.model, end_ns), 0);
	lanes__assign_model(th->rp.model);
	th->rp.end_ns = end_ns;
	th->rp.layout = trace_layout__new(th->rp.model);
	cr_assert_not_null(th->rp.layout);
}

void synth_host_free(struct synth_host *th)
{
	replay__free(&th->rp);
}

void synth_host_proc(struct synth_host *th, __u32 pid, __u32 parent, __u64 start, __u64 end, __u64 cpu_ns,
		     const char *const argv[])
{
	synth_fork(th->rp.model, start, parent, pid, pid, false);
	synth_exec(th->rp.model, start + 1000, pid, parent, argv[0], argv);
	synth_exit_acct(th->rp.model, end, pid, 0, cpu_ns, 0, cpu_ns, 1000);
}

void synth_distcc_client(struct synth_host *a, __u32 pid, const char *src, const char *opt, __u64 start, __u64 sent,
			 __u64 end)
{
	static const char *const cc_e[] = { "/usr/bin/cc", "-E", "x.c", NULL };
	const char *argv[] = { "/usr/bin/distcc", "cc", opt, "-c", src, "-o", "out.o", NULL };

	synth_fork(a->rp.model, start, 100, pid, pid, false);
	synth_exec(a->rp.model, start + 1000, pid, 100, argv[0], argv);
	synth_host_proc(a, pid + 1, pid, start + 1 * SYNTH_MS, sent, 1 * SYNTH_MS, cc_e);
	synth_exit_acct(a->rp.model, end, pid, 0, 1 * SYNTH_MS, 0, 1 * SYNTH_MS, 1000);
}

void synth_distcc_job(struct synth_host *b, __u32 pid, const char *input, const char *opt, __u64 start, __u64 end)
{
	const char *argv[] = { "/usr/bin/x86_64-linux-gnu-gcc", opt, "-c", input, "-o", "/tmp/distccd_0b.o", NULL };
	const char *cc1[] = { "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-fpreprocessed", input, NULL };

	synth_host_proc(b, pid, 200, start, end, 2 * SYNTH_MS, argv);
	synth_host_proc(b, pid + 1, pid, start + 1 * SYNTH_MS, end - 1 * SYNTH_MS, 50 * SYNTH_MS, cc1);
}
