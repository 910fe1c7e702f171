// SPDX-License-Identifier: GPL-2.0
/*
 * Who buildbpf is when it touches files, in every mode.  Under sudo it
 * becomes the invoking user: in trace and record once the BPF programs are
 * loaded, in the modes that load none (convert, report) before it opens
 * any file.  Its groups are then exactly that user's, and a permission
 * error names the user it writes as.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"

TestSuite(privilege, .init = integration_setup, .fini = integration_teardown);

static const char *const as_sudo_nobody[] = { "SUDO_UID=65534", "SUDO_GID=65534", NULL };

/* Runs args as the sudo caller nobody, in run.dir; returns the status. */
static int run_as_nobody(const char *const args[])
{
	bb_run_in(&run, args, as_sudo_nobody);
	return run.status;
}

/* A directory in run.dir owned by uid:gid with mode; returns its path (static). */
static const char *make_dir(const char *name, uid_t uid, gid_t gid, mode_t mode)
{
	const char *path = bb_path(&run, name);

	cr_assert(eq(int, mkdir(path, mode), 0), "mkdir %s: %s", path, strerror(errno));
	cr_assert(eq(int, chown(path, uid, gid), 0));
	cr_assert(eq(int, chmod(path, mode), 0));
	return path;
}

/* The owner of a file in run.dir; the test fails if it does not exist. */
static uid_t owner_of(const char *name)
{
	struct stat st;

	cr_assert(eq(int, lstat(bb_path(&run, name), &st), 0), "%s was not written: %s", name, run.err);
	return st.st_uid;
}

static bool exists(const char *name)
{
	struct stat st;

	return lstat(bb_path(&run, name), &st) == 0;
}

/* Whether a directory of run.dir is empty. */
static bool dir_is_empty(const char *name)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", bb_path(&run, name));
	return system(cmd) == 0;
}

/* stderr is one line, buildbpf's. */
static void assert_one_buildbpf_line(const char *err)
{
	cr_assert(eq(int, strncmp(err, "buildbpf: ", 10), 0), "not buildbpf's message: %s", err);
	cr_assert(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
}

/*
 * convert and report under sudo: the recording is read and every output
 * written as the sudo caller, so what the user planted (a link to a
 * root-only recording, a link from an output directory to root's) leads
 * nowhere root alone could go; what is written is the user's.  With
 * --keep-root, or as plain root, they stay root.
 */
Test(privilege, convert_and_report_under_sudo_act_as_the_user)
{
	bb_give_to_nobody(run.dir);
	make_dir("secret", 0, 0, 0700);
	make_dir("victim", 0, 0, 0755);
	/* Root's recording, which nobody may not read. */
	bb_run_in(&run, (const char *[]){ "record", "-q", "-o", "secret/r.bbl", "--", "true", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	/* The user's own recording. */
	cr_assert(eq(int, run_as_nobody((const char *[]){ "record", "-q", "-o", "u.bbl", "--", "true", NULL }), 0),
		  "%s", run.err);
	cr_assert(eq(u32, owner_of("u.bbl"), BB_NOBODY_ID));
	/* Planted by the user. */
	cr_assert(eq(int, symlink("secret/r.bbl", bb_path(&run, "stolen.bbl")), 0));
	cr_assert(eq(int, symlink("victim", bb_path(&run, "out")), 0));
	cr_assert(eq(int, lchown(bb_path(&run, "stolen.bbl"), BB_NOBODY_ID, BB_NOBODY_ID), 0));
	cr_assert(eq(int, lchown(bb_path(&run, "out"), BB_NOBODY_ID, BB_NOBODY_ID), 0));

	cr_assert(ne(int, run_as_nobody((const char *[]){ "convert", "-q", "stolen.bbl", "-o", "t1.json", NULL }), 0),
		  "root's recording was read for the user");
	cr_assert(not(eq(ptr, strstr(run.err, "Permission denied"), NULL)), "%s", run.err);
	assert_one_buildbpf_line(run.err);
	cr_assert(not(exists("t1.json")));
	cr_assert(ne(int, run_as_nobody((const char *[]){ "report", "stolen.bbl", NULL }), 0),
		  "root's recording was reported to the user: %s", run.out);

	cr_assert(ne(int, run_as_nobody((const char *[]){ "convert", "-q", "u.bbl", "-o", "out/t.json", NULL }), 0),
		  "wrote through the user's link into root's directory");
	cr_assert(ne(int, run_as_nobody((const char *[]){ "report", "u.bbl", "--svg", "out/r.svg", NULL }), 0));
	cr_assert(ne(int, run_as_nobody((const char *[]){ "report", "u.bbl", "--summary-json", "out/s.json", NULL }),
		     0));
	cr_assert(dir_is_empty("victim"), "root's directory was written to");

	cr_assert(eq(int, run_as_nobody((const char *[]){ "convert", "-q", "u.bbl", "-o", "t.json", "--svg", "t.svg",
							  "--summary-json", "t-s.json", NULL }), 0), "%s", run.err);
	cr_assert(eq(u32, owner_of("t.json"), BB_NOBODY_ID));
	cr_assert(eq(u32, owner_of("t.svg"), BB_NOBODY_ID));
	cr_assert(eq(u32, owner_of("t-s.json"), BB_NOBODY_ID));
	cr_assert(eq(int, run_as_nobody((const char *[]){ "report", "u.bbl", "--summary-json", "r-s.json", NULL }), 0),
		  "%s", run.err);
	cr_assert(eq(u32, owner_of("r-s.json"), BB_NOBODY_ID));

	/* As asked: root stays root. */
	cr_assert(eq(int, run_as_nobody((const char *[]){ "convert", "-q", "--keep-root", "u.bbl", "-o", "k.json",
							  NULL }), 0), "%s", run.err);
	cr_assert(eq(u32, owner_of("k.json"), 0));
	bb_run_in(&run, (const char *[]){ "convert", "-q", "u.bbl", "-o", "p.json", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(eq(u32, owner_of("p.json"), 0));
	bb_run_in(&run, (const char *[]){ "report", "stolen.bbl", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "plain root cannot read root's recording: %s", run.err);
}

/* One failed output under sudo: the one-line error, nothing run, nothing written. */
static void check_refused(const char *const args[], const char *what)
{
	cr_assert(eq(int, run_as_nobody(args), 1), "%s: status %d: %s", what, run.status, run.err);
	cr_log_info("%s: %s", what, run.err);
	assert_one_buildbpf_line(run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "Permission denied"), NULL)), "%s: %s", what, run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "buildbpf writes as nobody"), NULL)), "%s: who writes is not said: %s",
		  what, run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "choose a path nobody can write"), NULL)), "%s: %s", what, run.err);
	cr_assert(not(exists("ran")), "%s: the command ran", what);
	cr_assert(dir_is_empty("ro"), "%s: written as root", what);
}

