// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include "answers_json_check.h"
#include "integration.h"
#include "json_fields.h"
#include "trace_rules.h"

const char *bb_bin_path(void)
{
	const char *bin = getenv("BUILDBPF_BIN");

	return bin && *bin ? bin : "build/buildbpf";
}

const char *bb_test_prog(const char *name)
{
	static char path[1024];
	char *bin = realpath(bb_bin_path(), NULL);
	char *slash;

	cr_assert_not_null(bin, "%s is not built (make)", bb_bin_path());
	slash = strrchr(bin, '/');
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/tests/%s", bin, name);
	free(bin);
	cr_assert(access(path, X_OK) == 0, "%s is not built (make test builds it)", path);
	return path;
}

void integration_require_bpf(void)
{
	if (geteuid() != 0)
		cr_skip_test("integration suites need root to load BPF programs (run: sudo make test)");
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		cr_skip_test("this kernel has no BTF (/sys/kernel/btf/vmlinux): BPF CO-RE cannot load");
	cr_assert(access(bb_bin_path(), X_OK) == 0, "%s is not built (make)", bb_bin_path());
}

struct bb_run run;

/*
 * The lock every integration test holds shared and a test that changes
 * what the kernel offers every run holds alone (bb_hold_kernel_alone()).
 * Criterion runs each test in its own process: the exit releases it.
 */
static int kernel_lock = -1;

