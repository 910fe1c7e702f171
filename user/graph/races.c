// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "graph/races.h"
#include "model/proc_index.h"
#include "model/proc_name.h"

/* Most components of a path this stage takes apart (a rename's are < 256 bytes). */
#define MAX_COMPONENTS 160

/* One use of a path by a job's process. */
struct use {
	const char *path; /* the key: the file's path from its file system's root */
	__u64 ts_ns;
	size_t seq; /* ties in time keep record order */
	size_t job, proc;
	bool write, by_rename;
};

struct work {
	const struct model *m;
	const struct job_slots *slots;
	const struct job_graph *jg;
	struct use *uses;
	size_t nr_uses, cap_uses;
	char **owned; /* rename targets, freed at the end */
	size_t nr_owned, cap_owned;
	size_t cap_items;
	char *build_dir;
};

const char *race_kind__name(enum race_kind kind)
{
	switch (kind) {
	case RACE_READ_BEFORE_WRITTEN:
		return "read before written";
	case RACE_WRITTEN_TWICE:
		return "written twice";
	default:
		return "read while being written";
	}
}

const char *race_kind__key(enum race_kind kind)
{
	switch (kind) {
	case RACE_READ_BEFORE_WRITTEN:
		return "read_before_written";
	case RACE_WRITTEN_TWICE:
		return "written_twice";
	default:
		return "read_while_written";
	}
}

/* A path's components, "." dropped and ".." folded lexically (leading ".." kept).  -1: too many. */
static int split_path(const char *path, const char **comp, size_t *len, size_t *n)
{
	const char *s = path;

	*n = 0;
	while (*s) {
		const char *b;

		while (*s == '/')
			s++;
		b = s;
		while (*s && *s != '/')
			s++;
		if (s == b || (s - b == 1 && b[0] == '.'))
			continue;
		if (s - b == 2 && !memcmp(b, "..", 2) && *n && !(len[*n - 1] == 2 && !memcmp(comp[*n - 1], "..", 2))) {
			(*n)--;
			continue;
		}
		if (*n == MAX_COMPONENTS)
			return -1;
		comp[*n] = b;
		len[(*n)++] = s - b;
	}
	return 0;
}

static bool is_dotdot(const char *c, size_t l)
{
	return l == 2 && !memcmp(c, "..", 2);
}

/* "/" before a component but the first of a relative path. */
static char *put_component(char *p, bool slash, const char *c, size_t l)
{
	if (slash)
		*p++ = '/';
	memcpy(p, c, l);
	return p + l;
}

/*
 * Where a rename put the file: moved (the file's path from its file
 * system's root, as its write opened it) with old's trailing components
 * (as the process passed them) replaced by new's.  Relative paths: the cwd
 * is moved less old's components, and a leading ".." climbs out of it.
 * Absolute paths: components old has beyond moved's are where the file
 * system is mounted, and new must start with them.  NULL: not worked out
 * (a ".." past what is known, one absolute and one relative), or no memory.
 */
static char *rename_target(const char *moved, const char *old, const char *new)
{
	const char *mc[MAX_COMPONENTS], *oc[MAX_COMPONENTS], *nc[MAX_COMPONENTS];
	size_t ml[MAX_COMPONENTS], ol[MAX_COMPONENTS], nl[MAX_COMPONENTS];
	size_t m, o, n, up_o = 0, up_n = 0, base, from = 0, i;
	bool rooted = moved[0] == '/';
	char *out, *p;

	if (split_path(moved, mc, ml, &m) || split_path(old, oc, ol, &o) || split_path(new, nc, nl, &n) || !n ||
	    (old[0] == '/') != (new[0] == '/'))
		return NULL;
	while (up_o < o && is_dotdot(oc[up_o], ol[up_o]))
		up_o++;
	while (up_n < n && is_dotdot(nc[up_n], nl[up_n]))
		up_n++;
	if (old[0] == '/' && o > m) {
		/* old spells the mount point: new must lie below it too. */
		if (n <= o - m)
			return NULL;
		for (i = 0; i < o - m; i++)
			if (nl[i] != ol[i] || memcmp(nc[i], oc[i], ol[i]))
				return NULL;
		base = 0;
		from = o - m;
	} else {
		if (o - up_o > m || up_n < up_o || up_n - up_o > m - (o - up_o))
			return NULL;
		base = m - (o - up_o) - (up_n - up_o);
		from = up_n;
	}
	out = p = malloc(strlen(moved) + strlen(new) + 3);
	if (!out)
		return NULL;
	for (i = 0; i < base; i++)
		p = put_component(p, i || rooted, mc[i], ml[i]);
	for (i = from; i < n; i++)
		p = put_component(p, p > out || rooted, nc[i], nl[i]);
	*p = 0;
	return out;
}

