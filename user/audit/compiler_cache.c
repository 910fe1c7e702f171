// SPDX-License-Identifier: GPL-2.0
/* Compiler caches' calls told as hits and misses (include/audit/compiler_cache.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "audit/compiler_cache.h"
#include "model/file_words.h"
#include "model/tool_kind.h"
#include "util/base_name.h"

/* What ran under a call, worst last: the outcome is the worst seen. */
enum ran {
	RAN_NOTHING,
	RAN_PREPROCESSOR,
	RAN_COMPILER,
};

enum wrapper {
	WRAPPER_NONE,
	WRAPPER_CCACHE,
	WRAPPER_SCCACHE,
};

/*
 * Which cache image e is: ccache or sccache by name, or a masquerade
 * symlink (a compiler's name in a directory named ccache, as Debian's
 * /usr/lib/ccache/gcc).  distcc and icecc distribute, they cache nothing.
 */
static enum wrapper wrapper_of(const struct exec_image *e)
{
	const char *base = base_name(e->filename);

	if (!strcmp(base, "ccache"))
		return WRAPPER_CCACHE;
	if (!strcmp(base, "sccache"))
		return WRAPPER_SCCACHE;
	if (base - e->filename >= 8 && !strncmp(base - 8, "/ccache/", 8) &&
	    tool_kind__of(base, strlen(base)) == TOOL_CC_DRIVER)
		return WRAPPER_CCACHE;
	return WRAPPER_NONE;
}

static bool has_arg(const struct exec_image *e, const char *arg)
{
	size_t i;

	for (i = 1; i < e->argc; i++) {
		if (!strcmp(e->argv[i], arg))
			return true;
	}
	return false;
}

/* What process p's last image was: a compile, a preprocessing (-E), or neither. */
static enum ran ran_of(const struct proc_instance *p)
{
	const struct exec_image *e;
	const char *base;

	if (!p->nr_execs)
		return RAN_NOTHING;
	e = &p->execs[p->nr_execs - 1];
	base = base_name(e->filename);
	switch (tool_kind__of(base, strlen(base))) {
	case TOOL_CC_DRIVER:
	case TOOL_CC_PROPER:
	case TOOL_ASSEMBLER:
		return has_arg(e, "-E") ? RAN_PREPROCESSOR : RAN_COMPILER;
	default:
		return RAN_NOTHING;
	}
}

struct cache_scan {
	const struct model *m;
	unsigned char *call; /* per process: enum cache_call, CACHE_NONE until decided */
	long *image;	     /* per call: its cache image's index in execs */
	unsigned char *wrapper; /* per call: enum wrapper */
	unsigned char *ran;  /* per call: enum ran under it */
	__u64 *cpu_ns;	     /* per call: its own and its work's CPU */
	long *owner;	     /* per process: the nearest call or server above it; -1 */
	long *client;	     /* per process under a server: the client its work is given to; -1: none */
	long *for_call;	     /* per process: the call it ran for; -1: none */
};

static __u64 cpu_of(const struct proc_instance *p)
{
	return p->utime_ns + p->stime_ns;
}

/* Marks the calls and servers and what each started as. */
static void find_calls(struct cache_scan *s)
{
	const struct model *m = s->m;
	size_t i, k;

	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];

		s->image[i] = -1;
		/* A server daemonises: its forks that exec nothing are the server too. */
		if (!p->nr_execs && p->parent >= 0 && (size_t)p->parent < i && s->call[p->parent] == CACHE_SERVER) {
			s->call[i] = CACHE_SERVER;
			continue;
		}
		for (k = 0; k < p->nr_execs && s->image[i] < 0; k++) {
			s->wrapper[i] = wrapper_of(&p->execs[k]);
			if (s->wrapper[i] != WRAPPER_NONE)
				s->image[i] = (long)k;
		}
		if (s->image[i] < 0)
			continue;
		k = (size_t)s->image[i];
		s->cpu_ns[i] = cpu_of(p);
		/* sccache started as a server has no arguments: its environment says what it is. */
		if (s->wrapper[i] == WRAPPER_SCCACHE && p->execs[k].argc <= 1)
			s->call[i] = CACHE_SERVER;
		else if (k + 1 < p->nr_execs)
			s->call[i] = CACHE_UNCACHEABLE; /* the wrapper became the compiler */
		else
			s->call[i] = CACHE_MISS;	/* decided below */
	}
}

