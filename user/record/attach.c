// SPDX-License-Identifier: GPL-2.0
/*
 * --attach PID: the checks before the BPF programs load, and the seeding of
 * the tracked map with the running tree once they are (record.c runs it).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include "record/attach.h"
#include "record/cgroup_path.h"
#include "record/proc_owner.h"
#include "thread_sched.h"
#include "util/array_grow.h"
#include "util/sorted_search.h"
#include "util/term_escape.h"

/* Snapshots taken at most: each one only catches forks made during the last. */
#define SEED_MAX_ROUNDS 16
/* /proc/PID/cmdline is read up to this (the recording keeps args_max of it). */
#define CMDLINE_READ_MAX (BB_ARGS_MAX_LIMIT + 1)

/* The first of three ids that is not want, or want. */
static unsigned long other_id(const unsigned int ids[3], unsigned int want)
{
	return ids[0] != want ? ids[0] : ids[1] != want ? ids[1] : ids[2];
}

int attach__check_target(const struct attach_target *t, const struct run_as *ra)
{
	struct proc_owner o = {};
	__u32 hidden;
	int err;

	/* Init's tree is every process of the machine, buildbpf's own
	 * ancestors too: not a build, and it never ends on its own. */
	if (t->pid == 1) {
		fprintf(stderr, "buildbpf: %s 1: pid 1 is init, whose tree is every process of the machine, buildbpf "
				"included (hint: attach to the build's own top process, its make, ninja or shell; or "
				"trace its cgroup with --cgroup)\n", t->opt);
		return -1;
	}
	err = proc_owner__read(t->pid, &o);
	/* Still the process the pidfd names: what was read is its own.  A
	 * pid reused since is another process, which the pidfd does not
	 * reach (ESRCH).  EPERM: alive, the ids below say whose it is. */
	if (!err && (t->pidfd >= 0 ? pidfd_send_signal(t->pidfd, 0, NULL, 0) : kill(t->pid, 0)) && errno != EPERM)
		err = -errno;
	if (err) {
		fprintf(stderr, "buildbpf: %s %d: %s\n", t->opt, (int)t->pid,
			err == -ESRCH || err == -ENOENT ? "no such process (it is gone, or its pid was reused)"
							: strerror(-err));
		return -1;
	}
	/* A user traces only what the kernel lets them read of their own
	 * tree: its argv, its children's command lines and timing, its
	 * /proc/PID/io and memory. */
	hidden = proc_owner__hidden(&o, ra);
	if (!hidden)
		return 0;
	if (o.uids[0] != ra->uid || o.uids[1] != ra->uid || o.uids[2] != ra->uid) {
		fprintf(stderr, "buildbpf: %s %d: the process is not %s's (uid %lu) (hint: only root, not "
				"a sudo user, attaches to another user's processes: sudo buildbpf --keep-root)\n",
			t->opt, (int)t->pid, ra->name, other_id(o.uids, ra->uid));
		return -1;
	}
	fprintf(stderr, "buildbpf: %s %d: the kernel hides this process's details from %s (%s) (hint: only "
			"root, not a sudo user, traces it: sudo buildbpf --keep-root)\n",
		t->opt, (int)t->pid, ra->name,
		hidden & BB_HIDDEN_NOT_DUMPABLE ? "it is not dumpable" : "it runs with another group");
	return -1;
}

int attach__open_target(pid_t pid, const struct run_as *ra, const char *opt, int *pidfd)
{
	struct attach_target t = { .pid = pid, .opt = opt };

	*pidfd = -1;
	t.pidfd = pidfd_open(pid, 0);
	/* Without pidfds (before 5.3, or under valgrind, which does not
	 * know the call) the pid is checked as it is: a reuse within the
	 * microseconds of the check is the risk left. */
	if (t.pidfd < 0 && errno != ENOSYS) {
		fprintf(stderr, "buildbpf: %s %d: %s\n", opt, (int)pid,
			errno == ESRCH ? "no such process" : strerror(errno));
		return -1;
	}
	if (attach__check_target(&t, ra)) {
		if (t.pidfd >= 0)
			close(t.pidfd);
		return -1;
	}
	*pidfd = t.pidfd;
	return 0;
}

