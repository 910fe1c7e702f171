// SPDX-License-Identifier: GPL-2.0
/* Per-image peak RSS and OOM flags from synthetic memory records (model/memory.h). */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/memory.h"
#include "model/model.h"
#include "record/mem_pressure.h"
#include "lib/synth.h"

#define MS 1000000ull

/* buildbpf -- sh -c true: the command's copy of buildbpf is not sh's peak. */
Test(memory, the_forked_copy_is_not_the_programs_peak)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_mem_image(m, 1 * MS, 100, 0, 34228, 0);
	synth_exec(m, 1 * MS, 100, 1, "/usr/bin/sh", (const char *[]){ "sh", "-c", "true", NULL });
	synth_mem_image(m, 2 * MS, 100, 1, 1604, BB_MEM_IMAGE_EXITED);
	synth_exit_acct(m, 3 * MS, 100, 0, 0, 0, 0, 34228);
	cr_assert(eq(int, model__finish(m, 3 * MS), 0));
	p = synth_proc_of(m, 100);
	cr_assert(eq(u64, p->peak_rss_kb, 1604));
	cr_assert(eq(u64, p->maxrss_kb, 34228));
	cr_assert(eq(u64, p->fork_peak_rss_kb, 34228));
	cr_assert(eq(u64, p->execs[0].peak_rss_kb, 1604));
	cr_assert(p->peak_rss_exact);
	cr_assert(not(p->oom_killed));
	model__free(m);
}

/* sh -c 'exec prog': the process's peak is the highest of its own images. */
Test(memory, an_exec_chain_keeps_each_images_peak)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_mem_image(m, 2 * MS, 101, 0, 220000, 0);
	synth_exec(m, 2 * MS, 101, 100, "/bin/sh", (const char *[]){ "sh", NULL });
	synth_mem_image(m, 3 * MS, 101, 1, 1500, 0);
	synth_exec(m, 3 * MS, 101, 100, "/bin/big", (const char *[]){ "big", NULL });
	synth_mem_image(m, 4 * MS, 101, 2, 9000, BB_MEM_IMAGE_EXITED);
	synth_exit_acct(m, 5 * MS, 101, 0, 0, 0, 0, 220000);
	cr_assert(eq(int, model__finish(m, 5 * MS), 0));
	p = synth_proc_of(m, 101);
	cr_assert(eq(u64, p->execs[0].peak_rss_kb, 1500));
	cr_assert(eq(u64, p->execs[1].peak_rss_kb, 9000));
	cr_assert(eq(u64, p->peak_rss_kb, 9000));
	model__free(m);
}

/* A subshell never execs: the copy it runs is its own program. */
Test(memory, a_process_that_never_execs_has_its_forked_peak)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_mem_image(m, 2 * MS, 101, 0, 2500, BB_MEM_IMAGE_EXITED);
	synth_exit_acct(m, 3 * MS, 101, 0, 0, 0, 0, 2500);
	cr_assert(eq(int, model__finish(m, 3 * MS), 0));
	p = synth_proc_of(m, 101);
	cr_assert(eq(u64, p->peak_rss_kb, 2500));
	cr_assert(p->peak_rss_exact);
	model__free(m);
}

/* A recording without memory records keeps the kernel's figure, and says so. */
Test(memory, without_image_records_the_kernels_maxrss_stands)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_exec(m, 1 * MS, 100, 1, "/bin/x", (const char *[]){ "x", NULL });
	synth_exit_acct(m, 3 * MS, 100, 0, 0, 0, 0, 7777);
	cr_assert(eq(int, model__finish(m, 3 * MS), 0));
	p = synth_proc_of(m, 100);
	cr_assert(eq(u64, p->peak_rss_kb, 7777));
	cr_assert(not(p->peak_rss_exact));
	model__free(m);
}

Test(memory, oom_killed_is_flagged)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_exec(m, 2 * MS, 101, 100, "/bin/hog", (const char *[]){ "hog", NULL });
	synth_mem_image(m, 3 * MS, 101, 1, 64000, BB_MEM_IMAGE_EXITED | BB_MEM_OOM_KILLED);
	synth_exit_acct(m, 4 * MS, 101, 9, 0, 0, 0, 64000);
	cr_assert(eq(int, model__finish(m, 4 * MS), 0));
	p = synth_proc_of(m, 101);
	cr_assert(p->oom_killed);
	cr_assert(not(synth_proc_of(m, 100)->oom_killed));
	model__free(m);
}

