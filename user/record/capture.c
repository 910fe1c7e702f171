// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "record/capture.h"
#include "record/core_btf.h"
#include "record/hook_fallback.h"
#include "record/kernel_btf.h"
#include "record/preflight.h"
#include "events.h"
#include "thread_sched.h"
#include "util/array_grow.h"
#include "buildbpf.skel.h"

struct capture {
	struct buildbpf_bpf *skel;
	enum deps_hook deps_hook; /* how file dependencies hook the kernel here */
	bool deps;		  /* ... and whether they are recorded */
	enum mem_hook mem_hook;	  /* where the memory programs checkpoint */
	struct mem_probe mem_probe; /* ... chosen from what the kernel offers */
	bool sched; /* the scheduler programs are loaded and attached */
	bool mem_sampling; /* rss_stat follows each process's RSS */
	__u32 page_size_kb;
	struct ring_buffer *rb;
	int nr_cpus;
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
	const struct bb_event_header *hdr = data;

	/* Moved into the --cgroup: tracked by the kernel from now on. */
	if (size >= sizeof(struct bb_proc_found_event) && hdr->type == BB_EV_PROC_FOUND)
		capture__seed_rss(c, hdr->tgid);
	return c->fn(c->ctx, data, size);
}

static const char *load_hint(int err)
{
	switch (err) {
	case -EPERM:
		return " (hint: run as root, or with CAP_BPF and CAP_PERFMON)";
	case -EACCES:
		/* Privileges were checked at start-up: this is the verifier. */
		return " (hint: the kernel's verifier refused a program; buildbpf -v prints its log)";
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

/*
 * The scheduler programs: with --sched=off they are neither loaded nor
 * attached (handle_final_switch is, in their place).
 */
static struct bpf_program *sched_prog(struct buildbpf_bpf *skel, int i)
{
	struct bpf_program *progs[] = {
		skel->progs.handle_switch,
		skel->progs.handle_wakeup,
		skel->progs.handle_wakeup_new,
	};

	return i < (int)(sizeof(progs) / sizeof(progs[0])) ? progs[i] : NULL;
}

static struct bpf_link **sched_link(struct buildbpf_bpf *skel, int i)
{
	struct bpf_link **links[] = {
		&skel->links.handle_switch,
		&skel->links.handle_wakeup,
		&skel->links.handle_wakeup_new,
	};

	return i < (int)(sizeof(links) / sizeof(links[0])) ? links[i] : NULL;
}

/*
 * Where mem_events.bpf.c takes an image's peak before its mm goes
 * (record/mem_probe.h): the programs of c->mem_hook load; no other's.
 */
static void choose_mem_checkpoints(struct buildbpf_bpf *skel, enum mem_hook hook, const struct mem_probe *probe)
{
	struct mem_progs load = mem_hook__progs(hook, probe);

	bpf_program__set_autoload(skel->progs.mem_prepare_exec, load.prepare_exec);
	bpf_program__set_autoload(skel->progs.mem_do_exit, load.fentry_exit);
	bpf_program__set_autoload(skel->progs.mem_begin_new_exec, load.fentry_exec);
	bpf_program__set_autoload(skel->progs.mem_sys_enter, load.sys_enter);
}

/* The hash maps' capacities (events.h): every one set here, before load. */
static int size_hash_maps(struct buildbpf_bpf *skel)
{
	const struct {
		struct bpf_map *map;
		__u32 entries;
	} sizes[] = {
		{ skel->maps.tracked, BB_PROCS_MAX },
		{ skel->maps.file_counts, BB_PROCS_MAX },
		{ skel->maps.mem_images, BB_PROCS_MAX },
		{ skel->maps.threads, BB_THREADS_MAX },
		{ skel->maps.last_wake, BB_WOKEN_THREADS_MAX },
		{ skel->maps.written_files, BB_WRITTEN_FILES_MAX },
	};
	size_t i;
	int err = 0;

	for (i = 0; !err && i < sizeof(sizes) / sizeof(sizes[0]); i++)
		err = bpf_map__set_max_entries(sizes[i].map, sizes[i].entries);
	return err;
}

/* The file-dependency programs of each hook (bpf/file_events.bpf.c), NULL-ended. */
static void deps_progs(struct buildbpf_bpf *skel, enum deps_hook hook, struct bpf_program *progs[4])
{
	if (hook == DEPS_HOOK_FENTRY) {
		progs[0] = skel->progs.handle_file_open_fexit;
		progs[1] = skel->progs.handle_file_rename_enter;
		progs[2] = skel->progs.handle_file_rename_exit;
		progs[3] = NULL;
	} else {
		progs[0] = skel->progs.handle_file_sys_exit;
		progs[1] = NULL;
	}
}

/*
 * --deps: the programs of the hook in use load; no other's.  With
 * --deps=off none is even attached, so no open or syscall of the machine
 * pays for them.
 */
static void choose_deps_progs(struct buildbpf_bpf *skel, enum deps_hook hook, bool on)
{
	struct bpf_program *progs[4];

	for (enum deps_hook h = DEPS_HOOK_FENTRY; h <= DEPS_HOOK_SYSCALL; h++) {
		deps_progs(skel, h, progs);
		for (int i = 0; progs[i]; i++)
			bpf_program__set_autoload(progs[i], on && h == hook);
	}
	bpf_program__set_autoload(skel->progs.handle_deps_exit, on);
	/* Why each process started (bpf/start_wake.bpf.c) belongs to the same
	 * graph: with --deps=off no wakeup of the machine pays for it. */
	bpf_program__set_autoload(skel->progs.handle_start_waking, on);
	bpf_program__set_autoload(skel->progs.handle_start_fork, on);
	/* Their maps, which no other program names: not even created (a
	 * hash map's buckets cost ~3 ms of kernel time per 262,144 entries). */
	bpf_map__set_autocreate(skel->maps.written_files, on);
	bpf_map__set_autocreate(skel->maps.file_counts, on);
	bpf_map__set_autocreate(skel->maps.renames_in_flight, on);
	bpf_map__set_autocreate(skel->maps.rename_scratch, on);
	bpf_map__set_autocreate(skel->maps.last_wake, on);
}

/*
 * Attaches what loaded in the skeleton's order, as buildbpf_bpf__attach()
 * does, but says which program the kernel refused (*refused): the fallback
 * then gives up that program's hook only.  0, or -errno.
 */
static int attach_skeleton(struct buildbpf_bpf *skel, struct bpf_program **refused)
{
	const struct bpf_object_skeleton *s = skel->skeleton;

	*refused = NULL;
	for (int i = 0; i < s->prog_cnt; i++) {
		struct bpf_program *prog = *s->progs[i].prog;
		struct bpf_link **link = s->progs[i].link;

		if (!bpf_program__autoload(prog) || !bpf_program__autoattach(prog) || *link)
			continue;
		*link = bpf_program__attach(prog);
		if (!*link) {
			*refused = prog;
			return -errno;
		}
	}
	return 0;
}

/* Whose program prog is (NULL: the load failed, libbpf does not say which). */
static enum hook_refused refused_hook(struct buildbpf_bpf *skel, const struct bpf_program *prog)
{
	struct bpf_program *deps[4];

	if (!prog)
		return HOOK_REFUSED_UNKNOWN;
	if (prog == skel->progs.mem_do_exit || prog == skel->progs.mem_begin_new_exec)
		return HOOK_REFUSED_MEM;
	deps_progs(skel, DEPS_HOOK_FENTRY, deps);
	for (int i = 0; deps[i]; i++)
		if (prog == deps[i])
			return HOOK_REFUSED_DEPS;
	return HOOK_REFUSED_OTHER;
}

/* The fallback from hook to instead, said once: refused NULL, the load failed. */
static void warn_fallback(const char *hook, const char *instead, const struct bpf_program *refused, int err)
{
	fprintf(stderr, "buildbpf: warning: the %s failed (%s: %s%s); using the %s\n", hook,
		refused ? bpf_program__name(refused) : "at load", strerror(-err),
		/* BPF_MAX_TRAMP_LINKS: other tools hold the function's trampoline */
		refused && err == -E2BIG ? ", the kernel function holds as many BPF programs as it takes" : "",
		instead);
}

/* How far load_skeleton() and the attach got. */
enum skel_stage {
	SKEL_OPEN,    /* the object did not open */
	SKEL_LOAD,    /* the kernel refused a program or map */
	SKEL_MEMLOCK, /* loaded, but the locked-memory limit could not go back (said) */
	SKEL_ATTACH,  /* loaded, not attached */
};

/*
 * Opens c->skel, its CO-RE relocations to be made against a BTF of only the
 * kernel types they can name (record/core_btf.h), written into core_fd for
 * libbpf to read at load; where that BTF cannot be made (or core_fd is -1),
 * against the whole kernel BTF, as libbpf does by itself.  0, or -errno.
 */
static int open_skeleton(struct capture *c, const struct kernel_btf *kb, int core_fd, bool verbose)
{
	char path[32];
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .btf_custom_path = path);
	int err = -EBADF;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", core_fd);
	if (core_fd >= 0 && !access(path, R_OK)) {
		c->skel = buildbpf_bpf__open_opts(&open_opts);
		if (!c->skel)
			return -errno;
		/* The local BTF, which names the relocated types, is the opened object's. */
		err = ftruncate(core_fd, 0) || lseek(core_fd, 0, SEEK_SET) ? -errno
			: core_btf__write(kb, bpf_object__btf(c->skel->obj), core_fd);
		if (!err)
			return 0;
		buildbpf_bpf__destroy(c->skel);
	}
	if (verbose)
		fprintf(stderr, "buildbpf: CO-RE against the whole kernel BTF: %s\n", strerror(-err));
	c->skel = buildbpf_bpf__open();
	return c->skel ? 0 : -errno;
}

/*
 * Opens, configures and loads c->skel for c->deps_hook, c->deps and c->mem_hook.  0, or
 * -errno with *stage where it failed (said only for SKEL_MEMLOCK).
 */
static int load_skeleton(struct capture *c, const struct capture_opts *opts, const struct kernel_btf *kb,
			 int core_fd, enum skel_stage *stage)
{
	long page_size = sysconf(_SC_PAGESIZE);
	struct rlimit memlock;
	bool have_memlock;
	int i, err;

	*stage = SKEL_OPEN;
	err = open_skeleton(c, kb, core_fd, opts->verbose);
	if (err)
		return err;
	*stage = SKEL_LOAD;
	c->skel->rodata->args_max = opts->args_max;
	c->page_size_kb = page_size > 0 ? page_size / 1024 : 4;
	c->skel->rodata->page_size_kb = c->page_size_kb;
	c->skel->rodata->sched_enabled = opts->sched;
	c->skel->rodata->idle_min_ns = opts->idle_min_ns;
	c->skel->rodata->hide_unreadable = opts->hide_unreadable;
	c->skel->rodata->viewer_uid = opts->viewer_uid;
	c->skel->rodata->viewer_gid = opts->viewer_gid;
	/* Where mem_events.bpf.c checkpoints an image's peak RSS. */
	c->skel->rodata->nr_execve = SYS_execve;
	c->skel->rodata->nr_execveat = SYS_execveat;
	c->skel->rodata->nr_exit = SYS_exit;
	c->skel->rodata->nr_exit_group = SYS_exit_group;
	choose_mem_checkpoints(c->skel, c->mem_hook, &c->mem_probe);
	/* Build memory over time: off, no rss_stat program at all. */
	bpf_program__set_autoload(c->skel->progs.mem_rss_stat, opts->mem_sampling);
	c->mem_sampling = opts->mem_sampling;
	/* Wake the reader early enough that a burst never fills the buffer
	 * between two polls, late enough that it is not woken per event. */
	c->skel->rodata->wakeup_bytes = opts->ringbuf_bytes / 8;

	err = bpf_map__set_max_entries(c->skel->maps.events, opts->ringbuf_bytes) ?: size_hash_maps(c->skel);
	if (err)
		return err;
	c->nr_cpus = libbpf_num_possible_cpus();
	if (c->nr_cpus < 0)
		return c->nr_cpus;
	err = bpf_map__set_max_entries(c->skel->maps.exec_scratch, c->nr_cpus);
	if (err)
		return err;

	c->sched = opts->sched;
	for (i = 0; !c->sched && sched_prog(c->skel, i); i++)
		bpf_program__set_autoload(sched_prog(c->skel, i), false);
	choose_deps_progs(c->skel, c->deps_hook, c->deps);
	/* Without them, a thread's last switch still needs a program. */
	bpf_program__set_autoload(c->skel->progs.handle_final_switch, !c->sched);
	/* The task iterator runs once, on demand (capture__list_tasks()). */
	bpf_program__set_autoload(c->skel->progs.list_tasks, opts->attach || opts->cgroup_id);
	bpf_program__set_autoattach(c->skel->progs.list_tasks, false);
	/* --cgroup: processes moved in are tracked from their move. */
	c->skel->rodata->target_cgroup_id = opts->cgroup_id;
	c->skel->rodata->target_cgroup_level = opts->cgroup_level;
	bpf_program__set_autoload(c->skel->progs.handle_cgroup_attach, opts->cgroup_id != 0);

	/* libbpf raises RLIMIT_MEMLOCK to unlimited on kernels that charge
	 * BPF memory to it (before memcg accounting, 5.11): the maps are
	 * charged when created, so the limit goes back at once and the
	 * build never inherits the raised one. */
	have_memlock = !getrlimit(RLIMIT_MEMLOCK, &memlock);
	err = buildbpf_bpf__load(c->skel);
	if (have_memlock && setrlimit(RLIMIT_MEMLOCK, &memlock) && !err) {
		err = -errno;
		*stage = SKEL_MEMLOCK;
		fprintf(stderr, "buildbpf: cannot restore the locked-memory limit: %s\n", strerror(-err));
		return err;
	}
	return err;
}

int capture__open(struct capture **out, const struct capture_opts *opts, capture_record_fn fn, void *ctx)
{
	enum skel_stage stage;
	struct kernel_btf kb;
	struct capture *c;
	struct bpf_program *refused = NULL; /* by the last attach */
	int err, fentry_err, mem_err, core_fd;

	*out = NULL;
	libbpf_set_print(opts->verbose ? debug_print : quiet_print);

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fn = fn;
	c->ctx = ctx;

	/* Read once for every question asked of it here; libbpf parses its own. */
	kernel_btf__read(&kb); /* unreadable: the raw syscall entry, no fentry */
	/* Probed even with --deps=off: the recording says what --deps=on would cost. */
	fentry_err = preflight__probe_fentry(&kb);
	c->deps_hook = deps_hook__choose(fentry_err);
	c->deps = deps_hook__on(opts->deps, c->deps_hook);
	preflight__probe_mem(&kb, &c->mem_probe);
	c->mem_hook = mem_hook__choose(&c->mem_probe);
	core_fd = memfd_create("buildbpf-core-btf", MFD_CLOEXEC);
	for (;;) {
		enum hook_fallback next;

		refused = NULL; /* a program of the skeleton destroyed below */
		err = load_skeleton(c, opts, &kb, core_fd, &stage);
		if (!err) {
			stage = SKEL_ATTACH;
			err = attach_skeleton(c->skel, &refused);
		}
		/* The probes attach nothing: a kernel may still refuse our
		 * programs, or their attachment.  Then the syscall way for the
		 * hook refused (hook_fallback__next()). */
		if (!err || stage == SKEL_MEMLOCK || stage == SKEL_OPEN)
			break;
		next = hook_fallback__next(refused_hook(c->skel, refused), c->mem_hook,
					   c->deps && c->deps_hook == DEPS_HOOK_FENTRY);
		if (next == HOOK_FALLBACK_MEM) {
			warn_fallback("fentry memory checkpoints", "syscall entry for them", refused, err);
			c->mem_hook = MEM_HOOK_SYSCALL;
		} else if (next == HOOK_FALLBACK_DEPS) {
			warn_fallback("fentry file-dependency programs", "syscall tracepoint", refused, err);
			c->deps_hook = DEPS_HOOK_SYSCALL;
			c->deps = deps_hook__on(opts->deps, c->deps_hook);
		} else {
			break;
		}
		buildbpf_bpf__destroy(c->skel);
		c->skel = NULL;
	}
	if (core_fd >= 0)
		close(core_fd);
	kernel_btf__release(&kb);
	if (opts->verbose)
		fprintf(stderr, "buildbpf: file dependencies: %s%s%s, %s\n", deps_hook_name(c->deps_hook),
			fentry_err ? ", fentry probe: " : "", fentry_err ? strerror(-fentry_err) : "",
			c->deps ? "on" : "off");
	/* After any fallback: the hook the recording says (-EAGAIN: fentry not needed, not probed). */
	mem_err = c->mem_probe.fentry_err == -EAGAIN ? 0 : c->mem_probe.fentry_err;
	if (opts->verbose && !err)
		fprintf(stderr, "buildbpf: memory checkpoints: %s%s%s\n", mem_hook_name(c->mem_hook),
			mem_err ? ", fentry probe: " : "", mem_err ? strerror(-mem_err) : "");
	if (err) {
		if (stage == SKEL_OPEN)
			fprintf(stderr, "buildbpf: cannot open the BPF programs: %s\n", strerror(-err));
		else if (stage == SKEL_LOAD)
			fprintf(stderr, "buildbpf: cannot load the BPF programs: %s%s\n", strerror(-err), load_hint(err));
		else if (stage == SKEL_ATTACH)
			fprintf(stderr, "buildbpf: cannot attach the BPF program %s: %s%s\n", bpf_program__name(refused),
				strerror(-err), load_hint(err));
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

cleanup:
	capture__free(c);
	return err;
}

int capture__track(struct capture *c, pid_t pid, __u64 since_ns)
{
	/* Until its exec it is buildbpf's own copy (hidden.bpf.h). */
	struct bb_proc_acct zero = { .launching = 1 };
	struct bb_thread thread;
	__u32 key = pid;

	/* It waits on the launch pipe: asleep since its fork. */
	thread_init(&thread, pid, BB_THREAD_SLEEPING, since_ns);

	if (bpf_map__update_elem(c->skel->maps.tracked, &key, sizeof(key), &zero, sizeof(zero), BPF_ANY))
		return -errno;
	if (c->sched &&
	    bpf_map__update_elem(c->skel->maps.threads, &key, sizeof(key), &thread, sizeof(thread), BPF_ANY))
		return -errno;
	return 0;
}

int capture__seed(struct capture *c, pid_t tgid, const struct bb_proc_acct *acct)
{
	__u32 key = tgid;

	/* NOEXIST: an entry the kernel made at the fork is the truer one. */
	if (bpf_map__update_elem(c->skel->maps.tracked, &key, sizeof(key), acct, sizeof(*acct), BPF_NOEXIST))
		return -errno;
	return 0;
}

/* The resident pages of tgid's address space now (statm's second field); 0 when gone or a kernel thread. */
static __u64 statm_resident_pages(pid_t tgid)
{
	unsigned long long size, resident = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/statm", (int)tgid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident;
}

int capture__seed_rss(struct capture *c, pid_t tgid)
{
	struct bb_mem_proc proc = {};
	__u32 key = tgid;

	if (!c->mem_sampling)
		return 0;
	proc.rss_pages = statm_resident_pages(tgid);
	if (!proc.rss_pages)
		return 0;
	proc.peak_pages = proc.rss_pages;
	/* NOEXIST: an entry the kernel made since the process was tracked
	 * holds a later reading. */
	if (bpf_map__update_elem(c->skel->maps.mem_images, &key, sizeof(key), &proc, sizeof(proc), BPF_NOEXIST))
		return errno == EEXIST ? 0 : -errno;
	/* Exited between the reading and the insert, the kernel's exit
	 * program found no entry to remove: a zombie has no resident pages. */
	if (!statm_resident_pages(tgid))
		bpf_map__delete_elem(c->skel->maps.mem_images, &key, sizeof(key), 0);
	return 0;
}

int capture__seed_thread(struct capture *c, pid_t tid, const struct bb_thread *t)
{
	__u32 key = tid;

	if (!c->sched)
		return 0;
	if (bpf_map__update_elem(c->skel->maps.threads, &key, sizeof(key), t, sizeof(*t), BPF_NOEXIST) &&
	    errno != EEXIST)
		return -errno;
	return 0;
}

void capture__untrack(struct capture *c, pid_t tgid)
{
	__u32 key = tgid;

	bpf_map__delete_elem(c->skel->maps.tracked, &key, sizeof(key), 0);
}

int capture__list_tasks(struct capture *c, struct bb_task_seen **out, size_t *nr)
{
	struct bb_task_seen *tasks = NULL;
	struct bpf_link *link;
	size_t cap = 0, n = 0;
	ssize_t got;
	int fd, err = 0;

	*out = NULL;
	*nr = 0;
	link = bpf_program__attach_iter(c->skel->progs.list_tasks, NULL);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		err = -errno;
		goto cleanup;
	}
	/* The seq file hands out whole records: one read() never splits one. */
	for (;;) {
		if (array_grow((void **)&tasks, &cap, n + 256, sizeof(*tasks))) {
			err = -ENOMEM;
			break;
		}
		got = read(fd, tasks + n, (cap - n) * sizeof(*tasks));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = -errno;
			break;
		}
		if (got == 0)
			break;
		n += got / sizeof(*tasks);
	}
	close(fd);
cleanup:
	bpf_link__destroy(link);
	if (err) {
		free(tasks);
		return err;
	}
	*out = tasks;
	*nr = n;
	return 0;
}

