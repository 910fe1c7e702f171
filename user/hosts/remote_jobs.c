// SPDX-License-Identifier: GPL-2.0
/*
 * distcc's remote jobs linked to the client processes that waited for
 * them (include/hosts/hosts.h).
 *
 * The client, `distcc cc -c foo.c -o foo.o`, preprocesses locally (a child
 * `cc -E`), sends the result and waits.  The daemon writes it to a
 * temporary file and runs the compiler on that: `cc -c
 * /tmp/distccd_XXXXXXXX.i -o /tmp/distccd_YYYYYYYY.o`, the client's argv
 * with the input and output replaced.  So the job's argv names the source
 * only in pump mode (distccd_XXXX/.../foo.c); otherwise a job is matched
 * by time and flags:
 *   - the job lies inside the client's life (within the alignment's
 *     accuracy), on another host, and both have the same flags (argv less
 *     the compiler, the input and -o's operand);
 *   - of several such clients, the job takes the one that ended first
 *     after it did: a client ends once its job's object is back, so its
 *     end follows its own job's closely.  (Not the first to send: the
 *     daemon's children start their compilers in whatever order the
 *     machine runs them, and a later job taking an earlier sender leaves
 *     that sender's own job without a client.)  Jobs in start order, each
 *     taking the fitting client that ends first, also links the most jobs:
 *     every client joined so far fits every later job's start.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hosts/hosts.h"
#include "model/file_words.h"
#include "util/base_name.h"
#include "util/min_heap.h"

/* One side of a possible link. */
struct job_end {
	size_t host, proc;
	const struct exec_image *img;
	const char *source; /* client: its source's base name; job: pump mode's, or NULL */
	__s64 start, end;   /* common time line */
	__s64 sent;	    /* client: when its local preprocessing ended */
	__u64 cpu;	    /* job: its CPU with its descendants' */
	/* Ends with the same source (base name), or the same flags, share a
	 * group id (assign_groups()); a job uses only the one it matches by. */
	size_t source_group, flags_group;
	char *flags;	    /* the flags as one string, until the groups are assigned */
};

/* The argument that is the input file (not -o's operand), or NULL. */
static const char *input_of(const struct exec_image *img)
{
	size_t k;

	for (k = 1; k < img->argc; k++) {
		if (!strcmp(img->argv[k], "-o")) {
			k++;
			continue;
		}
		if (file_word(img->argv[k], strlen(img->argv[k]), FILE_WORD_C_SOURCE))
			return img->argv[k];
	}
	return NULL;
}

/* A distcc client: the image is distcc (by name, or a masquerade link in a distcc directory). */
static bool is_client(const struct exec_image *img)
{
	if (!img->argc || !img->filename)
		return false;
	return !strcmp(base_name(img->argv[0]), "distcc") || !strcmp(base_name(img->filename), "distcc") ||
	       strstr(img->filename, "/distcc/") != NULL;
}

/* A daemon's job: its input is distccd's temporary file (or lies in its temporary directory). */
static bool is_job_input(const char *input)
{
	return input && strstr(input, "distccd_") != NULL;
}

/*
 * The flags: argv less the program, the input and -o's operand; the
 * client's less distcc too ("distcc cc -c x.c" runs "cc -c x.c").  As one
 * string, each length-prefixed (no argument can pass for two), so that
 * two ends compare once, not argument by argument per pair.  NULL: no
 * memory.
 */
static char *flags_key(const struct exec_image *img, bool client)
{
	size_t a = client && !strcmp(base_name(img->argv[0]), "distcc") ? 2 : 1, len = 1, k;
	const char *in = input_of(img);
	char *key, *at;

	for (k = a; k < img->argc; k++)
		len += strlen(img->argv[k]) + 21;
	key = at = malloc(len);
	while (key && a < img->argc) {
		if (img->argv[a] == in) {
			a++;
		} else if (!strcmp(img->argv[a], "-o")) {
			a += 2;
		} else {
			at += sprintf(at, "%zu:%s", strlen(img->argv[a]), img->argv[a]);
			a++;
		}
	}
	if (key)
		*at = '\0';
	return key;
}

/* The last image, the one the process ended as. */
static const struct exec_image *last_image(const struct proc_instance *p)
{
	return p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
}

