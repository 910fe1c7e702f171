// SPDX-License-Identifier: GPL-2.0
/*
 * Reconstruction of the process tree from kernel events.  Events are
 * buffered as they arrive and replayed in timestamp order by
 * model__finish(): the ring buffer delivers records in reservation order,
 * but each program takes its timestamp before it reserves, so two CPUs can
 * deliver slightly inverted timestamps.  Causality still holds in
 * timestamp order: a fork is stamped before the child can run, an exit
 * before the parent can reap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "util/array_grow.h"
#include "util/str_key.h"
#include "model/image_args.h"
#include "model/io.h"
#include "model/memory.h"
#include "model/model.h"
#include "model/proc_index.h"

/*
 * 16 bytes a record: the offset into priv->arena grows with each record
 * added, so it is also the arrival order, the tie-break that keeps the
 * sort stable.
 */
struct buffered_event {
	__u64 ts_ns;
	size_t off;
};

/* pid -> index of the live instance; open addressing, linear probing. */
struct pid_slot {
	__u32 pid; /* 0: empty (pid 0 is never a traced process) */
	long idx;  /* -1: deleted */
};

/*
 * Each process's images, their file names and words, carved from chunks
 * freed together with the model (model__free()): a malloc and a free per
 * image array, word list and file name cost more time and memory than the
 * bytes themselves.
 */
struct image_chunk {
	struct image_chunk *next;
	size_t used, cap;
	__u64 data[];
};

/* Large enough to be given huge pages (advise_huge_pages()). */
#define IMAGE_CHUNK_BYTES ((size_t)4 << 20)

struct model_priv {
	struct image_chunk *images; /* the chunk being filled; ->next the ones before */
	unsigned char *arena;
	size_t arena_len, arena_cap;
	struct buffered_event *events;
	size_t nr_events, events_cap;
	__u64 last_ts;
	struct pid_slot *slots;
	size_t slots_cap, slots_used; /* used counts deleted slots too */
	size_t procs_cap;
	bool finished;
};

static size_t pid_hash(__u32 pid, size_t cap)
{
	return (pid * 2654435761u) & (cap - 1);
}

static int pid_index_rehash(struct model_priv *pv, size_t new_cap)
{
	struct pid_slot *old = pv->slots;
	size_t old_cap = pv->slots_cap, i, j;

	pv->slots = calloc(new_cap, sizeof(*pv->slots));
	if (!pv->slots) {
		pv->slots = old;
		return -ENOMEM;
	}
	pv->slots_cap = new_cap;
	pv->slots_used = 0;
	for (i = 0; i < old_cap; i++) {
		if (!old[i].pid || old[i].idx < 0)
			continue;
		for (j = pid_hash(old[i].pid, new_cap); pv->slots[j].pid; j = (j + 1) & (new_cap - 1))
			;
		pv->slots[j] = old[i];
		pv->slots_used++;
	}
	free(old);
	return 0;
}

static struct pid_slot *pid_index_find(struct model_priv *pv, __u32 pid)
{
	size_t j;

	if (!pv->slots_cap)
		return NULL;
	for (j = pid_hash(pid, pv->slots_cap); pv->slots[j].pid; j = (j + 1) & (pv->slots_cap - 1))
		if (pv->slots[j].pid == pid && pv->slots[j].idx >= 0)
			return &pv->slots[j];
	return NULL;
}

static long pid_index_get(struct model_priv *pv, __u32 pid)
{
	struct pid_slot *s = pid_index_find(pv, pid);

	return s ? s->idx : -1;
}

static int pid_index_set(struct model_priv *pv, __u32 pid, long idx)
{
	struct pid_slot *s = pid_index_find(pv, pid);
	size_t j;
	int err;

	if (s) {
		s->idx = idx;
		return 0;
	}
	/* Keep the table at most half full, deleted slots included. */
	if ((pv->slots_used + 1) * 2 > pv->slots_cap) {
		err = pid_index_rehash(pv, pv->slots_cap ? pv->slots_cap * 2 : 256);
		if (err)
			return err;
	}
	for (j = pid_hash(pid, pv->slots_cap); pv->slots[j].pid; j = (j + 1) & (pv->slots_cap - 1))
		;
	pv->slots[j].pid = pid;
	pv->slots[j].idx = idx;
	pv->slots_used++;
	return 0;
}