/*
 * Reads /proc/PID/NAME whole, up to max bytes: *buf malloc'd (NULL when
 * unreadable), *len its bytes, *full how many there were (max + 1: more).
 * Read to the end (*len == *full), *buf has a spare byte after them.
 */
static void read_proc(pid_t pid, const char *name, size_t max, char **buf, size_t *len, size_t *full)
{
	char path[64];
	size_t cap = 0, n = 0;
	ssize_t got;
	int fd;

	*buf = NULL;
	*len = *full = 0;
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		if (array_grow((void **)buf, &cap, n + 4096, 1))
			break;
		got = read(fd, *buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += got;
		if (n > max)
			break;
	}
	close(fd);
	*full = n;
	*len = n > max ? max : n;
}

/* p's BB_EV_PROC_FOUND record, from /proc: *out malloc'd, *len its size.  0 or -ENOMEM. */
static int found_event(const struct attach_proc *p, __u64 ts, __u32 args_max, struct bb_proc_found_event **out,
		       size_t *len)
{
	struct bb_proc_found_event *e;
	char path[64], exe[BB_FILENAME_MAX];
	char *args;
	size_t args_len, full;
	ssize_t exe_len;

	snprintf(path, sizeof(path), "/proc/%u/exe", p->tgid);
	/* Another user's process (root attached) or a kernel thread: empty. */
	exe_len = readlink(path, exe, sizeof(exe) - 1);
	if (exe_len < 0)
		exe_len = 0;
	read_proc(p->tgid, "cmdline", CMDLINE_READ_MAX, &args, &args_len, &full);
	e = calloc(1, sizeof(*e) + exe_len + (args_len > args_max ? args_max : args_len));
	if (!e) {
		free(args);
		return -ENOMEM;
	}
	e->hdr = (struct bb_event_header){ .ts_ns = ts, .type = BB_EV_PROC_FOUND, .pid = p->tgid, .tgid = p->tgid };
	e->start_ns = p->start_ns;
	e->ppid = p->ppid;
	e->ns_tgid = p->ns_tgid;
	e->nr_threads = p->nr_threads;
	memcpy(e->comm, p->comm, sizeof(e->comm));
	memcpy(e->data, exe, exe_len);
	e->filename_len = exe_len;
	if (!args)
		e->flags |= BB_EXEC_ARGS_UNREADABLE;
	if (args_len > args_max) {
		args_len = args_max;
		e->flags |= BB_EXEC_ARGS_TRUNCATED;
	}
	if (full > args_len)
		e->flags |= BB_EXEC_ARGS_TRUNCATED;
	e->args_full_len = full;
	e->args_len = args_len;
	if (args_len)
		memcpy(e->data + exe_len, args, args_len);
	free(args);
	*out = e;
	*len = sizeof(*e) + exe_len + args_len;
	return 0;
}

/*
 * Whether tgid is still the process p of the snapshot: /proc/PID/stat's
 * start time (field 22, in clock ticks since boot) is p's, to the tick.
 * -ESRCH when no process has that pid now, -EEXIST when another has it.
 * A pid taken again within the tick of its first owner's start would need
 * every other pid allocated in between: the tick is proof enough.
 */