static void lock_kernel(int how)
{
	if (kernel_lock < 0)
		kernel_lock = open("/tmp/buildbpf-tests.kernel.lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
	cr_assert(kernel_lock >= 0, "/tmp/buildbpf-tests.kernel.lock: %s", strerror(errno));
	/* Shared to exclusive is not atomic (flock(2)): two such tests never deadlock. */
	while (flock(kernel_lock, how) && errno == EINTR)
		;
}

void integration_setup(void)
{
	integration_require_bpf();
	lock_kernel(LOCK_SH);
	bb_run_init(&run);
}

/* A process other than the caller running the binary at bin (a real path); 0: none. */
static pid_t other_run_of(const char *bin)
{
	char link[64], exe[4096];
	struct dirent *de;
	pid_t found = 0;
	DIR *proc = opendir("/proc");
	ssize_t n;

	cr_assert_not_null(proc, "/proc: %s", strerror(errno));
	while (!found && (de = readdir(proc))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		n = readlink(link, exe, sizeof(exe) - 1);
		if (n <= 0)
			continue;
		exe[n] = '\0';
		if (!strcmp(exe, bin))
			found = pid;
	}
	closedir(proc);
	return found;
}

/* How long a test that holds the kernel alone waits for another test's buildbpf to end. */
#define ALONE_WAIT_S 300

/*
 * The lock alone does not make the kernel this test's: a test Criterion
 * killed at its timeout released its shared lock, but its buildbpf, with
 * its BPF programs, runs on until its build ends.  Wait for every other
 * buildbpf of the binary under test to be gone.
 */
void bb_hold_kernel_alone(void)
{
	char *bin = realpath(bb_bin_path(), NULL);
	pid_t other = 0;

	lock_kernel(LOCK_EX);
	cr_assert_not_null(bin, "%s: %s", bb_bin_path(), strerror(errno));
	for (int i = 0; i < ALONE_WAIT_S * 10 && (other = other_run_of(bin)); i++)
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	free(bin); /* before the assertion, which ends the test */
	cr_assert(other == 0, "buildbpf [%d] still runs after %d s, alone as this test wants the kernel: "
				     "left by a test killed at its timeout?", (int)other, ALONE_WAIT_S);
}

void integration_teardown(void)
{
	bb_run_fini(&run);
}

void bb_run_init(struct bb_run *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/buildbpf-test.XXXXXX");
	cr_assert_not_null(mkdtemp(r->dir));
	/* Readable by a dropped-privilege command too. */
	cr_assert_eq(chmod(r->dir, 0755), 0);
}

void bb_give_to_nobody(const char *dir)
{
	cr_assert(chown(dir, BB_NOBODY_ID, BB_NOBODY_ID) == 0, "chown %s: %s", dir, strerror(errno));
}

char *bb_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			cr_assert_not_null(buf);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *bb_file_text(const char *path, size_t *len)
{
	char *text = bb_read_file(path, len);

	cr_assert_not_null(text, "%s: %s", path, strerror(errno));
	return text;
}

/* A file's text, "" when there is none. */
static char *text_or_empty(const char *path)
{
	char *text = bb_read_file(path, NULL);

	return text ? text : strdup("");
}

const char *bb_path(const struct bb_run *r, const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	return path;
}

void bb_write_file(const struct bb_run *r, const char *name, const char *text)
{
	FILE *f = fopen(bb_path(r, name), "w");

	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

void bb_append_slow_source(char *text, size_t size, const char *name)
{
	size_t len = strlen(text);
	int n = snprintf(text + len, size - len,
			 "#define X4(x) x x x x\n"
			 "#define X16(x) X4(X4(x))\n"
			 "#define X256(x) X16(X16(x))\n"
			 "#define X64K(x) X256(X256(x))\n"
			 "int %s(void) { return 0 X64K(X4(+1) +1 +1); }\n", name);

	cr_assert(n > 0 && (size_t)n < size - len, "no room for the slow source after %zu bytes", len);
}

void bb_argv(const char *argv[BB_ARGV_MAX], const char *const args[])
{
	size_t n = 0;

	argv[n++] = bb_bin_path();
	for (; *args; args++) {
		cr_assert_lt(n, BB_ARGV_MAX - 1);
		argv[n++] = *args;
	}
	argv[n] = NULL;
}

/* The kernel's struct sigaction (x86-64): no restorer is needed for SIG_DFL or SIG_IGN. */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

void bb_set_signals(const struct bb_signals *caller)
{
	sigset_t none;
	int sig;

	sigemptyset(&none);
	/* SIGKILL and SIGSTOP refuse; every other signal takes it.  Through the
	 * system call, not sigaction(): glibc refuses its own signals (32, 33),
	 * and sudo leaves 32 ignored, which every exec would hand down. */
	for (sig = 1; sig < NSIG; sig++) {
		struct kernel_sigaction ksa = { .handler = SIG_DFL };

		if (caller && sigismember(&caller->ignored, sig) == 1)
			ksa.handler = SIG_IGN;
		syscall(SYS_rt_sigaction, sig, &ksa, NULL, sizeof(ksa.mask));
	}
	sigprocmask(SIG_SETMASK, caller ? &caller->blocked : &none, NULL);
}

static void __attribute__((noreturn)) exec_from(const char *const argv[], const char *dir, const char *out_path,
						 const char *err_path, const char *const extra_env[],
						 const struct bb_signals *caller)
{
	int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || chdir(dir))
		_exit(99);
	/* buildbpf gets 0, 1 and 2 only, as from a shell: any other fd the
	 * command sees is then one buildbpf leaked. */
	if (close_range(3, ~0u, 0))
		_exit(99);
	/* Under make test-asan: leak detection for buildbpf itself (the
	 * test runner's own, inside libcriterion, is not ours to fix). */
	if (getenv("BUILDBPF_ASAN_OPTIONS"))
		setenv("ASAN_OPTIONS", getenv("BUILDBPF_ASAN_OPTIONS"), 1);
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	unsetenv("SUDO_USER");
	for (; extra_env && *extra_env; extra_env++)
		putenv((char *)*extra_env);
	bb_set_signals(caller);
	execv(argv[0], (char *const *)argv);
	_exit(98);
}

void bb_exec(const char *const argv[], const char *dir, const char *out_path, const char *err_path,
	     const char *const extra_env[])
{
	exec_from(argv, dir, out_path, err_path, extra_env, NULL);
}

void bb_run_in_signals(struct bb_run *r, const char *const args[], const char *const extra_env[],
		       const struct bb_signals *caller)
{
	char out_path[128], err_path[128];
	const char *argv[BB_ARGV_MAX];
	pid_t pid;
	int status;

	snprintf(out_path, sizeof(out_path), "%s.stdout", r->dir);
	snprintf(err_path, sizeof(err_path), "%s.stderr", r->dir);
	bb_argv(argv, args);

	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		exec_from(argv, r->dir, out_path, err_path, extra_env, caller);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	free(r->out);
	free(r->err);
	r->out = text_or_empty(out_path);
	r->err = text_or_empty(err_path);
	unlink(out_path);
	unlink(err_path);
	cr_assert(r->status != 98 && r->status != 99, "could not run %s", argv[0]);
}

void bb_run_in(struct bb_run *r, const char *const args[], const char *const extra_env[])
{
	bb_run_in_signals(r, args, extra_env, NULL);
}

double bb_cpu_stall_ms(void)
{
	static bool said;
	unsigned long long total_us;
	char line[256];
	FILE *f = fopen("/proc/pressure/cpu", "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "some avg10=%*f avg60=%*f avg300=%*f total=%llu", &total_us) == 1;
	if (f)
		fclose(f);
	if (!found) {
		if (!said)
			cr_log_warn("no /proc/pressure/cpu: wall-time bounds hold as on an idle machine");
		said = true;
		return 0;
	}
	return total_us / 1000.0;
}

char *bb_run_plain(const struct bb_run *r, const char *dir, const char *const argv[], bool as_nobody, double *wall_s)
{
	char out[128], err[128], *text;
	struct timespec t0, t1;
	int status;
	pid_t pid;
	bool ok;

	snprintf(out, sizeof(out), "%s.plain.out", r->dir);
	snprintf(err, sizeof(err), "%s.plain.err", r->dir);
	/* A file of the other user in sticky /tmp cannot be reopened (protected_regular). */
	unlink(out);
	unlink(err);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (as_nobody && (setgroups(0, NULL) || setgid(BB_NOBODY_ID) || setuid(BB_NOBODY_ID)))
			_exit(99);
		bb_exec(argv, dir, out, err, NULL);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (wall_s)
		*wall_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	cr_assert(ok, "%s %s failed (status %d): %s", argv[0], argv[1] ? argv[1] : "", status,
		  bb_read_file(err, NULL));
	unlink(err);
	text = bb_file_text(out, NULL);
	unlink(out);
	return text;
}

void bb_run_fini(struct bb_run *r)
{
	char cmd[128];

	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
	if (r->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
		if (system(cmd) != 0)
			cr_log_warn("could not remove %s", r->dir);
	}
}

struct json_object *bb_load_trace(const char *path)
{
	struct json_object *trace, *events;
	size_t len;
	char *text = bb_file_text(path, &len);

	check_trace_text(text, len);
	trace = parse_trace_text(text, len);
	free(text);
	cr_assert(json_object_object_get_ex(trace, "traceEvents", &events) &&
		  json_object_is_type(events, json_type_array));
	/* Real data can break a rule that no synthetic trace does. */
	check_trace_rules(trace);
	return trace;
}

struct json_object *bb_slices(struct json_object *trace, const char *cat)
{
	struct json_object *events, *out = json_object_new_array();
	size_t i;

	json_object_object_get_ex(trace, "traceEvents", &events);
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "X") && str_field_is(ev, "cat", cat))
			json_object_array_add(out, json_object_get(ev));
	}
	return out;
}