static void pid_index_del(struct model_priv *pv, __u32 pid)
{
	struct pid_slot *s = pid_index_find(pv, pid);

	if (s)
		s->idx = -1; /* tombstone: later probes must walk past it */
}

/* A block this large is worth huge pages: two of them. */
#define HUGE_PAGES_FROM ((size_t)4 << 20)

/*
 * Asks for transparent huge pages for the block [p, p + len) when large:
 * the record arena and the image chunks are filled front to back once,
 * and their page faults, one per 4 KiB, cost a conversion several per
 * cent of its CPU time.  The advice covers the whole mapping, out to whole
 * pages: a mapping split in two could no longer grow in place.  (Given to
 * the process array too, or to every growing array, it made a
 * million-process conversion slower, not faster: it is given to these
 * two alone.)
 */
static void advise_huge_pages(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = (uintptr_t)p & ~(page - 1), to = ((uintptr_t)p + len + page - 1) & ~(page - 1);

	if (len >= HUGE_PAGES_FROM)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE); /* a hint: without THP, nothing changes */
}

/* array_grow(), the grown block advised huge pages. */
static int grow_advised(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t old_cap = *cap;

	if (array_grow(p, cap, need, elem))
		return -ENOMEM;
	if (*cap != old_cap)
		advise_huge_pages(*p, *cap * elem);
	return 0;
}

/* size bytes aligned for pointers and __u64 (all an image holds), valid until model__free(); NULL without memory. */
static void *image_alloc(struct model_priv *pv, size_t size)
{
	struct image_chunk *c = pv->images;
	size_t need = (size + sizeof(__u64) - 1) & ~(sizeof(__u64) - 1);
	void *at;

	if (!c || c->cap - c->used < need) {
		size_t cap = need > IMAGE_CHUNK_BYTES ? need : IMAGE_CHUNK_BYTES;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		advise_huge_pages(c, sizeof(*c) + cap);
		c->next = pv->images;
		c->used = 0;
		c->cap = cap;
		pv->images = c;
	}
	at = (char *)c->data + c->used;
	c->used += need;
	return at;
}

static void image_store_free(struct model_priv *pv)
{
	while (pv->images) {
		struct image_chunk *next = pv->images->next;

		free(pv->images);
		pv->images = next;
	}
}

struct model *model__new(__u32 root_pid, __u64 start_ns)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->priv = calloc(1, sizeof(*m->priv));
	if (!m->priv) {
		free(m);
		return NULL;
	}
	m->root_pid = root_pid;
	m->start_ns = start_ns;
	m->end_ns = start_ns;
	m->root = -1;
	return m;
}

static size_t min_record_size(__u32 type)
{
	switch (type) {
	case BB_EV_FORK:
		return sizeof(struct bb_fork_event);
	case BB_EV_EXEC:
		return sizeof(struct bb_exec_event);
	case BB_EV_EXIT:
		return sizeof(struct bb_exit_event);
	case BB_EV_PROC_FOUND:
		return sizeof(struct bb_proc_found_event);
	default:
		return memory__record_size(type) ?: io__record_size(type);
	}
}

int model__add_event(struct model *m, const void *rec, size_t len)
{
	struct model_priv *pv = m->priv;
	const struct bb_event_header *hdr = rec;
	const struct bb_exec_event *exec = rec;
	struct buffered_event *be;
	size_t need;

	if (pv->finished || len < sizeof(*hdr) || !min_record_size(hdr->type) || len < min_record_size(hdr->type))
		goto malformed;
	if (hdr->type == BB_EV_EXEC &&
	    (size_t)exec->filename_len + exec->args_len > len - sizeof(*exec))
		goto malformed;
	if (hdr->type == BB_EV_PROC_FOUND && (size_t)((const struct bb_proc_found_event *)rec)->filename_len +
							 ((const struct bb_proc_found_event *)rec)->args_len >
						 len - sizeof(struct bb_proc_found_event))
		goto malformed;

	if (array_grow((void **)&pv->events, &pv->events_cap, pv->nr_events + 1, sizeof(*pv->events)) ||
	    grow_advised((void **)&pv->arena, &pv->arena_cap, pv->arena_len + len, 1))
		return -ENOMEM;
	be = &pv->events[pv->nr_events];
	be->ts_ns = hdr->ts_ns;
	be->off = pv->arena_len;
	memcpy(pv->arena + pv->arena_len, rec, len);
	/* Keep 8-byte alignment for the next record's u64 fields. */
	need = (len + 7) & ~(size_t)7;
	if (grow_advised((void **)&pv->arena, &pv->arena_cap, pv->arena_len + need, 1))
		return -ENOMEM;
	pv->arena_len += need;
	pv->nr_events++;
	if (hdr->ts_ns < pv->last_ts)
		m->stats.reordered++;
	else
		pv->last_ts = hdr->ts_ns;
	/* events: what the kernel delivered; what user space added apart. */
	if (memory__is_user_record(hdr->type))
		m->stats.user_records++;
	else
		m->stats.events++;
	if (hdr->type == BB_EV_MEM_IMAGE)
		m->stats.memory_records++;
	if (hdr->type == BB_EV_PROC_IO)
		m->stats.io_records++;
	return 0;

malformed:
	m->stats.malformed++;
	return -EINVAL;
}

