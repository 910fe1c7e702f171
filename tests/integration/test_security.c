// SPDX-License-Identifier: GPL-2.0
/*
 * What buildbpf exposes to other users of the machine: file modes follow
 * the user's umask and the temporary recording is the user's alone; with
 * file capabilities instead of sudo it keeps none once loaded; a process
 * followed or attached to is the one checked, even when buildbpf is held
 * before the seeding while its pid is given to another user's process.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"


/* The process groups a test started, killed by its teardown even when an assertion failed. */
static pid_t started[8];
static size_t nr_started;

static void security_teardown(void)
{
	for (size_t i = 0; i < nr_started; i++) {
		kill(-started[i], SIGKILL);
		waitpid(started[i], NULL, 0);
	}
	nr_started = 0;
	integration_teardown();
}

TestSuite(security, .init = integration_setup, .fini = security_teardown, .timeout = 120);

/*
 * A process of uid running argv, in a process group of its own, returned
 * once it has exec'd (its ids set, dumpable again); with only_pid, one
 * whose pid is not that exits at once instead (and is reaped): -1.
 */
static pid_t spawn_as(uid_t uid, const char *const argv[], pid_t only_pid)
{
	int ready[2];
	pid_t pid;
	char c;

	cr_assert(eq(int, pipe2(ready, O_CLOEXEC), 0));
	pid = fork();
	cr_assert(ge(int, pid, 0));
	if (pid == 0) {
		close(ready[0]);
		if (only_pid && getpid() != only_pid)
			_exit(0);
		setpgid(0, 0);
		if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(99);
		execv(argv[0], (char *const *)argv); /* closes ready[1] */
		_exit(98);
	}
	close(ready[1]);
	cr_assert(eq(int, (int)read(ready[0], &c, 1), 0));
	close(ready[0]);
	if (only_pid && pid != only_pid) {
		waitpid(pid, NULL, 0);
		return -1;
	}
	setpgid(pid, pid);
	cr_assert(lt(sz, nr_started, sizeof(started) / sizeof(started[0])));
	started[nr_started++] = pid;
	return pid;
}

/* A sleep 1000 of uid. */
static pid_t start_sleep_as(uid_t uid)
{
	return spawn_as(uid, (const char *const[]){ "/bin/sleep", "1000", NULL }, 0);
}

/*
 * A process of uid running argv that holds the pid want, the last one
 * freed: ns_last_pid is set just below it before each fork (pids are
 * handed out in order).  Other forks on the machine may take it first:
 * each try that misses is undone.  Its pid, or -1 when no try got it.
 */
static pid_t take_pid(pid_t want, uid_t uid, const char *const argv[])
{
	for (int try = 0; try < 2000; try++) {
		int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
		char num[16];
		pid_t pid;

		cr_assert(ge(int, fd, 0), "ns_last_pid: %s", strerror(errno));
		snprintf(num, sizeof(num), "%d", (int)want - 1);
		cr_assert(eq(sz, (size_t)write(fd, num, strlen(num)), strlen(num)));
		close(fd);
		pid = spawn_as(uid, argv, want);
		if (pid == want)
			return pid;
	}
	return -1;
}

/* The permission bits of a file of run.dir; the test fails if it is missing. */
static mode_t mode_of(const char *name)
{
	struct stat st;

	cr_assert(eq(int, stat(bb_path(&run, name), &st), 0), "%s was not written: %s", name, run.err);
	return st.st_mode & 07777;
}

/* Runs args in run.dir under umask mask (buildbpf inherits it), with TMPDIR=run.dir/tmp. */
static void run_with_umask(mode_t mask, const char *const args[])
{
	char tmpdir[600];
	const char *const env[] = { tmpdir, NULL };
	mode_t old;

	snprintf(tmpdir, sizeof(tmpdir), "TMPDIR=%s", bb_path(&run, "tmp"));
	old = umask(mask);
	bb_run_in(&run, args, env);
	umask(old);
	cr_assert(eq(int, run.status, 0), "buildbpf exited %d: %s", run.status, run.err);
}