size_t bb_counter(struct json_object *trace, const char *name, const char *arg, double *v, long long *ts,
		  size_t max)
{
	struct json_object *events;
	size_t i, n = 0;

	json_object_object_get_ex(trace, "traceEvents", &events);
	for (i = 0; i < json_object_array_length(events) && n < max; i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (!str_field_is(ev, "ph", "C") || !str_field_is(ev, "name", name))
			continue;
		if (ts)
			ts[n] = int_field(ev, "ts");
		v[n++] = bb_arg_double(ev, arg);
	}
	return n;
}

struct json_object *bb_arg(struct json_object *ev, const char *key)
{
	struct json_object *args, *v;

	if (!json_object_object_get_ex(ev, "args", &args) || !json_object_object_get_ex(args, key, &v))
		return NULL;
	return v;
}

long long bb_arg_int(struct json_object *ev, const char *key)
{
	struct json_object *v = bb_arg(ev, key);

	return v ? json_object_get_int64(v) : 0;
}

const char *bb_arg_str(struct json_object *ev, const char *key)
{
	struct json_object *v = bb_arg(ev, key);

	return v ? json_object_get_string(v) : NULL;
}

bool bb_arg_flag(struct json_object *ev, const char *key)
{
	struct json_object *v = bb_arg(ev, key);

	return v && json_object_get_boolean(v);
}

