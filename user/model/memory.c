// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "util/array_grow.h"
#include "model/memory.h"

size_t memory__record_size(__u32 type)
{
	switch (type) {
	case BB_EV_MEM_IMAGE:
		return sizeof(struct bb_mem_image_event);
	case BB_EV_MEM_PSI:
		return sizeof(struct bb_mem_psi_event);
	case BB_EV_MEM_SAMPLE:
		return sizeof(struct bb_mem_sample_event);
	default:
		return 0;
	}
}

void memory__apply_image(struct proc_instance *p, const struct bb_mem_image_event *e)
{
	if (e->flags & BB_MEM_OOM_KILLED)
		p->oom_killed = true;
	/* 0: no checkpoint saw the image's address space. */
	if (!e->peak_rss_kb)
		return;
	if (e->image == 0) {
		p->fork_peak_rss_kb = e->peak_rss_kb;
		return;
	}
	/* The exec's own record may have been lost: the process's figure
	 * still counts the image. */
	if (e->image <= p->nr_execs)
		p->execs[e->image - 1].peak_rss_kb = e->peak_rss_kb;
	if (!p->exec_peak_seen || e->peak_rss_kb > p->exec_peak_rss_kb)
		p->exec_peak_rss_kb = e->peak_rss_kb;
	p->exec_peak_seen = true;
}

void memory__finish_proc(struct proc_instance *p)
{
	if (p->exec_peak_seen) {
		p->peak_rss_kb = p->exec_peak_rss_kb;
		p->peak_rss_exact = true;
	} else if (!p->nr_execs && p->fork_peak_rss_kb) {
		p->peak_rss_kb = p->fork_peak_rss_kb;
		p->peak_rss_exact = true;
	} else {
		p->peak_rss_kb = p->maxrss_kb;
		p->peak_rss_exact = false;
	}
}

size_t memory__oom_killed(const struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nr_procs; i++)
		n += m->procs[i].oom_killed;
	return n;
}

void memory__apply_psi(struct model *m, const struct bb_mem_psi_event *e)
{
	if (!m->nr_psi)
		m->psi_first = *e;
	m->psi_last = *e;
	m->nr_psi++;
}

bool memory__psi_stall(const struct model *m, __u64 *some_us, __u64 *full_us)
{
	/* Totals only grow; a pair that does not is not a reading. */
	if (m->nr_psi < 2 || m->psi_last.some_us < m->psi_first.some_us ||
	    m->psi_last.full_us < m->psi_first.full_us)
		return false;
	*some_us = m->psi_last.some_us - m->psi_first.some_us;
	*full_us = m->psi_last.full_us - m->psi_first.full_us;
	return true;
}

bool memory__is_user_record(__u32 type)
{
	return type == BB_EV_MEM_PSI || type == BB_EV_MEM_SAMPLE;
}

int memory__apply_sample(struct model *m, const struct bb_mem_sample_event *e)
{
	if (array_grow((void **)&m->mem_samples, &m->mem_samples_cap, m->nr_mem_samples + 1,
		       sizeof(*m->mem_samples)))
		return -ENOMEM;
	m->mem_samples[m->nr_mem_samples++] = (struct mem_sample){ e->hdr.ts_ns, e->total_kb };
	/* The first of equal peaks: when the build first needed that much. */
	if (m->nr_mem_samples == 1 || e->total_kb > m->mem_peak.total_kb)
		m->mem_peak = *e;
	if (m->mem_peak.nr_top > BB_MEM_SAMPLE_TOP)
		m->mem_peak.nr_top = BB_MEM_SAMPLE_TOP;
	return 0;
}

long memory__proc_at(const struct model *m, __u32 pid, __u64 ts_ns)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		if (m->procs[i].pid == pid && m->procs[i].start_ns <= ts_ns && ts_ns <= m->procs[i].end_ns)
			return (long)i;
	return -1;
}
