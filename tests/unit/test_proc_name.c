/* SPDX-License-Identifier: GPL-2.0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/proc_name.h"
#include "model/step_names.h"
#include "util/utf8.h"

#define ELLIPSIS "\xe2\x80\xa6"
#define OUTPUT "-o "

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

/* The name of img as the only image of a process, with no model (no cwd known). */
static char *name_of(struct exec_image img)
{
	struct proc_instance p = { .execs = &img, .nr_execs = 1, .parent = -1 };

	return image_display_name(NULL, &p, 0);
}

static void expect_name(char **argv, const char *filename, const char *comm, const char *want)
{
	char *name = name_of(make_image(argv, filename, comm));

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
	/* A link is named by what it writes (issue 19). */
	expect_name(ARGV("ld", "-o", "prog", "a.o", "b.o", "-lc"), "/usr/bin/ld", "ld", "ld -o prog");
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
		    NULL, "cc1", "cc1 src/foo.c");
	expect_name(ARGV("gcc", "-c", "lib/bar.cpp", "-o", "bar.cpp.o", "-MF", "bar.d", "-MT", "x.c"), NULL, "gcc",
		    "gcc lib/bar.cpp");
	/* The input is a temporary: the object it writes names the step. */
	expect_name(ARGV("as", "--64", "-o", "foo.o", "/tmp/ccXyZ.s"), NULL, "as", "as -o foo.o");
	expect_name(ARGV("rustc", "--crate-name", "foo", "--edition=2021", "src/lib.rs", "--crate-type", "lib"),
		    NULL, "rustc", "rustc foo (lib)");
	expect_name(ARGV("clang", "-cc1", "-x", "c", "k.S", "-include", "conf.h"), NULL, "clang", "clang k.S");
	expect_name(ARGV("python3", "setup.py", "build"), NULL, "python3", "python3 setup.py");
}

Test(proc_name, no_file_operand_no_detail)
{
	/* ".c" alone is a hidden file, "foo." and "Makefile" have no extension, "-" is stdin. */
	expect_name(ARGV("tool", ".c", "foo.", "Makefile", "-"), NULL, "tool", "tool");
	expect_name(ARGV("cp", "-", "x"), NULL, "cp", "cp");
	/* A sed script or an awk program is no file, whatever it ends in. */
	expect_name(ARGV("sed", "-e", "/definition of/r ./lib/c++defs.h", "-e", "s/x/y/"), NULL, "sed", "sed");
	expect_name(ARGV("awk", "{ print $1 } END { exit }"), NULL, "awk", "awk");
	expect_name(ARGV("date", "+%s.%N"), NULL, "date", "date");
	expect_name(ARGV("chmod", "+x.y", "run"), NULL, "chmod", "chmod");
}

Test(proc_name, unknown_tool_named_by_its_file_operand)
{
	/* kbuild's per-object tools (issue 26, item 6): by the object they work on. */
	expect_name(ARGV("nm", "mm/filemap.o"), NULL, "nm", "nm mm/filemap.o");
	expect_name(ARGV("./tools/objtool/objtool", "--hacks=jump_label", "--orc", "--uaccess", "mm/filemap.o"), NULL,
		    "objtool", "objtool mm/filemap.o");
	/* check-local-export's awk reads nm on stdin: the object is in its -v assignment. */
	expect_name(ARGV("awk", "-v", "file=mm/filemap.o", "\nBEGIN {\n\ti = 0\n}"), NULL, "awk", "awk mm/filemap.o");
	/* A source file still comes first; an extension we do not know is a file too. */
	expect_name(ARGV("tool", "data.bin", "gen.c"), NULL, "tool", "tool gen.c");
	expect_name(ARGV("tool", "-v", "data.bin", "out.bin"), NULL, "tool", "tool data.bin");
	/* A temporary names nothing. */
	expect_name(ARGV("strip", "/tmp/ccAb12.o"), NULL, "strip", "strip");
}

/* Issue 26, item 6: a check of the toolchain is called a probe, not named by its scratch files. */
Test(proc_name, probes_are_called_probes)
{
	/* kbuild's cc-option: gcc on /dev/null into its try-run directory, cc1 into gcc's temporary. */
	expect_name(ARGV("gcc", "-Werror", "-fno-PIE", "-fcf-protection=none", "-c", "-x", "c", "/dev/null", "-o",
			 ".tmp_12345/tmp"),
		    NULL, "gcc", "gcc (probe)");
	expect_name(ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "/dev/null", "-quiet", "-dumpdir",
			 ".tmp_12345/", "-dumpbase", "tmp.c", "-fcf-protection=none", "-o", "/tmp/ccts5SgX.s"),
		    NULL, "cc1", "cc1 (probe)");
	expect_name(ARGV("as", "--64", "-o", ".tmp_12345/tmp", "/tmp/ccts5SgX.s"), NULL, "as", "as (probe)");
	/* as-instr: the assembler source on stdin. */
	expect_name(ARGV("gcc", "-Werror", "-c", "-x", "assembler-with-cpp", "-o", ".tmp_77/tmp", "-"), NULL, "gcc",
		    "gcc (probe)");
	/* configure's: named by their conftest file, which says what they are. */
	expect_name(ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "conftest.c", "-quiet", "-dumpbase",
			 "conftest.c", "-o", "/tmp/ccQ1.s"),
		    NULL, "cc1", "cc1 conftest.c (probe)");
	expect_name(ARGV("gcc", "-o", "conftest", "-g", "-O2", "conftest.c"), NULL, "gcc", "gcc conftest.c (probe)");
	expect_name(ARGV("/usr/bin/ld", "-pie", "-o", "conftest", "/tmp/ccR2.o", "-lc"), NULL, "ld",
		    "ld " OUTPUT "conftest (probe)");
	expect_name(ARGV("./conftest"), NULL, "conftest", "conftest (probe)");
	/* A file named like one is no probe unless it is one. */
	expect_name(ARGV("cc", "-c", "-o", "tmp/null.o", "src/null.c"), NULL, "cc", "cc src/null.c");
	expect_name(ARGV("rm", "-f", "conftest.c"), NULL, "rm", "rm conftest.c");
}

/* gcc's /tmp/ccX.s differs in every run: never a name. */
Test(proc_name, a_temporary_output_names_nothing)
{
	expect_name(ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-E", "-quiet", "-o", "/tmp/ccX1.i"), NULL, "cc1",
		    "cc1");
}