/*
 * When each process would have sent a job, were it a client: the end of
 * its last child (the local `cc -E`), else its start.  One pass (children
 * come after their parent), not one per client.  NULL: no memory.
 */
static __u64 *sent_at(const struct model *m)
{
	__u64 *sent = malloc((m->nr_procs ? m->nr_procs : 1) * sizeof(*sent));
	size_t i;

	for (i = 0; sent && i < m->nr_procs; i++) {
		long parent = m->procs[i].parent;

		sent[i] = m->procs[i].start_ns;
		if (parent >= 0 && (size_t)parent < i && m->procs[i].end_ns > sent[parent])
			sent[parent] = m->procs[i].end_ns;
	}
	return sent;
}

static int push(struct job_end **v, size_t *n, size_t *cap, struct job_end e)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct job_end *nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = e;
	return 0;
}

/*
 * Each proc's CPU with its descendants', in one backward pass: procs are
 * in start order, so a child comes after its parent.  NULL: no memory.
 */
static __u64 *tree_cpu(const struct model *m)
{
	__u64 *cpu = calloc(m->nr_procs ? m->nr_procs : 1, sizeof(*cpu));
	size_t i;

	for (i = m->nr_procs; cpu && i-- > 0;) {
		cpu[i] += m->procs[i].utime_ns + m->procs[i].stime_ns;
		if (m->procs[i].parent >= 0 && (size_t)m->procs[i].parent < i)
			cpu[m->procs[i].parent] += cpu[i];
	}
	return cpu;
}

static int collect(struct host_set *hs, struct job_end **clients, size_t *nc, struct job_end **jobs, size_t *nj)
{
	size_t h, i, cc = 0, cj = 0;
	__u64 *cpu = NULL, *sent = NULL;
	int err = 0;

	for (h = 0; !err && h < hs->nr; h++) {
		const struct model *m = hs->hosts[h].rp->model;

		free(cpu);
		free(sent);
		cpu = tree_cpu(m);
		sent = sent_at(m);
		if (!cpu || !sent) {
			free(cpu);
			free(sent);
			return -ENOMEM;
		}

		for (i = 0; !err && i < m->nr_procs; i++) {
			const struct proc_instance *p = &m->procs[i];
			const struct exec_image *img = last_image(p);
			const struct exec_image *up = p->parent >= 0 ? last_image(&m->procs[p->parent]) : NULL;
			const char *in = img ? input_of(img) : NULL;
			struct job_end e = { .host = h, .proc = i, .img = img,
					     .start = hosts__common_ns(hs, h, p->start_ns),
					     .end = hosts__common_ns(hs, h, p->end_ns) };

			if (!img || !in)
				continue;
			if (is_client(img)) {
				e.source = base_name(in);
				e.sent = hosts__common_ns(hs, h, sent[i]);
				e.flags = flags_key(img, true);
				err = e.flags ? push(clients, nc, &cc, e) : -ENOMEM;
			} else if (is_job_input(in) && !(up && is_job_input(input_of(up)))) {
				/* The compiler driver, not its cc1 below. */
				e.source = strstr(base_name(in), "distccd_") ? NULL : base_name(in);
				e.cpu = cpu[i];
				e.flags = flags_key(img, false);
				err = e.flags ? push(jobs, nj, &cj, e) : -ENOMEM;
			}
			if (err)
				free(e.flags);
		}
	}
	free(cpu);
	free(sent);
	return err;
}