double bb_arg_double(struct json_object *ev, const char *key)
{
	struct json_object *v = bb_arg(ev, key);

	cr_assert_not_null(v, "slice has no args.%s", key);
	return json_object_get_double(v);
}

const char *bb_arg_argv(struct json_object *ev, size_t i)
{
	struct json_object *args, *argv;

	if (!json_object_object_get_ex(ev, "args", &args) || !json_object_object_get_ex(args, "argv", &argv) ||
	    i >= json_object_array_length(argv))
		return NULL;
	return json_object_get_string(json_object_array_get_idx(argv, i));
}

struct json_object *bb_slice_by_pid(struct json_object *slices, long long pid)
{
	struct json_object *found = NULL;
	size_t i;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);

		if (bb_arg_int(s, "pid") != pid)
			continue;
		cr_assert(found == NULL, "pid %lld names two processes of the trace (started at %lld and %lld us): "
					 "key it by (pid, start)", pid, int_field(found, "ts"), int_field(s, "ts"));
		found = s;
	}
	return found;
}

/* One process of struct bb_procs: its pid and life in trace microseconds. */
struct bb_proc_entry {
	long long pid, ts, end;
	struct json_object *slice;
};

struct bb_procs {
	struct bb_proc_entry *by_pid; /* by pid, then start */
	size_t n;
};

static int by_pid_then_start(const void *x, const void *y)
{
	const struct bb_proc_entry *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->ts > b->ts) - (a->ts < b->ts);
}

struct bb_procs *bb_procs_new(struct json_object *slices)
{
	struct bb_procs *procs = calloc(1, sizeof(*procs));
	size_t i;

	cr_assert(procs != NULL);
	procs->n = json_object_array_length(slices);
	procs->by_pid = calloc(procs->n ? procs->n : 1, sizeof(*procs->by_pid));
	cr_assert(procs->by_pid != NULL);
	for (i = 0; i < procs->n; i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		long long ts = int_field(s, "ts");

		procs->by_pid[i] = (struct bb_proc_entry){ bb_arg_int(s, "pid"), ts, ts + int_field(s, "dur"), s };
	}
	qsort(procs->by_pid, procs->n, sizeof(*procs->by_pid), by_pid_then_start);
	return procs;
}

void bb_procs_free(struct bb_procs *procs)
{
	if (procs)
		free(procs->by_pid);
	free(procs);
}

struct json_object *bb_procs_alive(const struct bb_procs *procs, long long pid, long long at_us)
{
	size_t lo = 0, hi = procs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (procs->by_pid[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Two holders of one pid are a whole wrap of pid_max apart: at most one is alive at at_us. */
	for (; lo < procs->n && procs->by_pid[lo].pid == pid; lo++)
		if (procs->by_pid[lo].ts <= at_us && at_us <= procs->by_pid[lo].end)
			return procs->by_pid[lo].slice;
	return NULL;
}

/* Whether ev's argv holds flag followed by value (NULL: flag alone). */
static bool argv_has(struct json_object *ev, const char *flag, const char *value)
{
	const char *a;
	size_t i;

	for (i = 1; (a = bb_arg_argv(ev, i)); i++) {
		const char *next = bb_arg_argv(ev, i + 1);

		if (!strcmp(a, flag) && (!value || (next && !strcmp(next, value))))
			return true;
	}
	return false;
}

size_t bb_slices_with_arg(struct json_object *slices, const char *prog, const char *flag, const char *value,
			  struct json_object **found, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *argv0 = bb_arg_argv(ev, 0), *base;

		if (!argv0)
			continue;
		base = strrchr(argv0, '/');
		base = base ? base + 1 : argv0;
		if (strcmp(base, prog) || !argv_has(ev, flag, value))
			continue;
		if (n < max)
			found[n] = ev;
		n++;
	}
	return n;
}

struct json_object *bb_only_slice_with_arg(struct json_object *slices, const char *prog, const char *flag,
					   const char *value)
{
	struct json_object *found[2];
	size_t n = bb_slices_with_arg(slices, prog, flag, value, found, 2);

	cr_assert(n == 1, "%zu processes of %s with %s %s, not one", n, prog, flag, value ?: "");
	return found[0];
}

struct json_object *bb_procs_parent(const struct bb_procs *procs, struct json_object *slice)
{
	return bb_procs_alive(procs, bb_arg_int(slice, "ppid"), int_field(slice, "ts"));
}

struct json_object *bb_procs_of_entry(const struct bb_procs *procs, struct json_object *entry)
{
	/* start_ms is the start in whole microseconds; a slice's ts is the same, plus one (trace_us()). */
	double start_ms = json_object_get_double(need_field(entry, "start_ms"));

