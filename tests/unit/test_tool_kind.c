// SPDX-License-Identifier: GPL-2.0
/* What a build tool is: the one table (model/tool_kind.h). */
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/tool_kind.h"

static enum tool_kind of(const char *base)
{
	return tool_kind__of(base, strlen(base));
}

Test(tool_kind, every_kind_the_issue_names_has_a_tool)
{
	cr_assert(eq(int, tool_kind__lookup("make"), TOOL_MAKE));
	cr_assert(eq(int, tool_kind__lookup("samu"), TOOL_NINJA));
	cr_assert(eq(int, tool_kind__lookup("gcc"), TOOL_CC_DRIVER));
	cr_assert(eq(int, tool_kind__lookup("cc1plus"), TOOL_CC_PROPER));
	cr_assert(eq(int, tool_kind__lookup("as"), TOOL_ASSEMBLER));
	cr_assert(eq(int, tool_kind__lookup("collect2"), TOOL_LINKER));
	cr_assert(eq(int, tool_kind__lookup("ar"), TOOL_AR));
	cr_assert(eq(int, tool_kind__lookup("dash"), TOOL_SHELL));
	cr_assert(eq(int, tool_kind__lookup("ccache"), TOOL_CACHE));
	cr_assert(eq(int, tool_kind__lookup("python3"), TOOL_OTHER));
}

/* A toolchain's names: the exact lookup takes nothing off, the program's name does. */
Test(tool_kind, versions_and_prefixes_are_read_only_from_a_program_name)
{
	cr_assert(eq(int, tool_kind__lookup("gcc-12"), TOOL_OTHER));
	cr_assert(eq(int, of("gcc-12"), TOOL_CC_DRIVER));
	cr_assert(eq(int, of("x86_64-linux-gnu-gcc"), TOOL_CC_DRIVER));
	cr_assert(eq(int, of("x86_64-linux-gnu-gcc-12.2"), TOOL_CC_DRIVER));
	cr_assert(eq(int, of("llvm-ar"), TOOL_AR));
	cr_assert(eq(int, of("gcc-"), TOOL_OTHER));
	cr_assert(eq(int, tool_kind__of("make", 0), TOOL_OTHER));
}

Test(tool_kind, only_make_and_ninja_are_runners)
{
	cr_assert(tool_kind__is_runner(TOOL_MAKE));
	cr_assert(tool_kind__is_runner(TOOL_NINJA));
	cr_assert(not(tool_kind__is_runner(TOOL_CMAKE)));
	cr_assert(not(tool_kind__is_runner(TOOL_SHELL)));
	cr_assert(not(tool_kind__is_runner(TOOL_OTHER)));
}

Test(tool_kind, collect2_alone_wraps_another_tool)
{
	cr_assert(tool_kind__wraps("collect2"));
	cr_assert(not(tool_kind__wraps("ld")));
	cr_assert(not(tool_kind__wraps("cc")));
	cr_assert(not(tool_kind__wraps("make")));
}
