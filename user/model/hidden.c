// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "model/hidden.h"

void hidden__count(const struct model *m, struct hidden_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < m->nr_procs; i++) {
		__u32 h = m->procs[i].hidden;

		c->procs += h != 0;
		c->creds += !!(h & BB_HIDDEN_CREDS);
		c->not_dumpable += !!(h & BB_HIDDEN_NOT_DUMPABLE);
	}
}

const char *hidden__why(__u32 hidden)
{
	bool creds = hidden & BB_HIDDEN_CREDS, undumpable = hidden & BB_HIDDEN_NOT_DUMPABLE;

	if (creds && undumpable)
		return "setuid or setgid, not dumpable";
	return creds ? "setuid or setgid" : "not dumpable";
}