/*
 * An output the sudo caller may not write is refused before the command
 * runs, and the error says as whom buildbpf writes: root could, and the
 * user would otherwise not see why it does not.
 */
Test(privilege, unwritable_output_says_who_writes)
{
	bb_give_to_nobody(run.dir);
	make_dir("ro", 0, 0, 0755);
	check_refused((const char *[]){ "-q", "-o", "ro/t.json", "--", "touch", "ran", NULL }, "-o");
	check_refused((const char *[]){ "-q", "--svg", "ro/t.svg", "--", "touch", "ran", NULL }, "--svg");
	check_refused((const char *[]){ "-q", "--summary-json", "ro/s.json", "--", "touch", "ran", NULL },
		      "--summary-json");
	check_refused((const char *[]){ "-q", "--log", "ro/t.bbl", "--", "touch", "ran", NULL }, "--log");
	check_refused((const char *[]){ "record", "-q", "-o", "ro/t.bbl", "--", "touch", "ran", NULL }, "record -o");

	cr_assert(eq(int, run_as_nobody((const char *[]){ "record", "-q", "-o", "u.bbl", "--", "true", NULL }), 0),
		  "%s", run.err);
	check_refused((const char *[]){ "convert", "-q", "u.bbl", "-o", "ro/t.json", NULL }, "convert -o");
	check_refused((const char *[]){ "report", "u.bbl", "--svg", "ro/t.svg", NULL }, "report --svg");
}

/* A gid no group has here. */
static gid_t unused_gid(void)
{
	gid_t gid;

	for (gid = 64000; gid > 60000; gid--)
		if (!getgrgid(gid))
			return gid;
	cr_fatal("no free gid");
}

/*
 * Runs args as the sudo caller nobody with group_file as /etc/group, in a
 * mount namespace of its own: the machine's groups stay untouched.
 */
static void run_with_groups(const char *const args[], const char *group_file)
{
	char out_path[128], err_path[128];
	const char *argv[BB_ARGV_MAX];
	int status;
	pid_t pid;

	snprintf(out_path, sizeof(out_path), "%s.stdout", run.dir);
	snprintf(err_path, sizeof(err_path), "%s.stderr", run.dir);
	bb_argv(argv, args);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(group_file, "/etc/group", NULL, MS_BIND, NULL))
			_exit(97);
		bb_exec(argv, run.dir, out_path, err_path, as_sudo_nobody);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	cr_assert(ne(int, run.status, 97), "could not bind a group file over /etc/group");
	free(run.out);
	free(run.err);
	run.out = bb_read_file(out_path, NULL);
	run.err = bb_read_file(err_path, NULL);
	cr_assert(run.out && run.err);
	unlink(out_path);
	unlink(err_path);
}

/*
 * After the drop, buildbpf and the command have exactly the user's groups:
 * a directory only the user's extra group may write takes the trace, and
 * the command's `id -G` lists the user's groups, none of root's.
 */