Test(proc_name, link_without_source_named_by_output)
{
	expect_name(ARGV("cc", "-o", "prog", "main.o", "util.o"), NULL, "cc", "cc " OUTPUT "prog");
	expect_name(ARGV("cc", "main.o", "util.o"), NULL, "cc", "cc");
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
	char *name = name_of(img);

	/* At most 48 characters of folded script (47: the 48th is a space),
	 * then the ellipsis after that space: the last word is whole. */
	cr_assert(eq(str, name, "sh -c for f in a b c d e f g h; do cc -c $f.c -o $f.o " ELLIPSIS));
	assert_clean_name(name);
	free(name);

	/* Issue 39: a cut falls after the last whole word, never inside a file's name... */
	expect_name(ARGV("bash", "-c", "for dep in lib/local.mk lib/gnulib.mk sed/local.mk testsuite/local.mk; do :; done"),
		    NULL, "bash", "bash -c for dep in lib/local.mk lib/gnulib.mk " ELLIPSIS);
	/* ...unless that would keep less than half of it. */
	expect_name(ARGV("sh", "-c", "$CC -DA_VERY_LONG_DEFINE_WITHOUT_ANY_SLASH_AT_ALL_IN_IT=1"), NULL, "sh",
		    "sh -c $CC -DA_VERY_LONG_DEFINE_WITHOUT_ANY_SLASH_AT_AL" ELLIPSIS);
	/* A path across the cut loses its leading directories, not its file name. */
	expect_name(ARGV("sh", "-c", "$CC /a/very/long/path/to/some/generated/file/in/the/tree.txt"), NULL, "sh",
		    "sh -c $CC " ELLIPSIS "/tree.txt");
	/* A sed script is no path: what tells lz4's three version lines apart stays. */
	expect_name(ARGV("sh", "-c", "echo `sed -n '/define LZ4_VERSION_MAJOR/s/.*[[:blank:]]\\([0-9]*\\).*/\\1/p' < lz4.h`"),
		    NULL, "sh", "sh -c echo `sed -n '/define LZ4_VERSION_MAJOR/s/.*[[:b" ELLIPSIS);
	expect_name(ARGV("sh", "-c", "$X echo '  WRAP    arch/x86/include/generated/asm/early_ioremap.h'; $X"), NULL,
		    "sh", "sh -c $X echo ' WRAP " ELLIPSIS "/early_ioremap.h'; " ELLIPSIS);
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
	name = name_of(img);
	assert_clean_name(name);
	cr_assert(eq(int, strncmp(name, want, strlen(name) - 3), 0));
	cr_assert(eq(str, name + strlen(name) - 3, ELLIPSIS));
	free(name);
}

Test(proc_name, shell_running_a_file_names_it)
{
	expect_name(ARGV("/bin/bash", "-e", "./gen.sh", "--prefix=/usr"), NULL, "bash", "bash gen.sh");
	/* But a configure script is configure (configure_by_its_directory). */
	expect_name(ARGV("/bin/bash", "-e", "./configure", "--prefix=/usr"), NULL, "bash", "configure");
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
	name = name_of(img);
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
	name = name_of(img);
	assert_clean_name(name);
	cr_assert(eq(sz, strlen(name), 76 + 3));
	free(name);
}

Test(proc_name, hostile_bytes_sanitised)
{
	struct exec_image img =
		make_image(ARGV("/tmp/\xff\xfe" "evil\x1b[31m", "-c", "x\x80y.c"), NULL, "evil");
	char *name = name_of(img);

	assert_clean_name(name);
	cr_assert(eq(str, name, "\xef\xbf\xbd\xef\xbf\xbd" "evil\x1b[31m x\xef\xbf\xbdy.c"));
	free(name);

	img = make_image(ARGV("sh", "-c", "echo \xc0\xaf\xed\xa0\x80"), NULL, "sh");
	name = name_of(img);
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
	char *name = proc_display_name(NULL, &p);

	cr_assert(eq(str, name, "cc a.c"));
	free(name);
}

Test(proc_name, proc_without_exec_is_a_fork)
{
	struct proc_instance p = { 0 };
	char *name;

	strcpy(p.comm, "make");
	name = proc_display_name(NULL, &p);
	cr_assert(eq(str, name, "make (fork)"));
	free(name);

	memcpy(p.comm, "m\xffk\xc3", 5); /* comm cut mid-character by the kernel */
	name = proc_display_name(NULL, &p);
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

/* ---- known answers: real command lines, in the process trees they run in ---- */

#define CHAIN_MAX 8

/*
 * A model of a chain of processes, each the child of the one before and
 * running one image: what a build's tree looks like from one step up to
 * the command.
 */
struct chain {
	struct model m;
	struct proc_instance procs[CHAIN_MAX];
	struct exec_image execs[CHAIN_MAX];
};

static void chain_init(struct chain *c, const char *cwd, char **const *argvs)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < CHAIN_MAX && argvs[i]; i++) {
		c->execs[i] = make_image(argvs[i], NULL, "x");
		c->execs[i].start_ns = 10 * i + 1;
		c->procs[i] = (struct proc_instance){
			.id = i, .parent = (long)i - 1, .start_ns = 10 * i, .execs = &c->execs[i], .nr_execs = 1,
		};
	}
	c->m = (struct model){ .procs = c->procs, .nr_procs = i, .root = 0, .cwd = (char *)cwd };
}

/* The name of each process of the chain, top down, against want (NULL-terminated). */
static void expect_chain(const char *cwd, char **const *argvs, const char *const *want)
{
	struct chain c;
	size_t i;

	chain_init(&c, cwd, argvs);
	for (i = 0; i < c.m.nr_procs; i++) {
		char *name = proc_display_name(&c.m, &c.procs[i]);

		cr_assert(not(eq(ptr, name, NULL)));
		if (want[i])
			cr_assert(eq(str, name, (char *)want[i]), "process %zu of the chain", i);
		assert_clean_name(name);
		free(name);
	}
}

#define ARGVS(...) ((char **const[]){ __VA_ARGS__, NULL })
#define NAMES(...) ((const char *const[]){ __VA_ARGS__ })

