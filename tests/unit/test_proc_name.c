/* SPDX-License-Identifier: GPL-2.0 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/proc_name.h"
#include "util/utf8.h"

#define ELLIPSIS "\xe2\x80\xa6"

/* An image of argv (NULL-terminated list) with optional filename and comm. */
static struct exec_image make_image(char **argv, const char *filename, const char *comm)
{
	struct exec_image img = { 0 };

	img.argv = argv;
	while (argv && argv[img.argc])
		img.argc++;
	img.filename = (char *)filename;
	strncpy(img.comm, comm ? comm : "", BB_COMM_LEN);
	return img;
}

static void expect_name(char **argv, const char *filename, const char *comm, const char *want)
{
	struct exec_image img = make_image(argv, filename, comm);
	char *name = image_display_name(&img);

	cr_assert(not(eq(ptr, name, NULL)));
	cr_assert(eq(str, name, (char *)want));
	free(name);
}

/* name is valid UTF-8 (sanitising changes nothing) and at most 80 bytes. */
static void assert_clean_name(const char *name)
{
	char *again = utf8_sanitize(name, strlen(name));

	cr_assert(eq(str, again, (char *)name));
	cr_assert(le(sz, strlen(name), 80));
	free(again);
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

Test(proc_name, program_is_argv0_basename)
{
	expect_name(ARGV("/usr/bin/make", "-j8"), "/usr/bin/make", "make", "make");
	expect_name(ARGV("ld", "-o", "prog", "a.o", "b.o", "-lc"), "/usr/bin/ld", "ld", "ld");
	expect_name(ARGV("./tools/gen/"), NULL, "gen", "gen");
}

Test(proc_name, falls_back_to_filename_then_comm)
{
	expect_name(ARGV(""), "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "cc1", "cc1");
	expect_name(NULL, "/bin/true", "true", "true");
	expect_name(NULL, NULL, "kworker", "kworker");
	expect_name(NULL, NULL, "", "?");
}

Test(proc_name, compiler_gets_its_main_input)
{
	expect_name(ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-I", "include", "src/foo.c", "-quiet",
			 "-dumpbase", "foo.c", "-mtune=generic", "-o", "/tmp/ccXyZ.s"),
		    NULL, "cc1", "cc1 foo.c");
	expect_name(ARGV("gcc", "-c", "lib/bar.cpp", "-o", "bar.cpp.o", "-MF", "bar.d", "-MT", "x.c"), NULL, "gcc",
		    "gcc bar.cpp");
	expect_name(ARGV("as", "--64", "-o", "foo.o", "/tmp/ccXyZ.s"), NULL, "as", "as ccXyZ.s");
	expect_name(ARGV("rustc", "--crate-name", "foo", "--edition=2021", "src/lib.rs", "--crate-type", "lib"),
		    NULL, "rustc", "rustc lib.rs");
	expect_name(ARGV("clang", "-cc1", "-x", "c", "k.S", "-include", "conf.h"), NULL, "clang", "clang k.S");
	expect_name(ARGV("python3", "setup.py", "build"), NULL, "python3", "python3 setup.py");
}

Test(proc_name, no_source_operand_no_detail)
{
	expect_name(ARGV("cc", "-o", "prog", "main.o", "util.o"), NULL, "cc", "cc");
	/* ".c" alone is no source file, nor is an extension we do not know. */
	expect_name(ARGV("tool", ".c", "data.bin", "foo.", "Makefile"), NULL, "tool", "tool");
	expect_name(ARGV("cp", "-", "x"), NULL, "cp", "cp");
}

Test(proc_name, shell_dash_c_shows_the_folded_script)
{
	expect_name(ARGV("/bin/sh", "-c", "  make   -C lib\n\tall  "), NULL, "sh", "sh -c make -C lib all");
	expect_name(ARGV("bash", "-e", "-o", "pipefail", "-c", "echo hi"), NULL, "bash", "bash -c echo hi");
	expect_name(ARGV("dash", "-ec", "true"), NULL, "dash", "dash -c true");
}

Test(proc_name, long_script_cut_at_48_characters)
{
	struct exec_image img = make_image(
		ARGV("sh", "-c",
		     "for f in a b c d e f g h; do   cc -c $f.c -o $f.o || exit 1; done; ar rcs libx.a *.o"),
		NULL, "sh");
	char *name = image_display_name(&img);

	/* At most 48 characters of folded script (47: the 48th is a space),
	 * then the ellipsis. */
	cr_assert(eq(str, name, "sh -c for f in a b c d e f g h; do cc -c $f.c -o $f.o" ELLIPSIS));
	assert_clean_name(name);
	free(name);

	/* Exactly 48 characters: nothing to cut; 49: cut after 48. */
	expect_name(ARGV("sh", "-c", "123456789012345678901234567890123456789012345678"), NULL, "sh",
		    "sh -c 123456789012345678901234567890123456789012345678");
	expect_name(ARGV("sh", "-c", "1234567890123456789012345678901234567890123456789"), NULL, "sh",
		    "sh -c 123456789012345678901234567890123456789012345678" ELLIPSIS);
}

Test(proc_name, script_cut_counts_characters_not_bytes)
{
	char script[256] = "", want[256] = "sh -c ";
	struct exec_image img;
	char *name;
	int i;

	for (i = 0; i < 60; i++)
		strcat(script, "\xc3\xa9"); /* é */
	for (i = 0; i < 48; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, ELLIPSIS);
	img = make_image(ARGV("sh", "-c", script), NULL, "sh");
	/* 6 + 96 + 3 bytes is over the 80-byte cap: that cuts again, cleanly. */
	name = image_display_name(&img);
	assert_clean_name(name);
	cr_assert(eq(int, strncmp(name, want, strlen(name) - 3), 0));
	cr_assert(eq(str, name + strlen(name) - 3, ELLIPSIS));
	free(name);
}

Test(proc_name, shell_running_a_file_names_it)
{
	expect_name(ARGV("/bin/bash", "-e", "./configure", "--prefix=/usr"), NULL, "bash", "bash configure");
	expect_name(ARGV("sh"), NULL, "sh", "sh");
}

Test(proc_name, long_names_capped_at_80_bytes)
{
	char prog[300];
	struct exec_image img;
	char *name;

	memset(prog, 'p', sizeof(prog) - 1);
	prog[sizeof(prog) - 1] = '\0';
	img = make_image(ARGV(prog, "x.c"), NULL, "p");
	name = image_display_name(&img);
	assert_clean_name(name);
	cr_assert(eq(sz, strlen(name), 80));
	cr_assert(eq(str, name + 77, ELLIPSIS));
	free(name);
}

Test(proc_name, cap_never_splits_a_character)
{
	char prog[300] = "";
	struct exec_image img;
	char *name;
	int i;

	/* 4-byte characters: 77 is not a multiple of 4. */
	for (i = 0; i < 50; i++)
		strcat(prog, "\xf0\x9f\x98\x80");
	img = make_image(ARGV(prog), NULL, "x");
	name = image_display_name(&img);
	assert_clean_name(name);
	cr_assert(eq(sz, strlen(name), 76 + 3));
	free(name);
}

Test(proc_name, hostile_bytes_sanitised)
{
	struct exec_image img =
		make_image(ARGV("/tmp/\xff\xfe" "evil\x1b[31m", "-c", "x\x80y.c"), NULL, "evil");
	char *name = image_display_name(&img);

	assert_clean_name(name);
	cr_assert(eq(str, name, "\xef\xbf\xbd\xef\xbf\xbd" "evil\x1b[31m x\xef\xbf\xbdy.c"));
	free(name);

	img = make_image(ARGV("sh", "-c", "echo \xc0\xaf\xed\xa0\x80"), NULL, "sh");
	name = image_display_name(&img);
	assert_clean_name(name);
	free(name);
}

Test(proc_name, proc_uses_last_image)
{
	struct exec_image execs[2] = {
		make_image(ARGV("sh", "-c", "exec cc -c a.c"), "/bin/sh", "sh"),
		make_image(ARGV("cc", "-c", "a.c"), "/usr/bin/cc", "cc"),
	};
	struct proc_instance p = { .execs = execs, .nr_execs = 2 };
	char *name = proc_display_name(&p);

	cr_assert(eq(str, name, "cc a.c"));
	free(name);
}

Test(proc_name, proc_without_exec_is_a_fork)
{
	struct proc_instance p = { 0 };
	char *name;

	strcpy(p.comm, "make");
	name = proc_display_name(&p);
	cr_assert(eq(str, name, "make (fork)"));
	free(name);

	memcpy(p.comm, "m\xffk\xc3", 5); /* comm cut mid-character by the kernel */
	name = proc_display_name(&p);
	assert_clean_name(name);
	cr_assert(eq(str, name, "m\xef\xbf\xbdk\xef\xbf\xbd (fork)"));
	free(name);
}

Test(proc_name, argv_display_name_joins_and_caps)
{
	char *argv[] = { "make", "-j8", "CFLAGS=-O2 -g", "caf\xe9" };
	char long_arg[200];
	char *name;

	name = argv_display_name(argv, 4, 0);
	cr_assert(eq(str, name, "make -j8 CFLAGS=-O2 -g caf\xef\xbf\xbd"));
	free(name);

	name = argv_display_name(argv, 0, 80);
	cr_assert(eq(str, name, ""));
	free(name);

	memset(long_arg, 'a', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	argv[1] = long_arg;
	name = argv_display_name(argv, 2, 80);
	assert_clean_name(name);
	cr_assert(eq(sz, strlen(name), 80));
	free(name);
}