static int same_process(const struct attach_proc *p)
{
	char *stat, *fields;
	unsigned long long ticks, want;
	size_t len, full;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	read_proc(p->tgid, "stat", 4096, &stat, &len, &full);
	if (!stat || len != full)
		goto gone;
	stat[len] = '\0';
	fields = strrchr(stat, ')'); /* comm may hold spaces and parentheses */
	for (i = 0; fields && i < 20; i++)
		fields = strchr(fields + 1, ' ');
	if (!fields || sscanf(fields, " %llu", &ticks) != 1)
		goto gone;
	free(stat);
	want = p->start_boottime_ns / (1000000000ull / hz); /* the kernel's nsec_to_clock_t() */
	return ticks == want ? 0 : -EEXIST;
gone:
	free(stat);
	return -ESRCH;
}

/*
 * Confirms that what was just seeded and read from /proc under p->tgid was
 * p, before any record of it is kept: the pids came from a snapshot, and
 * buildbpf (the user's by now) may have been stopped since.  The root, by
 * its pidfd and the ownership check again; a descendant, by its start time.
 * 0; 1: the descendant is gone, leave it out; -1: not it (said).
 */
static int confirm_seeded(const struct attach_proc *p, const struct attach_target *root, const struct run_as *ra)
{
	int err;

	if (root->pid && p->tgid == (__u32)root->pid)
		return attach__check_target(root, ra) ? -1 : 0;
	err = same_process(p);
	if (err == -ESRCH)
		return 1;
	if (err)
		fprintf(stderr, "buildbpf: %s: process %u was replaced by another while it was being tracked (its pid "
				"was reused); not tracing it (hint: run buildbpf again)\n",
			root->pid ? root->opt : "--cgroup", p->tgid);
	return err ? -1 : 0;
}

/* Why the kernel would hide pid from ra's user now: ids it cannot read count as another user's. */
static __u32 hidden_reasons(pid_t pid, const struct run_as *ra)
{
	struct proc_owner o;

	if (ra->uid == 0)
		return 0;
	return proc_owner__read(pid, &o) ? BB_HIDDEN_CREDS : proc_owner__hidden(&o, ra);
}

/*
 * Puts p's process and threads in the maps: -EEXIST when the kernel
 * tracks it already (it saw the fork), else 0 or -errno.
 */
static int seed_proc(struct capture *cap, const struct attach_proc *p, const struct bb_task_seen *tasks, size_t nr,
		     const struct run_as *ra, __u64 ts)
{
	/* Unsigned wrap-around: the kernel adds each thread's final times
	 * to these, which leaves the time run since the snapshot. */
	struct bb_proc_acct acct = {
		.utime_ns = -p->utime_ns,
		.stime_ns = -p->stime_ns,
		.sum_exec_ns = -p->sum_exec_ns,
		.nr_threads = p->nr_threads - 1,
		/* A descendant found running may be a setuid one already. */
		.hidden = hidden_reasons(p->tgid, ra),
	};
	struct bb_thread t;
	size_t i;
	int err;

	err = capture__seed(cap, p->tgid, &acct) ?: capture__seed_rss(cap, p->tgid);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		if (tasks[i].tgid != p->tgid || (tasks[i].state & BB_TASK_DEAD))
			continue;
		/* Running or queued: runnable (the switch-in will say which);
		 * any other state: asleep since it was found. */
		thread_init(&t, p->tgid, tasks[i].state == BB_TASK_RUNNING ? BB_THREAD_RUNNABLE : BB_THREAD_SLEEPING,
			    ts);
		err = capture__seed_thread(cap, tasks[i].tid, &t);
		if (err)
			return err;
	}
	return 0;
}

struct tgid_in {
	const __u32 *set;
	__u32 tgid;
};

static bool tgid_below(const void *key, size_t i)
{
	const struct tgid_in *k = key;

	return k->set[i] < k->tgid;
}

