/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The naming rules of issue 39, point 1, one by one: a tag says which
 * target a source was built for when it was built twice
 * (model/step_tags.h); a name too long loses directories, never its file
 * name (name_shorten()).
 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/name_text.h"
#include "model/step_tags.h"

#define MAX_TAGS 4

/* The tags of made[0, nr) against want (NULL: no tag). */
static void expect_tags(const char *const *made, size_t nr, const char *const *want)
{
	char *tags[MAX_TAGS];
	size_t i;

	cr_assert(le(sz, nr, MAX_TAGS));
	cr_assert(eq(int, step_tags(made, nr, tags), 0));
	for (i = 0; i < nr; i++) {
		if (want[i])
			cr_assert(eq(str, tags[i] ? tags[i] : "(none)", (char *)want[i]), "step %zu", i);
		else
			cr_assert(eq(ptr, tags[i], NULL), "step %zu: %s", i, tags[i]);
		free(tags[i]);
	}
}

#define MADE(...) ((const char *const[]){ __VA_ARGS__ })

/* CMake: the shared and the static library, by their targets' names. */
Test(step_tags, a_cmake_target_by_its_name)
{
	expect_tags(MADE("CMakeFiles/json-c.dir/json_object.c.o", "CMakeFiles/json-c-static.dir/json_object.c.o"), 2,
		    MADE("json-c", "json-c-static"));
	/* Two test programs built from one source, in a subdirectory. */
	expect_tags(MADE("tests/CMakeFiles/test1.dir/test1.c.o", "tests/CMakeFiles/test1Formatted.dir/test1.c.o"), 2,
		    MADE("test1", "test1Formatted"));
}

/* libtool: the PIC object in .libs, the other left plain. */
Test(step_tags, libtool_pic_object)
{
	expect_tags(MADE("src/.libs/scanner.o", "src/scanner.o"), 2, MADE("PIC", NULL));
}

/* One of them makes something the other does not name (cc -c without -o): the file it makes. */
Test(step_tags, the_only_output_by_its_file_name)
{
	expect_tags(MADE(NULL, "lib/liblz4.so.1.9.4"), 2, MADE(NULL, "liblz4.so.1.9.4"));
	expect_tags(MADE(NULL, NULL), 2, MADE(NULL, NULL));
}

/* What differs is all that shows, however deep: the shared start and end go. */
Test(step_tags, only_what_differs)
{
	expect_tags(MADE("out/x86/debug/obj/a.o", "out/arm/debug/obj/a.o", "out/arm/release/obj/a.o"), 3,
		    MADE("x86/debug", "arm/debug", "arm/release"));
	expect_tags(MADE("a.o", "a.o"), 2, MADE(NULL, NULL));
}

/* The name's cap cuts a path's leading directories, whole ones, never its file name. */
Test(step_tags, a_long_name_loses_directories_first)
{
	char name[] = "cc1 src/some/deeply/nested/directory/x.c [json-c-static]";
	char tight[] = "cc1 src/verylongdirectoryname/x.c [a_target]";
	char none[] = "cc1 a_file_name_with_no_directory_at_all.c [target]";
	char two[] = "m4 some/dir/in.m4 > other/dir/out.t";
	char short_words[] = "sh -c cd dddddddddddddddddddddddddddddddddddddddddd";
	char written[] = "m4 …/internal/ac-config-macro-dirs.m4 > autom4te.cache/traces.0t";

	name_shorten(name, 48);
	cr_assert(eq(str, name, "cc1 …/nested/directory/x.c [json-c-static]"));
	/* Every directory goes before the file name would. */
	name_shorten(tight, 30);
	cr_assert(eq(str, tight, "cc1 …/x.c [a_target]"));
	/* No one path's directories are enough: each path's give way, first to last. */
	name_shorten(two, 28);
	cr_assert(eq(str, two, "m4 …/in.m4 > …/dir/out.t"));
	/* Issue 39: every directory given and still too long: the last words go whole, no file name is cut. */
	name_shorten(written, 40);
	cr_assert(eq(str, written, "m4 …/ac-config-macro-dirs.m4 > …"));
	/* Whole words that would keep less than half: cut inside the last, as before. */
	name_shorten(short_words, 30);
	cr_assert(eq(str, short_words, "sh -c cd dddddddddddddddddd…"));
	/* No directory to give: cut at the end, as before. */
	name_shorten(none, 20);
	cr_assert(eq(str, none, "cc1 a_file_name_w…"));
	cr_assert(le(sz, strlen(none), 20));
}