/* The nearest call or server above process j (not j itself); -1: none. */
static long owner_of(struct cache_scan *s, size_t j)
{
	long parent = s->m->procs[j].parent, hops;

	/* Parents start first, so their owner is known; a model built by hand
	 * may break that: then the chain is walked, bounded by its length. */
	for (hops = 0; parent >= 0 && (size_t)hops < s->m->nr_procs; hops++) {
		if (s->call[parent] != CACHE_NONE)
			return parent;
		if ((size_t)parent < j)
			return s->owner[parent];
		parent = s->m->procs[parent].parent;
	}
	return -1;
}

/* Whether a server's compile (its image e) names an operand of client call c: its source or output. */
static bool names_operand(const struct exec_image *e, const struct exec_image *c)
{
	size_t i, k;

	for (i = 1; i < e->argc; i++) {
		if (!file_word(e->argv[i], strlen(e->argv[i]), FILE_WORD_OPERAND))
			continue;
		for (k = 2; k < c->argc; k++) {
			if (!strcmp(e->argv[i], c->argv[k]))
				return true;
		}
	}
	return false;
}

/*
 * The client call a server's work j (a direct child of the server) was
 * for: it overlaps the call and names its operand.
 */
static long client_of(const struct cache_scan *s, size_t j)
{
	const struct model *m = s->m;
	const struct proc_instance *p = &m->procs[j];
	size_t i;

	if (!p->nr_execs)
		return -1;
	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *c = &m->procs[i];

		if (s->wrapper[i] != WRAPPER_SCCACHE || s->call[i] == CACHE_SERVER || s->call[i] == CACHE_NONE ||
		    c->start_ns > p->start_ns || c->end_ns < p->start_ns)
			continue;
		if (names_operand(&p->execs[p->nr_execs - 1], &c->execs[s->image[i]]))
			return (long)i;
	}
	return -1;
}

/* Gives every process under a call (or a server's, to its client) to that call. */
static void attribute_work(struct cache_scan *s)
{
	const struct model *m = s->m;
	long o, c;
	size_t j;

	for (j = 0; j < m->nr_procs; j++) {
		s->owner[j] = owner_of(s, j);
		s->client[j] = -1;
		s->for_call[j] = -1;
		o = s->owner[j];
		/* A server is the work of no call: the client that started it only waited for it to listen. */
		if (o < 0 || s->call[j] == CACHE_SERVER)
			continue;
		if (s->call[o] != CACHE_SERVER) {
			c = o;
			/* An sccache client compiles only through its server: a
			 * command it runs itself (a link) is one it does not cache. */
			if (s->wrapper[c] == WRAPPER_SCCACHE)
				s->call[c] = CACHE_UNCACHEABLE;
		} else {
			long parent = m->procs[j].parent;

			c = parent == o ? client_of(s, j) : s->client[parent];
			s->client[j] = c;
			if (c < 0)
				continue;
		}
		s->for_call[j] = c;
		if (s->call[c] == CACHE_UNCACHEABLE)
			continue;
		s->cpu_ns[c] += cpu_of(&m->procs[j]);
		if (ran_of(&m->procs[j]) > s->ran[c])
			s->ran[c] = ran_of(&m->procs[j]);
	}
}

/* A call's command line, the key its step is known by. */
struct call_key {
	char *const *argv;
	size_t argc;
	size_t proc;
};

