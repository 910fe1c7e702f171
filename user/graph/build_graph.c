// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "util/text_cmp.h"
#include "graph/build_graph.h"
#include "model/name_text.h"
#include "model/proc_index.h"
#include "model/proc_tree.h"

/* How many of the latest writes of a file of its name a rename (or exec) looks back at. */
#define RENAME_LOOKBACK 64

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

/* A write of a file, by the file's name (its last component). */
struct named_write {
	const char *name;
	size_t len;
	size_t acc; /* index in work->acc, which is time order */
};

/* Everything the computation builds on the way, freed at its end. */
struct work {
	const struct model *m;
	const struct job_slots *slots;
	const struct proc_index *pids; /* the model's processes by (pid, start) */
	struct proc_index *own_pids;   /* pids, when the model had none to lend */
	struct access *acc;
	size_t nr_acc, cap_acc;
	struct named_write *writes; /* the opens' writes, by name then time */
	size_t nr_writes;
	size_t *edge_mark;	      /* per proc: 1 + the file of the last edge it read */
	__u64 *last_write_ns;	      /* per proc: its last write (an open for writing, or a rename) */
	struct proc_tree tree;
	const struct build_graph *graph; /* what the sorts compare */
};

/* The instance of pid alive at ts: the last one started by then.  -1: none. */
static long find_proc(const struct work *w, __u32 pid, __u64 ts)
{
	return proc_index__started(w->pids, pid, ts);
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
		/* A record keeps a deep path's last components only ("…/b/c"): as far as it goes, it agrees. */
		if (!pc || (pl == NAME_ELLIPSIS_LEN && !memcmp(pc, NAME_ELLIPSIS, pl)))
			return any;
		if (pl != ol || memcmp(pc, oc, ol))
			return false;
		any = true;
	}
}

/* The last component of path, "." ones skipped; NULL: none. */
static const char *last_component(const char *path, size_t *len)
{
	const char *end = path + strlen(path);

	return prev_component(path, &end, len);
}

static int by_name(const struct named_write *x, const struct named_write *y)
{
	return text_cmp(x->name, x->len, y->name, y->len);
}

static int by_name_then_time(const void *a, const void *b)
{
	const struct named_write *x = a, *y = b;
	int c = by_name(x, y);

	return c ? c : x->acc < y->acc ? -1 : x->acc > y->acc;
}

/* The writes among the first nr_opens accesses, by file name, so a rename finds its write without a scan. */
static int index_writes(struct work *w, size_t nr_opens)
{
	size_t j;

	w->writes = malloc((nr_opens ? nr_opens : 1) * sizeof(*w->writes));
	if (!w->writes)
		return -ENOMEM;
	for (j = 0; j < nr_opens; j++) {
		size_t len;
		const char *name = w->acc[j].write ? last_component(w->acc[j].path, &len) : NULL;

		if (name)
			w->writes[w->nr_writes++] = (struct named_write){ name, len, j };
	}
	qsort(w->writes, w->nr_writes, sizeof(*w->writes), by_name_then_time);
	return 0;
}

/*
 * The last write (among the opens, by time) before ts of a file whose path
 * ends like name; NULL: none among the RENAME_LOOKBACK latest writes of a
 * file of its name.
 */