/* GCC 12 under ninja for CMake (json-c, sources beside the build directory). */
Test(proc_name, cmake_ninja_gcc12_compile)
{
	expect_chain(
		"/src/json-c/build",
		ARGVS(ARGV("ninja", "-j2"),
		      ARGV("/bin/sh", "-c",
			   "cd /src/json-c/build && /usr/bin/cc -DJSON_C_DLL -I/src/json-c/build -I/src/json-c -O2 -g "
			   "-fPIC -MD -MT CMakeFiles/json-c.dir/json_tokener.c.o -MF "
			   "CMakeFiles/json-c.dir/json_tokener.c.o.d -o CMakeFiles/json-c.dir/json_tokener.c.o -c "
			   "/src/json-c/json_tokener.c"),
		      ARGV("/usr/bin/cc", "-DJSON_C_DLL", "-I/src/json-c/build", "-I/src/json-c", "-O2", "-g", "-fPIC",
			   "-MD", "-MT", "CMakeFiles/json-c.dir/json_tokener.c.o", "-MF",
			   "CMakeFiles/json-c.dir/json_tokener.c.o.d", "-o", "CMakeFiles/json-c.dir/json_tokener.c.o",
			   "-c", "/src/json-c/json_tokener.c"),
		      /* -dumpbase json_tokener.c.c is no file: the name came from it once */
		      ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-I", "/src/json-c/build", "-I",
			   "/src/json-c", "-imultiarch", "x86_64-linux-gnu", "-MD",
			   "CMakeFiles/json-c.dir/json_tokener.c.d", "-MF", "CMakeFiles/json-c.dir/json_tokener.c.o.d",
			   "-MT", "CMakeFiles/json-c.dir/json_tokener.c.o", "-D", "JSON_C_DLL",
			   "/src/json-c/json_tokener.c", "-quiet", "-dumpdir", "CMakeFiles/json-c.dir/", "-dumpbase",
			   "json_tokener.c.c", "-dumpbase-ext", ".c", "-mtune=generic", "-march=x86-64", "-g", "-O2",
			   "-fPIC", "-o", "/tmp/ccGkDSUC.s")),
		/* The sources' root is the build's parent: a source is shown from it. */
		NAMES("ninja", "sh -c cc json_tokener.c", "cc json_tokener.c", "cc1 json_tokener.c"));
	/* as reads cc1's temporary: it is named by the object it writes. */
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("ninja"),
			   ARGV("/usr/bin/cc", "-O2", "-o", "CMakeFiles/json-c.dir/json_c_version.c.o", "-c",
				"/src/json-c/json_c_version.c"),
			   ARGV("as", "-I", "/src/json-c/build", "--gdwarf-5", "--64", "-o",
				"CMakeFiles/json-c.dir/json_c_version.c.o", "/tmp/ccGkDSUC.s")),
		     NAMES("ninja", "cc json_c_version.c", "as " OUTPUT "CMakeFiles/json-c.dir/json_c_version.c.o"));
}

#define TREE_MAX 8

/* Processes argvs[0, n) with their parents' indexes, in cwd: each named as want[i] (NULL: not checked). */
static void expect_tree(const char *cwd, char **const *argvs, const long *parent, const char *const *want, size_t n)
{
	struct proc_instance procs[TREE_MAX];
	struct exec_image execs[TREE_MAX];
	struct model m;
	size_t i;

	cr_assert(le(sz, n, TREE_MAX));
	for (i = 0; i < n; i++) {
		execs[i] = make_image(argvs[i], NULL, "x");
		execs[i].start_ns = 10 * i + 1;
		procs[i] = (struct proc_instance){
			.id = i, .parent = parent[i], .start_ns = 10 * i, .execs = &execs[i], .nr_execs = 1,
		};
	}
	m = (struct model){ .procs = procs, .nr_procs = n, .root = 0, .cwd = (char *)cwd };
	cr_assert(eq(int, step_names__attach(&m, NULL), 0));
	for (i = 0; i < n; i++) {
		char *name = proc_display_name(&m, &procs[i]);

		cr_assert(not(eq(ptr, name, NULL)));
		if (want[i])
			cr_assert(eq(str, name, (char *)want[i]), "process %zu", i);
		free(name);
	}
	m.free_names(m.names);
}

/*
 * Issue 39: automake's recursive rule cds in a loop the names cannot
 * follow word by word; its makes, one per listed directory in order, work
 * there, and so their compilers' sources are shown from the build's root.
 */
Test(proc_name, automake_subdir_loop)
{
	static char loop[] = "fail=; dot_seen=no; target=`echo all-recursive | sed s/-recursive//`; "
			     "case \"all-recursive\" in distclean-* | maintainer-clean-*) list='include src . tests' ;; "
			     "*) list='include src . tests' ;; esac; for subdir in $list; do echo \"Making $target in $subdir\"; "
			     "(CDPATH=\"${ZSH_VERSION+.}:\" && cd $subdir && make  $local_target) || eval $failcom; done";
	char **argvs[] = {
		ARGV("make", "-j2"),   ARGV("/bin/bash", "-c", loop), ARGV("make", "all"),
		ARGV("make", "all"),   ARGV("cc1", "-quiet", "-I", ".", "scanner.c", "-o", "/tmp/ccB.s"),
		ARGV("make", "all-am"), ARGV("make", "all"), ARGV("cc1", "-quiet", "run-scanner.c", "-o", "/tmp/ccC.s"),
	};
	static const long parent[] = { -1, 0, 1, 1, 3, 1, 1, 6 };
	static const char *const want[] = { "make", NULL, "make in include", "make in src", "cc1 src/scanner.c",
					    "make", "make in tests", "cc1 tests/run-scanner.c" };

	expect_tree("/src/libyaml", argvs, parent, want, 8);
}

/*
 * Assemblers named by nothing but temporaries, as gcc runs them when one
 * driver compiles and links at once: lz4's "cc … lz4.c xxhash.c -o
 * liblz4.so" reuses one /tmp/ccA.s for each source, and each as writes a
 * temporary object.  Each is named by the source its compiler compiled.
 */
Test(proc_name, an_assembler_of_temporaries_is_named_by_its_compilers_source)
{
	char **argvs[] = {
		ARGV("make"),
		ARGV("cc", "-fPIC", "-shared", "lz4.c", "xxhash.c", "-o", "liblz4.so.1.9.4"),
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "lz4.c", "-dumpbase", "lz4.c", "-o", "/tmp/ccA.s"),
		ARGV("as", "--64", "-o", "/tmp/ccB.o", "/tmp/ccA.s"),
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "xxhash.c", "-o", "/tmp/ccA.s"),
		ARGV("as", "--64", "-o", "/tmp/ccC.o", "/tmp/ccA.s"),
		/* another driver's compile in between: not this assembler's */
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "other.c", "-o", "/tmp/ccA.s"),
	};
	static const long parent[] = { -1, 0, 1, 1, 1, 1, 0 };
	static const char *const want[] = { "make", NULL, "cc1 lz4.c", "as lz4.c", "cc1 xxhash.c", "as xxhash.c",
					    NULL };

	expect_tree("/src/lz4/lib", argvs, parent, want, 7);
}