/* Ordered by command line, so one step's hits and misses sit together. */
static int by_argv(const void *a, const void *b)
{
	const struct call_key *e = a, *f = b;
	size_t i;
	int d;

	for (i = 0; i < e->argc && i < f->argc; i++) {
		d = strcmp(e->argv[i], f->argv[i]);
		if (d)
			return d;
	}
	return e->argc < f->argc ? -1 : e->argc > f->argc;
}

bool compiler_cache__is_hit(enum cache_call call)
{
	return call == CACHE_HIT_DIRECT || call == CACHE_HIT_PREPROCESSED;
}

void compiler_cache__add_saving(const struct compiler_cache *miss_c, const struct model *miss_m, size_t miss,
				const struct compiler_cache *hit_c, const struct model *hit_m, size_t hit,
				__u64 *cpu_ns, __u64 *wall_ns)
{
	const struct proc_instance *p = &hit_m->procs[hit], *q = &miss_m->procs[miss];
	__u64 hit_wall = p->end_ns - p->start_ns, miss_wall = q->end_ns - q->start_ns;
	__u64 hit_cpu = hit_c->call_cpu_ns[hit], miss_cpu = miss_c->call_cpu_ns[miss];

	*cpu_ns += miss_cpu > hit_cpu ? miss_cpu - hit_cpu : 0;
	*wall_ns += miss_wall > hit_wall ? miss_wall - hit_wall : 0;
}

/* What each hit saved against a miss of its step in this log (the step's first miss). */
static int compute_saved(struct compiler_cache *c, const struct cache_scan *s, size_t nr_calls)
{
	const struct model *m = s->m;
	struct call_key *keys = malloc(sizeof(*keys) * (nr_calls ? nr_calls : 1));
	size_t n = 0, i, g, h;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < m->nr_procs; i++) {
		const struct exec_image *e;

		if (!compiler_cache__is_hit(c->call[i]) && c->call[i] != CACHE_MISS)
			continue;
		e = &m->procs[i].execs[s->image[i]];
		keys[n++] = (struct call_key){ .argv = e->argv, .argc = e->argc, .proc = i };
	}
	qsort(keys, n, sizeof(*keys), by_argv);
	for (g = 0; g < n; g = h) {
		long miss = -1;

		for (h = g; h < n && !by_argv(&keys[h], &keys[g]); h++) {
			if (miss < 0 && c->call[keys[h].proc] == CACHE_MISS)
				miss = (long)keys[h].proc;
		}
		for (i = g; miss >= 0 && i < h; i++) {
			if (!compiler_cache__is_hit(c->call[keys[i].proc]))
				continue;
			c->nr_saved++;
			compiler_cache__add_saving(c, m, (size_t)miss, c, m, keys[i].proc, &c->saved_cpu_ns,
						   &c->saved_wall_ns);
		}
	}
	free(keys);
	return 0;
}

/* Decides each call's outcome from what ran under it, and sums the counts. */
static void count_calls(struct compiler_cache *c, const struct cache_scan *s, bool *tools)
{
	const struct model *m = s->m;
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		const struct proc_instance *p = &m->procs[i];
		__u64 wall = p->end_ns - p->start_ns;

		if (s->call[i] == CACHE_NONE || s->call[i] == CACHE_SERVER)
			continue;
		/* sccache's server preprocesses every call it answers: one with
		 * nothing under it ran in a server the trace does not hold. */
		if (s->call[i] == CACHE_MISS && s->wrapper[i] == WRAPPER_SCCACHE && s->ran[i] == RAN_NOTHING)
			s->call[i] = CACHE_UNKNOWN;
		if (s->call[i] == CACHE_MISS)
			s->call[i] = s->ran[i] == RAN_COMPILER	   ? CACHE_MISS
				     : s->ran[i] == RAN_PREPROCESSOR ? CACHE_HIT_PREPROCESSED
								     : CACHE_HIT_DIRECT;
		c->nr_calls++;
		tools[s->wrapper[i]] = true;
		switch ((enum cache_call)s->call[i]) {
		case CACHE_HIT_DIRECT:
		case CACHE_HIT_PREPROCESSED:
			if (s->call[i] == CACHE_HIT_DIRECT)
				c->nr_hits_direct++;
			else
				c->nr_hits_preprocessed++;
			c->hit_cpu_ns += s->cpu_ns[i];
			c->hit_wall_ns += wall;
			break;
		case CACHE_MISS:
			c->nr_misses++;
			c->miss_cpu_ns += s->cpu_ns[i];
			c->miss_wall_ns += wall;
			break;
		case CACHE_UNKNOWN:
			c->nr_unknown++;
			break;
		default:
			c->nr_uncacheable++;
			break;
		}
	}
}

