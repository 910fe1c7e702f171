// SPDX-License-Identifier: GPL-2.0
/* What each build tool is (include/model/tool_kind.h): the one table. */
#include <string.h>
#include "model/tool_kind.h"

static const struct {
	const char *name;
	enum tool_kind kind;
} tools[] = {
	{ "sh", TOOL_SHELL },	      { "bash", TOOL_SHELL },	   { "dash", TOOL_SHELL },
	{ "zsh", TOOL_SHELL },	      { "ash", TOOL_SHELL },	   { "ksh", TOOL_SHELL },
	{ "mksh", TOOL_SHELL },	      { "cc", TOOL_CC_DRIVER },	   { "c++", TOOL_CC_DRIVER },
	{ "gcc", TOOL_CC_DRIVER },    { "g++", TOOL_CC_DRIVER },   { "clang", TOOL_CC_DRIVER },
	{ "clang++", TOOL_CC_DRIVER }, { "cpp", TOOL_CC_DRIVER },  { "gfortran", TOOL_CC_DRIVER },
	{ "c89", TOOL_CC_DRIVER },    { "c99", TOOL_CC_DRIVER },   { "cc1", TOOL_CC_PROPER },
	{ "cc1plus", TOOL_CC_PROPER }, { "cc1obj", TOOL_CC_PROPER }, { "cc1objplus", TOOL_CC_PROPER },
	{ "f951", TOOL_CC_PROPER },   { "lto1", TOOL_CC_PROPER },  { "as", TOOL_ASSEMBLER },
	{ "gas", TOOL_ASSEMBLER },    { "nasm", TOOL_ASSEMBLER },  { "yasm", TOOL_ASSEMBLER },
	{ "ld", TOOL_LINKER },	      { "ld.bfd", TOOL_LINKER },   { "ld.gold", TOOL_LINKER },
	{ "ld.lld", TOOL_LINKER },    { "lld", TOOL_LINKER },	   { "mold", TOOL_LINKER },
	{ "collect2", TOOL_LINKER },  { "ar", TOOL_AR },	   { "ranlib", TOOL_RANLIB },
	{ "make", TOOL_MAKE },	      { "gmake", TOOL_MAKE },	   { "ninja", TOOL_NINJA },
	{ "samu", TOOL_NINJA },	      { "cmake", TOOL_CMAKE },	   { "ccache", TOOL_CACHE },
	{ "sccache", TOOL_CACHE },    { "distcc", TOOL_CACHE },	   { "icecc", TOOL_CACHE },
	{ "cargo", TOOL_CARGO },      { "rustc", TOOL_RUSTC },	   { "build-script-build", TOOL_BUILD_SCRIPT },
	{ "go", TOOL_GO },	      { "compile", TOOL_GO_TOOL }, { "asm", TOOL_GO_TOOL },
	{ "cgo", TOOL_GO_TOOL },      { "link", TOOL_GO_TOOL },
};

/* The tools above that run another of their kind and wait for it. */
static const char *const wrappers[] = { "collect2" };

enum tool_kind tool_kind__lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		/* The first byte rules out most entries without a call. */
		if (name[0] == tools[i].name[0] && !strcmp(name, tools[i].name))
			return tools[i].kind;
	}
	return TOOL_OTHER;
}

bool tool_kind__wraps(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++)
		if (!strcmp(name, wrappers[i]))
			return true;
	return false;
}

enum tool_kind tool_kind__of(const char *base, size_t len)
{
	char name[64];
	char *dash;
	enum tool_kind kind;

	if (!len || len >= sizeof(name))
		return TOOL_OTHER;
	memcpy(name, base, len);
	name[len] = '\0';
	dash = strrchr(name, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789.") == strlen(dash + 1))
		*dash = '\0'; /* a version suffix */
	kind = tool_kind__lookup(name);
	dash = strrchr(name, '-');
	if (kind == TOOL_OTHER && dash)
		kind = tool_kind__lookup(dash + 1); /* a target or toolchain prefix */
	return kind;
}

bool tool_kind__is_runner(enum tool_kind kind)
{
	return kind == TOOL_MAKE || kind == TOOL_NINJA || kind == TOOL_CARGO || kind == TOOL_GO;
}

bool tool_kind__starts_most_needed_first(enum tool_kind kind)
{
	return kind == TOOL_CARGO;
}

bool tool_kind__is_toolchain(enum tool_kind kind)
{
	return kind == TOOL_CC_DRIVER || kind == TOOL_CC_PROPER || kind == TOOL_ASSEMBLER || kind == TOOL_LINKER ||
	       kind == TOOL_CACHE;
}
