// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "graph/build_graph.h"
#include "graph/slack.h"

/* How far back a rename looks for the write of the path it moves. */
#define RENAME_LOOKBACK 4096

/* One use of a file by a process: an open, or a rename that moved it. */
struct access {
	__u64 ts_ns;
	__u64 ino;
	__u32 dev;
	bool write;
	size_t proc;
	size_t seq;	  /* ties in time keep record order */
	const char *path; /* NULL: a rename (the open's path is the old one) */
};

/* Everything the computation builds on the way, freed at its end. */
struct work {
	const struct model *m;
	size_t *by_pid; /* proc indexes by (pid, start) */
	struct access *acc;
	size_t nr_acc, cap_acc;
	size_t *child_off, *children; /* CSR: children of proc i at children[child_off[i] ..) */
	size_t *input_off;	      /* CSR over graph->edges (sorted by reader) */
	bool *sequential;	      /* no two children alive at once */
};

const char *graph_link__name(enum graph_link link)
{
	switch (link) {
	case LINK_WAIT:
		return "wait";
	case LINK_INPUT:
		return "input";
	case LINK_SPAWN:
		return "spawn";
	default:
		return "end";
	}
}

static int by_pid_start(const void *a, const void *b, void *model)
{
	const struct model *m = model;
	const struct proc_instance *x = &m->procs[*(const size_t *)a];
	const struct proc_instance *y = &m->procs[*(const size_t *)b];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The instance of pid alive at ts: the last one started by then.  -1: none. */
static long find_proc(const struct work *w, __u32 pid, __u64 ts)
{
	const struct model *m = w->m;
	size_t lo = 0, hi = m->nr_procs;
	long found = -1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct proc_instance *p = &m->procs[w->by_pid[mid]];

		if (p->pid < pid || (p->pid == pid && p->start_ns <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && m->procs[w->by_pid[lo - 1]].pid == pid)
		found = (long)w->by_pid[lo - 1];
	return found;
}

static int push_access(struct work *w, const struct access *a)
{
	if (array_grow((void **)&w->acc, &w->cap_acc, w->nr_acc + 1, sizeof(*w->acc)))
		return -ENOMEM;
	w->acc[w->nr_acc] = *a;
	w->acc[w->nr_acc].seq = w->nr_acc;
	w->nr_acc++;
	return 0;
}

/* The last path component of s before end (exclusive), skipping "." ones. */
static const char *prev_component(const char *s, const char **end, size_t *len)
{
	const char *e = *end, *b;

	for (;;) {
		while (e > s && e[-1] == '/')
			e--;
		if (e == s)
			return NULL;
		b = e;
		while (b > s && b[-1] != '/')
			b--;
		if (!(e - b == 1 && b[0] == '.'))
			break;
		e = b;
	}
	*len = e - b;
	*end = b;
	return b;
}

/*
 * Whether a rename's old path (as the process passed it, relative or not)
 * names the file at path (from its file system's root): their trailing
 * components agree as far as both go, up to a "..".
 */
static bool path_tail_matches(const char *path, const char *old)
{
	const char *pe = path + strlen(path), *oe = old + strlen(old), *pc, *oc;
	size_t pl, ol;
	bool any = false;

	for (;;) {
		oc = prev_component(old, &oe, &ol);
		if (!oc || (ol == 2 && !memcmp(oc, "..", 2)))
			return any;
		pc = prev_component(path, &pe, &pl);
		if (!pc)
			return any;
		if (pl != ol || memcmp(pc, oc, ol))
			return false;
		any = true;
	}
}

/*
 * The last write (among the opens, by time) before ts of a file whose path
 * ends like name; NULL: none within RENAME_LOOKBACK writes.
 */
static const struct access *last_write_named(const struct work *w, size_t nr_opens, const char *name, __u64 ts)
{
	size_t j, looked = 0;

	for (j = nr_opens; j-- > 0 && looked < RENAME_LOOKBACK;) {
		const struct access *o = &w->acc[j];

		if (!o->write || o->ts_ns > ts)
			continue;
		looked++;
		if (path_tail_matches(o->path, name))
			return o;
	}
	return NULL;
}

/*
 * A program the build wrote and then ran is an input of the process that
 * exec'd it: the kernel opens it for exec without an open syscall, so the
 * exec's file name is matched like a rename's.
 */
static int collect_execs(struct work *w, size_t nr_opens)
{
	const struct model *m = w->m;
	size_t i, k;

	for (i = 0; i < m->nr_procs; i++) {
		for (k = 0; k < m->procs[i].nr_execs; k++) {
			const struct exec_image *x = &m->procs[i].execs[k];
			const struct access *o = x->filename ? last_write_named(w, nr_opens, x->filename, x->start_ns) : NULL;
			struct access a;

			if (!o)
				continue;
			a = (struct access){ x->start_ns, o->ino, o->dev, false, i, 0, x->filename };
			if (push_access(w, &a))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Opens become accesses; each rename that moved a file the build wrote
 * makes its process a writer, each exec of one makes its process a reader.
 */
static int collect_accesses(struct work *w, struct build_graph *g, const struct file_log *fl)
{
	size_t i, nr_opens = 0;

	for (i = 0; i < fl->nr_opens; i++) {
		const struct file_open *o = &fl->opens[i];
		long p = find_proc(w, o->tgid, o->ts_ns);
		struct access a = { o->ts_ns, o->ino, o->dev, o->write, 0, 0, o->path };

		if (p < 0) {
			g->unmatched++;
			continue;
		}
		a.proc = p;
		if (push_access(w, &a))
			return -ENOMEM;
	}
	nr_opens = w->nr_acc; /* in time order: the log is sorted */
	for (i = 0; i < fl->nr_renames; i++) {
		const struct file_rename *r = &fl->renames[i];
		long p = find_proc(w, r->tgid, r->ts_ns);
		const struct access *o;
		struct access a;

		if (p < 0) {
			g->unmatched++;
			continue;
		}
		o = last_write_named(w, nr_opens, r->old_path, r->ts_ns);
		if (!o)
			continue;
		a = (struct access){ r->ts_ns, o->ino, o->dev, true, (size_t)p, 0, NULL };
		if (push_access(w, &a))
			return -ENOMEM;
		g->nr_renames_matched++;
	}
	return collect_execs(w, nr_opens);
}

static int by_file_time(const void *a, const void *b)
{
	const struct access *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_reader(const void *a, const void *b)
{
	const struct graph_edge *x = a, *y = b;

	if (x->reader != y->reader)
		return x->reader < y->reader ? -1 : 1;
	if (x->read_ns != y->read_ns)
		return x->read_ns < y->read_ns ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static int add_edge(struct build_graph *g, size_t *cap, size_t group_first_edge, const struct access *wr,
		    const struct access *rd, size_t file)
{
	size_t k;

	/* Once per (reader, file): this file's edges are the last ones. */
	for (k = group_first_edge; k < g->nr_edges; k++)
		if (g->edges[k].reader == rd->proc)
			return 0;
	if (array_grow((void **)&g->edges, cap, g->nr_edges + 1, sizeof(*g->edges)))
		return -ENOMEM;
	g->edges[g->nr_edges++] = (struct graph_edge){ wr->proc, rd->proc, file, wr->ts_ns, rd->ts_ns, rd->path };
	return 0;
}

static int push_file(struct build_graph *g, size_t *cap, const struct access *first, const char *path)
{
	if (array_grow((void **)&g->files, cap, g->nr_files + 1, sizeof(*g->files)))
		return -ENOMEM;
	g->files[g->nr_files++] = (struct graph_file){ first->ino, first->dev, path ? path : "?" };
	return 0;
}

/*
 * Groups the accesses by file; in each, a read after another process's
 * write is an edge.  An inode freed and reused is a new file: ninja reads
 * and deletes each compiler's .d file, and the next compile's .d may get
 * the same inode.  A write under another name than the file's first write
 * starts a new file, so that its reader's edge is not taken for a
 * duplicate of the one before.
 */
static int compute_edges(struct work *w, struct build_graph *g)
{
	size_t i = 0, cap_files = 0, cap_edges = 0;

	if (w->nr_acc)
		qsort(w->acc, w->nr_acc, sizeof(*w->acc), by_file_time);
	while (i < w->nr_acc) {
		size_t j = i, first_edge = g->nr_edges, file = g->nr_files;
		const struct access *last_write = NULL;
		const char *path = NULL, *written_as = NULL;

		for (; j < w->nr_acc && w->acc[j].dev == w->acc[i].dev && w->acc[j].ino == w->acc[i].ino; j++) {
			const struct access *a = &w->acc[j];

			if (a->write && a->path && written_as && strcmp(a->path, written_as)) {
				if (push_file(g, &cap_files, a, path))
					return -ENOMEM;
				first_edge = g->nr_edges;
				file = g->nr_files;
				written_as = NULL;
				path = NULL;
			}
			if (a->path)
				path = a->path;
			if (a->write && a->path && !written_as)
				written_as = a->path;
			if (a->write)
				last_write = a;
			else if (last_write && last_write->proc != a->proc &&
				 add_edge(g, &cap_edges, first_edge, last_write, a, file))
				return -ENOMEM;
		}
		if (push_file(g, &cap_files, &w->acc[i], path))
			return -ENOMEM;
		i = j;
	}
	if (g->nr_edges)
		qsort(g->edges, g->nr_edges, sizeof(*g->edges), by_reader);
	return 0;
}

static void count_files(struct work *w, struct build_graph *g, const struct file_log *fl)
{
	size_t i;

	for (i = 0; i < fl->nr_counts; i++) {
		const struct file_counts *c = &fl->counts[i];
		long p = find_proc(w, c->tgid, c->ts_ns);

		if (p < 0) {
			g->unmatched++;
			continue;
		}
		g->proc_files[p].opened += c->opened;
		g->proc_files[p].written += c->written;
		g->proc_files[p].known = true;
	}
}

/* Children per process (CSR, in start order) and whether they ran one at a time. */
static int index_tree(struct work *w, const struct build_graph *g)
{
	const struct model *m = w->m;
	size_t i, n = m->nr_procs;

	w->input_off = calloc(n + 1, sizeof(*w->input_off));
	w->sequential = calloc(n ? n : 1, sizeof(*w->sequential));
	if (!w->input_off || !w->sequential || model__index_children(m, &w->child_off, &w->children))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		size_t k;
		__u64 max_end = 0;

		w->sequential[i] = true;
		for (k = w->child_off[i]; k < w->child_off[i + 1]; k++) {
			const struct proc_instance *c = &m->procs[w->children[k]];

			if (k > w->child_off[i] && c->start_ns < max_end)
				w->sequential[i] = false;
			if (c->end_ns > max_end)
				max_end = c->end_ns;
		}
	}
	for (i = 0; i < g->nr_edges; i++)
		w->input_off[g->edges[i].reader + 1]++;
	for (i = 0; i < n; i++)
		w->input_off[i + 1] += w->input_off[i];
	return 0;
}

/* The child of p that ended last by t; -1: none. */
static long last_child_by(const struct work *w, size_t p, __u64 t)
{
	const struct model *m = w->m;
	long best = -1;
	size_t k;

	for (k = w->child_off[p]; k < w->child_off[p + 1]; k++) {
		const struct proc_instance *c = &m->procs[w->children[k]];

		if (c->end_ns <= t && c->start_ns < t && (best < 0 || c->end_ns > m->procs[best].end_ns))
			best = (long)w->children[k];
	}
	return best;
}

/* Whether d is p or one of its descendants (a parent starts, and sorts, before its children). */
static bool in_subtree(const struct model *m, size_t d, size_t p)
{
	long i = (long)d;

	while (i >= (long)p) {
		if (i == (long)p)
			return true;
		i = m->procs[i].parent;
	}
	return false;
}

/*
 * The input of p's subtree from outside it whose writer ended last by p's
 * start; -1: none.  The subtree's, because a job's inputs are read by the
 * compiler its shell starts, and they were what the job waited for.
 */
static long last_input(const struct work *w, const struct build_graph *g, size_t p)
{
	const struct model *m = w->m;
	const struct proc_instance *pp = &m->procs[p];
	long best = -1;
	size_t k;

	/* Edges are sorted by reader, readers by start: the subtree's readers
	 * are at or after p, and start before p ends. */
	for (k = w->input_off[p]; k < g->nr_edges && m->procs[g->edges[k].reader].start_ns <= pp->end_ns; k++) {
		const struct graph_edge *e = &g->edges[k];
		const struct proc_instance *wr = &m->procs[e->writer];

		if (wr->end_ns > pp->start_ns || (best >= 0 && wr->end_ns <= m->procs[g->edges[best].writer].end_ns))
			continue;
		if (in_subtree(m, e->reader, p) && !in_subtree(m, e->writer, p))
			best = (long)k;
	}
	return best;
}

static int push_step(struct build_graph *g, size_t *cap, size_t proc, __u64 from, __u64 to, enum graph_link via,
		     long edge)
{
	if (array_grow((void **)&g->path, cap, g->nr_path + 1, sizeof(*g->path)))
		return -ENOMEM;
	g->path[g->nr_path++] = (struct critical_step){ proc, from < to ? from : to, to, via, edge };
	g->path_ns += to > from ? to - from : 0;
	return 0;
}

/*
 * Walks back from the command's end.  A process's end is held by the
 * child it waited for last (the child that ended last before it); its
 * start by whichever ended later of: the input of its subtree whose
 * writer ended last before it started, and, when its parent ran its
 * children one at a time (a shell, a driver like cc), the sibling before
 * it; else by its parent, which forked it.  A parallel parent (make -jN)
 * did not wait for its earlier children: they are not followed without a
 * data edge.
 */
static int walk_critical_path(struct work *w, struct build_graph *g)
{
	const struct model *m = w->m;
	size_t cap = 0, iter, max_iter = 4 * m->nr_procs + 16, i;
	enum graph_link via = LINK_END;
	long cur = m->root, edge = -1;
	bool children_ok = true;
	__u64 t, spawn_ns;

	if (cur < 0)
		return 0;
	t = m->procs[cur].end_ns;
	for (iter = 0; iter < max_iter; iter++) {
		const struct proc_instance *p = &m->procs[cur];
		long c = children_ok ? last_child_by(w, cur, t) : -1, in, prev;

		if (c >= 0) {
			if (push_step(g, &cap, cur, m->procs[c].end_ns, t, via, edge))
				return -ENOMEM;
			via = LINK_WAIT;
			edge = -1;
			t = m->procs[c].end_ns;
			cur = c;
			children_ok = true;
			continue;
		}
		if (push_step(g, &cap, cur, p->start_ns, t, via, edge))
			return -ENOMEM;
		/* What p's start waited for: its last input, or the child its
		 * sequential parent ran before it, whichever ended later. */
		in = last_input(w, g, cur);
		prev = p->parent >= 0 && w->sequential[p->parent] ? last_child_by(w, p->parent, p->start_ns) : -1;
		/* Without a sibling before it, the parent's own start competes: an
		 * input ready before the parent existed is not what p waited for
		 * (a compiler its job's shell ran after a sleep read gen.h). */
		spawn_ns = prev >= 0 ? m->procs[prev].end_ns : p->parent >= 0 ? m->procs[p->parent].start_ns : 0;
		if (in >= 0 && m->procs[g->edges[in].writer].end_ns >= spawn_ns) {
			via = LINK_INPUT;
			edge = in;
			cur = (long)g->edges[in].writer;
			t = m->procs[cur].end_ns;
			children_ok = true;
		} else if (p->parent >= 0) {
			via = LINK_SPAWN;
			edge = -1;
			t = p->start_ns;
			cur = p->parent;
			children_ok = prev >= 0;
		} else {
			break;
		}
	}
	for (i = 0; i < g->nr_path / 2; i++) {
		struct critical_step s = g->path[i];

		g->path[i] = g->path[g->nr_path - 1 - i];
		g->path[g->nr_path - 1 - i] = s;
	}
	return 0;
}

/* The jobs, and each process's slack: its job's. */
static int compute_slack(struct build_graph *g, const struct model *m)
{
	__u64 *job_slack;
	size_t i;

	if (job_graph__build(&g->jobs, m, g->edges, g->nr_edges))
		return -ENOMEM;
	g->proc_slack_ns = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*g->proc_slack_ns));
	job_slack = malloc((g->jobs.nr_jobs ? g->jobs.nr_jobs : 1) * sizeof(*job_slack));
	if (!g->proc_slack_ns || !job_slack) {
		free(job_slack);
		return -ENOMEM;
	}
	slack__jobs(&g->jobs, job_slack);
	for (i = 0; i < m->nr_procs; i++)
		g->proc_slack_ns[i] = g->jobs.proc_job[i] >= 0 ? job_slack[g->jobs.proc_job[i]] : SLACK_NONE;
	free(job_slack);
	return 0;
}

static void free_work(struct work *w)
{
	free(w->by_pid);
	free(w->acc);
	free(w->child_off);
	free(w->children);
	free(w->input_off);
	free(w->sequential);
}

int build_graph__compute(struct build_graph *g, const struct model *m, const struct file_log *fl)
{
	struct work w = { .m = m };
	size_t i;
	int err = -ENOMEM;

	memset(g, 0, sizeof(*g));
	w.by_pid = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*w.by_pid));
	g->proc_files = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*g->proc_files));
	if (!w.by_pid || !g->proc_files)
		goto out;
	for (i = 0; i < m->nr_procs; i++)
		w.by_pid[i] = i;
	qsort_r(w.by_pid, m->nr_procs, sizeof(*w.by_pid), by_pid_start, (void *)m);
	if (fl) {
		g->file_records = fl->nr_opens + fl->nr_renames + fl->nr_counts + fl->malformed;
		if (collect_accesses(&w, g, fl) || compute_edges(&w, g))
			goto out;
		count_files(&w, g, fl);
	}
	if (index_tree(&w, g) || walk_critical_path(&w, g) || compute_slack(g, m))
		goto out;
	err = 0;
out:
	free_work(&w);
	if (err)
		build_graph__free(g);
	return err;
}

void build_graph__free(struct build_graph *g)
{
	if (!g)
		return;
	free(g->files);
	free(g->edges);
	free(g->proc_files);
	free(g->path);
	job_graph__free(&g->jobs);
	free(g->proc_slack_ns);
	memset(g, 0, sizeof(*g));
}