static int cmp_buffered(const void *a, const void *b)
{
	const struct buffered_event *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void copy_comm(char dst[BB_COMM_LEN + 1], const char src[BB_COMM_LEN])
{
	memcpy(dst, src, BB_COMM_LEN);
	dst[BB_COMM_LEN] = '\0';
}

static long new_instance(struct model *m, __u32 pid, __u32 ppid, __u64 ts, bool forked)
{
	struct model_priv *pv = m->priv;
	struct proc_instance *p;
	long idx = m->nr_procs;
	long previous = pid_index_get(pv, pid);

	if (m->nr_procs >= INT32_MAX) /* an index fits proc_instance's 32 bits */
		return -EOVERFLOW;
	if (array_grow((void **)&m->procs, &pv->procs_cap, m->nr_procs + 1, sizeof(*m->procs)))
		return -ENOMEM;
	if (previous >= 0) {
		/* The kernel reused a pid whose exit we never saw (a dropped
		 * record): the old instance ends here, unfinished. */
		m->procs[previous].end_ns = ts;
		m->procs[previous].unfinished = true;
		m->stats.pid_reuses++;
	}
	p = &m->procs[idx];
	memset(p, 0, sizeof(*p));
	p->id = idx;
	p->pid = pid;
	p->ppid = ppid;
	p->parent = pid_index_get(pv, ppid);
	p->start_ns = ts;
	p->end_ns = ts;
	p->forked = forked;
	if (pid_index_set(pv, pid, idx))
		return -ENOMEM;
	m->nr_procs++;
	return idx;
}

static int apply_fork(struct model *m, const struct bb_fork_event *e)
{
	long idx;

	if (e->flags & BB_FORK_THREAD) {
		idx = pid_index_get(m->priv, e->hdr.tgid);
		if (idx >= 0)
			m->procs[idx].nr_threads++;
		else
			m->stats.orphan_events++;
		return 0;
	}
	idx = pid_index_get(m->priv, e->hdr.tgid);
	if (idx >= 0 && m->procs[idx].found && m->procs[idx].ppid == e->parent_tgid) {
		/* --attach: found in /proc just before the kernel's fork record
		 * of it was stamped (the child is listed before the fork
		 * tracepoint fires): one process, not a pid reuse. */
		return 0;
	}
	idx = new_instance(m, e->hdr.tgid, e->parent_tgid, e->hdr.ts_ns, true);
	if (idx < 0)
		return idx;
	copy_comm(m->procs[idx].comm, e->comm);
	m->procs[idx].ns_pid = e->ns_tgid;
	return 0;
}

/*
 * Splits the NUL-separated argv area into strings; a cut last arg is kept.
 * The pointers and one copy of the whole area come from the model's image chunks.
 */
static int split_argv(struct model_priv *pv, struct exec_image *img, const char *args, size_t len)
{
	size_t i, start, n = 0;
	char *words;

	for (i = 0; i < len; i++)
		if (args[i] == '\0')
			n++;
	if (len && args[len - 1] != '\0')
		n++;
	img->argv = image_alloc(pv, (n ? n : 1) * sizeof(*img->argv) + (n ? len + 1 : 0));
	if (!img->argv)
		return -ENOMEM;
	img->argv[0] = NULL;
	if (!n)
		return 0;
	words = (char *)(img->argv + n);
	memcpy(words, args, len);
	words[len] = '\0';
	for (i = 0, start = 0; i <= len && img->argc < n; i++) {
		if (i < len && args[i] != '\0')
			continue;
		img->argv[img->argc++] = words + start;
		start = i + 1;
	}
	return 0;
}

/* The image's words, its last part: then it is whole, and keeps what tool it runs (image_keep_tool()). */
static int add_words(struct model_priv *pv, struct exec_image *img, const char *args, size_t len)
{
	int err = split_argv(pv, img, args, len);

	if (!err)
		image_keep_tool(img);
	return err;
}

/* A new last image of p from ts on: NULL without memory.  argv is the caller's. */
static struct exec_image *add_image(struct model_priv *pv, struct proc_instance *p, __u64 ts, __u32 flags,
				    __u32 args_full_len, const char comm[BB_COMM_LEN], const char *filename,
				    size_t filename_len)
{
	struct exec_image *img;

	/*
	 * The array's capacity is the power of two at or above nr_execs (1 for
	 * one image), so it grows when nr_execs is 0 or a power of two: most
	 * processes exec once or twice, and one that execs thousands of times
	 * (a shell loop) is not copied once per image.
	 */
	if (!(p->nr_execs & (p->nr_execs - 1))) {
		/* The array left behind stays in the chunk, unused: no larger than the new one. */
		img = image_alloc(pv, (p->nr_execs ? 2 * p->nr_execs : 1) * sizeof(*p->execs));
		if (!img)
			return NULL;
		if (p->nr_execs)
			memcpy(img, p->execs, p->nr_execs * sizeof(*p->execs));
		p->execs = img;
	}
	img = &p->execs[p->nr_execs];
	memset(img, 0, sizeof(*img));
	if (p->nr_execs)
		p->execs[p->nr_execs - 1].end_ns = ts;
	p->nr_execs++;
	img->start_ns = ts;
	img->end_ns = ts;
	img->flags = flags;
	img->args_full_len = args_full_len;
	copy_comm(img->comm, comm);
	/* strndup()'s copy: up to the first NUL. */
	filename_len = strnlen(filename, filename_len);
	img->filename = image_alloc(pv, filename_len + 1);
	if (!img->filename)
		return NULL;
	memcpy(img->filename, filename, filename_len);
	img->filename[filename_len] = '\0';
	return img;
}

static int apply_exec(struct model *m, const struct bb_exec_event *e)
{
	struct model_priv *pv = m->priv;
	struct exec_image *img;
	struct proc_instance *p;
	long idx = pid_index_get(pv, e->hdr.tgid);

	if (idx < 0) {
		/* Seen first at exec: the root (forked before tracing began) or
		 * a process whose fork record was dropped. */
		idx = new_instance(m, e->hdr.tgid, e->ppid, e->hdr.ts_ns, false);
		if (idx < 0)
			return idx;
		copy_comm(m->procs[idx].comm, e->comm);
		if (e->hdr.tgid != m->root_pid) {
			m->stats.orphan_events++;
			m->procs[idx].fork_record_lost = true;
		}
	}
	p = &m->procs[idx];
	/* The name the image gave it (cc1), not the one inherited at fork (gcc). */
	copy_comm(p->comm, e->comm);
	img = add_image(pv, p, e->hdr.ts_ns, e->flags, e->args_full_len, e->comm, e->data, e->filename_len);
	if (!img)
		return -ENOMEM;
	p->ppid = e->ppid;
	p->hidden |= e->hidden;
	/* A process never changes PID namespace, so this is the fork's value;
	 * it names the root (whose fork is never seen) and a process whose
	 * fork record was dropped.  0, not read, keeps what is known. */
	if (e->ns_tgid)
		p->ns_pid = e->ns_tgid;
	return add_words(pv, img, e->data + e->filename_len, e->args_len);
}

/*
 * --attach: a process already running when tracking began.  The attached
 * process itself is the root instance model__finish() made; any other is a
 * new instance from the record's time (parents' records come first).  A
 * pid with a live instance already (its fork was seen) keeps that one.
 */
static int apply_found(struct model *m, const struct bb_proc_found_event *e)
{
	long idx = pid_index_get(m->priv, e->hdr.tgid);
	struct exec_image *img;
	struct proc_instance *p;

	if (idx >= 0 && idx != m->root)
		return 0;
	if (idx < 0) {
		idx = new_instance(m, e->hdr.tgid, e->ppid, e->hdr.ts_ns, false);
		if (idx < 0)
			return idx;
	}
	p = &m->procs[idx];
	if (p->found || p->nr_execs)
		return 0; /* the root's, seen twice: the first counts */
	p->found = true;
	p->ppid = e->ppid;
	p->ns_pid = e->ns_tgid;
	p->ran_before_ns = e->start_ns < p->start_ns ? p->start_ns - e->start_ns : 0;
	copy_comm(p->comm, e->comm);
	img = add_image(m->priv, p, p->start_ns, e->flags, e->args_full_len, e->comm, e->data, e->filename_len);
	if (!img)
		return -ENOMEM;
	return add_words(m->priv, img, e->data + e->filename_len, e->args_len);
}

/* getrusage's split: the precise runtime in the tick-sampled utime:stime ratio. */
static void split_cpu_time(struct proc_instance *p, const struct bb_exit_event *e)
{
	__u64 total = e->utime_ns + e->stime_ns;

	if (e->stime_ns == 0 || total == 0) {
		p->utime_ns = e->sum_exec_ns;
		p->stime_ns = 0;
	} else if (e->utime_ns == 0) {
		p->utime_ns = 0;
		p->stime_ns = e->sum_exec_ns;
	} else {
		p->utime_ns = (__u64)((unsigned __int128)e->sum_exec_ns * e->utime_ns / total);
		p->stime_ns = e->sum_exec_ns - p->utime_ns;
	}
}

static int apply_exit(struct model *m, const struct bb_exit_event *e)
{
	struct proc_instance *p;
	long idx = pid_index_get(m->priv, e->hdr.tgid);

	if (idx < 0) {
		m->stats.orphan_events++;
		return 0;
	}
	p = &m->procs[idx];
	p->hidden |= e->hidden;
	if (!(e->flags & BB_EXIT_GROUP_DEAD))
		return 0; /* a thread; the process lives on */
	p->end_ns = e->hdr.ts_ns;
	p->exited = true;
	p->exit_status = e->exit_status;
	p->maxrss_kb = e->maxrss_kb;
	p->sched = e->sched;
	if (e->nr_threads > p->nr_threads)
		p->nr_threads = e->nr_threads;
	split_cpu_time(p, e);
	pid_index_del(m->priv, e->hdr.tgid);
	return 0;
}

static int apply_mem_image(struct model *m, const struct bb_mem_image_event *e)
{
	long idx = pid_index_get(m->priv, e->hdr.tgid);

	if (idx < 0)
		m->stats.orphan_events++;
	else
		memory__apply_image(&m->procs[idx], e);
	return 0;
}

/*
 * The kernel sends it just before the process's exit record, with the same
 * time; should the exit come first, the process is the one that ended then.
 */
static int apply_proc_io(struct model *m, const struct bb_proc_io_event *e)
{
	long idx = pid_index_get(m->priv, e->hdr.tgid);

	if (idx < 0)
		idx = memory__proc_at(m, e->hdr.tgid, e->hdr.ts_ns);
	if (idx < 0)
		m->stats.orphan_events++;
	else
		io__apply(&m->procs[idx], e);
	return 0;
}

static int apply_event(struct model *m, const void *rec)
{
	const struct bb_event_header *hdr = rec;

	switch (hdr->type) {
	case BB_EV_FORK:
		return apply_fork(m, rec);
	case BB_EV_EXEC:
		return apply_exec(m, rec);
	case BB_EV_EXIT:
		return apply_exit(m, rec);
	case BB_EV_PROC_FOUND:
		return apply_found(m, rec);
	case BB_EV_MEM_IMAGE:
		return apply_mem_image(m, rec);
	case BB_EV_MEM_PSI:
		memory__apply_psi(m, rec);
		return 0;
	case BB_EV_MEM_SAMPLE:
		return memory__apply_sample(m, rec);
	case BB_EV_PROC_IO:
		return apply_proc_io(m, rec);
	default:
		return 0; /* rejected by model__add_event already */
	}
}

/* Still running at the end: closed at the trace end, flagged unfinished. */
static void close_instances(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++) {
		struct proc_instance *p = &m->procs[i];

		if (!p->exited && !p->unfinished) {
			p->unfinished = true;
			p->end_ns = m->end_ns;
		}
		if (p->end_ns < p->start_ns)
			p->end_ns = p->start_ns;
		if (p->nr_execs)
			p->execs[p->nr_execs - 1].end_ns = p->end_ns;
		memory__finish_proc(p);
	}
}