/*
 * Every file a mode writes gets 0666 less the umask, as any tool's output
 * does; the temporary recording (in $TMPDIR, which every user shares) is
 * 0600 whatever the umask: the build's command lines are in it.
 */
static void check_modes(mode_t mask)
{
	/* The build reports the mode of the recording it is being written to. */
	const char *probe = "stat -c %a \"$TMPDIR\"/buildbpf-recording.*.bbl > log-mode";
	mode_t want = 0666 & ~mask;
	char *log_mode;

	cr_assert(eq(int, mkdir(bb_path(&run, "tmp"), 0777), 0));
	cr_assert(eq(int, chmod(bb_path(&run, "tmp"), 01777), 0));
	run_with_umask(mask, (const char *const[]){ "-q", "-o", "t.json", "--summary-json", "s.json", "--svg", "t.svg",
						    "--", "sh", "-c", probe, NULL });
	cr_assert(eq(u32, mode_of("t.json"), want));
	cr_assert(eq(u32, mode_of("s.json"), want));
	cr_assert(eq(u32, mode_of("t.svg"), want));
	log_mode = bb_file_text(bb_path(&run, "log-mode"), NULL);
	cr_assert(eq(str, log_mode, "600\n"), "the temporary recording was %s", log_mode);
	free(log_mode);

	run_with_umask(mask, (const char *const[]){ "record", "-q", "-o", "r.bbl", "--", "true", NULL });
	cr_assert(eq(u32, mode_of("r.bbl"), want));
	run_with_umask(mask, (const char *const[]){ "convert", "-q", "r.bbl", "-o", "c.json", NULL });
	cr_assert(eq(u32, mode_of("c.json"), want));
	run_with_umask(mask, (const char *const[]){ "diff", "-q", "r.bbl", "r.bbl", "--json", "d.json", NULL });
	cr_assert(eq(u32, mode_of("d.json"), want));
}

Test(security, outputs_follow_a_private_umask)
{
	check_modes(077);
}

Test(security, outputs_follow_a_sharing_umask)
{
	check_modes(022);
}

/*
 * A copy of buildbpf in run.dir with file capabilities instead of sudo
 * (CAP_DAC_READ_SEARCH besides the ones it needs: what a log read with it
 * would reach shows that convert keeps none); its path (static).
 */
static const char *capable_copy(void)
{
	static char path[600];
	char cmd[1400];

	snprintf(path, sizeof(path), "%s", bb_path(&run, "bb-caps"));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && chmod 0755 '%s'", bb_bin_path(), path, path);
	cr_assert(eq(int, system(cmd), 0));
	/* setcap is libcap2-bin's (make test-deps); only the file system may refuse capabilities. */
	cr_assert(eq(int, access("/usr/sbin/setcap", X_OK), 0), "no /usr/sbin/setcap: make test-deps installs it");
	snprintf(cmd, sizeof(cmd), "setcap cap_dac_read_search,cap_sys_admin,cap_bpf,cap_perfmon+ep '%s' 2>/dev/null",
		 path);
	if (system(cmd) != 0)
		cr_skip_test("setcap cannot give %s file capabilities here", path);
	return path;
}