/*
 * kbuild's cc-can-link.sh: a program piped into "gcc -x c - -o /dev/null".
 * cc1 compiles stdin, as writes a temporary object from cc1's temporary:
 * a probe like its compiler, or like its driver when the compiler ran
 * before the trace; a configure test's assembler like its conftest.c.
 */
Test(proc_name, an_assembler_of_a_probes_temporary_is_a_probe)
{
	char **link[] = {
		ARGV("gcc", "-m64", "-x", "c", "-", "-o", "/dev/null"),
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-", "-quiet", "-dumpbase", "-", "-o", "/tmp/ccA.s"),
		ARGV("as", "--64", "-o", "/tmp/ccB.o", "/tmp/ccA.s"),
	};
	char **driver_only[] = { ARGV("gcc", "-c", "-x", "c", "-", "-o", "/dev/null"),
				 ARGV("as", "--64", "-o", "/dev/null", "/tmp/ccA.s") };
	char **conftest[] = {
		ARGV("gcc", "-o", "conftest", "-g", "-O2", "conftest.c"),
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "conftest.c", "-o", "/tmp/ccQ1.s"),
		ARGV("as", "--64", "-o", "/tmp/ccQ2.o", "/tmp/ccQ1.s"),
	};
	char **real[] = { ARGV("gcc", "-c", "-x", "c", "-", "-o", "main.o"),
			  ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-", "-o", "/tmp/ccA.s"),
			  ARGV("as", "--64", "-o", "main.o", "/tmp/ccA.s") };
	static const long parent[] = { -1, 0, 0 };

	expect_tree("/src/linux", link, parent, NAMES("gcc (probe)", "cc1 (probe)", "as (probe)"), 3);
	expect_tree("/src/linux", driver_only, parent, NAMES("gcc (probe)", "as (probe)"), 2);
	expect_tree("/src/pkg", conftest, parent,
		    NAMES("gcc conftest.c (probe)", "cc1 conftest.c (probe)", "as conftest.c (probe)"), 3);
	expect_tree("/src", real, parent, NAMES("gcc (probe)", "cc1 (probe)", "as (probe)"), 3);
}

/* With -pipe the assembler reads its compiler's output from a pipe: the latest compiler of its driver. */
Test(proc_name, a_piped_assembler_is_named_by_its_compilers_source)
{
	char **argvs[] = {
		ARGV("cc", "-pipe", "a.c", "-o", "prog"),
		ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "a.c"),
		ARGV("as", "--64", "-o", "/tmp/ccB.o"),
	};
	static const long parent[] = { -1, 0, 0 };
	static const char *const want[] = { "cc a.c", "cc1 a.c", "as a.c" };

	expect_tree("/src", argvs, parent, want, 3);
}

/*
 * No compiler of its own in the recording (it ran before the trace began):
 * the driver's one source; of several, nothing to choose by.  An assembler
 * that writes a real object keeps its -o.
 */
Test(proc_name, an_assembler_without_its_compiler_takes_its_drivers_one_source)
{
	char **one[] = { ARGV("cc", "-O2", "main.c", "-o", "prog"), ARGV("as", "-o", "/tmp/ccB.o", "/tmp/ccA.s") };
	char **two[] = { ARGV("cc", "a.c", "b.c", "-o", "prog"), ARGV("as", "-o", "/tmp/ccB.o", "/tmp/ccA.s") };
	char **real[] = { ARGV("cc", "-c", "a.c", "-o", "a.o"), ARGV("as", "-o", "a.o", "/tmp/ccA.s") };
	static const long parent[] = { -1, 0 };

	expect_tree("/src", one, parent, NAMES("cc main.c", "as main.c"), 2);
	expect_tree("/src", two, parent, NAMES("cc a.c +1 more", "as /tmp/ccA.s"), 2);
	expect_tree("/src", real, parent, NAMES("cc a.c", "as " OUTPUT "a.o"), 2);
}

/* ninja's link wrapper and cmake's -E helpers. */
Test(proc_name, cmake_link_and_helpers)
{
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("ninja"),
			   ARGV("/bin/sh", "-c",
				": && /usr/bin/cc -fPIC -O2 -g -shared -Wl,-soname,libjson-c.so.5 -o libjson-c.so.5.3.0 "
				"CMakeFiles/json-c.dir/arraylist.c.o CMakeFiles/json-c.dir/debug.c.o && :"),
			   ARGV("/usr/bin/cc", "-fPIC", "-shared", "-o", "libjson-c.so.5.3.0",
				"CMakeFiles/json-c.dir/arraylist.c.o"),
			   ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/collect2", "-plugin",
				"/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so", "-m", "elf_x86_64", "-shared", "-o",
				"libjson-c.so.5.3.0", "CMakeFiles/json-c.dir/arraylist.c.o", "-lc"),
			   ARGV("/usr/bin/ld", "-m", "elf_x86_64", "-shared", "-o", "libjson-c.so.5.3.0",
				"CMakeFiles/json-c.dir/arraylist.c.o")),
		     NAMES("ninja", "sh -c cc " OUTPUT "libjson-c.so.5.3.0", "cc " OUTPUT "libjson-c.so.5.3.0",
			   "collect2 " OUTPUT "libjson-c.so.5.3.0", "ld " OUTPUT "libjson-c.so.5.3.0"));
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("make", "-j2"),
			   ARGV("make", "-f", "CMakeFiles/Makefile2", "all"),
			   ARGV("make", "-f", "CMakeFiles/json-c.dir/build.make", "CMakeFiles/json-c.dir/depend"),
			   ARGV("/usr/bin/cmake", "-E", "cmake_depends", "Unix Makefiles", "/src/json-c", "/src/json-c",
				"/src/json-c/build", "/src/json-c/build",
				"/src/json-c/build/CMakeFiles/json-c.dir/DependInfo.cmake", "--color=")),
		     NAMES("make", "make -f CMakeFiles/Makefile2", "make -f CMakeFiles/json-c.dir/build.make",
			   "cmake -E cmake_depends CMakeFiles/json-c.dir"));
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("make"),
			   ARGV("/usr/bin/cmake", "-E", "cmake_link_script", "CMakeFiles/json-c.dir/link.txt",
				"--verbose=1")),
		     NAMES("make", "cmake -E cmake_link_script CMakeFiles/json-c.dir/link.txt"));
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("make"),
			   ARGV("/usr/bin/cmake", "-E", "cmake_echo_color", "--switch=", "--green",
				"--progress-dir=/src/json-c/build/CMakeFiles", "--progress-num=1,2",
				"Building C object CMakeFiles/json-c.dir/arraylist.c.o")),
		     NAMES("make", "cmake -E cmake_echo_color"));
	expect_chain("/src/json-c/build",
		     ARGVS(ARGV("ninja"),
			   ARGV("/bin/sh", "-c",
				"cd /src/json-c/build && /usr/bin/cmake -E cmake_symlink_library libjson-c.so.5.3.0 "
				"libjson-c.so.5 libjson-c.so && :"),
			   ARGV("/usr/bin/cmake", "-E", "cmake_symlink_library", "libjson-c.so.5.3.0", "libjson-c.so.5",
				"libjson-c.so"),
			   ARGV("cmake", "-P", "/src/json-c/build/cmake_install.cmake"),
			   ARGV("cmake", "--build", "/src/json-c/build")),
		     NAMES("ninja", "sh -c cmake -E cmake_symlink_library libjson-c.so.5.3.0",
			   "cmake -E cmake_symlink_library libjson-c.so.5.3.0", "cmake -P cmake_install.cmake",
			   "cmake --build /src/json-c/build"));
	/* cmake --build runs the generator in the build directory, with no -C. */
	expect_chain("/src/json-c",
		     ARGVS(ARGV("cmake", "--build", "build"), ARGV("/usr/bin/gmake", "-f", "Makefile"),
			   ARGV("/usr/bin/cmake", "-S/src/json-c", "-B/src/json-c/build", "--check-build-system",
				"CMakeFiles/Makefile.cmake", "0")),
		     NAMES("cmake --build build", "gmake -f Makefile", "cmake CMakeFiles/Makefile.cmake"));
	expect_chain("/src/json-c", ARGVS(ARGV("ninja", "-C", "build"), ARGV("cmake", "--build", "../other")),
		     NAMES("ninja -C build", "cmake --build ../other"));
}