	return bb_procs_alive(procs, int_field(entry, "pid"), llround(start_ms * 1000) + 1);
}

bool bb_same_process(struct json_object *a, struct json_object *b)
{
	return a && b && bb_arg_int(a, "pid") == bb_arg_int(b, "pid") && int_field(a, "ts") == int_field(b, "ts");
}

struct json_object *bb_other(struct json_object *trace, const char *key)
{
	struct json_object *od, *v = NULL;

	cr_assert(json_object_object_get_ex(trace, "otherData", &od), "the trace has no otherData");
	cr_assert(json_object_object_get_ex(od, key, &v), "otherData.%s missing", key);
	return v;
}

long long bb_other_int(struct json_object *trace, const char *key)
{
	return json_object_get_int64(bb_other(trace, key));
}

void bb_write_fanout_makefile(const struct bb_run *r, int n, const char *recipe)
{
	FILE *f = fopen(bb_path(r, "Makefile"), "w");
	int i;

	cr_assert_not_null(f);
	fprintf(f, "T :=");
	for (i = 0; i < n; i++)
		fprintf(f, " t%03d", i);
	fprintf(f, "\nall: $(T)\n$(T):\n\t%s\n", recipe);
	cr_assert_eq(fclose(f), 0);
}

static bool is_time_key(const char *key)
{
	size_t len = strlen(key);

	return !strcmp(key, "ms") || (len > 3 && !strcmp(key + len - 3, "_ms"));
}

/* Every number under obj (at path) is >= 0, and a time is at most max_ms. */
static void check_figures(struct json_object *obj, const char *path, const char *key, double max_ms)
{
	char sub[256];
	double v;
	size_t i;

	switch (json_object_get_type(obj)) {
	case json_type_object:
		json_object_object_foreach(obj, k, val) {
			snprintf(sub, sizeof(sub), "%s.%s", path, k);
			check_figures(val, sub, k, max_ms);
		}
		break;
	case json_type_array:
		for (i = 0; i < json_object_array_length(obj); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			check_figures(json_object_array_get_idx(obj, i), sub, key, max_ms);
		}
		break;
	case json_type_int:
	case json_type_double:
		v = json_object_get_double(obj);
		cr_assert(v >= 0, "%s is negative: %s", path, json_object_to_json_string(obj));
		/* A millisecond of slack for rounding.  Run-queue wait is summed
		 * over threads and outside_wait over processes (docs/audit.md): either
		 * may exceed wall x CPUs (four parallel sleeps wait 4 x their
		 * time). */
		/* The what-if's blocked and left-out run-queue times are sums over
		 * jobs too (jobs blocked at once each count their time), and its
		 * rows predict other runs: -j1 of parallel sleeps takes their sum. */
		cr_assert(!is_time_key(key) || strstr(path, "runqueue") || strstr(path, "outside_wait") ||
				  strstr(path, "what_if.blocked_ms") || strstr(path, "what_if.runq_wait_left_out_ms") ||
				  strstr(path, "what_if.rows[") || v <= max_ms + 1,
			  "%s = %s ms is more than wall x CPUs (%.3f ms)", path, json_object_to_json_string(obj), max_ms);
		break;
	default:
		break;
	}
}

void bb_check_summary(struct json_object *summary)
{
	struct json_object *wall, *cpus;
	char why[4096];

	cr_assert(json_object_object_get_ex(summary, "wall_ms", &wall) &&
		  json_object_object_get_ex(summary, "cpu_count", &cpus), "the summary has no wall_ms or cpu_count");
	cr_assert(json_object_get_int64(cpus) > 0, "cpu_count %s", json_object_to_json_string(cpus));
	check_figures(summary, "summary", "", json_object_get_double(wall) * json_object_get_int64(cpus));
	/* Every recording of the suites: no short answer contradicted by the what-if beside it (issue 39). */
	cr_assert(bb_summary_answers_agree(summary, why, sizeof(why)), "%s", why);
}

struct json_object *bb_load_summary(const struct bb_run *r, const char *name)
{
	struct json_object *summary = json_object_from_file(bb_path(r, name));

