/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file records of a recording (--deps=on, bpf/file_events.bpf.c),
 * checked and copied in arrival order: opens of files the build wrote,
 * renames, per-process counts.  Pure; replay fills it, the build graph
 * (graph/) reads it.
 *
 *   struct file_log *fl = file_log__new();
 *   file_log__add(fl, rec, len);    ... each BB_EV_FILE_* record
 *   file_log__finish(fl);           sorts by time
 *   file_log__drop_hidden(fl, m);   once the model is finished
 *   file_log__free(fl);
 */
#ifndef BUILDBPF_FILE_LOG_H
#define BUILDBPF_FILE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "events.h"

struct model;

/* One open of a regular file the build wrote (or opened for writing). */
struct file_open {
	__u64 ts_ns;
	__u64 ino;
	__u32 dev;
	__u32 tgid;
	bool write;
	size_t seq; /* arrival order: ties in time keep it */
	/* "a/b/c" from the file system's root ("/a/b/c" when complete), or
	 * "…/b/c" when cut; never NULL. */
	char *path;
};

struct file_rename {
	__u64 ts_ns;
	__u32 tgid;
	size_t seq;
	char *old_path; /* as the process passed them */
	char *new_path;
};

struct file_counts {
	__u32 tgid;
	__u64 ts_ns; /* the process's exit */
	__u32 opened, written;
};

struct file_log {
	struct file_open *opens; /* by time once finished */
	size_t nr_opens, cap_opens;
	struct file_rename *renames; /* by time once finished */
	size_t nr_renames, cap_renames;
	struct file_counts *counts;
	size_t nr_counts, cap_counts;
	size_t malformed; /* records refused by size or content */
};

static inline bool file_log__is_record(__u32 type)
{
	return type == BB_EV_FILE_OPEN || type == BB_EV_FILE_RENAME || type == BB_EV_FILE_COUNTS;
}

struct file_log *file_log__new(void);
/* Copies one BB_EV_FILE_* record.  0, -EINVAL (malformed: counted), -ENOMEM. */
int file_log__add(struct file_log *fl, const void *rec, size_t len);
/* Orders opens and renames by time (stable). */
void file_log__finish(struct file_log *fl);
/*
 * Drops the records of every process m knows as hidden (BB_HIDDEN_*, by
 * (pid, time)): the kernel side sends none (bpf/hidden.bpf.h), and a
 * program that forgets the rule must still not put them in an output.
 * 0, or -ENOMEM (fl unchanged).
 */
int file_log__drop_hidden(struct file_log *fl, const struct model *m);
void file_log__free(struct file_log *fl);

#endif /* BUILDBPF_FILE_LOG_H */
