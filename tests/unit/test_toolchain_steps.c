/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cargo's and the go command's steps named by what they build (issue 36):
 * a rustc by its crate, a build script by its package, a go tool by its
 * package, the link by the go command's -o; never by a registry path, a
 * hashed target directory or go's $WORK, which differ from run to run.
 */
#include <stdlib.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/synth.h"
#include "model/model.h"
#include "model/step_names.h"

#define ROOT 100
#define TARGET "/src/rg/target/release"
#define WORK "/tmp/go-build4157067689"
#define TOOLS "/usr/lib/go-1.19/pkg/tool/linux_amd64/"

struct named {
	const char *const *argv;
	const char *want;
};

/* The root runs root_argv in /src/rg; each of steps is a child of it; each gets its want. */
static void expect_steps(const char *const *root_argv, const char *root_want, const struct named *steps, size_t nr)
{
	struct model *m = model__new(ROOT, 0);
	struct step_names *n;
	size_t i;

	cr_assert(not(eq(ptr, m, NULL)));
	cr_assert(eq(int, model__set_cwd(m, "/src/rg"), 0));
	synth_exec(m, 10, ROOT, 1, root_argv[0], root_argv);
	for (i = 0; i < nr; i++) {
		__u32 pid = ROOT + 1 + i;

		synth_fork(m, 100 + i * 200, ROOT, pid, pid, false);
		synth_exec(m, 101 + i * 200, pid, ROOT, steps[i].argv[0], steps[i].argv);
		synth_exit(m, 200 + i * 200, pid, pid, true, 0);
	}
	synth_exit(m, 100000, ROOT, ROOT, true, 0);
	cr_assert(eq(int, model__finish(m, 100000), 0));
	n = step_names__new(m, NULL);
	cr_assert(not(eq(ptr, n, NULL)));
	cr_assert(eq(str, (char *)step_names__of(n, synth_proc_of(m, ROOT) - m->procs), (char *)root_want));
	for (i = 0; i < nr; i++) {
		const struct proc_instance *p = synth_proc_of(m, ROOT + 1 + i);

		cr_assert(eq(str, (char *)step_names__of(n, p - m->procs), (char *)steps[i].want));
	}
	step_names__free(n);
	model__free(m);
}

#define ARGV(...) ((const char *const[]){ __VA_ARGS__, NULL })

Test(toolchain_steps, rustc_by_crate_and_kind_build_scripts_by_package)
{
	const struct named steps[] = {
		{ ARGV("/usr/bin/rustc", "-vV"), "rustc (probe)" },
		{ ARGV("/usr/bin/rustc", "-", "--crate-name", "___", "--print=file-names", "--crate-type", "bin"),
		  "rustc (probe)" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "regex_syntax", "/usr/share/cargo/registry/regex-syntax-0.6.28/src/lib.rs",
		       "--crate-type", "lib", "-C", "opt-level=3", "--out-dir", TARGET "/deps"),
		  "rustc regex_syntax (lib)" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "rg", "crates/core/main.rs", "--crate-type", "bin", "-C",
		       "opt-level=3", "--out-dir", TARGET "/deps"),
		  "rustc rg (bin)" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "rg", "crates/core/main.rs", "--test", "--out-dir", TARGET "/deps"),
		  "rustc rg (test)" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "build_script_build", "/usr/share/cargo/registry/ring-0.16.20/build.rs",
		       "--crate-type", "bin", "--out-dir", TARGET "/build/ring-e455a0e07b079ae9"),
		  "rustc build script of ring" },
		{ ARGV(TARGET "/build/proc-macro2-0774c3db657b81db/build-script-build"), "run build script of proc-macro2" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "serde_derive", "src/lib.rs", "--crate-type", "proc-macro", "-C",
		       "debug-assertions=off", "--out-dir", TARGET "/deps"),
		  "rustc serde_derive (proc-macro)" },
	};

	expect_steps(ARGV("/usr/bin/cargo", "build", "--release", "-j2"), "cargo build", steps,
		     sizeof(steps) / sizeof(steps[0]));
}

/* A release build compiles a build script's dependency twice: unoptimised for the script, optimised for the program. */
Test(toolchain_steps, a_crate_built_for_build_scripts_too_is_told_apart)
{
	const struct named steps[] = {
		{ ARGV("/usr/bin/rustc", "--crate-name", "regex", "/usr/share/cargo/registry/regex-1.7.1/src/lib.rs",
		       "--crate-type", "lib", "-C", "embed-bitcode=no", "-C", "debug-assertions=off", "--out-dir",
		       TARGET "/deps"),
		  "rustc regex (lib, build-dep)" },
		{ ARGV("/usr/bin/rustc", "--crate-name", "regex", "/usr/share/cargo/registry/regex-1.7.1/src/lib.rs",
		       "--crate-type", "lib", "-C", "opt-level=3", "-C", "embed-bitcode=no", "--out-dir", TARGET "/deps"),
		  "rustc regex (lib)" },
	};

	expect_steps(ARGV("cargo", "build", "--release"), "cargo build", steps, sizeof(steps) / sizeof(steps[0]));
}

Test(toolchain_steps, go_tools_by_package_and_the_link_by_the_go_commands_output)
{
	const struct named steps[] = {
		{ ARGV(TOOLS "compile", "-V=full"), "compile (probe)" },
		{ ARGV(TOOLS "compile", "-o", WORK "/b050/_pkg_.a", "-trimpath", WORK "/b050=>", "-p", "golang.org/x/sys/unix",
		       "-pack", "-c=2", WORK "/b050/go_asm.h"),
		  "compile golang.org/x/sys/unix" },
		{ ARGV(TOOLS "compile", "-o", WORK "/b002/_pkg_.a", "-p", "main", "-pack", "./main.go"), "compile main" },
		{ ARGV(TOOLS "asm", "-p", "golang.org/x/sys/unix", "-gensymabis", "-o", WORK "/b050/symabis",
		       "/usr/share/gocode/src/golang.org/x/sys/unix/asm_linux_amd64.s"),
		  "asm golang.org/x/sys/unix (symabis)" },
		{ ARGV(TOOLS "asm", "-p", "golang.org/x/sys/unix", "-o", WORK "/b050/asm_linux_amd64.o",
		       "/usr/share/gocode/src/golang.org/x/sys/unix/asm_linux_amd64.s"),
		  "asm golang.org/x/sys/unix" },
		{ ARGV(TOOLS "cgo", "-objdir", WORK "/b002/", "-importpath", "example.com/gomod/ckit", "--", "-I",
		       WORK "/b002/", "-p", "x", "ckit.go"),
		  "cgo example.com/gomod/ckit" },
		{ ARGV(TOOLS "cgo", "-dynpackage", "ckit", "-dynimport", WORK "/b002/_cgo_.o", "-dynout",
		       WORK "/b002/_cgo_import.go"),
		  "cgo ckit (dynimport)" },
		{ ARGV(TOOLS "link", "-o", WORK "/b001/exe/a.out", "-importcfg", WORK "/b001/importcfg.link",
		       "-buildmode=exe", WORK "/b001/_pkg_.a"),
		  "link fzf" },
	};

	expect_steps(ARGV("/usr/bin/go", "build", "-p", "2", "-o", "fzf", "."), "go build", steps,
		     sizeof(steps) / sizeof(steps[0]));
}
