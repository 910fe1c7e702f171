/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the integration suites: they run the real build/buildbpf (the
 * BPF programs really load) on real commands and read back what it wrote.
 */
#ifndef BUILDBPF_TESTS_INTEGRATION_H
#define BUILDBPF_TESTS_INTEGRATION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct bb_run {
	int status;   /* buildbpf's exit status (or 128+signal) */
	char *out;    /* its stdout */
	char *err;    /* its stderr */
	char dir[64]; /* a fresh directory the run happens in, mode 0755 */
};

/* Skips the test, with the reason printed, when BPF cannot load here. */
void integration_require_bpf(void);
/*
 * The run of the current test, for suites declared with
 * TestSuite(name, .init = integration_setup, .fini = integration_teardown):
 * setup requires BPF and makes run.dir, teardown removes it.
 */
extern struct bb_run run;
void integration_setup(void);
void integration_teardown(void);
/*
 * Waits until no other integration test runs, and keeps them waiting until
 * this test's process ends: for a test that changes what the kernel
 * offers every buildbpf (a kernel function's trampoline made full), which
 * a run of another test must neither see nor change meanwhile.
 */
void bb_hold_kernel_alone(void);
/* Makes r->dir; call before bb_run_in(). */
void bb_run_init(struct bb_run *r);
/* The user the suites run builds as (SUDO_UID=, --user nobody). */
#define BB_NOBODY_ID 65534
/*
 * Gives a directory of the test to nobody: buildbpf writes as the user it
 * runs the build as, so the directories it writes in must be theirs, as a
 * user's build tree is.
 */
void bb_give_to_nobody(const char *dir);
/*
 * Runs buildbpf with args (NULL-terminated) in r->dir.  extra_env entries
 * ("NAME=value") are added to the environment; SUDO_UID/SUDO_GID are
 * removed unless given there, so runs under `sudo make test` keep root.
 */
void bb_run_in(struct bb_run *r, const char *const args[], const char *const extra_env[]);
/*
 * The signals a caller leaves ignored and blocked for buildbpf.  Every run
 * starts with none (as a shell's foreground job does), whatever the suite
 * itself was started with (nohup, `&`), unless a test asks for a caller's.
 */
struct bb_signals {
	sigset_t ignored, blocked;
};
/* Sets this process's dispositions and mask to caller's (NULL: none ignored or blocked). */
void bb_set_signals(const struct bb_signals *caller);
/* bb_run_in() from a caller with that signal state. */
void bb_run_in_signals(struct bb_run *r, const char *const args[], const char *const extra_env[],
		       const struct bb_signals *caller);
/* The buildbpf under test: $BUILDBPF_BIN, or build/buildbpf. */
const char *bb_bin_path(void);
#define BB_ARGV_MAX 64
/* argv for a run: bb_bin_path(), then args (NULL-terminated). */
void bb_argv(const char *argv[BB_ARGV_MAX], const char *const args[]);
/*
 * In a forked child: stdout/stderr to the two files, every other fd but
 * stdin closed, into dir, with the environment every run gets (see
 * bb_run_in()) and no signal ignored or blocked, then execs argv.  Exits
 * 99 when it cannot set up, 98 when the exec fails.
 */
void bb_exec(const char *const argv[], const char *dir, const char *out_path, const char *err_path,
	     const char *const extra_env[]) __attribute__((noreturn));
/*
 * Runs argv (not traced; argv[0] a path) in dir, as nobody when as_nobody,
 * and returns its stdout; its wall time in *wall_s (may be NULL).  The test
 * fails unless it exits 0.  r names the scratch files.
 */
char *bb_run_plain(const struct bb_run *r, const char *dir, const char *const argv[], bool as_nobody, double *wall_s);
/* Frees the buffers and removes r->dir. */
void bb_run_fini(struct bb_run *r);
/*
 * How long, so far, some task of this machine waited for a CPU (ms): the
 * "some" total of /proc/pressure/cpu.  Between two readings it bounds what
 * a busy machine added to any process's wall time, so a bound on a wall
 * time adds it: tight on an idle machine, never failed by the load.  0
 * when the kernel keeps no pressure figures (logged once).
 */
double bb_cpu_stall_ms(void);
/* Writes a file in r->dir. */
void bb_write_file(const struct bb_run *r, const char *name, const char *text);
/*
 * Appends to text (of size bytes) a C function name() that costs cc1 about
 * 0.5-1 s more CPU: a constant expression of 384K terms that the
 * preprocessor expands and the parser folds.  A compile made slow on purpose.
 */
void bb_append_slow_source(char *text, size_t size, const char *name);
/* Path of a file in r->dir (static buffer). */
const char *bb_path(const struct bb_run *r, const char *name);
/* Absolute path of a workload built from tests/workloads (build/tests/NAME). */
const char *bb_test_prog(const char *name);
/* A whole file's bytes, NUL-terminated (*len without the NUL, len may be NULL); NULL when it cannot be opened. */
char *bb_read_file(const char *path, size_t *len);
/* The same for a file that must exist: the test fails if it cannot be read. */
char *bb_file_text(const char *path, size_t *len);
/*
 * Parses a trace; the test fails unless it is a JSON object with
 * traceEvents that keeps every rule of docs/trace-rules.md
 * (check_trace_rules() of lib/trace_rules.h).
 */