Test(privilege, dropped_run_has_the_users_groups)
{
	gid_t gid = unused_gid();
	char line[128], expect[64], *groups;

	groups = bb_file_text("/etc/group", NULL);
	snprintf(line, sizeof(line), "bbtestgrp:x:%u:nobody\n", (unsigned)gid);
	groups = realloc(groups, strlen(groups) + strlen(line) + 1);
	cr_assert_not_null(groups);
	strcat(groups, line);
	bb_write_file(&run, "group", groups);
	free(groups);
	cr_assert(eq(int, chmod(bb_path(&run, "group"), 0644), 0));
	bb_give_to_nobody(run.dir);
	make_dir("grp", 0, gid, 0770);

	run_with_groups((const char *[]){ "-q", "-o", "grp/t.json", "--", "id", "-G", NULL }, bb_path(&run, "group"));
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(eq(u32, owner_of("grp/t.json"), BB_NOBODY_ID));
	snprintf(expect, sizeof(expect), "%u %u\n", BB_NOBODY_ID, (unsigned)gid);
	cr_assert(eq(str, run.out, expect), "the command's groups: %s", run.out);

	run_with_groups((const char *[]){ "record", "-q", "-o", "grp/t.bbl", "--", "id", "-G", NULL },
			bb_path(&run, "group"));
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(eq(str, run.out, expect), "the command's groups: %s", run.out);
	run_with_groups((const char *[]){ "convert", "-q", "grp/t.bbl", "-o", "grp/c.json", NULL },
			bb_path(&run, "group"));
	cr_assert(eq(int, run.status, 0), "%s", run.err);
	cr_assert(eq(u32, owner_of("grp/c.json"), BB_NOBODY_ID));
}

/* Runs args as the sudo caller nobody with TMPDIR=tmpdir, in run.dir; returns the status. */
static int run_as_nobody_in_tmp(const char *const args[], const char *tmpdir)
{
	char tmp_env[300];

	snprintf(tmp_env, sizeof(tmp_env), "TMPDIR=%s", tmpdir);
	bb_run_in(&run, args, (const char *[]){ "SUDO_UID=65534", "SUDO_GID=65534", tmp_env, NULL });
	return run.status;
}

static void assert_says(const char *what, const char *want)
{
	cr_assert(not(eq(ptr, strstr(run.err, want), NULL)), "%s: no '%s' in: %s", what, want, run.err);
}

/*
 * The errors after the command ran (or once root is left, before it) name
 * the user too: the event log in $TMPDIR, the trace directory made and
 * removed there, the trace's final rename.  Root could have done each, so
 * the user must see as whom buildbpf tried.
 */
Test(privilege, errors_after_leaving_root_say_who_writes)
{
	char ro[256], tmp[256];

	bb_give_to_nobody(run.dir);
	/* make_dir()'s path is static: copied. */
	snprintf(ro, sizeof(ro), "%s", make_dir("ro", 0, 0, 0755));
	snprintf(tmp, sizeof(tmp), "%s", make_dir("tmp", BB_NOBODY_ID, BB_NOBODY_ID, 0755));
	make_dir("out", BB_NOBODY_ID, BB_NOBODY_ID, 0755);

	/* The temporary event log: nothing runs without it. */
	cr_assert(eq(int, run_as_nobody_in_tmp((const char *[]){ "-q", "--", "touch", "ran", NULL }, ro), 1), "%s",
		  run.err);
	assert_one_buildbpf_line(run.err);
	assert_says("log in $TMPDIR", "cannot create the event log in $TMPDIR: Permission denied (buildbpf writes as "
				      "nobody, not root; hint: TMPDIR=DIR, a directory nobody can write)");
	cr_assert(not(exists("ran")));

	/* The trace directory: a warning, and the command runs without it. */
	cr_assert(eq(int, run_as_nobody_in_tmp((const char *[]){ "-q", "--log", "u.bbl", "-o", "t1.json", "--", "touch",
								 "ran", NULL }, ro), 0), "%s", run.err);
	assert_says("trace directory", "cannot create a trace directory: Permission denied (buildbpf writes as nobody, "
				       "not root); BUILDBPF_TRACE_DIR is not set");
	cr_assert(exists("ran"));
	cr_assert(exists("t1.json"));

	/* Removing it: a tool left a directory its owner may not empty. */
	cr_assert(eq(int, run_as_nobody_in_tmp((const char *[]){ "-q", "-o", "t2.json", "--", "sh", "-c",
								 "mkdir \"$BUILDBPF_TRACE_DIR/d\" && "
								 "touch \"$BUILDBPF_TRACE_DIR/d/f\" && "
								 "chmod 500 \"$BUILDBPF_TRACE_DIR/d\"", NULL }, tmp),
			  0), "%s", run.err);
	assert_says("trace directory removal", ": Permission denied (buildbpf writes as nobody, not root; remove it "
					       "by hand)");

	/* The final rename: the build took away the output directory's write permission. */
	cr_assert(eq(int, run_as_nobody_in_tmp((const char *[]){ "-q", "-o", "out/t.json", "--", "chmod", "555", "out",
								 NULL }, tmp), 0), "%s", run.err);
	assert_says("final rename", "cannot write the trace to 'out/t.json': Permission denied (buildbpf writes as "
				    "nobody, not root; choose a path nobody can write)");
	assert_says("final rename", "the trace was saved to '");
}