/* Whether tgid is in the sorted set. */
static bool in_set(const __u32 *set, size_t n, __u32 tgid)
{
	struct tgid_in key = { set, tgid };
	size_t i = sorted_first_not_before(0, n, tgid_below, &key);

	return i < n && set[i] == tgid;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * p is tracked now: its BB_EV_PROC_FOUND record goes to emit once p is
 * confirmed.  0; 1: p was gone, it is untracked; -errno (said).
 */
static int seed_found(struct capture *cap, const struct attach_proc *p, const struct attach_target *target,
		      const struct run_as *ra, __u64 ts, __u32 args_max, capture_record_fn emit, void *ctx)
{
	struct bb_proc_found_event *e;
	size_t len;
	int err;

	err = found_event(p, ts, args_max, &e, &len);
	if (err) {
		fprintf(stderr, "buildbpf: out of memory\n");
		return err;
	}
	err = confirm_seeded(p, target, ra);
	if (err > 0) {
		/* Its exit cleared its entry, or (gone before the seed) nothing
		 * will: the next process given its pid must not be tracked. */
		capture__untrack(cap, p->tgid);
	} else if (!err) {
		err = emit(ctx, e, len);
		err = err > 0 ? 0 : err;
		if (err < 0)
			fprintf(stderr, "buildbpf: --attach: cannot record process %u: %s\n", p->tgid, strerror(-err));
	} else {
		err = -ESRCH;
	}
	free(e);
	return err;
}

int attach__seed(struct capture *cap, const struct attach_target *target, const struct run_as *ra, __u64 start_ns,
		 __u32 args_max, capture_record_fn emit, void *ctx, struct attach_stats *st)
{
	pid_t root = target->pid;
	struct bb_task_seen *tasks = NULL;
	struct attach_proc *procs = NULL;
	size_t nr_tasks = 0, nr_procs = 0, n, i, seen_cap = 0, nr_seen = 0, *order = NULL;
	__u32 *seen = NULL; /* tgids handled: seeded by us or by the kernel */
	bool fresh = true;
	int err = 0;

	memset(st, 0, sizeof(*st));
	while (fresh && st->rounds < SEED_MAX_ROUNDS) {
		fresh = false;
		free(tasks);
		free(procs);
		free(order);
		procs = NULL;
		order = NULL;
		err = capture__list_tasks(cap, &tasks, &nr_tasks);
		if (err) {
			fprintf(stderr, "buildbpf: --attach: cannot list the running tasks: %s (hint: the kernel needs "
					"BPF task iterators, 5.8 or later)\n", strerror(-err));
			goto cleanup;
		}
		st->rounds++;
		err = attach_tree__procs(tasks, nr_tasks, &procs, &nr_procs);
		order = malloc((nr_procs ? nr_procs : 1) * sizeof(*order));
		if (err || !order || array_grow((void **)&seen, &seen_cap, nr_seen + nr_procs + 1, sizeof(*seen))) {
			err = -ENOMEM;
			fprintf(stderr, "buildbpf: out of memory\n");
			goto cleanup;
		}
		n = attach_tree__descendants(procs, nr_procs, root, getpid(), order);
		if (!n && st->rounds == 1 && root) {
			err = -ESRCH;
			fprintf(stderr, "buildbpf: --attach %d: the process is gone\n", (int)root);
			goto cleanup;
		}
		for (i = 0; i < n; i++) {
			const struct attach_proc *p = &procs[order[i]];
			__u64 ts = p->start_ns > start_ns ? p->start_ns : start_ns;

			if (in_set(seen, nr_seen, p->tgid))
				continue;
			err = seed_proc(cap, p, tasks, nr_tasks, ra, ts);
			if (err == -EEXIST) {
				st->forked++;
			} else if (err) {
				fprintf(stderr, "buildbpf: --attach: cannot track process %u: %s\n", p->tgid,
					strerror(-err));
				goto cleanup;
			} else {
				err = seed_found(cap, p, target, ra, ts, args_max, emit, ctx);
				if (err < 0)
					goto cleanup;
				st->found += !err;
				st->gone += err;
				fresh = true;
			}
			seen[nr_seen++] = p->tgid;
			qsort(seen, nr_seen, sizeof(*seen), cmp_u32);
		}
	}
	err = 0;
cleanup:
	free(tasks);
	free(procs);
	free(order);
	free(seen);
	return err;
}

int attach__open_cgroup(const char *path, const struct run_as *ra, struct cgroup_target *t)
{
	char *mountinfo = NULL, mnt[4096], mnt_root[4096], esc[TERM_ESCAPE_BUF];
	size_t len, full;
	struct statfs sfs;
	struct stat st;
	unsigned int level;
	int err;

	memset(t, 0, sizeof(*t));
	read_proc(getpid(), "mountinfo", 1 << 22, &mountinfo, &len, &full);
	if (mountinfo && len == full) {
		mountinfo[len] = '\0'; /* read_proc() leaves room: it read to EOF */
		err = cgroup_path__mount(mountinfo, mnt, sizeof(mnt), mnt_root, sizeof(mnt_root));
	} else {
		err = -EIO;
	}
	free(mountinfo);
	if (err) {
		fprintf(stderr, "buildbpf: --cgroup: %s (hint: --cgroup needs the cgroup v2 hierarchy mounted)\n",
			err == -ENOENT ? "no cgroup2 file system is mounted" : "cannot read /proc/self/mountinfo");
		return -1;
	}
	err = cgroup_path__resolve(mnt, mnt_root, path, t->path, sizeof(t->path), &level);
	if (!err && (stat(t->path, &st) || statfs(t->path, &sfs)))
		err = -errno;
	if (!err && (!S_ISDIR(st.st_mode) || sfs.f_type != CGROUP2_SUPER_MAGIC))
		err = -ENOTDIR;
	if (err) {
		fprintf(stderr, "buildbpf: --cgroup '%s': %s (hint: a directory under %s, or a path as "
				"/proc/PID/cgroup shows it)\n",
			term_escape(path, esc, sizeof(esc)), err == -ENOTDIR ? "not a cgroup v2 directory" : strerror(-err),
			mnt);
		return -1;
	}
	/* A user traces only a cgroup delegated to them: its processes
	 * are then theirs (the kernel lets only them move processes in). */
	if (ra->uid != 0 && st.st_uid != ra->uid) {
		fprintf(stderr, "buildbpf: --cgroup '%s': the cgroup is not %s's (hint: only root, not a sudo user, "
				"traces another user's cgroup: sudo buildbpf --keep-root)\n",
			term_escape(path, esc, sizeof(esc)), ra->name);
		return -1;
	}
	t->id = st.st_ino;
	t->level = level;
	return 0;
}

int attach__argv(pid_t pid, char ***argv, int *argc)
{
	size_t len, full, i, n = 0, off;
	char *args, **v, *text, *comm;

	read_proc(pid, "cmdline", CMDLINE_READ_MAX, &args, &len, &full);
	if (!args || !len) {
		/* A kernel thread, or an unreadable one: its name in brackets, like ps. */
		free(args);
		read_proc(pid, "comm", BB_COMM_LEN, &comm, &len, &full);
		if (asprintf(&args, "[%.*s]", comm ? (int)strcspn(comm, "\n") : 1, comm ? comm : "?") < 0)
			args = NULL;
		free(comm);
		if (!args)
			return -ENOMEM;
		len = strlen(args);
	}
	/* Every argument NUL-terminated, the last too (cut, or rewritten). */
	for (i = 0; i < len; i++)
		n += args[i] == '\0';
	if (args[len - 1] != '\0')
		n++;
	v = malloc((n + 1) * sizeof(*v) + len + 1);
	if (!v) {
		free(args);
		return -ENOMEM;
	}
	text = (char *)(v + n + 1);
	memcpy(text, args, len);
	text[len] = '\0';
	for (i = 0, off = 0; i < n; i++) {
		v[i] = text + off;
		off += strlen(text + off) + 1;
	}
	v[n] = NULL;
	free(args);
	*argv = v;
	*argc = n;
	return 0;
}