/* Two core.c in the kernel: named apart by their path; kbuild's makes by obj=. */
Test(proc_name, kbuild_compiles_and_makes)
{
	static char kbuild_script[] =
		"set -e;  echo '  CC      kernel/events/core.o'; trap 'rm -f kernel/events/core.o; "
		"trap - HUP; kill -s HUP $$' HUP;  gcc -Wp,-MMD,kernel/events/.core.o.d -nostdinc "
		"-I./arch/x86/include -D__KERNEL__ -O2 -c -o kernel/events/core.o kernel/events/core.c  ; "
		"./tools/objtool/objtool --hacks=jump_label kernel/events/core.o";

	expect_chain("/src/linux",
		     ARGVS(ARGV("make", "-j2"),
			   ARGV("make", "-f", "./scripts/Makefile.build", "obj=kernel", "need-builtin=1"),
			   ARGV("make", "-f", "./scripts/Makefile.build", "obj=kernel/events", "need-builtin=1"),
			   ARGV("/bin/sh", "-c", kbuild_script),
			   ARGV("gcc", "-Wp,-MMD,kernel/events/.core.o.d", "-nostdinc", "-I./arch/x86/include",
				"-D__KERNEL__", "-O2", "-c", "-o", "kernel/events/core.o", "kernel/events/core.c"),
			   ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-nostdinc", "-I", "./arch/x86/include",
				"-D", "__KERNEL__", "kernel/events/core.c", "-quiet", "-dumpdir", "kernel/events/",
				"-dumpbase", "core.c", "-dumpbase-ext", ".c", "-O2", "-o", "/tmp/ccAb12Cd.s")),
		     NAMES("make", "make obj=kernel", "make obj=kernel/events", "sh -c gcc kernel/events/core.c",
			   "gcc kernel/events/core.c", "cc1 kernel/events/core.c"));
	/* GCC 10 and older: -auxbase-strip names the object, -dumpbase the source. */
	expect_chain("/src/linux",
		     ARGVS(ARGV("make", "-f", "./scripts/Makefile.build", "obj=kernel/sched"),
			   ARGV("/usr/lib/gcc/x86_64-linux-gnu/10/cc1", "-quiet", "-nostdinc", "kernel/sched/core.c",
				"-quiet", "-dumpbase", "core.c", "-mtune=generic", "-march=x86-64", "-auxbase-strip",
				"kernel/sched/core.o", "-O2", "-o", "/tmp/ccQq1Rz9.s")),
		     NAMES("make obj=kernel/sched", "cc1 kernel/sched/core.c"));
}

/* A recipe that sleeps before its command is named by the command, not the sleep. */
Test(proc_name, a_sleep_before_the_step_is_no_name)
{
	static char script[] = "sleep 0.5; cc -o out/prog main.c out/alpha.o out/beta.o out/gamma.o out/delta.o";

	expect_name(ARGV("/bin/sh", "-c", script), NULL, "sh", "sh -c cc main.c");
	/* A short one is still shown whole. */
	expect_name(ARGV("/bin/sh", "-c", "sleep 1"), NULL, "sh", "sh -c sleep 1");
}

/* Issue 26, item 6: kbuild's prelude before each command of a recipe is no name. */
Test(proc_name, kbuild_prelude_skipped)
{
	static char prelude[] = "set -e;  exec >/dev/null;  trap 'rm -f mm/filemap.o; trap - HUP; kill -s HUP $$' HUP; "
				"trap 'rm -f mm/filemap.o; trap - INT; kill -s INT $$' INT; ";
	char script[512];

	/* A command a name follows: named by it, as before. */
	snprintf(script, sizeof(script), "%s%s", prelude, "../linux/scripts/check-local-export mm/filemap.o");
	expect_name(ARGV("/bin/sh", "-c", script), NULL, "sh", "sh -c check-local-export mm/filemap.o");
	/* One it does not (a { } group): shown from where the prelude ends. */
	snprintf(script, sizeof(script), "%s%s", prelude,
		 "{ echo ; echo 'mm/filemap.o: $(wildcard ./tools/objtool/objtool)' ; } >> mm/.filemap.o.cmd");
	expect_name(ARGV("/bin/sh", "-c", script), NULL, "sh", "sh -c { echo ; echo 'mm/filemap.o: $(wildcard " ELLIPSIS);
	/* A recipe line whose command is empty (kbuild's checksrc without C=1): kbuild_empty_line_by_target. */
	expect_name(ARGV("/bin/sh", "-c", prelude), NULL, "sh", "sh mm/filemap.o (no command)");
	/* automake's ": >>dir/.deps/x.Po": the directories give way to the file it names. */
	expect_name(ARGV("/bin/bash", "-c", ": >>lib/malloc/.deps/libsed_a-dynarray_at_failure.Po"), NULL, "bash",
		    "bash -c : " ELLIPSIS "/.deps/libsed_a-dynarray_at_failure.Po");
	/* One that says something: by that. */
	snprintf(script, sizeof(script), "%s%s", prelude, "echo '  CHECK   mm/filemap.c'");
	expect_name(ARGV("/bin/sh", "-c", script), NULL, "sh", "sh -c echo ' CHECK mm/filemap.c'");
	/* A command with nothing to name it by: from where the prelude ends too. */
	snprintf(script, sizeof(script), "%s%s", prelude, "if [ -f mm/.filemap.o.d ]; then mv mm/.filemap.o.d mm/x; fi");
	expect_name(ARGV("/bin/sh", "-c", script), NULL, "sh", "sh -c if [ -f mm/.filemap.o.d ]; then mv " ELLIPSIS);
}