/* Runs the capable copy as nobody (no sudo: SUDO_UID unset) with args, in run.dir. */
static void run_capable_as_nobody(const char *bin, const char *const args[])
{
	const char *argv[BB_ARGV_MAX] = { "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin };
	char out_path[128], err_path[128];
	size_t n = 5;
	int status;
	pid_t pid;

	for (; *args; args++) {
		cr_assert(lt(sz, n, BB_ARGV_MAX - 1));
		argv[n++] = *args;
	}
	argv[n] = NULL;
	snprintf(out_path, sizeof(out_path), "%s.stdout", run.dir);
	snprintf(err_path, sizeof(err_path), "%s.stderr", run.dir);
	pid = fork();
	cr_assert(ge(int, pid, 0));
	if (pid == 0)
		bb_exec(argv, run.dir, out_path, err_path, NULL);
	cr_assert(eq(int, waitpid(pid, &status, 0), pid));
	run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	free(run.out);
	free(run.err);
	run.out = bb_read_file(out_path, NULL);
	run.err = bb_read_file(err_path, NULL);
	cr_assert(run.out && run.err);
	cr_assert(ne(int, run.status, 98), "could not run setpriv");
	unlink(out_path);
	unlink(err_path);
}

/* The capability sets (CapInh, CapPrm, CapEff, CapAmb) of a /proc/PID/status text are all empty. */
static void assert_no_capabilities(const char *status, const char *who)
{
	const char *sets[] = { "CapInh:", "CapPrm:", "CapEff:", "CapAmb:" };

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const char *line = strstr(status, sets[i]);

		cr_assert_not_null(line, "no %s in %s's status", sets[i], who);
		cr_assert(eq(int, strncmp(line + strlen(sets[i]), "\t0000000000000000\n", 18), 0),
			  "%s holds capabilities: %.40s", who, line);
	}
}

/*
 * buildbpf given capabilities by setcap and run by a user: once the
 * programs are loaded neither it nor the build holds any, convert holds
 * none while it reads a log (a log only root may read stays unread), and
 * --user, root's alone, is refused.
 */
Test(security, file_capabilities_are_dropped)
{
	const char *bin = capable_copy();
	const char *probe = "cat /proc/$$/status > build-status; cat /proc/$PPID/status > buildbpf-status";
	char *status;

	bb_give_to_nobody(run.dir);
	run_capable_as_nobody(bin, (const char *const[]){ "-q", "-o", "t.json", "--", "sh", "-c", probe, NULL });
	cr_assert(eq(int, run.status, 0), "buildbpf exited %d: %s", run.status, run.err);
	status = bb_file_text(bb_path(&run, "build-status"), NULL);
	assert_no_capabilities(status, "the build");
	free(status);
	status = bb_file_text(bb_path(&run, "buildbpf-status"), NULL);
	assert_no_capabilities(status, "buildbpf while the build ran");
	free(status);

	/* A recording only root may read. */
	bb_run_in(&run, (const char *const[]){ "record", "-q", "-o", "root.bbl", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(eq(int, chmod(bb_path(&run, "root.bbl"), 0600), 0));
	run_capable_as_nobody(bin, (const char *const[]){ "convert", "-q", "root.bbl", "-o", "c.json", NULL });
	cr_assert(ne(int, run.status, 0), "convert read root's log with its capabilities");
	cr_assert_not_null(strstr(run.err, "Permission denied"), "%s", run.err);
}

/* Another user's process (daemon's) is not made nobody's by --user. */
Test(security, user_option_is_roots_only)
{
	const struct passwd *daemon_pw = getpwnam("daemon");
	const char *bin = capable_copy();
	char pid_arg[16];
	pid_t theirs;

	cr_assert_not_null(daemon_pw, "no user daemon here");
	theirs = start_sleep_as(daemon_pw->pw_uid);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)theirs);
	bb_give_to_nobody(run.dir);
	run_capable_as_nobody(bin, (const char *const[]){ "-q", "--user", "daemon", "-o", "t.json", "--attach", pid_arg,
							  "--duration", "300ms", NULL });
	cr_assert(ne(int, run.status, 0), "nobody traced daemon's process with --user daemon");
	cr_assert_not_null(strstr(run.err, "buildbpf: --user is for root only"), "%s", run.err);
	cr_assert_null(bb_read_file(bb_path(&run, "t.json"), NULL));
}

/* Memory pressure as /proc/pressure/memory says it. */
#define PSI_TEXT "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"

/*
 * --follow or --attach (opt) of the sudo caller nobody's sleep, held (not
 * stopped: the same to it) after leaving root and just before the seeding:
 * its first read of /proc/pressure/memory is a FIFO of the test, bound over
 * the file in a mount namespace of its own.  Meanwhile, with reuse, the
 * sleep exits and daemon's process takes its pid.  Returns the pid
 * followed, and sets run.status and run.err.
 */