static const struct access *last_write_named(const struct work *w, const char *name, __u64 ts)
{
	struct named_write key;
	size_t lo = 0, hi = w->nr_writes, j, looked;

	key.name = last_component(name, &key.len);
	if (!key.name || (key.len == 2 && !memcmp(key.name, "..", 2)))
		return NULL;
	/* Past the writes of that name by ts: within a name, time order. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = by_name(&w->writes[mid], &key);

		if (c < 0 || (!c && w->acc[w->writes[mid].acc].ts_ns <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = lo, looked = 0; j-- > 0 && looked < RENAME_LOOKBACK && !by_name(&w->writes[j], &key); looked++) {
		const struct access *o = &w->acc[w->writes[j].acc];

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
static int collect_execs(struct work *w)
{
	const struct model *m = w->m;
	size_t i, k;

	for (i = 0; i < m->nr_procs; i++) {
		for (k = 0; k < m->procs[i].nr_execs; k++) {
			const struct exec_image *x = &m->procs[i].execs[k];
			const struct access *o = x->filename ? last_write_named(w, x->filename, x->start_ns) : NULL;
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
	size_t i, nr_opens = 0, cap_renames = 0;

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
	if (index_writes(w, nr_opens))
		return -ENOMEM;
	for (i = 0; i < fl->nr_renames; i++) {
		const struct file_rename *r = &fl->renames[i];
		long p = find_proc(w, r->tgid, r->ts_ns);
		const struct access *o;
		const char *written_path;
		struct access a;

		if (p < 0) {
			g->unmatched++;
			continue;
		}
		o = last_write_named(w, r->old_path, r->ts_ns);
		if (!o)
			continue;
		/* o points into w->acc, which push_access() may move: keep its path first. */
		written_path = o->path;
		a = (struct access){ r->ts_ns, o->ino, o->dev, true, (size_t)p, 0, NULL };
		if (push_access(w, &a) || array_grow((void **)&g->renames, &cap_renames, g->nr_renames_matched + 1,
						      sizeof(*g->renames)))
			return -ENOMEM;
		g->renames[g->nr_renames_matched++] =
			(struct graph_rename){ (size_t)p, r->ts_ns, written_path, r->old_path, r->new_path };
	}
	return collect_execs(w);
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

/*
 * graph_edge.ready_ns: a rename (an access without a path) is an atomic
 * publish, complete when it happens.  It was published while its writer
 * ran on when a reader started before the writer's end; or when the writer
 * wrote on after it and its runner is cargo, which starts a dependent on a
 * .rmeta: rustc renames its .rmeta into place, then generates code for
 * minutes, and a reader cargo started only once a job slot was free still
 * needed no more than that file.  A rename that was its writer's last write
 * (rustc's .rlib) is ready at the writer's end, as cargo waits for it; so
 * is any under make or ninja, which wait for a recipe's end.  Any other
 * reader waited for the end.
 */
static __u64 edge_ready(const struct work *w, const struct access *wr, const struct access *rd)
{
	__u64 end = w->m->procs[wr->proc].end_ns;
	bool wrote_on = wr->ts_ns < w->last_write_ns[wr->proc] && job_slots__run_by_cargo(w->slots, wr->proc);
	bool published = !wr->path && wr->ts_ns < end && (w->m->procs[rd->proc].start_ns < end || wrote_on);

	return published ? wr->ts_ns : end;
}

/* Each process's last write. */
static int writers_of(struct work *w)
{
	size_t i;

	w->last_write_ns = calloc(w->m->nr_procs ? w->m->nr_procs : 1, sizeof(*w->last_write_ns));
	if (!w->last_write_ns)
		return -ENOMEM;
	for (i = 0; i < w->nr_acc; i++)
		if (w->acc[i].write && w->acc[i].ts_ns > w->last_write_ns[w->acc[i].proc])
			w->last_write_ns[w->acc[i].proc] = w->acc[i].ts_ns;
	return 0;
}