/* Sorted records replayed between two releases of the arena behind them. */
#define RELEASE_EVERY ((size_t)1 << 16)

/*
 * low[b]: the least arena offset of the sorted records from block b
 * (RELEASE_EVERY records each) on, so that once block b - 1 is replayed
 * nothing below low[b] is read again.  NULL without memory: nothing is
 * released early then.
 */
static size_t *arena_low_marks(const struct model_priv *pv)
{
	size_t nr_blocks = (pv->nr_events + RELEASE_EVERY - 1) / RELEASE_EVERY, low = pv->arena_len, b, i;
	size_t *marks = malloc((nr_blocks + 1) * sizeof(*marks));

	if (!marks)
		return NULL;
	marks[nr_blocks] = pv->arena_len;
	for (b = nr_blocks; b-- > 0;) {
		for (i = b * RELEASE_EVERY; i < pv->nr_events && i < (b + 1) * RELEASE_EVERY; i++)
			if (pv->events[i].off < low)
				low = pv->events[i].off;
		marks[b] = low;
	}
	return marks;
}

/*
 * Gives the whole pages of the arena below off back to the system: their
 * records are replayed, and the model built from them would otherwise
 * grow beside a buffer as large as the log's process records.
 */
static void release_arena_below(struct model_priv *pv, size_t off, size_t *released)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)pv->arena + *released + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)pv->arena + off) & ~(page - 1);

	if (to > from && !madvise((void *)from, to - from, MADV_DONTNEED))
		*released = to - (uintptr_t)pv->arena;
}