static pid_t follow_while_the_pid_changes(const char *opt, bool reuse)
{
	const struct passwd *daemon_pw = getpwnam("daemon");
	const char *const theirs_argv[] = { "/bin/sleep", "31", NULL };
	const char *const env[] = { "SUDO_UID=65534", "SUDO_GID=65534", NULL };
	char fifo[600], out_path[128], err_path[128], pid_arg[16];
	const char *argv[BB_ARGV_MAX];
	pid_t mine, theirs, bb;
	int fd = -1, status;
	void (*old_pipe)(int);

	cr_assert_not_null(daemon_pw, "no user daemon here");
	mine = start_sleep_as(BB_NOBODY_ID);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)mine);
	snprintf(fifo, sizeof(fifo), "%s", bb_path(&run, "psi"));
	cr_assert(eq(int, mkfifo(fifo, 0666), 0));
	cr_assert(eq(int, chmod(fifo, 0666), 0));
	bb_give_to_nobody(run.dir);
	snprintf(out_path, sizeof(out_path), "%s.stdout", run.dir);
	snprintf(err_path, sizeof(err_path), "%s.stderr", run.dir);
	if (!strcmp(opt, "--follow"))
		bb_argv(argv, (const char *const[]){ "-q", "-o", "t.json", "--follow", pid_arg, "--", "true", NULL });
	else
		bb_argv(argv, (const char *const[]){ "-q", "-o", "t.json", "--attach", pid_arg, "--duration", "300ms",
						     NULL });
	bb = fork();
	cr_assert(ge(int, bb, 0));
	if (bb == 0) {
		setpgid(0, 0);
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(fifo, "/proc/pressure/memory", NULL, MS_BIND, NULL))
			_exit(97);
		bb_exec(argv, run.dir, out_path, err_path, env);
	}
	setpgid(bb, bb);
	started[nr_started++] = bb; /* not left waiting on the FIFO if an assertion fails */
	/* Opened once buildbpf opens it to read: it waits in the read. */
	while (fd < 0 && waitpid(bb, &status, WNOHANG) == 0) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			usleep(10 * 1000);
	}
	cr_assert(ge(int, fd, 0), "buildbpf ended before the seeding (status %d): %s", status,
		  bb_read_file(err_path, NULL));
	if (reuse) {
		kill(mine, SIGKILL);
		waitpid(mine, NULL, 0);
		theirs = take_pid(mine, daemon_pw->pw_uid, theirs_argv);
		cr_assert(eq(int, theirs, mine), "pid %d was not taken again", (int)mine);
	}
	cr_assert(eq(sz, (size_t)write(fd, PSI_TEXT, strlen(PSI_TEXT)), strlen(PSI_TEXT)));
	close(fd);
	/*
	 * It reads the file again at the end of the recording.  An open here
	 * may still find the first read, which can end before the write: the
	 * write then fails with EPIPE (SIGPIPE ignored meanwhile, or it would
	 * kill the test), and a later open finds the end's read.
	 */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	while (waitpid(bb, &status, WNOHANG) == 0) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t n = write(fd, PSI_TEXT, strlen(PSI_TEXT));

			cr_assert(n == (ssize_t)strlen(PSI_TEXT) || (n < 0 && errno == EPIPE), "write: %zd (%s)", n,
				  n < 0 ? strerror(errno) : "short");
			close(fd);
		}
		usleep(10 * 1000);
	}
	signal(SIGPIPE, old_pipe);
	run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	free(run.err);
	run.err = bb_read_file(err_path, NULL);
	cr_assert_not_null(run.err);
	unlink(out_path);
	unlink(err_path);
	return mine;
}

