// SPDX-License-Identifier: GPL-2.0
/* The name of a process as the reports show it (include/model/proc_name.h). */
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "model/step_names.h"

char *proc_display_name(const struct model *m, const struct proc_instance *p)
{
	const char *step = m && m->names && p >= m->procs && p < m->procs + m->nr_procs
				   ? step_names__of(m->names, p - m->procs)
				   : NULL;

	return step ? strdup(step) : proc_image_name(m, p);
}