	cr_assert_not_null(summary, "%s is not valid JSON: %s", name, json_util_get_last_err());
	bb_check_summary(summary);
	return summary;
}

/* "|" separates the fields of a RELIABILITY row and a line ends it. */
static char *row_field(char *text)
{
	char *c;

	for (c = text; *c; c++)
		if (*c == '|' || *c == '\n' || *c == '\r')
			*c = *c == '|' ? '/' : ' ';
	return text;
}

/* otherData.<key> (otherData.sched.<key> when sched) into buf as text; false, and "-", when absent. */
static bool other_field(struct json_object *trace, bool sched, const char *key, char *buf, size_t size)
{
	struct json_object *obj, *v;

	snprintf(buf, size, "-");
	if (!trace || !json_object_object_get_ex(trace, "otherData", &obj) ||
	    (sched && !json_object_object_get_ex(obj, "sched", &obj)) || !json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, key, &v))
		return false;
	snprintf(buf, size, "%lld", (long long)json_object_get_int64(v));
	return true;
}

void bb_reliability(const char *label, const char *checked, struct json_object *trace, const char *measured, ...)
{
	char processes[32], records[32], sched_records[32], lost[32], wall_us[32], events[32] = "-", wall[32] = "-";
	char *label_copy = strdup(label), *checked_copy = strdup(checked), *figure = NULL;
	va_list ap;

	va_start(ap, measured);
	cr_assert(vasprintf(&figure, measured, ap) >= 0);
	va_end(ap);
	cr_assert(label_copy && checked_copy);
	other_field(trace, false, "processes", processes, sizeof(processes));
	other_field(trace, false, "lost_events", lost, sizeof(lost));
	if (other_field(trace, false, "records", records, sizeof(records))) {
		/* No scheduler records with --sched=off: sched is null. */
		other_field(trace, true, "records", sched_records, sizeof(sched_records));
		snprintf(events, sizeof(events), "%lld", atoll(records) + atoll(sched_records));
	}
	if (other_field(trace, false, "duration_us", wall_us, sizeof(wall_us)))
		snprintf(wall, sizeof(wall), "%.2f", atoll(wall_us) / 1e6);
	cr_log_info("RELIABILITY|%s::%s|%s|%s|%s|%s|%s|%s|%s", criterion_current_test->category,
		    criterion_current_test->name, row_field(label_copy), row_field(checked_copy), processes, events, lost,
		    wall, row_field(figure));
	free(label_copy);
	free(checked_copy);
	free(figure);
}

const char *bb_kept_trace_dir(struct bb_run *r)
{
	static const char prefix[] = "trace directory kept: ";
	char *kept = strstr(r->err, prefix), *nl;

	cr_assert_not_null(kept, "stderr: %s", r->err);
	kept += strlen(prefix);
	nl = strchr(kept, '\n');
	cr_assert_not_null(nl);
	*nl = '\0';
	return kept;
}
