// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line of the long offline commands: on a terminal (a pty),
 * `report` of a large recording rewrites one line on stderr and erases it
 * at the end; in a pipe, or with -q or --no-progress, stderr stays as it
 * was.  The
 * recording (200,000 processes) costs several CPU seconds to read on any
 * machine we run on, past the line's one-second wait whatever the load.
 * Needs no BPF.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/big_build.h"
#include "lib/integration.h"

static struct bb_run prun;

static void setup(void)
{
	bb_run_init(&prun);
}

static void teardown(void)
{
	bb_run_fini(&prun);
}

TestSuite(progress, .init = setup, .fini = teardown, .timeout = 600);

/* The 200,000-process recording, written once per test. */
static const char *big_log(void)
{
	const struct big_build b = { .procs = 200000, .cpus = 8, .sched = SCHED_SUMMARY, .seed = 1 };
	const char *path = bb_path(&prun, "big.bbl");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cr_assert(fd >= 0, "%s: %s", path, strerror(errno));
	cr_assert(eq(int, big_build__write(&b, fd, NULL), 0));
	close(fd);
	return path;
}

/* Runs buildbpf args with stdout to /dev/null and stderr on a new pty; what the pty got (malloc'd). */
static char *stderr_on_a_pty(const char *const args[])
{
	const char *argv[BB_ARGV_MAX];
	char *text = NULL;
	size_t len = 0;
	int master, status;
	ssize_t n;
	pid_t pid;

	bb_argv(argv, args);
	pid = forkpty(&master, NULL, NULL, NULL);
	cr_assert(pid >= 0, "forkpty: %s", strerror(errno));
	if (pid == 0) {
		int null_fd = open("/dev/null", O_WRONLY);

		dup2(null_fd, STDOUT_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	for (;;) {
		text = realloc(text, len + 4096 + 1);
		cr_assert(not(eq(ptr, text, NULL)));
		n = read(master, text + len, 4096);
		if (n <= 0) /* EIO once the child's side is closed */
			break;
		len += n;
	}
	text[len] = '\0';
	close(master);
	cr_assert(eq(int, waitpid(pid, &status, 0), pid));
	cr_assert(eq(int, status, 0), "status %d: %s", status, text);
	return text;
}

Test(progress, a_terminal_gets_one_line_rewritten_then_erased)
{
	const char *log = big_log();
	char *text = stderr_on_a_pty((const char *[]){ "report", log, NULL });
	size_t len = strlen(text);

	/*
	 * A line once the work ran past 1 s: reading, or, where reading took
	 * less (a quiet machine since the reader hands frames out in place),
	 * analysing.  A reading line says how far and how many records (the
	 * words themselves: test_progress_line.c).
	 */
	cr_assert(not(eq(ptr, strstr(text, "\rbuildbpf: "), NULL)), "%s", text);
	if (strstr(text, "\rbuildbpf: reading ")) {
		cr_assert(not(eq(ptr, strstr(text, " % ("), NULL)), "%s", text);
		cr_assert(not(eq(ptr, strstr(text, " records)"), NULL)), "%s", text);
	} else {
		cr_assert(not(eq(ptr, strstr(text, "\rbuildbpf: analysing "), NULL)), "%s", text);
	}
	/* Erased at the end: nothing of it is left on the screen, and no line was ended. */
	cr_assert(len >= 4 && !strcmp(text + len - 4, "\r\033[K"), "%s", text);
	cr_assert(eq(ptr, strchr(text, '\n'), NULL), "%s", text);
	free(text);
}

Test(progress, quiet_or_no_progress_shows_none_on_a_terminal)
{
	const char *log = big_log();
	char *text = stderr_on_a_pty((const char *[]){ "report", "-q", log, NULL });

	cr_assert(eq(str, text, ""));
	free(text);
	text = stderr_on_a_pty((const char *[]){ "report", "--no-progress", log, NULL });
	cr_assert(eq(str, text, ""));
	free(text);
}

Test(progress, a_pipe_gets_none)
{
	const char *log = big_log();
	const char *argv[BB_ARGV_MAX];
	char cmd[8192], err_text[256] = "";
	size_t n;
	FILE *p;

	bb_argv(argv, (const char *[]){ "report", log, NULL });
	snprintf(cmd, sizeof(cmd), "'%s' report '%s' 2>&1 >/dev/null | cat", argv[0], log);
	p = popen(cmd, "r");
	cr_assert(not(eq(ptr, p, NULL)));
	n = fread(err_text, 1, sizeof(err_text) - 1, p);
	err_text[n] = '\0';
	cr_assert(eq(int, pclose(p), 0));
	cr_assert(eq(str, err_text, ""));
}
