// SPDX-License-Identifier: GPL-2.0
/*
 * Every JSON output of a build whose written file's name is not UTF-8
 * (a file system takes any bytes but '/' and NUL): the trace, with that
 * file in a flow's, the critical path's and a race mark's args, the
 * --summary-json and the diff's JSON are each valid UTF-8 with the bad
 * bytes as U+FFFD, and no event holds a key twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <json-c/json.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "diff/diff.h"
#include "diff/diff_json.h"
#include "report/audit_json.h"
#include "report/chrome_trace.h"
#include "util/utf8.h"
#include "lib/synth_build.h"
#include "lib/trace_rules.h"

#define BAD_NAME "w/bad\xff\xfename.o"
#define CLEAN_NAME "bad\xef\xbf\xbd\xef\xbf\xbdname.o"

/*
 * gen writes BAD_NAME, cat reads it: after gen's end (reader_start_ms 201:
 * a data edge the critical path goes through), or while gen still writes
 * it (20: a race).
 */
static void bad_name_build(struct synth_build *b, __u64 reader_start_ms)
{
	synth_build__start(b, 100, "/w");
	synth_build__proc(b, 101, 100, "/usr/bin/gen", (const char *const[]){ "gen", "o", NULL }, 10, 200, 150);
	synth_build__proc(b, 102, 100, "/bin/cat", (const char *const[]){ "cat", "o", NULL }, reader_start_ms, 1200,
			  900);
	synth_build__file(b, 101, 150, 7, true, BAD_NAME);
	synth_build__file(b, 102, reader_start_ms + 100, 7, false, BAD_NAME);
	synth_build__finish(b, 1300);
}

/* What was written to fd, NUL-terminated; fd closed. */
static char *take_text(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *text = calloc(1, end + 1);

	cr_assert_not_null(text);
	cr_assert(eq(int, (int)pread(fd, text, end, 0), (int)end));
	close(fd);
	*len = end;
	return text;
}

static void assert_clean_text(const char *what, const char *text, size_t len)
{
	cr_assert(utf8_is_clean(text, len), "the %s is not valid UTF-8", what);
	cr_assert(not(eq(ptr, strstr(text, CLEAN_NAME), NULL)), "the %s does not name the file: %s", what, text);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

Test(json_outputs, a_file_name_that_is_not_utf8_leaves_every_output_valid)
{
	struct synth_build edge, race;
	struct trace_meta meta = { .graph = NULL };
	struct diff d;
	FILE *out;
	char *text;
	size_t len;
	int fd;

	bad_name_build(&edge, 201);
	cr_assert(ge(sz, edge.g.data.nr_edges, 1), "gen -> cat through the file");
	meta.graph = &edge.g;
	fd = memfd_create("trace", 0);
	cr_assert(eq(int, chrome_trace__write(edge.m, &meta, fd), 0));
	text = take_text(fd, &len);
	assert_clean_text("trace", text, len);
	check_trace_text(text, len);
	json_object_put(parse_trace_text(text, len));
	cr_assert(ge(sz, count(text, "\"file\":\"/w/" CLEAN_NAME "\""), 2), "the flow's and the critical path's: %s",
		  text);
	free(text);

	fd = memfd_create("summary", 0);
	cr_assert(eq(int, audit_json__write(&edge.a, edge.m, fd), 0));
	text = take_text(fd, &len);
	assert_clean_text("summary JSON", text, len);
	free(text);

	bad_name_build(&race, 20);
	cr_assert(eq(sz, race.g.races.nr, 1));
	meta.graph = &race.g;
	fd = memfd_create("trace", 0);
	cr_assert(eq(int, chrome_trace__write(race.m, &meta, fd), 0));
	text = take_text(fd, &len);
	assert_clean_text("trace", text, len);
	check_trace_text(text, len);
	json_object_put(parse_trace_text(text, len));
	/* json-c keeps the last of two equal keys: the text must hold one. */
	cr_assert(eq(sz, count(text, "\"name\":\"race: "), 1), "the race mark's name, once: %s", text);
	free(text);

	fd = memfd_create("diff", 0);
	out = fdopen(dup(fd), "w");
	cr_assert_not_null(out);
	cr_assert(eq(int, diff__compute(&d, &edge.side, &race.side), 0));
	cr_assert(eq(int, diff_json__write(&d, out), 0));
	cr_assert(eq(int, fclose(out), 0));
	diff__free(&d);
	text = take_text(fd, &len);
	assert_clean_text("diff JSON", text, len);
	free(text);
	synth_build__free(&edge);
	synth_build__free(&race);
}