/* The trace's process slices hold one of pid whose argv[1] is arg1 (the pid may name another process too). */
static bool traced(pid_t pid, const char *arg1)
{
	struct json_object *trace = bb_load_trace(bb_path(&run, "t.json"));
	struct json_object *slices = bb_slices(trace, "process");
	bool found = false;

	for (size_t i = 0; i < json_object_array_length(slices) && !found; i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);

		found = bb_arg_int(ev, "pid") == pid && bb_arg_argv(ev, 1) && !strcmp(bb_arg_argv(ev, 1), arg1);
	}

	json_object_put(slices);
	json_object_put(trace);
	return found;
}

/* The setup holds: a sleep that stays is followed, or attached to. */
static void check_the_users_process_traced(const char *opt)
{
	pid_t pid = follow_while_the_pid_changes(opt, false);

	cr_assert(eq(int, run.status, 0), "buildbpf exited %d: %s", run.status, run.err);
	cr_assert(traced(pid, "1000"), "%s %d: the sleep is not in the trace", opt, (int)pid);
}

/*
 * The user's process exits while buildbpf, checked and dropped to the user,
 * waits before the seeding; another user's process gets its pid: nothing
 * of it is recorded, buildbpf says why and fails.
 */
static void check_a_reused_pid_refused(const char *opt)
{
	char said[64];
	pid_t pid = follow_while_the_pid_changes(opt, true);

	snprintf(said, sizeof(said), "buildbpf: %s %d: ", opt, (int)pid);
	cr_assert(ne(int, run.status, 0), "daemon's process was traced as nobody's: %s",
		  bb_read_file(bb_path(&run, "t.json"), NULL) ? "it is in the trace" : "no trace");
	cr_assert(strstr(run.err, said) && strstr(run.err, "reused"), "%s", run.err);
	cr_assert_null(bb_read_file(bb_path(&run, "t.json"), NULL));
}

Test(security, a_followed_process_is_traced_after_the_wait)
{
	check_the_users_process_traced("--follow");
}

Test(security, an_attached_process_is_traced_after_the_wait)
{
	check_the_users_process_traced("--attach");
}

Test(security, a_followed_pid_reused_meanwhile_is_refused)
{
	check_a_reused_pid_refused("--follow");
}

Test(security, an_attached_pid_reused_meanwhile_is_refused)
{
	check_a_reused_pid_refused("--attach");
}

/*
 * The secret-keeper process slices of the trace, by the tag their argv
 * ends with (their fork for the read-back is the next slice with that
 * tag): the keeper itself, the first one.  NULL: none.
 */
static struct json_object *keeper_slice(struct json_object *slices, const char *tag)
{
	for (size_t i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *last = NULL;

		for (size_t k = 1; bb_arg_argv(ev, k); k++)
			last = bb_arg_argv(ev, k);
		if (last && !strcmp(last, tag))
			return ev;
	}
	return NULL;
}

/*
 * A hidden keeper: why, and none of its I/O, memory or files, neither in
 * the trace nor in the recording (its file's and its rename's records are
 * left in the kernel, on whichever hook the kernel allowed).
 */
static void check_hidden(struct json_object *slices, const char *trace_text, const char *log, size_t log_len,
			 const char *tag, const char *why)
{
	struct json_object *ev = keeper_slice(slices, tag);
	char file[64];

	cr_assert_not_null(ev, "no %s keeper in the trace", tag);
	cr_assert(eq(str, (char *)(bb_arg_str(ev, "hidden") ? bb_arg_str(ev, "hidden") : "(none)"), (char *)why),
		  "the %s keeper", tag);
	cr_assert(eq(int, bb_arg_int(ev, "peak_rss_kb"), 0), "the %s keeper's memory is in the trace", tag);
	cr_assert(eq(int, bb_arg_int(ev, "maxrss_kb"), 0), "the %s keeper's maxrss is in the trace", tag);
	cr_assert_null(bb_arg(ev, "io_wchar"), "the %s keeper's I/O is in the trace", tag);
	cr_assert_null(bb_arg(ev, "io_rchar"), "the %s keeper's I/O is in the trace", tag);
	cr_assert_null(bb_arg(ev, "files_opened"), "the %s keeper's open count is in the trace", tag);
	snprintf(file, sizeof(file), "%s.secret", tag);
	cr_assert_null(strstr(trace_text, file), "the trace names %s", file);
	cr_assert_null(memmem(log, log_len, file, strlen(file)), "the recording names %s", file);
}

