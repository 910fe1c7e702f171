// SPDX-License-Identifier: GPL-2.0
/* A generated go module: lib/go_module.h. */
#include <errno.h>
#include <stdio.h>
#include "lib/file_tree.h"
#include "lib/go_module.h"

/* heavy/heavy.go: heavy_funcs functions, each a loop over a switch, and All() calling every one. */
static int write_heavy(const struct go_module *gm, const char *top)
{
	FILE *f = file_tree__open(top, "heavy/heavy.go");
	unsigned int i, k;

	if (!f)
		return -errno;
	fprintf(f, "package heavy\n\nimport \"" GO_MODULE_PATH "/base\"\n\n");
	for (i = 0; i < gm->heavy_funcs; i++) {
		fprintf(f, "func f%u(x uint64) uint64 {\n\tfor i := uint64(0); i < 8; i++ {\n\t\tswitch (x + i) %% 8 {\n", i);
		for (k = 0; k < 8; k++)
			fprintf(f, "\t\tcase %u:\n\t\t\tx = base.Mix(x*%u + %u) ^ (x >> %u)\n", k, 2 * (i + k) + 1,
				i * 31 + k, k + 1);
		fprintf(f, "\t\t}\n\t}\n\treturn x\n}\n\n");
	}
	fprintf(f, "func All(x uint64) uint64 {\n");
	for (i = 0; i < gm->heavy_funcs; i++)
		fprintf(f, "\tx = f%u(x)\n", i);
	fprintf(f, "\treturn x\n}\n");
	return file_tree__close(f);
}

static const struct {
	const char *rel, *text;
} sources[] = {
	{ "go.mod", "module " GO_MODULE_PATH "\n\ngo 1.19\n" },
	{ "base/base.go", "package base\n\n"
			  "// Mix is one round of a 64-bit mixer.\n"
			  "func Mix(x uint64) uint64 {\n\tx ^= x >> 33\n\tx *= 0xff51afd7ed558ccd\n\treturn x ^ x>>29\n}\n" },
	{ "mid/mid.go", "package mid\n\n"
			"import (\n\t\"" GO_MODULE_PATH "/base\"\n\t\"" GO_MODULE_PATH "/heavy\"\n)\n\n"
			"func Run(x uint64) uint64 { return heavy.All(x) ^ base.Mix(x) }\n" },
	{ "fastadd/add_amd64.go", "package fastadd\n\n// Add is in add_amd64.s.\nfunc Add(a, b uint64) uint64\n" },
	/* "\xc2\xb7" is the middle dot of a Go assembler symbol. */
	{ "fastadd/add_amd64.s", "#include \"textflag.h\"\n\n"
				 "// func Add(a, b uint64) uint64\n"
				 "TEXT \xc2\xb7"
				 "Add(SB), NOSPLIT, $0-24\n"
				 "\tMOVQ a+0(FP), AX\n\tMOVQ b+8(FP), BX\n\tADDQ BX, AX\n\tMOVQ AX, ret+16(FP)\n\tRET\n" },
	{ "fastadd/add_other.go", "//go:build !amd64\n\npackage fastadd\n\nfunc Add(a, b uint64) uint64 { return a + b }\n" },
	{ "ckit/ckit.go", "package ckit\n\n"
			  "// static int twice(int x) { return 2 * x; }\n"
			  "import \"C\"\n\n"
			  "func Twice(x int) int { return int(C.twice(C.int(x))) }\n" },
	{ "main.go", "package main\n\n"
		     "import (\n\t\"fmt\"\n\n"
		     "\t\"" GO_MODULE_PATH "/ckit\"\n\t\"" GO_MODULE_PATH "/fastadd\"\n\t\"" GO_MODULE_PATH "/mid\"\n)\n\n"
		     "func main() { fmt.Println(mid.Run(fastadd.Add(1, uint64(ckit.Twice(2))))) }\n" },
};

int go_module__write(const struct go_module *gm, const char *top)
{
	size_t i;
	int err = write_heavy(gm, top);

	for (i = 0; i < sizeof(sources) / sizeof(*sources) && !err; i++)
		err = file_tree__write(top, sources[i].rel, sources[i].text);
	return err;
}
