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
 *   - of several such clients, jobs are served in the order they were
 *     sent: the earliest job takes the client that sent first (its local
 *     preprocessing ended first).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hosts/hosts.h"
#include "util/base_name.h"

/* One side of a possible link. */
struct job_end {
	size_t host, proc;
	const struct exec_image *img;
	const char *source; /* client: its source's base name; job: pump mode's, or NULL */
	__s64 start, end;   /* common time line */
	__s64 sent;	    /* client: when its local preprocessing ended */
	__u64 cpu;	    /* job: its CPU with its descendants' */
	bool taken;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static bool is_source(const char *arg)
{
	static const char *const suffixes[] = { ".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".m", ".mm", ".S", ".i", ".ii" };
	size_t k;

	if (arg[0] == '-')
		return false;
	for (k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++)
		if (ends_with(arg, suffixes[k]))
			return true;
	return false;
}

/* The argument that is the input file (not -o's operand), or NULL. */
static const char *input_of(const struct exec_image *img)
{
	size_t k;

	for (k = 1; k < img->argc; k++) {
		if (!strcmp(img->argv[k], "-o")) {
			k++;
			continue;
		}
		if (is_source(img->argv[k]))
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
 * client's less distcc too ("distcc cc -c x.c" runs "cc -c x.c").
 */
static bool same_flags(const struct exec_image *client, const struct exec_image *job)
{
	size_t a = !strcmp(base_name(client->argv[0]), "distcc") ? 2 : 1, b = 1;

	for (;;) {
		while (a < client->argc && (client->argv[a] == input_of(client) || !strcmp(client->argv[a], "-o")))
			a += !strcmp(client->argv[a], "-o") ? 2 : 1;
		while (b < job->argc && (job->argv[b] == input_of(job) || !strcmp(job->argv[b], "-o")))
			b += !strcmp(job->argv[b], "-o") ? 2 : 1;
		if (a >= client->argc || b >= job->argc)
			return a >= client->argc && b >= job->argc;
		if (strcmp(client->argv[a], job->argv[b]))
			return false;
		a++;
		b++;
	}
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
			struct job_end e = { h, i, img, NULL, hosts__common_ns(hs, h, p->start_ns),
					     hosts__common_ns(hs, h, p->end_ns), 0, 0, false };

			if (!img || !in)
				continue;
			if (is_client(img)) {
				e.source = base_name(in);
				e.sent = hosts__common_ns(hs, h, sent[i]);
				err = push(clients, nc, &cc, e);
			} else if (is_job_input(in) && !(up && is_job_input(input_of(up)))) {
				/* The compiler driver, not its cc1 below. */
				e.source = strstr(base_name(in), "distccd_") ? NULL : base_name(in);
				e.cpu = cpu[i];
				err = push(jobs, nj, &cj, e);
			}
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

/* The client job j waited in, and how it was told; -1: none. */
static long match_one(const struct host_set *hs, const struct job_end *j, const struct job_end *clients, size_t nc,
		      enum remote_match *how)
{
	__s64 tol = hs->accuracy_known ? (__s64)hs->accuracy_ns : 0;
	long best = -1;
	size_t c, fits = 0;

	for (c = 0; c < nc; c++) {
		const struct job_end *cl = &clients[c];

		if (cl->taken || cl->host == j->host || cl->start > j->start + tol || j->end > cl->end + tol)
			continue;
		if (j->source) {
			if (!strcmp(j->source, cl->source)) {
				*how = MATCH_SOURCE;
				return (long)c;
			}
			continue;
		}
		if (!same_flags(cl->img, j->img))
			continue;
		fits++;
		if (best < 0 || cl->sent < clients[best].sent)
			best = (long)c;
	}
	*how = fits > 1 ? MATCH_SEND_ORDER : MATCH_WINDOW;
	return best;
}

int hosts__link_remote_jobs(struct host_set *hs)
{
	struct job_end *clients = NULL, *jobs = NULL;
	size_t nc = 0, nj = 0, k;
	struct hosts_audit *a = &hs->audit;
	int err;

	free(hs->links);
	hs->links = NULL;
	hs->nr_links = 0;
	err = collect(hs, &clients, &nc, &jobs, &nj);
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
		long c = match_one(hs, j, clients, nc, &how);
		a->remote_cpu_ns += j->cpu;
		if (c < 0)
			continue;
		clients[c].taken = true;
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
	free(clients);
	free(jobs);
	return err;
}
