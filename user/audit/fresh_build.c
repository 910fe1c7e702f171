// SPDX-License-Identifier: GPL-2.0
/* A build that compiled nothing (include/audit/fresh_build.h). */
#include "audit/fresh_build.h"
#include "model/probes.h"
#include "model/shell_call.h"
#include "model/tool_kind.h"

static bool is_runner(const struct proc_instance *p)
{
	return tool_kind__is_runner(tool_kind__lookup(proc_program(p)));
}

/* cargo or go speak for the build before any make or ninja around them. */
static void offer_runner(struct fresh_build *fb, const char *program, enum tool_kind kind)
{
	bool units = kind == TOOL_CARGO || kind == TOOL_GO;

	if ((units && !fb->by_units) || ((kind == TOOL_MAKE || kind == TOOL_NINJA) && !fb->runner)) {
		fb->runner = program;
		fb->by_units = units;
	}
}

void fresh_build__compute(struct fresh_build *fb, const struct model *m)
{
	size_t i;

	*fb = (struct fresh_build){ NULL, false, 0, 0, 0 };
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		const char *program = proc_program(p);
		enum tool_kind kind = tool_kind__lookup(program);

		offer_runner(fb, program, kind);
		/* A job: what a runner started, itself no runner (a sub-make's jobs are). */
		if (p->parent >= 0 && is_runner(&m->procs[p->parent]) && !tool_kind__is_runner(kind) &&
		    !shell_call__is(m, i))
			fb->nr_jobs++;
		if (kind != TOOL_RUSTC && kind != TOOL_GO_TOOL && kind != TOOL_BUILD_SCRIPT && !tool_kind__is_toolchain(kind))
			continue;
		/* A process's last image is what it ran as. */
		if (p->nr_execs && image_probe(&p->execs[p->nr_execs - 1], kind) != PROBE_NONE)
			fb->nr_probes++;
		else
			fb->nr_compiles++;
	}
}

bool fresh_build__nothing_compiled(const struct fresh_build *fb)
{
	return fb->runner && !fb->nr_compiles && (fb->by_units || !fb->nr_jobs);
}
