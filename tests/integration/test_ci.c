// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: the CI recipes' script (contrib/ci/buildbpf-ci.sh, which
 * docs/ci.md's GitHub Actions workflow and GitLab CI job call) on a small C
 * build, as CI runs it: the base branch's build, the same build again, and
 * a change that makes two compiles slower.  Its artifacts exist, its
 * summary is Markdown that fits a job summary, and its gate passes the
 * equal build and fails the slower one.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"

TestSuite(ci, .init = integration_setup, .fini = integration_teardown, .timeout = 300);

/* What GitHub takes in a job summary (the script's own bound). */
#define SUMMARY_MAX 65536

/*
 * Two compiles and a link in p/; slow: both compiles slowed by
 * bb_append_slow_source(), 0.5-1 s more of cc1's time each (1.0 s each in
 * one run here; test_diff.c measures one such file): the gate's 0.25 s
 * cleared several times over.
 */
static void write_project(bool slow)
{
	char text[1024];

	mkdir(bb_path(&run, "p"), 0755);
	bb_write_file(&run, "p/Makefile", "prog: a.o b.o\n\tcc -o $@ a.o b.o\n%.o: %.c\n\tcc -O2 -c -o $@ $<\n");
	snprintf(text, sizeof(text), "int a(void) { return 1; }\n");
	if (slow)
		bb_append_slow_source(text, sizeof(text), "slow_a");
	bb_write_file(&run, "p/a.c", text);
	snprintf(text, sizeof(text), "int a(void);\nint main(void) { return a() - 1; }\n");
	if (slow)
		bb_append_slow_source(text, sizeof(text), "slow_b");
	bb_write_file(&run, "p/b.c", text);
}

/* The script in the checkout the suite runs from (make runs it at the top). */
static const char *script_path(void)
{
	static char path[PATH_MAX];
	char *cwd = getcwd(NULL, 0);

	cr_assert_not_null(cwd);
	snprintf(path, sizeof(path), "%s/contrib/ci/buildbpf-ci.sh", cwd);
	free(cwd);
	cr_assert(access(path, X_OK) == 0, "%s: not found or not executable (run the suite from the checkout)", path);
	return path;
}

/* Runs the script with args in run.dir, as CI would (root: no sudo); its exit status. */
static int run_script(const char *const args[])
{
	char bin_env[PATH_MAX + 16], summary_env[PATH_MAX + 32];
	const char *argv[BB_ARGV_MAX];
	const char *const env[] = { bin_env, summary_env, NULL };
	char out[PATH_MAX], err[PATH_MAX];
	int status;
	bool exited;
	size_t n = 0;
	pid_t pid;

	snprintf(bin_env, sizeof(bin_env), "BUILDBPF=%s", bb_bin_path());
	snprintf(summary_env, sizeof(summary_env), "GITHUB_STEP_SUMMARY=%s", bb_path(&run, "step-summary.md"));
	argv[n++] = "/bin/bash";
	argv[n++] = script_path();
	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s.ci.out", run.dir);
	snprintf(err, sizeof(err), "%s.ci.err", run.dir);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		bb_exec(argv, run.dir, out, err, env);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	free(run.err);
	run.err = bb_read_file(err, NULL);
	unlink(out);
	unlink(err);
	exited = WIFEXITED(status);
	cr_assert(exited, "the script was killed: %s", run.err);
	return WEXITSTATUS(status);
}

static void trace(const char *out)
{
	int rc = run_script((const char *[]){ "trace", out, "--", "make", "-s", "-B", "-j2", "-C", "p", NULL });

	cr_assert(eq(int, rc, 0), "trace %s: %s", out, run.err);
}

static int gate(const char *base, const char *out)
{
	return run_script((const char *[]){ "gate", base, out, "--fail-if", "cpu>+0.25s", NULL });
}

static void check_artifacts(const char *out)
{
	static const char *const names[] = { "build.bbl", "trace.json", "build.html", "summary.json", "build.svg" };
	char path[256];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", out, names[i]);
		cr_assert(stat(bb_path(&run, path), &st) == 0 && st.st_size > 0, "no artifact %s", path);
	}
	snprintf(path, sizeof(path), "%s/trace.json", out);
	json_object_put(bb_load_trace(bb_path(&run, path)));
}

/* out's summary: Markdown, as long as a job summary takes, with the gate's word on it. */
static char *check_summary(const char *out, const char *verdict)
{
	char path[256], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/summary.md", out);
	text = bb_file_text(bb_path(&run, path), &len);
	cr_assert(lt(sz, len, SUMMARY_MAX), "%s: %zu characters", path, len);
	cr_assert(eq(int, strncmp(text, "## buildbpf", 11), 0), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, verdict), NULL)), "no '%s' in %s", verdict, text);
	/* The build's own summary (report --markdown), then the comparison, as GitHub-flavoured tables. */
	cr_assert(not(eq(ptr, strstr(text, "## buildbpf: make -s -B -j2 -C p"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "| --- |"), NULL)), "%s", text);
	return text;
}

Test(ci, the_gate_passes_an_equal_build_and_fails_a_slower_one)
{
	char *text, *step;
	size_t len;
	int rc;

	write_project(false);
	/* The base branch's run: no base of its own yet, so the gate passes and says why. */
	trace("base");
	check_artifacts("base");
	rc = gate("main-artifact/build.bbl", "base");
	cr_assert(eq(int, rc, 0), "%s", run.err);

	trace("same");
	check_artifacts("same");
	rc = gate("base/build.bbl", "same");
	cr_assert(eq(int, rc, 0), "an equal build failed the gate: %s", run.err);
	/* A retried job gates again into the same directory: its files are replaced. */
	rc = gate("base/build.bbl", "same");
	cr_assert(eq(int, rc, 0), "the gate's rerun: %s", run.err);
	free(check_summary("same", "**Gate passed**"));

	write_project(true);
	trace("slow");
	rc = gate("base/build.bbl", "slow");
	cr_assert(eq(int, rc, 1), "the slower build passed the gate (%d): %s", rc, run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "buildbpf: failed: cpu>+0.25s"), NULL)), "%s", run.err);
	text = check_summary("slow", "**Gate failed**");
	cr_assert(not(eq(ptr, strstr(text, "- `cpu>+0.25s"), NULL)), "%s", text);

	/* $GITHUB_STEP_SUMMARY got each run's summary, in order, the slow one last. */
	step = bb_file_text(bb_path(&run, "step-summary.md"), &len);
	cr_assert(ge(sz, len, strlen(text)));
	cr_assert(eq(str, step + len - strlen(text), text));
	cr_assert(not(eq(ptr, strstr(step, "No log of the base branch"), NULL)), "%s", step);
	free(step);
	free(text);
}
