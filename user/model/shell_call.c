// SPDX-License-Identifier: GPL-2.0
#include "model/shell_call.h"
#include "model/tool_kind.h"

bool shell_call__is(const struct model *m, size_t proc)
{
	const struct proc_instance *p = proc < m->nr_procs ? &m->procs[proc] : NULL;

	return p && p->parent >= 0 && p->nr_execs && (p->execs[0].flags & BB_EXEC_OUTPUT_CAPTURED) &&
	       tool_kind__lookup(m->procs[p->parent].comm) == TOOL_MAKE;
}

size_t shell_call__count(const struct model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nr_procs; i++)
		n += shell_call__is(m, i);
	return n;
}