/*
 * Issue 39: kbuild's recipe lines of an empty command (checksrc, record_mcount
 * off) run nothing but their prelude: named by the target their trap removes,
 * not by the prelude's text cut inside that target.
 */
Test(proc_name, kbuild_empty_line_by_target)
{
	static char empty[] = "set -e;     trap 'rm -f mm/vmalloc.o; trap - HUP; kill -s HUP $$' HUP;  "
			      "trap 'rm -f mm/vmalloc.o; trap - INT; kill -s INT $$' INT; ";
	static char cut[] = "set -e;  echo '  CC      mm/vmalloc.o'; trap 'rm -f mm/vmalloc.o; trap - HUP; kill -s HUP $$' HUP;"
			    "  trap 'rm -f mm/vmalloc.o; trap - INT; kill -s IN";
	struct exec_image img = make_image(ARGV("/bin/sh", "-c", cut), NULL, "sh");
	char *name;

	expect_name(ARGV("/bin/sh", "-c", empty), NULL, "sh", "sh mm/vmalloc.o (no command)");
	/* The recorded argv ends inside the prelude: what it would have run is not known. */
	img.flags = BB_EXEC_ARGS_TRUNCATED;
	name = name_of(img);
	cr_assert(eq(str, name, "sh mm/vmalloc.o (command cut)"));
	free(name);
	/* The same text, whole as recorded: a script the shell refuses, shown as it is. */
	expect_name(ARGV("/bin/sh", "-c", cut), NULL, "sh", "sh -c trap 'rm -f mm/vmalloc.o; trap - INT; kill -s IN");
	/* A trap that removes no one file names nothing. */
	expect_name(ARGV("/bin/sh", "-c", "set -e; trap 'rm -rf .tmp_1 .tmp_2' EXIT; trap 'kill -s HUP $$' HUP; : ; : ; : ;"),
		    NULL, "sh", "sh -c set -e; trap 'rm -rf .tmp_1 .tmp_2' EXIT; trap " ELLIPSIS);
}

/*
 * Issue 39: autotools' perl scripts run through their "#!" line are named as
 * the program a person ran ("autom4te configure.ac"), not "perl"; "-o -"
 * writes standard output, no file that tells a step apart.
 */
Test(proc_name, script_run_through_its_interpreter)
{
	struct exec_image img;

	expect_name(ARGV("/usr/bin/perl", "/usr/bin/autom4te", "--language=autoconf", "--output=-", "--trace=AC_X:$f",
			 "configure.ac"),
		    "/usr/bin/autom4te", "autom4te", "autom4te configure.ac");
	/* With the "#!" line's own argument. */
	expect_name(ARGV("/usr/bin/perl", "-w", "/usr/bin/automake-1.16", "--gnu"), "/usr/bin/automake-1.16", "automake-1.16",
		    "automake-1.16");
	/* perl run as itself, on a script or not: perl. */
	expect_name(ARGV("perl", "gen.pl", "tables.txt"), "/usr/bin/perl", "perl", "perl gen.pl");
	expect_name(ARGV("perl", "-e", "require 5.005;"), "/usr/bin/perl", "perl", "perl");
	/* A shell's script stays its operand: configure, sh scripts/x.sh. */
	expect_name(ARGV("/bin/sh", "scripts/check-local-export", "mm/x.o"), "scripts/check-local-export", "sh",
		    "sh scripts/check-local-export");
	img = make_image(ARGV("gcc", "-E", "-P", "x.c", "-o", "-"), NULL, "gcc");
	cr_assert(eq(ptr, (void *)image_output(&img), NULL));
	img = make_image(ARGV("/usr/bin/perl", "/usr/bin/autom4te", "--output=configure", "configure.ac"), NULL, "perl");
	cr_assert(eq(str, (char *)image_output(&img), "configure"));
}

/* Recursive makes: each -C moves where relative paths start. */
Test(proc_name, recursive_make_directories)
{
	expect_chain("/home/u/proj",
		     ARGVS(ARGV("make", "-j2"), ARGV("make", "-C", "lib", "all"), ARGV("make", "--directory=sub"),
			   ARGV("cc", "-c", "-o", "x.o", "x.c"),
			   ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus", "-quiet", "-D_GNU_SOURCE", "x.cc", "-quiet",
				"-dumpdir", "./", "-dumpbase", "x.cc", "-dumpbase-ext", ".cc", "-O2", "-o",
				"/tmp/ccZz9Yy8.s")),
		     NAMES("make", "make -C lib", "make -C lib/sub", "cc lib/sub/x.c", "cc1plus lib/sub/x.cc"));
	/* The command's own -C is the build's directory: shown as given. */
	expect_chain("/work/buildbpf",
		     ARGVS(ARGV("make", "-C", "/tmp/demo", "-j2"),
			   ARGV("cc", "-std=c11", "-I./include", "-MMD", "-MP", "-c", "-o", "out/crc.o", "src/crc.c"),
			   ARGV("/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet", "-I", "./include", "-imultiarch",
				"x86_64-linux-gnu", "-MMD", "out/crc.d", "-MP", "-MQ", "out/crc.o", "src/crc.c", "-quiet",
				"-dumpdir", "out/", "-dumpbase", "crc.c", "-dumpbase-ext", ".c", "-o", "/tmp/ccvSqAHi.s")),
		     NAMES("make -C /tmp/demo", "cc src/crc.c", "cc1 src/crc.c"));
	/* No cwd recorded (an older recording): relative paths still compose. */
	expect_chain(NULL,
		     ARGVS(ARGV("make", "-C", "tree"), ARGV("sh", "-c", "cd lib && make"), ARGV("make"),
			   ARGV("cc", "-c", "../src/a.c")),
		     NAMES("make -C tree", "sh -c cd lib && make", "make", "cc src/a.c"));
}