/* Applies the sorted records, the arena behind them released block by block.  0 or -errno. */
static int replay_buffered(struct model *m)
{
	struct model_priv *pv = m->priv;
	size_t *low = arena_low_marks(pv), released = 0, i;
	int err;

	for (i = 0; i < pv->nr_events; i++) {
		struct buffered_event *be = &pv->events[i];

		if (low && i % RELEASE_EVERY == 0)
			release_arena_below(pv, low[i / RELEASE_EVERY], &released);
		/* Records before the launch belong to no instance we track. */
		if (be->ts_ns < m->start_ns)
			continue;
		if (be->ts_ns > m->end_ns &&
		    !memory__is_user_record(((const struct bb_event_header *)(pv->arena + be->off))->type))
			m->end_ns = be->ts_ns;
		err = apply_event(m, pv->arena + be->off);
		if (err) {
			free(low);
			return err;
		}
	}
	free(low);
	return 0;
}

int model__finish(struct model *m, __u64 end_ns)
{
	struct model_priv *pv = m->priv;
	size_t i;
	int err;

	if (pv->finished)
		return -EINVAL;
	pv->finished = true;
	/* A log is nearly in time order, often wholly: then there is nothing to sort. */
	for (i = 1; i < pv->nr_events && cmp_buffered(&pv->events[i - 1], &pv->events[i]) < 0; i++)
		;
	if (i < pv->nr_events)
		qsort(pv->events, pv->nr_events, sizeof(*pv->events), cmp_buffered);

	/* The root exists from the launcher's fork, before any record.
	 * --cgroup has none (root_pid 0): its processes are all found. */
	if (m->root_pid) {
		m->root = new_instance(m, m->root_pid, 0, m->start_ns, false);
		if (m->root < 0)
			return -ENOMEM;
		m->procs[m->root].ppid = 0;
	}

	m->end_ns = end_ns > m->start_ns ? end_ns : m->start_ns;
	err = replay_buffered(m);
	if (err)
		return err;
	close_instances(m);

	/* The buffered records and the live pids are no longer needed. */
	free(pv->arena);
	free(pv->events);
	free(pv->slots);
	pv->arena = NULL;
	pv->events = NULL;
	pv->slots = NULL;
	pv->arena_len = pv->arena_cap = pv->nr_events = pv->events_cap = 0;
	pv->slots_cap = pv->slots_used = 0;
	/* Last: the processes' pids and starts are final now. */
	m->pids = proc_index__new(m);
	return m->pids ? 0 : -ENOMEM;
}

