// SPDX-License-Identifier: GPL-2.0
/* The report at the end of a run (report/run_report.h): a build that failed leads with what failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "audit/audit.h"
#include "log/event_log.h"
#include "model/replay.h"
#include "report/audit_report.h"
#include "report/report_text.h"
#include "report/run_report.h"
#include "report/summary.h"
#include "lib/answers_check.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull

/*
 * make, its one compile done, exits with status 2 after wall_ms, the kernel
 * having dropped lost events; the default report, with the line to the
 * rest, or (room > 0) the brief audit alone in room lines.
 */
static char *failed_make_in(__u64 wall_ms, __u64 lost, size_t room)
{
	char *argv[] = { "make", NULL };
	struct event_log_info info = { .cmd_argv = argv, .cmd_argc = 1 };
	struct audit_input in = { .nr_cpus = 2, .cmd_argv = argv, .cmd_argc = 1, .lost_events = lost };
	struct replay rp = { .info = &info, .exited = true, .wait_status = 2 << 8, .lost_events = lost };
	struct audit a;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	rp.model = model__new(100, 0);
	cr_assert(rp.model != NULL);
	synth_exec(rp.model, 1, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	/* One compile that worked: the build did something to audit. */
	synth_fork(rp.model, 1 * MS, 100, 101, 101, false);
	synth_exec(rp.model, 2 * MS, 101, 100, "/usr/bin/cc", (const char *[]){ "cc", "-c", "a.c", NULL });
	synth_exit(rp.model, wall_ms * MS / 2, 101, 101, true, 0);
	synth_exit(rp.model, wall_ms * MS, 100, 100, true, 2 << 8);
	cr_assert(eq(int, model__finish(rp.model, wall_ms * MS), 0));
	cr_assert(eq(int, with_slots__audit(&a, rp.model, NULL, &in), 0));
	out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	if (room)
		audit_report__print_brief(out, &a, rp.model, room);
	else
		run_report__print(out, &(struct run_report){ .rp = &rp, .wall_ns = wall_ms * MS, .audit = &a,
							     .exit_code = 2, .log_path = "r.bbl" });
	fclose(out);
	audit__free(&a);
	model__free(rp.model);
	return text;
}

static char *failed_make(__u64 wall_ms)
{
	return failed_make_in(wall_ms, 0, 0);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

Test(run_report, a_build_that_failed_at_once_leads_with_the_failure_and_no_audit)
{
	char *text = failed_make(20);

	cr_assert(strncmp(text, "buildbpf: traced 'make': exit status 2, 0.020 s wall\n", 53) == 0, "%s", text);
	cr_assert(strstr(text, "buildbpf: the build failed: make (pid 100) failed first, exit status 2\n") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "audit left out: the build failed after 0.020 s") != NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf: audit:") == NULL, "%s", text);
	cr_assert(strstr(text, "parallel?") == NULL, "%s", text);
	free(text);
}

Test(run_report, a_build_that_failed_after_working_keeps_its_audit)
{
	char *text = failed_make(RUN_REPORT_SHORT_FAIL_NS / MS + 500);

	cr_assert(strstr(text, "buildbpf: the build failed: make (pid 100) failed first, exit status 2\n") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "buildbpf: audit:") != NULL, "%s", text);
	cr_assert(strstr(text, "audit left out") == NULL, "%s", text);
	free(text);
}

/*
 * By default the whole report is brief (issue 39): the traced line, what
 * failed, the audit's one line with the processes and the events lost,
 * the answers, and the warnings, within AUDIT_REPORT_BRIEF_LINES before the
 * line to the rest.
 */
Test(run_report, the_default_report_is_brief_and_says_exit_status_and_lost_events)
{
	char *text = failed_make_in(RUN_REPORT_SHORT_FAIL_NS / MS + 500, 7, 0), why[4096];

	cr_assert(bb_report_is_brief(text, AUDIT_REPORT_BRIEF_LINES, REPORT_WIDTH, true, why, sizeof(why)), "%s", why);
	cr_assert(strstr(text, "buildbpf: audit: 2 processes, 7 lost events, ") != NULL, "%s", text);
	cr_assert(strstr(text, "buildbpf: LOST EVENTS: 7; ") != NULL, "%s", text);
	/* The processes and the events lost are said once, on the audit's line. */
	cr_assert(strstr(text, "buildbpf: 2 processes,") == NULL, "%s", text);
	free(text);
}

/* The answers give way to the room; the audit's line and what would make the answers wrong do not. */
Test(run_report, a_brief_audit_in_two_lines_keeps_its_line_and_the_lost_events)
{
	char *roomy = failed_make_in(RUN_REPORT_SHORT_FAIL_NS / MS + 500, 7, AUDIT_REPORT_BRIEF_LINES);
	char *tight = failed_make_in(RUN_REPORT_SHORT_FAIL_NS / MS + 500, 7, 2);

	cr_assert(strstr(roomy, "buildbpf: parallel? ") != NULL, "%s", roomy);
	cr_assert(eq(sz, count_lines(tight), 2), "%s", tight);
	cr_assert(strncmp(tight, "buildbpf: audit: 2 processes, 7 lost events, ", 43) == 0, "%s", tight);
	cr_assert(strstr(tight, "\nbuildbpf: LOST EVENTS: 7; ") != NULL, "%s", tight);
	free(roomy);
	free(tight);
}

/* The summary's first line of a long command, brief or -v; the caller frees it. */
static char *traced_line(bool verbose)
{
	char *argv[] = { "/usr/bin/make", "-C", "/home/someone/src/linux-6.18", "O=/home/someone/build/linux-out",
			 "-j2", "kernel/", "mm/", NULL };
	struct summary_info info = { .cmd_argv = argv, .cmd_argc = 7, .wall_ns = 1359215 * MS / 1000, .verbose = verbose };
	struct model *m = model__new(100, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(m != NULL && out != NULL);
	cr_assert(eq(int, model__finish(m, info.wall_ns), 0));
	summary__print(out, m, &info);
	fclose(out);
	model__free(m);
	*strchr(text, '\n') = '\0';
	return text;
}

/* By default every line fits REPORT_WIDTH: the command is cut in its middle, its tool and targets kept. */
Test(run_report, a_long_command_is_cut_in_the_middle_to_fit_the_width)
{
	char *brief = traced_line(false), *whole = traced_line(true);

	cr_assert(eq(sz, strlen(brief), REPORT_WIDTH), "%s", brief);
	cr_assert(strncmp(brief, "buildbpf: traced '/usr/bin/make -C /home/", 41) == 0, "%s", brief);
	cr_assert(strstr(brief, "...") != NULL, "%s", brief);
	cr_assert(strstr(brief, " -j2 kernel/ mm/': exit status 0, 1.359 s wall") != NULL, "%s", brief);
	cr_assert(eq(str, whole, "buildbpf: traced '/usr/bin/make -C /home/someone/src/linux-6.18 "
				 "O=/home/someone/build/linux-out -j2 kernel/ mm/': exit status 0, 1.359 s wall"));
	free(brief);
	free(whole);
}