/* ar, ranlib and a program that reads several files. */
Test(proc_name, archives_and_many_inputs)
{
	expect_chain("/tmp/demo",
		     ARGVS(ARGV("make"),
			   ARGV("ar", "rcs", "out/libdemo.a", "out/crc.o", "out/fmt.o", "out/hash.o"),
			   ARGV("x86_64-linux-gnu-gcc-ar-12", "--plugin", "/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so",
				"qc", "libx.a", "a.o"),
			   ARGV("ar", "-rb", "b.o", "libx.a", "c.o"),
			   ARGV("ranlib", "-D", "libx.a")),
		     NAMES("make", "ar out/libdemo.a", "x86_64-linux-gnu-gcc-ar-12 libx.a",
			   "ar libx.a", "ranlib libx.a"));
	expect_chain("/tmp/demo",
		     ARGVS(ARGV("make"),
			   ARGV("/bin/sh", "-c",
				"./out/wordstat ./src/crc.c ./src/fmt.c ./src/hash.c ./src/main.c ./src/mix.c "
				"./src/vec.c ./src/words.c > out/report.txt"),
			   ARGV("./out/wordstat", "./src/crc.c", "./src/fmt.c", "./src/hash.c", "./src/main.c",
				"./src/mix.c", "./src/vec.c", "./src/words.c")),
		     NAMES("make", "sh -c wordstat src/crc.c +6 more", "wordstat src/crc.c +6 more"));
}

/* clang's driver and -cc1: -main-file-name and -dependency-file are no inputs. */
Test(proc_name, clang_driver_and_cc1)
{
	expect_chain("/src/proj/build",
		     ARGVS(ARGV("ninja"),
			   ARGV("clang-14", "-O2", "-MD", "-MT", "foo.o", "-MF", "foo.o.d", "-o", "foo.o", "-c",
				"../src/foo.c"),
			   ARGV("/usr/lib/llvm-14/bin/clang", "-cc1", "-triple", "x86_64-pc-linux-gnu", "-emit-obj",
				"-main-file-name", "foo.c", "-dependency-file", "foo.o.d", "-MT", "foo.o", "-resource-dir",
				"/usr/lib/llvm-14/lib/clang/14.0.6", "-O2", "-o", "foo.o", "-x", "c", "../src/foo.c")),
		     NAMES("ninja", "clang-14 src/foo.c", "clang src/foo.c"));
}

/* Paths far from the build's directory are shown whole, cut from the left. */
Test(proc_name, far_paths_stay_short)
{
	expect_chain("/home/u/proj",
		     ARGVS(ARGV("make"),
			   ARGV("cc", "-c", "/opt/vendor/sdk-2024.1/platform/x86_64/runtime/src/generated/startup_code.c"),
			   ARGV("cc", "-c", "/home/u/other/x.c"), ARGV("cc", "-c", "/home/x.c"), ARGV("cc", "-c", "/x.c")),
		     NAMES("make", "cc " ELLIPSIS "/x86_64/runtime/src/generated/startup_code.c", "cc ../other/x.c",
			   "cc ../../x.c", "cc /x.c"));
	expect_chain("/a/b/c/d",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "/a/x/y.c"), ARGV("cc", "-c", "./../d/./e//f.c")),
		     NAMES("make", "cc /a/x/y.c", "cc e/f.c"));
}

/*
 * An out-of-tree build: its sources are shown from the directory they and
 * the build's share (the sources' root), not as "../src/a.c"; what the
 * build makes, from the build's directory.
 */
Test(proc_name, sources_shown_from_their_root)
{
	expect_chain("/src/pkg/build",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "-o", "a.o", "../src/a.c"), ARGV("cc", "-c", "../tests/t.c"),
			   ARGV("ld", "-o", "out/prog", "a.o")),
		     NAMES("make", "cc src/a.c", "cc tests/t.c", "ld -o out/prog"));
	/* Two levels up at most, as a path outside the build is shown. */
	expect_chain("/src/pkg/build/x86",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "../../src/a.c"), ARGV("cc", "-c", "../../lib/b.c")),
		     NAMES("make", "cc src/a.c", "cc lib/b.c"));
	/* In the build's tree, a source is shown from the build's directory as before. */
	expect_chain("/src/pkg",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "src/a.c"), ARGV("cc", "-c", "lib/b.c")),
		     NAMES("make", "cc src/a.c", "cc lib/b.c"));
	/* A source sharing only "/" with the build leaves the root the build's. */
	expect_chain("/src/pkg/build",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "../src/a.c"), ARGV("cc", "-c", "/opt/x.c")),
		     NAMES("make", "cc ../src/a.c", "cc /opt/x.c"));
}

/*
 * A configure script is named "configure", not by its shell; a nested one
 * by the directory it configures, from the sources' root; config.status's
 * rerun by its --no-create.
 */
Test(proc_name, configure_by_its_directory)
{
	expect_chain("/src/pkg/build",
		     ARGVS(ARGV("make"), ARGV("cc", "-c", "../lib/a.c"),
			   ARGV("/bin/bash", "../libiberty/configure", "--cache-file=../config.cache"),
			   ARGV("/bin/sh", "../configure", "--no-create", "--no-recursion"),
			   ARGV("/bin/sh", "./configure", "-q"), ARGV("/bin/sh", "./configure.sh")),
		     NAMES("make", "cc lib/a.c", "configure (libiberty)", "configure --no-create", "configure",
			   "sh configure.sh"));
}

/* Long scripts a name cannot follow fall back to the cut script, never fail. */
Test(proc_name, unfollowable_scripts_are_cut_not_parsed)
{
	static const char *const scripts[] = {
		"cc -c 'an unclosed quote.c and then a good deal more text to pass 48",
		"cc -c \"$(find . -name '*.c' | head -1)\" -o first.o && echo done, really done",
		"cat <<EOF > out.c\nint main(void) { return 0; }\nEOF\ncc -c out.c -o out.o",
		"if test -f x.c; then cc -c x.c -o x.o; fi # and a comment to make it long",
		"(cd sub && cc -c a.c -o a.o) && (cd sub2 && cc -c b.c -o b.o) && true",
		"mkdir -p out/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z trailing\\",
		"cd && cc -c x.c -o x.o -DSOMETHING_LONG_ENOUGH_TO_BE_CUT=1 -DMORE=2",
	};
	size_t i;

	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		char *name = name_of(make_image(ARGV("sh", "-c", (char *)scripts[i]), NULL, "sh"));

		cr_assert(not(eq(ptr, name, NULL)));
		assert_clean_name(name);
		cr_assert(eq(int, strncmp(name, "sh -c ", 6), 0), "%s", name);
		/* Its first words: a path after them may lose directories ("mkdir -p …/z …"). */
		cr_assert(eq(int, strncmp(name + 6, scripts[i], 9), 0), "not the script itself: %s", name);
		cr_assert(eq(str, name + strlen(name) - 3, ELLIPSIS), "%s", name);
		free(name);
	}
	/* Quotes, escapes, redirections and assignments a name does follow. */
	expect_name(ARGV("sh", "-c",
			 "CCACHE_DIR=/tmp/c exec \"/usr/bin/cc\" -c 'my file.c' -o my\\ file.o 2>&1 >log.txt # a comment"),
		    NULL, "sh", "sh -c cc my file.c");
}