bool capture__tracking_none(const struct capture *c)
{
	/* tgid 0 (the idle task) is never tracked, and the key after a key
	 * that is not in the map is the first one. */
	__u32 absent = 0, key;

	/* One lookup of a first key, on the fd buildbpf holds: no privilege
	 * needed after the drop.  An error is not "empty". */
	return bpf_map__get_next_key(c->skel->maps.tracked, &absent, &key, sizeof(key)) == -ENOENT;
}

int capture__epoll_fd(const struct capture *c)
{
	return ring_buffer__epoll_fd(c->rb);
}

int capture__consume(struct capture *c)
{
	return ring_buffer__consume(c->rb);
}

/*
 * What runs on one CPU now, as a record closed at end_ns: a build thread's
 * on-CPU interval or an idle period, or else an empty idle record that only
 * hands over the short idle time not reported yet.
 */
static int flush_cpu(struct capture *c, int cpu, const struct bb_cpu_slot *slot, __u64 end_ns)
{
	struct bb_cpu_slice_event slice = {};
	struct bb_cpu_idle_event idle = {};
	struct bb_thread t;
	__u32 tid = slot->cur_tid;

	if (slot->known && slot->cur_tracked &&
	    !bpf_map__lookup_elem(c->skel->maps.threads, &tid, sizeof(tid), &t, sizeof(t), 0) &&
	    t.state == BB_THREAD_RUNNING && t.last_cpu == cpu && t.state_ts < end_ns) {
		slice.hdr = (struct bb_event_header){ end_ns, BB_EV_CPU_SLICE, cpu, tid, t.tgid };
		slice.start_ns = t.state_ts;
		slice.wait_ns = t.last_wait_ns;
		slice.short_idle_ns = slot->short_idle_ns;
		slice.end_state = BB_SLICE_PREEMPTED;
		return c->fn(c->ctx, &slice, sizeof(slice));
	}
	idle.hdr = (struct bb_event_header){ end_ns, BB_EV_CPU_IDLE, cpu, 0, 0 };
	idle.start_ns = slot->idle_start && slot->idle_start < end_ns ? slot->idle_start : end_ns;
	idle.short_idle_ns = slot->short_idle_ns;
	if (idle.start_ns == end_ns && !idle.short_idle_ns)
		return 0;
	return c->fn(c->ctx, &idle, sizeof(idle));
}