/* A short memory record is malformed, counted, not applied. */
Test(memory, a_short_record_is_refused)
{
	struct model *m = model__new(100, 0);
	struct bb_mem_image_event e = { .hdr = { .ts_ns = 1, .type = BB_EV_MEM_IMAGE, .pid = 100, .tgid = 100 } };

	cr_assert(eq(int, model__add_event(m, &e, sizeof(e) - 1), -EINVAL));
	cr_assert(eq(sz, m->stats.malformed, 1));
	model__free(m);
}

Test(memory, psi_stall_is_the_difference_of_the_totals)
{
	struct model *m = model__new(100, 0);
	struct bb_mem_psi_event first, last;
	__u64 some, full;

	cr_assert(eq(int, mem_pressure__parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\n"
					      "full avg10=0.00 avg60=0.00 avg300=0.00 total=400\n", &first), 0));
	cr_assert(eq(int, mem_pressure__parse("some avg10=1.00 avg60=0.50 avg300=0.10 total=251000\n"
					      "full avg10=0.50 avg60=0.20 avg300=0.00 total=100400\n", &last), 0));
	first.hdr = (struct bb_event_header){ .ts_ns = 0, .type = BB_EV_MEM_PSI };
	last.hdr = (struct bb_event_header){ .ts_ns = 5 * MS, .type = BB_EV_MEM_PSI };
	cr_assert(eq(int, model__add_event(m, &first, sizeof(first)), 0));
	cr_assert(eq(int, model__add_event(m, &last, sizeof(last)), 0));
	cr_assert(eq(int, model__finish(m, 5 * MS), 0));
	cr_assert(memory__psi_stall(m, &some, &full));
	cr_assert(eq(u64, some, 250000));
	cr_assert(eq(u64, full, 100000));
	model__free(m);
}

Test(memory, psi_needs_both_readings)
{
	struct model *m = model__new(100, 0);
	struct bb_mem_psi_event first = { .hdr = { .ts_ns = 0, .type = BB_EV_MEM_PSI }, .some_us = 9 };
	__u64 some, full;

	cr_assert(eq(int, mem_pressure__parse("some total=1\n", &first), -EINVAL));
	cr_assert(eq(int, mem_pressure__parse("full avg10=0.00 total=x\nsome avg10=0 total=3\n", &first), -EINVAL));
	cr_assert(eq(int, model__add_event(m, &first, sizeof(first)), 0));
	cr_assert(eq(int, model__finish(m, 5 * MS), 0));
	cr_assert(not(memory__psi_stall(m, &some, &full)));
	model__free(m);
}

static void synth_mem_sample(struct model *m, __u64 ts, __u64 total_kb, __u32 top_tgid, __u64 top_kb)
{
	struct bb_mem_sample_event e = { .hdr = { .ts_ns = ts, .type = BB_EV_MEM_SAMPLE } };

	e.total_kb = total_kb;
	e.ram_kb = 1024 * 1024;
	e.nr_procs = e.nr_top = top_tgid ? 1 : 0;
	e.top[0].tgid = top_tgid;
	e.top[0].rss_kb = top_kb;
	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), 0));
}

/* The counter's samples in time order; the peak is the first highest, with who held it. */
Test(memory, build_memory_peak_and_its_holders)
{
	struct model *m = model__new(100, 0);

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_mem_sample(m, 3 * MS, 5000, 101, 4000);
	synth_mem_sample(m, 2 * MS, 1000, 100, 1000);
	synth_mem_sample(m, 4 * MS, 9000, 101, 8000);
	synth_mem_sample(m, 5 * MS, 9000, 100, 1000);
	synth_exit(m, 6 * MS, 101, 101, true, 0);
	/* A sample after the end (the sampler ran once more) does not move it. */
	synth_mem_sample(m, 9 * MS, 0, 0, 0);
	cr_assert(eq(int, model__finish(m, 7 * MS), 0));
	cr_assert(eq(u64, m->end_ns, 7 * MS));
	cr_assert(eq(sz, m->nr_mem_samples, 5));
	cr_assert(eq(u64, m->mem_samples[0].ts_ns, 2 * MS));
	cr_assert(eq(u64, m->mem_samples[1].total_kb, 5000));
	cr_assert(eq(u64, m->mem_peak.total_kb, 9000));
	cr_assert(eq(u64, m->mem_peak.hdr.ts_ns, 4 * MS));
	cr_assert(eq(u32, m->mem_peak.top[0].tgid, 101));
	cr_assert(eq(int, (int)memory__proc_at(m, 101, 4 * MS), (int)(synth_proc_of(m, 101) - m->procs)));
	cr_assert(eq(int, (int)memory__proc_at(m, 101, 8 * MS), -1));
	model__free(m);
}