int compiler_cache__compute(struct compiler_cache *c, const struct model *m)
{
	size_t n = m->nr_procs ? m->nr_procs : 1;
	struct cache_scan s = {
		.m = m,
		.call = calloc(n, sizeof(*s.call)),
		.image = calloc(n, sizeof(*s.image)),
		.wrapper = calloc(n, sizeof(*s.wrapper)),
		.ran = calloc(n, sizeof(*s.ran)),
		.cpu_ns = calloc(n, sizeof(*s.cpu_ns)),
		.owner = calloc(n, sizeof(*s.owner)),
		.client = calloc(n, sizeof(*s.client)),
		.for_call = calloc(n, sizeof(*s.for_call)),
	};
	bool tools[3] = { false };
	size_t i;
	int err = 0;

	memset(c, 0, sizeof(*c));
	if (!s.call || !s.image || !s.wrapper || !s.ran || !s.cpu_ns || !s.owner || !s.client || !s.for_call) {
		err = -ENOMEM;
		goto cleanup;
	}
	find_calls(&s);
	attribute_work(&s);
	c->call = s.call;
	c->call_cpu_ns = s.cpu_ns;
	c->nr_procs = m->nr_procs;
	count_calls(c, &s, tools);
	if (!c->nr_calls)
		goto cleanup;
	strcpy(c->tool, tools[WRAPPER_CCACHE] && tools[WRAPPER_SCCACHE] ? "ccache+sccache"
			: tools[WRAPPER_CCACHE]				? "ccache"
									: "sccache");
	c->work = calloc(n, sizeof(*c->work));
	err = c->work ? compute_saved(c, &s, c->nr_calls) : -ENOMEM;
	for (i = 0; !err && i < m->nr_procs; i++) {
		long fc = s.call[i] != CACHE_NONE && s.call[i] != CACHE_SERVER ? (long)i : s.for_call[i];

		c->work[i] = fc >= 0 ? s.call[fc] : CACHE_NONE;
	}
cleanup:
	if (!c->nr_calls || err) { /* c->call and call_cpu_ns are s's: c keeps them only with calls */
		free(s.call);
		free(s.cpu_ns);
		free(c->work);
		memset(c, 0, sizeof(*c));
	}
	free(s.image);
	free(s.wrapper);
	free(s.ran);
	free(s.owner);
	free(s.client);
	free(s.for_call);
	return err;
}

void compiler_cache__free(struct compiler_cache *c)
{
	free(c->call);
	free(c->work);
	free(c->call_cpu_ns);
	memset(c, 0, sizeof(*c));
}

const char *compiler_cache__word(enum cache_call call)
{
	switch (call) {
	case CACHE_HIT_DIRECT:
	case CACHE_HIT_PREPROCESSED:
		return "hit";
	case CACHE_MISS:
		return "miss";
	case CACHE_UNCACHEABLE:
		return "uncacheable";
	case CACHE_UNKNOWN:
		return "unknown";
	default:
		return NULL;
	}
}

enum cache_call compiler_cache__of(const struct compiler_cache *c, size_t proc)
{
	return c->call && proc < c->nr_procs ? (enum cache_call)c->call[proc] : CACHE_NONE;
}

enum cache_call compiler_cache__step(const struct compiler_cache *c, size_t proc)
{
	return c->work && proc < c->nr_procs ? (enum cache_call)c->work[proc] : CACHE_NONE;
}