/*
 * A build run by nobody (sudo's caller) runs a setuid-root helper that
 * writes and reads back a file in a directory only root may enter, and a
 * program of its own that made itself undumpable first: the kernel shows
 * nobody neither's I/O, memory nor files (/proc/PID/io, status, fd), and
 * the trace does not either, saying why.  The same program, dumpable and
 * nobody's, shows all three: the recording would have had them.
 */
Test(security, what_the_kernel_hides_from_the_user_is_not_recorded)
{
	const char *keeper = bb_test_prog("secret-keeper");
	struct json_object *trace, *slices, *ev, *hidden;
	char cmd[2400], *text, *status, *log;
	size_t log_len;

	bb_give_to_nobody(run.dir);
	cr_assert(eq(int, mkdir(bb_path(&run, "vault"), 0700), 0));
	snprintf(cmd, sizeof(cmd), "cd '%s' && cp '%s' keeper-suid && chmod 04755 keeper-suid && cp '%s' keeper",
		 run.dir, keeper, keeper);
	cr_assert(eq(int, system(cmd), 0));
	bb_run_in(&run,
		  (const char *const[]){ "--deps=on", "-o", "t.json", "--log", "t.bbl", "--", "sh", "-c",
					 "./keeper-suid vault suid; echo $? > suid-status; "
					 "./keeper --undumpable . undumpable && ./keeper . plain",
					 NULL },
		  (const char *const[]){ "SUDO_UID=65534", "SUDO_GID=65534", NULL });
	status = bb_file_text(bb_path(&run, "suid-status"), NULL);
	if (!strcmp(status, "3\n"))
		cr_skip_test("setuid programs do not run setuid in %s (nosuid)", run.dir);
	cr_assert(eq(str, status, "0\n"), "the setuid keeper failed: %s", run.err);
	free(status);
	cr_assert(eq(int, run.status, 0), "buildbpf exited %d: %s", run.status, run.err);

	text = bb_file_text(bb_path(&run, "t.json"), NULL);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	log = bb_read_file(bb_path(&run, "t.bbl"), &log_len);
	cr_assert_not_null(log);
	check_hidden(slices, text, log, log_len, "suid", "setuid or setgid, not dumpable");
	check_hidden(slices, text, log, log_len, "undumpable", "not dumpable");

	/* The same program as nobody's own: everything is there. */
	ev = keeper_slice(slices, "plain");
	cr_assert_not_null(ev, "no plain keeper in the trace");
	cr_assert_null(bb_arg(ev, "hidden"));
	cr_assert(ge(int, bb_arg_int(ev, "peak_rss_kb"), 64 * 1024), "the plain keeper's 64 MiB");
	cr_assert(ge(int, bb_arg_int(ev, "io_wchar"), 1 << 20), "the plain keeper's 1 MiB written");
	cr_assert_not_null(strstr(text, "plain.secret"), "--deps did not record the plain keeper's file");
	cr_assert_not_null(memmem(log, log_len, "plain.secret.new", 16), "--deps did not record the plain keeper's rename");

	/* Each keeper and its reading child. */
	hidden = bb_other(trace, "hidden_processes");
	cr_assert(eq(int, int_field(hidden, "count"), 4));
	cr_assert(eq(int, int_field(hidden, "setuid_or_setgid"), 2));
	cr_assert(eq(int, int_field(hidden, "not_dumpable"), 4));
	cr_assert_not_null(strstr(run.err, "buildbpf: 4 processes hidden (2 setuid or setgid, 4 not dumpable)"),
			   "%s", run.err);
	json_object_put(slices);
	json_object_put(trace);
	free(text);
	free(log);
}
