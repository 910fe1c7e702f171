// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "model/file_log.h"
#include "model/proc_index.h"

struct file_log *file_log__new(void)
{
	return calloc(1, sizeof(struct file_log));
}

/* names[] leaf first -> one path string, root first. */
static char *join_names(const struct bb_file_event *e)
{
	size_t i, n = e->nr_names, len = 0, off = 0;
	bool complete = e->flags & BB_FILE_PATH_COMPLETE;
	const char *cut = complete ? "" : "\xe2\x80\xa6"; /* "…" */
	char *path;

	for (i = 0; i < n; i++)
		len += strnlen(e->names[i], BB_FILE_NAME_LEN) + 1;
	path = malloc(len + strlen(cut) + 2);
	if (!path)
		return NULL;
	off += strlen(strcpy(path, cut));
	if (!n)
		path[off++] = '/';
	while (n--) {
		size_t l = strnlen(e->names[n], BB_FILE_NAME_LEN);

		path[off++] = '/';
		memcpy(path + off, e->names[n], l);
		off += l;
	}
	path[off] = 0;
	return path;
}

static int add_open(struct file_log *fl, const struct bb_file_event *e)
{
	struct file_open *o;

	if (e->nr_names > BB_FILE_NAMES)
		return -EINVAL;
	if (array_grow((void **)&fl->opens, &fl->cap_opens, fl->nr_opens + 1, sizeof(*fl->opens)))
		return -ENOMEM;
	o = &fl->opens[fl->nr_opens];
	o->ts_ns = e->hdr.ts_ns;
	o->ino = e->ino;
	o->dev = e->dev;
	o->tgid = e->hdr.tgid;
	o->write = e->flags & BB_FILE_WRITE;
	o->seq = fl->nr_opens;
	o->path = join_names(e);
	if (!o->path)
		return -ENOMEM;
	fl->nr_opens++;
	return 0;
}

static int add_rename(struct file_log *fl, const struct bb_file_rename_event *e)
{
	struct file_rename *r;

	if (array_grow((void **)&fl->renames, &fl->cap_renames, fl->nr_renames + 1, sizeof(*fl->renames)))
		return -ENOMEM;
	r = &fl->renames[fl->nr_renames];
	r->ts_ns = e->hdr.ts_ns;
	r->tgid = e->hdr.tgid;
	r->seq = fl->nr_renames;
	r->old_path = strndup(e->old_path, sizeof(e->old_path));
	r->new_path = strndup(e->new_path, sizeof(e->new_path));
	if (!r->old_path || !r->new_path) {
		free(r->old_path);
		free(r->new_path);
		return -ENOMEM;
	}
	fl->nr_renames++;
	return 0;
}

static int add_counts(struct file_log *fl, const struct bb_file_counts_event *e)
{
	if (array_grow((void **)&fl->counts, &fl->cap_counts, fl->nr_counts + 1, sizeof(*fl->counts)))
		return -ENOMEM;
	fl->counts[fl->nr_counts++] = (struct file_counts){
		.tgid = e->hdr.tgid,
		.ts_ns = e->hdr.ts_ns,
		.opened = e->counts.opened,
		.written = e->counts.written,
	};
	return 0;
}

int file_log__add(struct file_log *fl, const void *rec, size_t len)
{
	const struct bb_event_header *hdr = rec;
	size_t need;
	int e;

	need = hdr->type == BB_EV_FILE_OPEN	? sizeof(struct bb_file_event) :
	       hdr->type == BB_EV_FILE_RENAME ? sizeof(struct bb_file_rename_event) :
	       hdr->type == BB_EV_FILE_COUNTS ? sizeof(struct bb_file_counts_event) :
						  0;
	if (len < sizeof(*hdr) || !need || len != need) {
		fl->malformed++;
		return -EINVAL;
	}
	e = hdr->type == BB_EV_FILE_OPEN   ? add_open(fl, rec) :
	    hdr->type == BB_EV_FILE_RENAME ? add_rename(fl, rec) :
					     add_counts(fl, rec);
	if (e == -EINVAL)
		fl->malformed++;
	return e;
}

static int by_open_time(const void *a, const void *b)
{
	const struct file_open *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_rename_time(const void *a, const void *b)
{
	const struct file_rename *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void file_log__finish(struct file_log *fl)
{
	if (fl->nr_opens)
		qsort(fl->opens, fl->nr_opens, sizeof(*fl->opens), by_open_time);
	if (fl->nr_renames)
		qsort(fl->renames, fl->nr_renames, sizeof(*fl->renames), by_rename_time);
}

/* Whether the process tgid alive at ts is one the model knows as hidden. */
static bool hidden_at(const struct model *m, const struct proc_index *x, __u32 tgid, __u64 ts)
{
	long i = proc_index__at(x, tgid, ts);

	return i >= 0 && m->procs[i].hidden;
}

int file_log__drop_hidden(struct file_log *fl, const struct model *m)
{
	struct proc_index *own;
	const struct proc_index *x = proc_index__of(m, &own);
	size_t i, n;

	if (!x)
		return -ENOMEM;
	for (i = n = 0; i < fl->nr_opens; i++) {
		if (hidden_at(m, x, fl->opens[i].tgid, fl->opens[i].ts_ns))
			free(fl->opens[i].path);
		else
			fl->opens[n++] = fl->opens[i];
	}
	fl->nr_opens = n;
	for (i = n = 0; i < fl->nr_renames; i++) {
		if (hidden_at(m, x, fl->renames[i].tgid, fl->renames[i].ts_ns)) {
			free(fl->renames[i].old_path);
			free(fl->renames[i].new_path);
		} else {
			fl->renames[n++] = fl->renames[i];
		}
	}
	fl->nr_renames = n;
	for (i = n = 0; i < fl->nr_counts; i++)
		if (!hidden_at(m, x, fl->counts[i].tgid, fl->counts[i].ts_ns))
			fl->counts[n++] = fl->counts[i];
	fl->nr_counts = n;
	proc_index__free(own);
	return 0;
}

void file_log__free(struct file_log *fl)
{
	size_t i;

	if (!fl)
		return;
	for (i = 0; i < fl->nr_opens; i++)
		free(fl->opens[i].path);
	for (i = 0; i < fl->nr_renames; i++) {
		free(fl->renames[i].old_path);
		free(fl->renames[i].new_path);
	}
	free(fl->opens);
	free(fl->renames);
	free(fl->counts);
	free(fl);
}
