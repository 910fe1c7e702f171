// SPDX-License-Identifier: GPL-2.0
/*
 * What buildbpf exposes to other users of the machine, and what it keeps
 * of the processes it records: file modes follow the user's umask and the
 * temporary recording is the user's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"

TestSuite(security, .init = integration_setup, .fini = integration_teardown, .timeout = 120);

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
