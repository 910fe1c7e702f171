// SPDX-License-Identifier: GPL-2.0
/* A build that compiled nothing (include/audit/fresh_build.h). */
#include "audit/fresh_build.h"
#include "model/probes.h"
#include "model/tool_kind.h"

void fresh_build__compute(struct fresh_build *fb, const struct model *m)
{
	size_t i;

	*fb = (struct fresh_build){ NULL, 0, 0 };
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		const char *program = proc_program(p);
		enum tool_kind kind = tool_kind__lookup(program);

		if ((kind == TOOL_CARGO || kind == TOOL_GO) && !fb->runner)
			fb->runner = program;
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
	return fb->runner && !fb->nr_compiles;
}