struct json_object *bb_load_trace(const char *path);
/* The X events of category cat (a new array holding references). */
struct json_object *bb_slices(struct json_object *trace, const char *cat);
/* The points of counter name (ph "C"): args.<arg> in v[], ts in ts[] (may be NULL), in trace order; how many. */
size_t bb_counter(struct json_object *trace, const char *name, const char *arg, double *v, long long *ts,
		  size_t max);
/* args.<key> of an event, or NULL. */
struct json_object *bb_arg(struct json_object *ev, const char *key);
/* args.<key> of an event, as int64 (0 when absent). */
long long bb_arg_int(struct json_object *ev, const char *key);
/* args.<key> of an event as a string, or NULL. */
const char *bb_arg_str(struct json_object *ev, const char *key);
/* args.<key> of an event is present and true. */
bool bb_arg_flag(struct json_object *ev, const char *key);
/* args.<key> of an event as a double; the test fails if it is missing. */
double bb_arg_double(struct json_object *ev, const char *key);
/* args.argv[i] of an event, or NULL. */
const char *bb_arg_argv(struct json_object *ev, size_t i);
/* otherData.<key> of a trace; the test fails if it is missing. */
struct json_object *bb_other(struct json_object *trace, const char *key);
/* otherData.<key> of a trace as int64; the test fails if it is missing. */
long long bb_other_int(struct json_object *trace, const char *key);
/*
 * A Makefile in r->dir of n independent targets t000, t001, ..., each made
 * by its own recipe line (e.g. "@cp /dev/null $@").
 */
void bb_write_fanout_makefile(const struct bb_run *r, int n, const char *recipe);
/*
 * The directory a --keep-trace-dir run said it kept ("trace directory
 * kept: DIR" on its stderr); ends that line in r->err, so the name is valid
 * only until the next run replaces r->err.  The test fails if
 * there is none.
 */
const char *bb_kept_trace_dir(struct bb_run *r);
/*
 * The --summary-json file name in r->dir, parsed.  The test fails unless
 * every number in it is >= 0 and every time (a key "ms" or ending "_ms") is
 * at most wall_ms x cpu_count (but run-queue wait, summed over threads): a
 * cheap net for garbage in any field, old or new; and unless its short
 * answers agree with its what-if (lib/answers_json_check.h).
 * bb_check_summary() applies the same net to a parsed summary (the
 * trace's otherData.audit).
 */
struct json_object *bb_load_summary(const struct bb_run *r, const char *name);
void bb_check_summary(struct json_object *summary);
/*
 * Processes by (pid, start), never by pid alone: pids wrap (pid_max 32768
 * goes round in seconds beside a process that forks without pause), so one
 * pid can name two processes of a trace.  A process slice's ts is its start
 * and [ts, ts + dur] its life; a pid has one holder at a time.
 *
 * bb_slice_by_pid: the slice of pid for a process alive when the trace began
 * or when it ended (attached to, a daemon, the command a test signals): no
 * other process of the trace can have held its pid.  NULL if none; the test
 * fails if pid names two slices (look those up in a struct bb_procs).
 */
struct json_object *bb_slice_by_pid(struct json_object *slices, long long pid);
/*
 * The process slices whose program (args.argv[0]'s last component) is prog
 * and whose argv holds flag followed by value (value NULL: flag alone),
 * into found[] (at most max); how many there are, counted past max.  A
 * rustc is found by "--crate-name", NAME; go's compile by "-p", PATH.
 */
size_t bb_slices_with_arg(struct json_object *slices, const char *prog, const char *flag, const char *value,
			  struct json_object **found, size_t max);
/* The one such slice; the test fails unless there is exactly one. */
struct json_object *bb_only_slice_with_arg(struct json_object *slices, const char *prog, const char *flag,
					   const char *value);
/* Whether two process slices are one process: the same pid and start. */
bool bb_same_process(struct json_object *a, struct json_object *b);

/*
 * A trace's process slices indexed by (pid, start), for look-ups in traces
 * of thousands of processes:
 *
 *   struct bb_procs *procs = bb_procs_new(slices);   slices outlive it
 *   parent = bb_procs_parent(procs, slice);
 *   bb_procs_free(procs);
 */
struct bb_procs;
struct bb_procs *bb_procs_new(struct json_object *slices);
void bb_procs_free(struct bb_procs *procs);
/* The slice of the process pid that was alive at at_us (trace microseconds), or NULL. */
struct json_object *bb_procs_alive(const struct bb_procs *procs, long long pid, long long at_us);
/* The slice of the process that forked slice (its ppid, alive when it started), or NULL when untraced. */
struct json_object *bb_procs_parent(const struct bb_procs *procs, struct json_object *slice);
/* A summary entry's process ("pid", "start_ms" since the trace's start), or NULL. */
struct json_object *bb_procs_of_entry(const struct bb_procs *procs, struct json_object *entry);

/*
 * One row of the reliability table (docs/reliability.md), logged as
 *
 *   RELIABILITY|suite::test|label|checked|processes|events|lost|wall_s|measured
 *
 * which tests/reliability_table.sh reads from make test's (verbose) output.
 * label names the case, checked says what the test asserts; processes,
 * events (process and scheduler records received), lost and the traced wall
 * time come from trace's otherData ("-" without a trace); measured is the
 * case's own figure (printf-like).  Call it once the assertions have passed,
 * so that a row stands for a check that held.
 */
void bb_reliability(const char *label, const char *checked, struct json_object *trace, const char *measured, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* BUILDBPF_TESTS_INTEGRATION_H */