const struct proc_instance *proc_top(const struct model *m, const struct proc_instance *p)
{
	size_t hops = 0;

	/* Parents start before their children, so the walk ends; the bound
	 * only guards a model built by hand. */
	while (p->parent >= 0 && (size_t)p->parent < m->nr_procs && hops++ < m->nr_procs)
		p = &m->procs[p->parent];
	return p;
}

const char *proc_program(const struct proc_instance *p)
{
	const char *path, *slash;

	if (p->nr_execs) {
		path = p->execs[p->nr_execs - 1].filename;
		slash = strrchr(path, '/');
		if (slash ? slash[1] : *path)
			return slash ? slash + 1 : path;
	}
	return p->comm;
}

/* A proc index with its program and the program's sort key, looked up once rather than at every comparison. */
struct named_proc {
	__u64 key;
	const char *program;
	size_t proc;
};

static int cmp_named_proc(const void *x, const void *y)
{
	const struct named_proc *a = x, *b = y;

	return str_key_cmp(a->key, a->program, b->key, b->program) ?: (a->proc > b->proc) - (a->proc < b->proc);
}

int model__sort_by_program(const struct model *m, size_t *procs, size_t n)
{
	struct named_proc *named = malloc((n ? n : 1) * sizeof(*named));
	size_t i;

	if (!named)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *program = proc_program(&m->procs[procs[i]]);

		named[i] = (struct named_proc){ str_key(program), program, procs[i] };
	}
	qsort(named, n, sizeof(*named), cmp_named_proc);
	for (i = 0; i < n; i++)
		procs[i] = named[i].proc;
	free(named);
	return 0;
}