static int push_use(struct work *w, const struct use *u)
{
	long job = w->jg->proc_job[u->proc];

	/* Runners (their .ninja_log, the .d files they read after a job) and
	 * what runs outside any job order themselves. */
	if (job < 0)
		return 0;
	if (array_grow((void **)&w->uses, &w->cap_uses, w->nr_uses + 1, sizeof(*w->uses)))
		return -ENOMEM;
	w->uses[w->nr_uses] = *u;
	w->uses[w->nr_uses].job = (size_t)job;
	w->uses[w->nr_uses].seq = w->nr_uses;
	w->nr_uses++;
	return 0;
}

static int collect_uses(struct work *w, struct races *r, const struct file_log *fl, const struct build_graph *g)
{
	struct proc_index *own;
	const struct proc_index *pids = proc_index__of(w->m, &own);
	size_t i;
	int err = -ENOMEM;

	if (!pids)
		return -ENOMEM;
	for (i = 0; i < fl->nr_opens; i++) {
		const struct file_open *o = &fl->opens[i];
		long p = proc_index__at(pids, o->tgid, o->ts_ns);
		struct use u = { o->path, o->ts_ns, 0, 0, 0, o->write, false };

		if (p < 0)
			continue;
		u.proc = (size_t)p;
		if (push_use(w, &u))
			goto out;
	}
	for (i = 0; i < g->nr_renames_matched; i++) {
		const struct graph_rename *rn = &g->renames[i];
		char *to = rename_target(rn->moved_path, rn->old_path, rn->new_path);
		struct use u = { to, rn->ts_ns, 0, 0, rn->proc, true, true };

		if (!to) {
			r->renames_unresolved++;
			continue;
		}
		if (array_grow((void **)&w->owned, &w->cap_owned, w->nr_owned + 1, sizeof(*w->owned))) {
			free(to);
			goto out;
		}
		w->owned[w->nr_owned++] = to;
		if (push_use(w, &u))
			goto out;
	}
	err = 0;
out:
	proc_index__free(own);
	return err;
}

