// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "model/io.h"

size_t io__record_size(__u32 type)
{
	return type == BB_EV_PROC_IO ? sizeof(struct bb_proc_io_event) : 0;
}

void io__apply(struct proc_instance *p, const struct bb_proc_io_event *e)
{
	/* One record per process, from its last thread: a second one (a
	 * record replayed twice) replaces, never adds.  A hidden process's
	 * has no figures, which is not the same as 0. */
	if (e->flags & BB_IO_HIDDEN)
		return;
	p->io = e->io;
	p->io_flags = e->flags & (BB_IO_SYSCALLS | BB_IO_STORAGE);
	p->io_seen = true;
}

static void add_io(struct bb_io_acct *to, const struct bb_io_acct *from)
{
	to->rchar += from->rchar;
	to->wchar += from->wchar;
	to->syscr += from->syscr;
	to->syscw += from->syscw;
	to->read_bytes += from->read_bytes;
	to->write_bytes += from->write_bytes;
	to->cancelled_write_bytes += from->cancelled_write_bytes;
}

void io__sum(struct io_totals *t, const struct proc_instance *p)
{
	if (!p->io_seen)
		return;
	add_io(&t->io, &p->io);
	t->flags |= p->io_flags;
	t->nr_procs++;
}

void io__build_totals(const struct model *m, struct io_totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < m->nr_procs; i++)
		io__sum(t, &m->procs[i]);
}