/* The binary search needs the table in order: one out of place would go unfound. */
Test(proc_name, value_options_are_sorted_and_each_found)
{
	size_t i, nr;
	const char *const *opts = image_value_options(&nr);

	cr_assert(names_sorted(opts, nr));
	for (i = 0; i < nr; i++)
		cr_assert(image_option_takes_value(opts[i]), "%s", opts[i]);
	cr_assert(not(image_option_takes_value("-Wall")));
	cr_assert(not(image_option_takes_value("-")));
	cr_assert(not(image_option_takes_value("-0")));
	cr_assert(not(image_option_takes_value("-z")));
	cr_assert(not(image_option_takes_value("-include-pch")));
	cr_assert(not(image_option_takes_value("")));
}

Test(proc_name, names_sorted_sees_order_and_repeats)
{
	static const char *const in_order[] = { "-A", "-b", "-c" }, *const out_of_order[] = { "-b", "-A" },
				 *const twice[] = { "-A", "-A" };

	cr_assert(names_sorted(in_order, 3));
	cr_assert(not(names_sorted(out_of_order, 2)));
	cr_assert(not(names_sorted(twice, 2)));
	cr_assert(name_in_sorted("-c", in_order, 3));
	cr_assert(not(name_in_sorted("-B", in_order, 3)));
}

/*
 * Issue 39: automake's recursive rule is named by what it does, the target
 * make gave it, not by its opening text ("bash -c fail=; \ if (…").
 */
Test(proc_name, automake_recursive_rule_named_by_its_target)
{
	static char loop[] = "fail=; \\\nif (target_option=k; case ${target_option-} in ?) ;; esac; test $has_opt = yes); "
			     "then failcom='fail=yes'; else failcom='exit 1'; fi; dot_seen=no; "
			     "target=`echo install-recursive | sed s/-recursive//`; "
			     "case \"install-recursive\" in distclean-* | maintainer-clean-*) list='lib src' ;; "
			     "*) list='lib src' ;; esac; for subdir in $list; do echo \"Making $target in $subdir\"; "
			     "(CDPATH=\"${ZSH_VERSION+.}:\" && cd $subdir && make  $local_target) || eval $failcom; done";

	expect_name(ARGV("/bin/bash", "-c", loop), "/bin/bash", "bash", "bash install-recursive (recursive make)");
}

/*
 * Issue 39: kbuild's compiler probes, scripts/Makefile.compiler's try-run
 * and Kconfig's cc-option, each named by the option it probes, not all by
 * their common opening.
 */
Test(proc_name, kbuild_probes_named_by_the_option_they_probe)
{
	expect_name(ARGV("/bin/sh", "-c",
			 "set -e; TMP=.tmp_$$/tmp; trap \"rm -rf .tmp_$$\" EXIT; mkdir -p .tmp_$$; if (  gcc -Werror  "
			 "-D__KERNEL__ -Wall -std=gnu11 -fno-PIE -c -x c /dev/null -o \"$TMP\") >/dev/null 2>&1; then "
			 "echo \"-fno-PIE\"; else echo \"\"; fi"),
		    "/bin/sh", "sh", "cc-option -fno-PIE");
	expect_name(ARGV("/bin/sh", "-c",
			 "set -e; TMP=.tmp_$$/tmp; trap \"rm -rf .tmp_$$\" EXIT; mkdir -p .tmp_$$; if (  gcc -D__ASSEMBLY__ "
			 "-Wa,-mtune=generic32 -c -x assembler-with-cpp /dev/null -o \"$TMP\") >/dev/null 2>&1; then "
			 "echo \"-Wa,-mtune=generic32\"; else echo \"\"; fi"),
		    "/bin/sh", "sh", "as-option -Wa,-mtune=generic32");
	/* Kconfig's: y or n, the option between -Werror and the compile's own words, /dev/null in it or not. */
	expect_name(ARGV("sh", "-c",
			 "{ trap \"rm -rf .tmp_$$\" EXIT; mkdir .tmp_$$; gcc -Werror  -m64 -D__SIZEOF_INT128__=0 -c -x c "
			 "/dev/null -o .tmp_$$/tmp.o; } >/dev/null 2>&1 && echo \"y\" || echo \"n\""),
		    "/bin/sh", "sh", "cc-option -m64 -D__SIZEOF_INT128__=0");
	expect_name(ARGV("sh", "-c",
			 "{ trap \"rm -rf .tmp_$$\" EXIT; mkdir .tmp_$$; gcc -Werror  -frandomize-layout-seed-file=/dev/null "
			 "-c -x c /dev/null -o .tmp_$$/tmp.o; } >/dev/null 2>&1 && echo \"y\" || echo \"n\""),
		    "/bin/sh", "sh", "cc-option -frandomize-layout-seed-file=/dev/null");
}

/*
 * Issue 39: libtool makes a library's links in "(cd .libs && ln -s ../x.la
 * x.la)", a cd in its own script: its ln is named from .libs.
 */
/* Issue 39: ln is named by the link it makes: libtool's two links to one library differ. */
Test(proc_name, ln_named_by_the_link_it_makes)
{
	expect_name(ARGV("ln", "-s", "libyaml-0.so.2.0.9", "libyaml.so"), "/usr/bin/ln", "ln", "ln libyaml.so");
	expect_name(ARGV("ln", "-sf", "libyaml-0.so.2.0.9", "libyaml-0.so.2"), "/usr/bin/ln", "ln", "ln libyaml-0.so.2");
}

Test(proc_name, libtool_links_named_from_its_objdir)
{
	expect_chain("/src/libyaml",
		     ARGVS(ARGV("make"), ARGV("make", "-C", "src"),
			   ARGV("/bin/bash", "../libtool", "--tag=CC", "--mode=link", "gcc", "-o", "libyaml.la", "api.lo"),
			   ARGV("ln", "-s", "../libyaml.la", "libyaml.la")),
		     NAMES("make", "make -C src", "bash libtool", "ln src/.libs/libyaml.la"));
}
