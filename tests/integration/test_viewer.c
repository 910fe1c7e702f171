// SPDX-License-Identifier: GPL-2.0
/*
 * Real-viewer check: a trace of a real `make -j2` build is loaded into the
 * DevTools Performance panel of Debian's chromium (tests/viewer/, installed
 * by make viewer-deps) and must draw exactly the slices the file holds: a
 * viewer silently drops slices that overlap on one track, which no
 * JSON-level check would notice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"


/* Chromium over a page can take minutes on a busy machine: the checks bound hangs at 5 min a step. */
TestSuite(viewer, .init = integration_setup, .fini = integration_teardown, .timeout = 900);

static const char *viewer_dir(void)
{
	const char *dir = getenv("BUILDBPF_VIEWER_DIR");

	return dir && *dir ? dir : "build/viewer";
}

/* Runs a viewer script on the trace; returns its exit status, output in log. */
static int run_viewer(const char *script, const char *trace, const char *extra, char *log, size_t log_size)
{
	char cmd[2048];
	FILE *p;
	size_t n;
	int status;

	snprintf(cmd, sizeof(cmd), "cd '%s' && node %s '%s' %s 2>&1", viewer_dir(), script, trace, extra);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(log, 1, log_size - 1, p);
	log[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

Test(viewer, make_j2_trace_renders_every_slice)
{
	char trace[512], png[512], extra[700], log[16384];
	char *cwd;
	FILE *f;
	int i, rc;

	snprintf(trace, sizeof(trace), "%s", bb_path(&run, "t.json"));
	cr_assert(access(viewer_dir(), R_OK) == 0,
		  "viewer not installed at %s (make viewer-deps, or BUILDBPF_VIEWER_DIR)", viewer_dir());

	/* Recipes through a shell, each with children: nesting and flows. */
	f = fopen(bb_path(&run, "Makefile"), "w");
	cr_assert_not_null(f);
	fprintf(f, "T :=");
	for (i = 0; i < 40; i++)
		fprintf(f, " t%02d", i);
	fprintf(f, "\nall: $(T)\n\t@cat $(T) > all.txt && sh -c 'exec wc -l all.txt' > /dev/null\n"
		   "$(T):\n\t@echo $@ > $@ && cat $@ > /dev/null && sleep 0.0$$(( $(subst t,1,$@) %% 7 ))\n");
	cr_assert_eq(fclose(f), 0);

	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "make", "-j2", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);

	/* Keep a screenshot for people to look at, next to the build. */
	cwd = getcwd(NULL, 0);
	snprintf(png, sizeof(png), "%s/build/viewer-make-j2.png", cwd);
	free(cwd);
	/* The panel orders tracks by slice count, not by the sort indexes (docs/trace.md, "Track order"). */
	snprintf(extra, sizeof(extra), "--screenshot '%s' --expect-track '^make' --expect-slice-count-order", png);
	rc = run_viewer("devtools-check.cjs", trace, extra, log, sizeof(log));
	cr_assert(eq(int, rc, 0), "DevTools did not draw the trace as written:\n%s", log);
	cr_log_info("devtools-check: %s", log);

	rc = run_viewer("engine-check.mjs", trace, "", log, sizeof(log));
	cr_assert(eq(int, rc, 0), "DevTools trace engine rejected the trace:\n%s", log);
}

/*
 * The same with clang -ftime-trace files merged (--merge): the compilers'
 * own slices nest in their process slices, so DevTools must draw them all.
 */
Test(viewer, merged_clang_trace_renders_every_slice)
{
	char trace[512], extra[64], log[16384], src[256], name[16];
	int i, rc;

	cr_assert(eq(int, system("clang --version > /dev/null 2>&1"), 0),
		  "clang is not installed (make test-deps installs it)");
	snprintf(trace, sizeof(trace), "%s", bb_path(&run, "t.json"));
	cr_assert(access(viewer_dir(), R_OK) == 0,
		  "viewer not installed at %s (make viewer-deps, or BUILDBPF_VIEWER_DIR)", viewer_dir());
	bb_write_file(&run, "Makefile",
		      "OBJS := $(patsubst %.c,%.o,$(wildcard *.c))\nall: $(OBJS)\n"
		      "%.o: %.c\n\t@sh -c 'exec clang -ftime-trace -O2 -c $< -o $@'\n");
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "f%d.c", i);
		snprintf(src, sizeof(src), "int f%d(int *v, int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i] * %d; "
			 "return s; }\n", i, i + 1);
		bb_write_file(&run, name, src);
	}
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--merge", "*.json", "--", "make", "-j2", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "warning"), NULL), "stderr: %s", run.err);

	snprintf(extra, sizeof(extra), "--expect-track '^make'");
	rc = run_viewer("devtools-check.cjs", trace, extra, log, sizeof(log));
	cr_assert(eq(int, rc, 0), "DevTools did not draw the merged trace as written:\n%s", log);
	cr_log_info("devtools-check (merged): %s", log);
	rc = run_viewer("engine-check.mjs", trace, "", log, sizeof(log));
	cr_assert(eq(int, rc, 0), "DevTools trace engine rejected the merged trace:\n%s", log);
}