int capture__finish_sched(struct capture *c, __u64 end_ns)
{
	struct bb_cpu_slot *slots;
	__u32 zero = 0;
	int i, cpu, err;

	if (!c->sched)
		return 0;
	/* No switch is recorded after this, so the slots stay what the last
	 * records left: each CPU's record order is preserved. */
	for (i = 0; sched_link(c->skel, i); i++) {
		bpf_link__destroy(*sched_link(c->skel, i));
		*sched_link(c->skel, i) = NULL;
	}
	err = ring_buffer__consume(c->rb);
	if (err < 0)
		return err;
	slots = calloc(c->nr_cpus, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	err = bpf_map__lookup_elem(c->skel->maps.cpu_slots, &zero, sizeof(zero), slots,
				   c->nr_cpus * sizeof(*slots), 0);
	for (cpu = 0; !err && cpu < c->nr_cpus; cpu++)
		err = flush_cpu(c, cpu, &slots[cpu], end_ns);
	free(slots);
	return err < 0 ? err : 0;
}

enum deps_hook capture__deps_hook(const struct capture *c)
{
	return c->deps_hook;
}

enum mem_hook capture__mem_hook(const struct capture *c)
{
	return c->mem_hook;
}

bool capture__deps_on(const struct capture *c)
{
	return c->deps;
}

int capture__nr_cpus(const struct capture *c)
{
	return c->nr_cpus;
}

/* Keeps top[] (largest first) the nr_top largest seen. */
static void offer_top(struct bb_mem_sample_event *e, __u32 tgid, __u64 rss_kb)
{
	__u32 i = e->nr_top < BB_MEM_SAMPLE_TOP ? e->nr_top++ : BB_MEM_SAMPLE_TOP - 1;

	if (i == BB_MEM_SAMPLE_TOP - 1 && e->nr_top == BB_MEM_SAMPLE_TOP && e->top[i].rss_kb >= rss_kb &&
	    e->top[i].tgid)
		return;
	for (; i > 0 && e->top[i - 1].rss_kb < rss_kb; i--)
		e->top[i] = e->top[i - 1];
	e->top[i].rss_kb = rss_kb;
	e->top[i].tgid = tgid;
	e->top[i].__pad = 0;
}

int capture__mem_sample(const struct capture *c, struct bb_mem_sample_event *e)
{
	const struct bpf_map *map = c->skel->maps.mem_images;
	/* No process has tgid 0: the walk starts at the first key (as a NULL
	 * key would, which valgrind's bpf() wrapper takes for a bad pointer). */
	__u32 key = 0, next;
	struct bb_mem_proc proc;
	int err;

	e->total_kb = 0;
	e->nr_procs = e->nr_top = 0;
	/* An entry deleted between two calls restarts the walk at the first
	 * key: a process exiting mid-walk may be summed twice, at most. */
	while (!(err = bpf_map__get_next_key(map, &key, &next, sizeof(next)))) {
		key = next;
		if (bpf_map__lookup_elem(map, &key, sizeof(key), &proc, sizeof(proc), 0))
			continue;
		if (!proc.rss_pages)
			continue;
		e->total_kb += proc.rss_pages * c->page_size_kb;
		e->nr_procs++;
		offer_top(e, key, proc.rss_pages * c->page_size_kb);
	}
	return err == -ENOENT ? 0 : err;
}

void capture__print_runs(const struct capture *c, FILE *out)
{
	struct bpf_program *prog;
	bool any = false;

	bpf_object__for_each_program(prog, c->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) || !info.run_cnt)
			continue;
		fprintf(out, "%s%s %llu (%llu ns each)", any ? ", " : "buildbpf: program runs: ", bpf_program__name(prog),
			(unsigned long long)info.run_cnt, (unsigned long long)(info.run_time_ns / info.run_cnt));
		any = true;
	}
	if (any)
		fputc('\n', out);
}

__u64 capture__lost_events(const struct capture *c)
{
	return c->skel->bss->dropped_events;
}

/*
 * Detaches every program, the last attached first.  A tracepoint keeps its
 * programs in attach order; removing the first of two makes the kernel wait
 * for an RCU grace period (tracepoint_remove_func(): its 2 -> 1 transition
 * when the first slot changes), the last of two does not.  The skeleton's
 * own destroy goes in attach order: ~10 ms per shared tracepoint.
 */
static void detach_last_first(struct buildbpf_bpf *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;

	for (int i = s->prog_cnt; i-- > 0;) {
		struct bpf_link **link = s->progs[i].link;

		bpf_link__destroy(*link);
		*link = NULL;
	}
}

void capture__free(struct capture *c)
{
	if (!c)
		return;
	ring_buffer__free(c->rb);
	if (c->skel)
		detach_last_first(c->skel);
	buildbpf_bpf__destroy(c->skel);
	free(c);
}
