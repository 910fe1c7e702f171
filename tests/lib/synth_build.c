// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/lanes.h"
#include "model/proc_dirs.h"
#include "model/step_names.h"
#include "lib/synth.h"
#include "lib/synth_build.h"
#include "lib/with_slots.h"

static const char *const make_argv[] = { "make", "-j2", NULL };

void synth_build__start_cmd(struct synth_build *b, __u32 root_pid, const char *cwd, const char *path,
			    const char *const argv[])
{
	memset(b, 0, sizeof(*b));
	b->root_pid = root_pid;
	b->m = model__new(root_pid, SB_T0);
	cr_assert(not(eq(ptr, b->m, NULL)));
	if (cwd)
		cr_assert(eq(int, model__set_cwd(b->m, cwd), 0));
	synth_exec(b->m, SB_T0, root_pid, 1, path, argv);
}

void synth_build__start(struct synth_build *b, __u32 root_pid, const char *cwd)
{
	synth_build__start_cmd(b, root_pid, cwd, "/usr/bin/make", make_argv);
}

void synth_build__proc(struct synth_build *b, __u32 pid, __u32 parent_pid, const char *path,
		       const char *const argv[], __u64 from_ms, __u64 to_ms, __u64 cpu_ms)
{
	synth_fork(b->m, SB_T0 + from_ms * SB_MS, parent_pid, pid, pid, false);
	synth_exec(b->m, SB_T0 + from_ms * SB_MS, pid, parent_pid, path, argv);
	synth_exit_acct(b->m, SB_T0 + to_ms * SB_MS, pid, 0, cpu_ms * SB_MS, 0, cpu_ms * SB_MS, 1000);
}

void synth_build__file(struct synth_build *b, __u32 pid, __u64 at_ms, __u64 ino, bool write, const char *path)
{
	if (!b->fl)
		b->fl = file_log__new();
	cr_assert(not(eq(ptr, b->fl, NULL)));
	synth_file_open(b->fl, SB_T0 + at_ms * SB_MS, pid, 8, ino, write, path);
}

void synth_build__finish(struct synth_build *b, __u64 end_ms)
{
	const struct proc_instance *root;
	struct audit_input in = { .nr_cpus = 2 };
	enum graph_step failed;

	synth_exit_acct(b->m, SB_T0 + end_ms * SB_MS, b->root_pid, 0, SB_MS, 0, SB_MS, 1000);
	cr_assert(eq(int, model__finish(b->m, SB_T0 + end_ms * SB_MS), 0));
	cr_assert(eq(int, proc_dirs__attach(b->m), 0));
	lanes__assign_model(b->m);
	root = &b->m->procs[b->m->root];
	in.cmd_argv = root->execs[0].argv;
	in.cmd_argc = root->execs[0].argc;
	if (b->fl) {
		file_log__finish(b->fl);
		cr_assert(eq(int, with_slots__graph_run(&b->g, b->m, b->fl, NULL, &failed), 0));
		in.graph = &b->g;
	}
	cr_assert(eq(int, step_names__attach(b->m, b->fl), 0));
	cr_assert(eq(int, with_slots__audit(&b->a, b->m, NULL, &in), 0));
	b->side = (struct diff_side){ .name = "synthetic.bbl", .m = b->m, .a = &b->a };
}

void synth_build__free(struct synth_build *b)
{
	audit__free(&b->a);
	graph_run__free(&b->g);
	file_log__free(b->fl);
	model__free(b->m);
}