/*
 * The check catches what it exists for: a real trace with one slice added
 * that starts inside a process slice and ends after it, on the same track,
 * is drawn with a slice missing, and both checks fail; the same trace
 * without it passes.
 */
Test(viewer, an_overlapping_slice_fails_the_check)
{
	struct json_object *trace, *slices, *victim, *events, *extra, *v;
	char good[512], bad[512], log[16384];
	long long ts, dur;
	int rc;

	cr_assert(access(viewer_dir(), R_OK) == 0,
		  "viewer not installed at %s (make viewer-deps, or BUILDBPF_VIEWER_DIR)", viewer_dir());
	bb_run_in(&run, (const char *[]){ "-q", "-o", "t.json", "--", "sh", "-c", "sleep 0.2 & sleep 0.1; wait", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	snprintf(good, sizeof(good), "%s", bb_path(&run, "t.json"));
	snprintf(bad, sizeof(bad), "%s", bb_path(&run, "overlap.json"));

	trace = bb_load_trace(good);
	slices = bb_slices(trace, "process");
	cr_assert(lt(sz, 0, json_object_array_length(slices)));
	victim = json_object_array_get_idx(slices, 0);
	cr_assert(json_object_object_get_ex(victim, "ts", &v));
	ts = json_object_get_int64(v);
	cr_assert(json_object_object_get_ex(victim, "dur", &v));
	dur = json_object_get_int64(v);
	cr_assert(lt(i64, 2, dur));
	extra = json_object_new_object();
	json_object_object_add(extra, "name", json_object_new_string("overlapping"));
	json_object_object_add(extra, "cat", json_object_new_string("test"));
	json_object_object_add(extra, "ph", json_object_new_string("X"));
	json_object_object_add(extra, "ts", json_object_new_int64(ts + dur / 2));
	json_object_object_add(extra, "dur", json_object_new_int64(dur));
	json_object_object_get_ex(victim, "pid", &v);
	json_object_object_add(extra, "pid", json_object_get(v));
	json_object_object_get_ex(victim, "tid", &v);
	json_object_object_add(extra, "tid", json_object_get(v));
	cr_assert(json_object_object_get_ex(trace, "traceEvents", &events));
	json_object_array_add(events, extra);
	cr_assert(eq(int, json_object_to_file_ext(bad, trace, JSON_C_TO_STRING_PLAIN), 0));
	json_object_put(slices);
	json_object_put(trace);

	rc = run_viewer("devtools-check.cjs", good, "", log, sizeof(log));
	cr_assert(eq(int, rc, 0), "DevTools did not draw the untouched trace as written:\n%s", log);
	rc = run_viewer("devtools-check.cjs", bad, "", log, sizeof(log));
	cr_assert(eq(int, rc, 1), "DevTools check passed a trace with an overlapping slice:\n%s", log);
	cr_assert(not(eq(ptr, strstr(log, "slice count"), NULL)), "%s", log);
	rc = run_viewer("engine-check.mjs", bad, "", log, sizeof(log));
	cr_assert(eq(int, rc, 1), "the trace engine check passed a trace with an overlapping slice:\n%s", log);
}

/*
 * The --html page of a real make -j2 build with its build graph, opened in
 * chromium from file://: no console error, nothing fetched, a tooltip per
 * process, the zoom works, and its tables hold the figures --summary-json
 * holds (tests/viewer/html-check.cjs).  The --markdown of the same build
 * is GitHub's size and has its tables; diff --html of the build against
 * itself renders too.  A screenshot of the page is kept for people.
 */
Test(viewer, html_report_renders_the_summary_figures)
{
	char page[512], extra[1200], log[16384], png[512];
	char *cwd, *md;
	size_t len;
	FILE *f;
	int i, rc;

	cr_assert(access(viewer_dir(), R_OK) == 0,
		  "viewer not installed at %s (make viewer-deps, or BUILDBPF_VIEWER_DIR)", viewer_dir());
	f = fopen(bb_path(&run, "Makefile"), "w");
	cr_assert_not_null(f);
	fprintf(f, "O :=");
	for (i = 0; i < 8; i++)
		fprintf(f, " o%d", i);
	/* Each object reads the one before: a chain the build graph sees. */
	fprintf(f, "\nall: $(O)\n\t@cat $(O) > all.txt\n"
		   "o0:\n\t@sleep 0.05; echo 0 > $@\n"
		   "o%%:\n\t@cat o$$(( $* - 1 )) > $@; sleep 0.0$*\n");
	for (i = 1; i < 8; i++)
		fprintf(f, "o%d: o%d\n", i, i - 1);
	cr_assert_eq(fclose(f), 0);

	bb_run_in(&run, (const char *[]){ "-q", "--deps=on", "-o", "t.json", "--log", "b.bbl", "--summary-json",
					   "s.json", "--html", "r.html", "--markdown", "r.md", "--", "make", "-j2", NULL },
		  NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);

	md = bb_file_text(bb_path(&run, "r.md"), &len);
	cr_assert_not_null(md);
	cr_assert(lt(sz, len, (size_t)65536));
	cr_assert(not(eq(ptr, strstr(md, "### Critical path"), NULL)), "%s", md);
	cr_assert(not(eq(ptr, strstr(md, "parallel?"), NULL)), "%s", md);
	free(md);

	/* The trace beside it, linked relatively: the two move together as an artifact. */
	md = bb_file_text(bb_path(&run, "r.html"), NULL);
	cr_assert_not_null(md);
	cr_assert(not(eq(ptr, strstr(md, "<a href=\"t.json\">"), NULL)));
	free(md);

	cwd = getcwd(NULL, 0);
	snprintf(png, sizeof(png), "%s/build/html-report-make-j2.png", cwd);
	free(cwd);
	snprintf(page, sizeof(page), "%s", bb_path(&run, "r.html"));
	snprintf(extra, sizeof(extra), "--summary '%s' --screenshot '%s'", bb_path(&run, "s.json"), png);
	rc = run_viewer("html-check.cjs", page, extra, log, sizeof(log));
	cr_assert(eq(int, rc, 0), "the page does not show the build as the summary has it:\n%s", log);
	cr_log_info("html-check: %s", log);

	bb_run_in(&run, (const char *[]){ "diff", "-q", "b.bbl", "b.bbl", "--html", "d.html", NULL }, NULL);
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	snprintf(page, sizeof(page), "%s", bb_path(&run, "d.html"));
	rc = run_viewer("html-check.cjs", page, "", log, sizeof(log));
	cr_assert(eq(int, rc, 0), "diff's page does not render:\n%s", log);
}
