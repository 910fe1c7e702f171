// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "capture.h"
#include "events.h"
#include "proc_events.skel.h"

struct capture {
	struct proc_events_bpf *skel;
	struct ring_buffer *rb;
	capture_record_fn fn;
	void *ctx;
};

static int debug_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stderr, fmt, args);
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct capture *c = ctx;

	return c->fn(c->ctx, data, size);
}

static const char *load_hint(int err)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
		return " (hint: run as root, or with CAP_BPF and CAP_PERFMON)";
	case -ENOENT:
	case -ESRCH:
		return " (hint: the kernel lacks a tracepoint or BTF type buildbpf needs)";
	case -E2BIG:
	case -ENOMEM:
		return " (hint: the locked-memory limit or the ring buffer size may be too large)";
	default:
		return "";
	}
}

int capture__open(struct capture **out, const struct capture_opts *opts, capture_record_fn fn, void *ctx)
{
	struct capture *c;
	long page_size = sysconf(_SC_PAGESIZE);
	int ncpus, err;

	*out = NULL;
	libbpf_set_print(opts->verbose ? debug_print : quiet_print);

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fn = fn;
	c->ctx = ctx;

	c->skel = proc_events_bpf__open();
	if (!c->skel) {
		err = -errno;
		fprintf(stderr, "buildbpf: cannot open the BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}
	c->skel->rodata->args_max = opts->args_max;
	c->skel->rodata->page_size_kb = page_size > 0 ? page_size / 1024 : 4;
	/* Wake the reader early enough that a burst never fills the buffer
	 * between two polls, late enough that it is not woken per event. */
	c->skel->rodata->wakeup_bytes = opts->ringbuf_bytes / 8;

	err = bpf_map__set_max_entries(c->skel->maps.events, opts->ringbuf_bytes);
	if (err)
		goto load_error;
	ncpus = libbpf_num_possible_cpus();
	if (ncpus < 0) {
		err = ncpus;
		goto load_error;
	}
	err = bpf_map__set_max_entries(c->skel->maps.exec_scratch, ncpus);
	if (err)
		goto load_error;

	err = proc_events_bpf__load(c->skel);
	if (err)
		goto load_error;
	err = proc_events_bpf__attach(c->skel);
	if (err) {
		fprintf(stderr, "buildbpf: cannot attach to the sched tracepoints: %s%s\n", strerror(-err),
			load_hint(err));
		goto cleanup;
	}

	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), on_record, c, NULL);
	if (!c->rb) {
		err = -errno;
		fprintf(stderr, "buildbpf: cannot open the ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}
	*out = c;
	return 0;

load_error:
	fprintf(stderr, "buildbpf: cannot load the BPF programs: %s%s\n", strerror(-err), load_hint(err));
cleanup:
	capture__free(c);
	return err;
}

int capture__track(struct capture *c, pid_t pid)
{
	struct bb_proc_acct zero = {};
	__u32 key = pid;

	if (bpf_map__update_elem(c->skel->maps.tracked, &key, sizeof(key), &zero, sizeof(zero), BPF_ANY))
		return -errno;
	return 0;
}

int capture__epoll_fd(const struct capture *c)
{
	return ring_buffer__epoll_fd(c->rb);
}

int capture__consume(struct capture *c)
{
	return ring_buffer__consume(c->rb);
}

__u64 capture__lost_events(const struct capture *c)
{
	return c->skel->bss->dropped_events;
}

void capture__free(struct capture *c)
{
	if (!c)
		return;
	ring_buffer__free(c->rb);
	proc_events_bpf__destroy(c->skel);
	free(c);
}