const struct exec_image *proc_image_at(const struct proc_instance *p, __u64 ts_ns)
{
	size_t lo = 0, hi = p->nr_execs;

	/* Images are in exec order: the last one started by ts_ns. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->execs[mid].start_ns <= ts_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &p->execs[lo - 1] : NULL;
}

int model__set_cwd(struct model *m, const char *cwd)
{
	char *copy = cwd ? strdup(cwd) : NULL;

	if (cwd && !copy)
		return -ENOMEM;
	free(m->cwd);
	m->cwd = copy;
	/* The directories inferred start from it: those made before are wrong now. */
	if (m->dirs && m->free_dirs)
		m->free_dirs(m->dirs);
	m->dirs = NULL;
	return 0;
}

void model__free(struct model *m)
{
	if (!m)
		return;
	/* The images, their names and words are in the model's chunks (image_store_free()). */
	free(m->procs);
	proc_index__free(m->pids);
	free(m->cwd);
	if (m->dirs && m->free_dirs)
		m->free_dirs(m->dirs);
	if (m->names && m->free_names)
		m->free_names(m->names);
	free(m->mem_samples);
	if (m->priv) {
		free(m->priv->arena);
		free(m->priv->events);
		free(m->priv->slots);
		image_store_free(m->priv);
		free(m->priv);
	}
	free(m);
}

int model__index_children(const struct model *m, __u32 **child_off, __u32 **children)
{
	size_t i, n = m->nr_procs;
	__u32 *off, *kids, *fill;

	off = calloc(n + 1, sizeof(*off));
	kids = calloc(n ? n : 1, sizeof(*kids));
	fill = calloc(n + 1, sizeof(*fill));
	if (!off || !kids || !fill) {
		free(off);
		free(kids);
		free(fill);
		*child_off = *children = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (m->procs[i].parent >= 0)
			off[m->procs[i].parent + 1]++;
	for (i = 0; i < n; i++)
		off[i + 1] += off[i];
	memcpy(fill, off, (n + 1) * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (m->procs[i].parent >= 0)
			kids[fill[m->procs[i].parent]++] = i;
	free(fill);
	*child_off = off;
	*children = kids;
	return 0;
}

bool model__children_one_at_a_time(const struct model *m, const __u32 *child_off, const __u32 *children,
				   size_t parent)
{
	__u64 last_end = 0;
	size_t k;

	for (k = child_off[parent]; k < child_off[parent + 1]; k++) {
		const struct proc_instance *c = &m->procs[children[k]];

		if (k > child_off[parent] && c->start_ns < last_end)
			return false;
		if (c->end_ns > last_end)
			last_end = c->end_ns;
	}
	return true;
}
