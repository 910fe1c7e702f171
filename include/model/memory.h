/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory of each process, from the BB_EV_MEM_* records (events.h).  Pure,
 * part of the model stage: model.c hands each memory record to the process
 * instance it is about, and lets this module settle the figures once every
 * record is in.
 *
 * A process's peak RSS (peak_rss_kb) is the highest peak of the images its
 * own execs loaded; a process that never exec'd has one image, the copy of
 * its parent it was forked with, and that one's peak is its own.  The copy
 * a process runs between its fork and its exec is its parent's program:
 * its peak is kept apart (fork_peak_rss_kb), never in peak_rss_kb.  A
 * recording without image records (made before they existed, or whose
 * records were lost) leaves the kernel's maxrss_kb as the peak, inherited
 * part included, and says so (peak_rss_exact false).
 */
#ifndef BUILDBPF_MODEL_MEMORY_H
#define BUILDBPF_MODEL_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include "model/model_types.h"

/* Applies one BB_EV_MEM_IMAGE record to its process. */
void memory__apply_image(struct proc_instance *p, const struct bb_mem_image_event *e);
/* Settles p's peak_rss_kb once every record is applied. */
void memory__finish_proc(struct proc_instance *p);
/* Applies one BB_EV_MEM_PSI record to the run. */
void memory__apply_psi(struct model *m, const struct bb_mem_psi_event *e);
/* The memory stall during the recording, in us; false where PSI was not recorded. */
bool memory__psi_stall(const struct model *m, __u64 *some_us, __u64 *full_us);
/* Applies one BB_EV_MEM_SAMPLE record.  0, or -ENOMEM. */
int memory__apply_sample(struct model *m, const struct bb_mem_sample_event *e);
/* Records user space adds (PSI, samples): they do not move the trace's end. */
bool memory__is_user_record(__u32 type);
/* Index of the instance of pid live at ts, or -1. */
long memory__proc_at(const struct model *m, __u32 pid, __u64 ts_ns);
/* Processes the OOM killer chose (oom_killed): the summary's and audit's count. */
size_t memory__oom_killed(const struct model *m);
/* Minimum length of a memory record of this type; 0: not a memory record. */
size_t memory__record_size(__u32 type);

#endif /* BUILDBPF_MODEL_MEMORY_H */