static int cmp_job_start(const void *a, const void *b)
{
	const struct job_end *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* One string of a job_end and where its group id goes. */
struct group_key {
	const char *key;
	size_t *group;
};

static int cmp_group_key(const void *a, const void *b)
{
	return strcmp(((const struct group_key *)a)->key, ((const struct group_key *)b)->key);
}

/*
 * Numbers the distinct keys of v (n of them) 0, 1, ... by sorting them:
 * equal keys get the same group.  Returns the number of groups.
 */
static size_t number_groups(struct group_key *v, size_t n)
{
	size_t i, groups = 0;

	qsort(v, n, sizeof(*v), cmp_group_key);
	for (i = 0; i < n; i++) {
		if (i && strcmp(v[i].key, v[i - 1].key))
			groups++;
		*v[i].group = groups;
	}
	return n ? groups + 1 : 0;
}

/*
 * The groups of every client and job: sources numbered apart from flags,
 * in *nr_sources and *nr_flags.  A job without a source (no pump mode)
 * gets SIZE_MAX, matching no client by source.  0, or -ENOMEM.
 */
static int assign_groups(struct job_end *clients, size_t nc, struct job_end *jobs, size_t nj, size_t *nr_sources,
			 size_t *nr_flags)
{
	struct group_key *v = malloc(((nc + nj) ? nc + nj : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < nc; i++)
		v[n++] = (struct group_key){ clients[i].source, &clients[i].source_group };
	for (i = 0; i < nj; i++) {
		jobs[i].source_group = SIZE_MAX;
		if (jobs[i].source)
			v[n++] = (struct group_key){ jobs[i].source, &jobs[i].source_group };
	}
	*nr_sources = number_groups(v, n);
	n = 0;
	for (i = 0; i < nc; i++)
		v[n++] = (struct group_key){ clients[i].flags, &clients[i].flags_group };
	for (i = 0; i < nj; i++)
		v[n++] = (struct group_key){ jobs[i].flags, &jobs[i].flags_group };
	*nr_flags = number_groups(v, n);
	free(v);
	return 0;
}

/*
 * The clients of one grouping (by source, or by flags) in order of group,
 * then end: a group's clients are one range of positions, and those that
 * end late enough for a job are the range's tail.  Over the positions, a
 * tree of minima (key, client) holds each client that may still be
 * matched: the key is its index by source (the first client that names
 * the job's source) and its end by flags (the first to end after the job).
 * A client's leaf is set when a job may start in its window (the sweep
 * over jobs in start order) and emptied when it is taken.
 */
struct client_index {
	size_t *client;		     /* at each position */
	size_t *pos;		     /* of each client */
	size_t *first;		     /* each group's first position; first[nr_groups] = nc */
	struct min_heap_item *tree;  /* 2 * nc nodes, the leaves from nc on */
	size_t nc;
};

struct waiting {
	struct client_index by_source, by_flags;
	size_t *order; /* clients by start: the sweep's next to join */
	size_t next;
	size_t *set_aside; /* MATCH_WEIGH_MAX */
};

/*
 * Clients on the job's own host, which reach the top without fitting, are
 * set aside and weighed at most this many per job: a crafted log of
 * thousands on one host cannot make every job weigh every client.  A real
 * build sends its jobs to other hosts.
 */
#define MATCH_WEIGH_MAX 1024

static const struct min_heap_item no_client = { UINT64_MAX, SIZE_MAX };

static struct min_heap_item least(struct min_heap_item a, struct min_heap_item b)
{
	return min_heap_less(&b, &a) ? b : a;
}

static void index_set(struct client_index *ix, size_t c, struct min_heap_item v)
{
	size_t i = ix->pos[c] + ix->nc;

	ix->tree[i] = v;
	for (i /= 2; i; i /= 2)
		ix->tree[i] = least(ix->tree[2 * i], ix->tree[2 * i + 1]);
}

/* The least of positions [lo, hi). */
static struct min_heap_item index_least(const struct client_index *ix, size_t lo, size_t hi)
{
	struct min_heap_item m = no_client;

	for (lo += ix->nc, hi += ix->nc; lo < hi; lo /= 2, hi /= 2) {
		if (lo & 1)
			m = least(m, ix->tree[lo++]);
		if (hi & 1)
			m = least(m, ix->tree[--hi]);
	}
	return m;
}

static void index_free(struct client_index *ix)
{
	free(ix->client);
	free(ix->pos);
	free(ix->first);
	free(ix->tree);
}

/* A signed time as a key, in the same order. */
static __u64 time_key(__s64 t)
{
	return (__u64)t ^ (1ull << 63);
}

static int cmp_item(const void *a, const void *b)
{
	return min_heap_less(a, b) ? -1 : min_heap_less(b, a);
}

static size_t group_of(const struct job_end *cl, bool by_source)
{
	return by_source ? cl->source_group : cl->flags_group;
}

/* The positions of one grouping (nr_groups groups), every leaf empty.  0, or -ENOMEM. */
static int index_init(struct client_index *ix, const struct job_end *clients, size_t nc, size_t nr_groups,
		      bool by_source)
{
	struct min_heap_item *by_end = malloc((nc ? nc : 1) * sizeof(*by_end));
	size_t *cursor = calloc(nr_groups + 1, sizeof(*cursor));
	size_t i, g;
	int err = -ENOMEM;

	ix->nc = nc;
	ix->client = malloc((nc ? nc : 1) * sizeof(*ix->client));
	ix->pos = malloc((nc ? nc : 1) * sizeof(*ix->pos));
	ix->first = calloc(nr_groups + 1, sizeof(*ix->first));
	ix->tree = malloc((nc ? 2 * nc : 1) * sizeof(*ix->tree));
	if (!by_end || !cursor || !ix->client || !ix->pos || !ix->first || !ix->tree)
		goto out;
	for (i = 0; i < nc; i++)
		by_end[i] = (struct min_heap_item){ time_key(clients[i].end), i };
	qsort(by_end, nc, sizeof(*by_end), cmp_item);
	/* Then by group, keeping that order: a counting sort is stable. */
	for (i = 0; i < nc; i++)
		ix->first[group_of(&clients[i], by_source) + 1]++;
	for (g = 0; g < nr_groups; g++) {
		ix->first[g + 1] += ix->first[g];
		cursor[g] = ix->first[g];
	}
	for (i = 0; i < nc; i++) {
		size_t c = by_end[i].idx, at = cursor[group_of(&clients[c], by_source)]++;

		ix->client[at] = c;
		ix->pos[c] = at;
	}
	for (i = 0; i < 2 * nc; i++)
		ix->tree[i] = no_client;
	err = 0;
out:
	free(by_end);
	free(cursor);
	return err;
}

static void waiting_free(struct waiting *w)
{
	index_free(&w->by_source);
	index_free(&w->by_flags);
	free(w->order);
	free(w->set_aside);
}

/* 0, or -ENOMEM: the caller frees what was had. */
static int waiting_init(struct waiting *w, const struct job_end *clients, size_t nc, size_t nr_sources,
			size_t nr_flags)
{
	struct min_heap_item *by_start = malloc((nc ? nc : 1) * sizeof(*by_start));
	size_t i;
	int err;

	w->order = malloc((nc ? nc : 1) * sizeof(*w->order));
	w->set_aside = malloc(MATCH_WEIGH_MAX * sizeof(*w->set_aside));
	err = by_start && w->order && w->set_aside ? 0 : -ENOMEM;
	err = err ?: index_init(&w->by_source, clients, nc, nr_sources, true) ?:
	      index_init(&w->by_flags, clients, nc, nr_flags, false);
	for (i = 0; !err && i < nc; i++)
		by_start[i] = (struct min_heap_item){ time_key(clients[i].start), i };
	if (!err)
		qsort(by_start, nc, sizeof(*by_start), cmp_item);
	for (i = 0; !err && i < nc; i++)
		w->order[i] = by_start[i].idx;
	free(by_start);
	return err;
}

/* Client c's entry in ix while it may be matched: see struct client_index. */
static struct min_heap_item entry_of(const struct waiting *w, const struct client_index *ix,
				     const struct job_end *clients, size_t c)
{
	return (struct min_heap_item){ ix == &w->by_source ? 0 : time_key(clients[c].end), c };
}

/* Every client that starts by limit may be matched from now on. */
static void waiting_join(struct waiting *w, const struct job_end *clients, size_t nc, __s64 limit)
{
	for (; w->next < nc && clients[w->order[w->next]].start <= limit; w->next++) {
		size_t c = w->order[w->next];

		index_set(&w->by_source, c, entry_of(w, &w->by_source, clients, c));
		index_set(&w->by_flags, c, entry_of(w, &w->by_flags, clients, c));
	}
}

/* The first position of group g whose client ends at or after t. */
static size_t first_ending_by(const struct client_index *ix, const struct job_end *clients, size_t g, __s64 t)
{
	size_t lo = ix->first[g], hi = ix->first[g + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (clients[ix->client[mid]].end < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The least client of group g in ix that j fits in (in its window: joined
 * and ending late enough; on another host; not taken), looking on until
 * want of them fit; *fits: how many did.  -1: none.
 */
static long first_fitting(struct waiting *w, struct client_index *ix, const struct job_end *clients, size_t g,
			  const struct job_end *j, __s64 tol, size_t want, size_t *fits)
{
	size_t lo = first_ending_by(ix, clients, g, j->end - tol), hi = ix->first[g + 1], aside = 0, k;
	long best = -1;

	*fits = 0;
	while (*fits < want && aside < MATCH_WEIGH_MAX) {
		struct min_heap_item m = index_least(ix, lo, hi);

		if (m.idx == SIZE_MAX)
			break;
		/* Out of the way until this job is matched. */
		w->set_aside[aside++] = m.idx;
		index_set(ix, m.idx, no_client);
		if (clients[m.idx].host == j->host)
			continue;
		if ((*fits)++ == 0)
			best = (long)m.idx;
	}
	for (k = 0; k < aside; k++)
		index_set(ix, w->set_aside[k], entry_of(w, ix, clients, w->set_aside[k]));
	return best;
}

/* The client job j waited in, and how it was told; -1: none.  The client is taken. */
static long match_one(struct waiting *w, const struct host_set *hs, const struct job_end *j,
		      const struct job_end *clients, size_t nc, enum remote_match *how)
{
	__s64 tol = hs->accuracy_known ? (__s64)hs->accuracy_ns : 0;
	size_t fits;
	long best;

	waiting_join(w, clients, nc, j->start + tol);
	if (j->source) {
		*how = MATCH_SOURCE;
		best = j->source_group == SIZE_MAX ? -1
						   : first_fitting(w, &w->by_source, clients, j->source_group, j, tol,
								   1, &fits);
	} else {
		best = first_fitting(w, &w->by_flags, clients, j->flags_group, j, tol, 2, &fits);
		*how = fits > 1 ? MATCH_END_ORDER : MATCH_WINDOW;
	}
	if (best >= 0) {
		index_set(&w->by_source, (size_t)best, no_client);
		index_set(&w->by_flags, (size_t)best, no_client);
	}
	return best;
}

int hosts__link_remote_jobs(struct host_set *hs)
{
	struct job_end *clients = NULL, *jobs = NULL;
	size_t nc = 0, nj = 0, k, nr_sources = 0, nr_flags = 0;
	struct hosts_audit *a = &hs->audit;
	struct waiting w = {};
	int err;

	free(hs->links);
	hs->links = NULL;
	hs->nr_links = 0;
	err = collect(hs, &clients, &nc, &jobs, &nj) ?: assign_groups(clients, nc, jobs, nj, &nr_sources, &nr_flags) ?:
	      waiting_init(&w, clients, nc, nr_sources, nr_flags);
	if (!err && nj) {
		hs->links = calloc(nj, sizeof(*hs->links));
		err = hs->links ? 0 : -ENOMEM;
	}
	if (err)
		goto out;
	if (nj)
		qsort(jobs, nj, sizeof(*jobs), cmp_job_start);
	a->clients = nc;
	a->jobs = nj;
	memset(a->by, 0, sizeof(a->by));
	a->matched = a->arrows_not_drawn = 0;
	a->client_wall_ns = a->local_wait_ns = a->remote_job_ns = a->remote_cpu_ns = 0;
	for (k = 0; k < nc; k++)
		a->client_wall_ns += (__u64)(clients[k].end - clients[k].start);
	for (k = 0; k < nj; k++) {
		const struct job_end *j = &jobs[k];
		enum remote_match how;
		long c = match_one(&w, hs, j, clients, nc, &how);
		a->remote_cpu_ns += j->cpu;
		if (c < 0)
			continue;
		/* A flow's end cannot come before its start (clocks apart). */
		a->arrows_not_drawn += j->start < clients[c].start;
		hs->links[hs->nr_links++] = (struct remote_link){
			.client_host = clients[c].host,
			.client_proc = clients[c].proc,
			.job_host = j->host,
			.job_proc = j->proc,
			.how = how,
			.wait_ns = clients[c].end > clients[c].sent ? (__u64)(clients[c].end - clients[c].sent) : 0,
			.job_ns = (__u64)(j->end - j->start),
			.job_cpu_ns = j->cpu,
		};
		a->matched++;
		a->by[how]++;
		a->local_wait_ns += hs->links[hs->nr_links - 1].wait_ns;
		a->remote_job_ns += hs->links[hs->nr_links - 1].job_ns;
	}
out:
	waiting_free(&w);
	for (k = 0; k < nc; k++)
		free(clients[k].flags);
	for (k = 0; k < nj; k++)
		free(jobs[k].flags);
	free(clients);
	free(jobs);
	return err;
}