static int add_edge(struct work *w, struct build_graph *g, size_t *cap, const struct access *wr,
		    const struct access *rd, size_t file)
{
	/* Once per (reader, file): a file's edges are made together. */
	if (w->edge_mark[rd->proc] == file + 1)
		return 0;
	w->edge_mark[rd->proc] = file + 1;
	if (array_grow((void **)&g->edges, cap, g->nr_edges + 1, sizeof(*g->edges)))
		return -ENOMEM;
	g->edges[g->nr_edges++] =
		(struct graph_edge){ wr->proc, rd->proc, file, wr->ts_ns, rd->ts_ns, edge_ready(w, wr, rd), rd->path };
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

	w->edge_mark = calloc(w->m->nr_procs ? w->m->nr_procs : 1, sizeof(*w->edge_mark));
	if (!w->edge_mark || writers_of(w))
		return -ENOMEM;
	if (w->nr_acc)
		qsort(w->acc, w->nr_acc, sizeof(*w->acc), by_file_time);
	while (i < w->nr_acc) {
		size_t j = i, file = g->nr_files;
		const struct access *last_write = NULL;
		const char *path = NULL, *written_as = NULL;

		for (; j < w->nr_acc && w->acc[j].dev == w->acc[i].dev && w->acc[j].ino == w->acc[i].ino; j++) {
			const struct access *a = &w->acc[j];

			if (a->write && a->path && written_as && strcmp(a->path, written_as)) {
				if (push_file(g, &cap_files, a, path))
					return -ENOMEM;
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
				 add_edge(w, g, &cap_edges, last_write, a, file))
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

/* Edges by when they were ready, latest first, then in edge order. */
static int by_ready(const void *a, const void *b, void *work)
{
	const struct work *w = work;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	__u64 x = w->graph->edges[i].ready_ns, y = w->graph->edges[j].ready_ns;

	if (x != y)
		return x > y ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The first ancestor of p (itself included) without an input yet, -1: none; shortens the way there. */
static long unanswered(size_t *up, size_t n, size_t p)
{
	size_t top = p, next;

	while (top < n && up[top] != top)
		top = up[top];
	for (; p < n && up[p] != p; p = next) {
		next = up[p];
		up[p] = top;
	}
	return top < n ? (long)top : -1;
}

/*
 * graph->proc_input: for every process, the edge into its subtree from
 * outside it that was ready last by the process's start (the first such
 * edge).  An edge counts for the reader and its ancestors up to the first
 * whose subtree holds the writer, and ancestors start no later than their
 * descendants, so up to the first that started before the edge was ready.
 * Taken latest ready first, the first edge to reach a process is its
 * answer, and a process answered is skipped for good (union-find): each
 * process is answered once, however deep the tree or many the edges.
 */
static int subtree_inputs(struct work *w, struct build_graph *g)
{
	const struct model *m = w->m;
	size_t n = m->nr_procs, i, *order, *up;
	int err = -ENOMEM;

	g->proc_input = malloc((n ? n : 1) * sizeof(*g->proc_input));
	order = malloc((g->nr_edges ? g->nr_edges : 1) * sizeof(*order));
	/* up[i]: i while unanswered, else its parent (n: none) */
	up = malloc((n ? n : 1) * sizeof(*up));
	if (!g->proc_input || !order || !up)
		goto out;
	for (i = 0; i < n; i++) {
		g->proc_input[i] = -1;
		up[i] = i;
	}
	for (i = 0; i < g->nr_edges; i++)
		order[i] = i;
	w->graph = g;
	qsort_r(order, g->nr_edges, sizeof(*order), by_ready, w);
	for (i = 0; i < g->nr_edges; i++) {
		const struct graph_edge *e = &g->edges[order[i]];
		long a = unanswered(up, n, e->reader);

		while (a >= 0 && !proc_tree__within(&w->tree, (long)e->writer, a) && e->ready_ns <= m->procs[a].start_ns) {
			long parent = m->procs[a].parent;

			g->proc_input[a] = (long)order[i];
			/* A parent the tree's order never reached is a cycle's: none. */
			up[a] = proc_tree__within(&w->tree, a, parent) ? (size_t)parent : n;
			a = unanswered(up, n, (size_t)a);
		}
	}
	err = 0;
out:
	free(order);
	free(up);
	return err;
}

static void free_work(struct work *w)
{
	proc_index__free(w->own_pids);
	free(w->acc);
	free(w->writes);
	free(w->edge_mark);
	free(w->last_write_ns);
	proc_tree__free(&w->tree);
}

int build_graph__compute(struct build_graph *g, const struct model *m, const struct job_slots *slots,
			 const struct file_log *fl)
{
	struct work w = { .m = m, .slots = slots };
	int err = -ENOMEM;

	memset(g, 0, sizeof(*g));
	w.pids = proc_index__of(m, &w.own_pids);
	g->proc_files = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*g->proc_files));
	if (!w.pids || !g->proc_files)
		goto out;
	if (fl) {
		g->file_records = fl->nr_opens + fl->nr_renames + fl->nr_counts + fl->malformed;
		if (collect_accesses(&w, g, fl) || compute_edges(&w, g))
			goto out;
		count_files(&w, g, fl);
	}
	if (proc_tree__init(&w.tree, m) || subtree_inputs(&w, g))
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
	free(g->renames);
	free(g->edges);
	free(g->proc_files);
	free(g->proc_input);
	memset(g, 0, sizeof(*g));
}