static int by_path_time(const void *a, const void *b)
{
	const struct use *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * cargo pipelines: it starts a dependent once rustc has renamed the
 * dependency's .rmeta into place, while that rustc generates code on.  A
 * read of a file a cargo job published by a rename before the reader's
 * job started is cargo's own order, not a race.
 */
static bool published_by_cargo(const struct work *w, const struct use *wr, size_t reader_job)
{
	return wr->by_rename && wr->ts_ns <= w->jg->jobs[reader_job].start_ns &&
	       job_slots__run_by_cargo(w->slots, w->jg->jobs[wr->job].proc);
}

static bool overlap(const struct job_graph *jg, size_t a, size_t b)
{
	return jg->jobs[a].start_ns < jg->jobs[b].end_ns && jg->jobs[b].start_ns < jg->jobs[a].end_ns;
}

/* path relative to the build directory: after dir, or after the part of dir its file system spells. */
static char *relative_path(const char *path, const char *dir)
{
	const char *s = dir;

	while (s && *s && strcmp(s, "/")) {
		size_t l = strlen(s);

		if (!strncmp(path, s, l) && path[l] == '/' && path[l + 1])
			return strdup(path + l + 1);
		s = strchr(s + 1, '/');
	}
	return strdup(path);
}

/* Whether the group's findings from `first` on already pair these jobs (in either role for written twice). */
static bool already(const struct races *r, size_t first, enum race_kind kind, size_t writer, size_t other)
{
	size_t i;

	for (i = first; i < r->nr; i++) {
		const struct race *x = &r->items[i];
		bool same = x->writer_job == writer && x->other_job == other;

		if (kind == RACE_WRITTEN_TWICE ? x->kind == kind && (same || (x->writer_job == other && x->other_job == writer)) :
						 x->kind != RACE_WRITTEN_TWICE && same)
			return true;
	}
	return false;
}

static char *advice_text(enum race_kind kind, const char *file, const char *a, const char *b)
{
	char *s = NULL;
	int n;

	switch (kind) {
	case RACE_READ_WHILE_WRITTEN:
		n = asprintf(&s, "`%s` needs `%s` from `%s`: add `%s` as a prerequisite of its target", b, file, a, file);
		break;
	case RACE_READ_BEFORE_WRITTEN:
		n = asprintf(&s,
			     "`%s` read `%s` before `%s` rewrote it: declare their order (`%s` a prerequisite of the "
			     "reader's target, or the reader's output one of the writer's)",
			     b, file, a, file);
		break;
	default:
		n = asprintf(&s, "`%s` and `%s` both write `%s`: let one target write it, or order the two", a, b, file);
		break;
	}
	return n < 0 ? NULL : s;
}

static int add_race(struct work *w, struct races *r, enum race_kind kind, const struct use *wr, const struct use *other)
{
	const struct model *m = w->m;
	struct race *x;

	if (array_grow((void **)&r->items, &w->cap_items, r->nr + 1, sizeof(*r->items)))
		return -ENOMEM;
	x = &r->items[r->nr];
	*x = (struct race){
		.kind = kind,
		.writer_job = wr->job,
		.other_job = other->job,
		.writer_step = w->jg->jobs[wr->job].proc,
		.other_step = w->jg->jobs[other->job].proc,
		.writer_proc = wr->proc,
		.other_proc = other->proc,
		.write_ns = wr->ts_ns,
		.other_ns = other->ts_ns,
		.by_rename = wr->by_rename,
	};
	x->file = relative_path(wr->path, w->build_dir);
	x->writer_name = proc_display_name(m, &m->procs[x->writer_step]);
	x->other_name = proc_display_name(m, &m->procs[x->other_step]);
	r->nr++;
	if (!x->file || !x->writer_name || !x->other_name)
		return -ENOMEM;
	x->advice = advice_text(kind, x->file, x->writer_name, x->other_name);
	return x->advice ? 0 : -ENOMEM;
}

/*
 * One path's uses in time order.  A read meets the last write before it; a
 * write meets the reads since the write before it (the contents they saw)
 * and the last write of another job.  Each use is looked at a bounded number
 * of times, so the whole is the sort's O(n log n).
 */
static int scan_path(struct work *w, struct races *r, const struct use *u, size_t n)
{
	const struct job_graph *jg = w->jg;
	const struct use *last_write = NULL, *other_write = NULL;
	size_t first = r->nr, since = 0, i, k;

	for (i = 0; i < n; i++) {
		const struct use *a = &u[i];

		if (!a->write) {
			if (last_write && last_write->job != a->job &&
			    jg->jobs[last_write->job].end_ns > jg->jobs[a->job].start_ns &&
			    !published_by_cargo(w, last_write, a->job) &&
			    !already(r, first, RACE_READ_WHILE_WRITTEN, last_write->job, a->job) &&
			    add_race(w, r, RACE_READ_WHILE_WRITTEN, last_write, a))
				return -ENOMEM;
			continue;
		}
		for (k = since; k < i; k++)
			if (!u[k].write && u[k].job != a->job && overlap(jg, a->job, u[k].job) &&
			    !already(r, first, RACE_READ_BEFORE_WRITTEN, a->job, u[k].job) &&
			    add_race(w, r, RACE_READ_BEFORE_WRITTEN, a, &u[k]))
				return -ENOMEM;
		since = i + 1;
		{
			const struct use *prev = last_write && last_write->job != a->job ? last_write : other_write;

			if (prev && overlap(jg, prev->job, a->job) && !already(r, first, RACE_WRITTEN_TWICE, prev->job, a->job) &&
			    add_race(w, r, RACE_WRITTEN_TWICE, prev, a))
				return -ENOMEM;
		}
		if (last_write && last_write->job != a->job)
			other_write = last_write;
		last_write = a;
	}
	return 0;
}

static int by_other_time(const void *a, const void *b)
{
	const struct race *x = a, *y = b;

	if (x->other_ns != y->other_ns)
		return x->other_ns < y->other_ns ? -1 : 1;
	return strcmp(x->file, y->file);
}

int races__find(struct races *r, const struct model *m, const struct job_slots *slots, const struct file_log *fl,
		const struct build_graph *g, const struct job_graph *jobs)
{
	struct work w = { .m = m, .slots = slots, .jg = jobs };
	size_t i, j;
	int err = -ENOMEM;

	memset(r, 0, sizeof(*r));
	if (!fl || !jobs->nr_jobs)
		return 0;
	w.build_dir = proc_name__build_dir(m);
	if (!w.build_dir || collect_uses(&w, r, fl, g))
		goto out;
	if (w.nr_uses)
		qsort(w.uses, w.nr_uses, sizeof(*w.uses), by_path_time);
	for (i = 0; i < w.nr_uses; i = j) {
		for (j = i + 1; j < w.nr_uses && !strcmp(w.uses[j].path, w.uses[i].path); j++)
			;
		if (scan_path(&w, r, &w.uses[i], j - i))
			goto out;
	}
	if (r->nr)
		qsort(r->items, r->nr, sizeof(*r->items), by_other_time);
	err = 0;
out:
	for (i = 0; i < w.nr_owned; i++)
		free(w.owned[i]);
	free(w.owned);
	free(w.uses);
	free(w.build_dir);
	if (err)
		races__free(r);
	return err;
}

void races__free(struct races *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++) {
		free(r->items[i].file);
		free(r->items[i].writer_name);
		free(r->items[i].other_name);
		free(r->items[i].advice);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}
