// SPDX-License-Identifier: GPL-2.0
/* A generated cargo workspace: lib/cargo_workspace.h. */
#include <errno.h>
#include <stdio.h>
#include "lib/cargo_workspace.h"
#include "lib/file_tree.h"

/* Kinds of heavy's Step trait; instances combine three of them (STEP_KINDS^3 distinct ones). */
#define STEP_KINDS 16

/* app alone is built by default: every other crate once, as its dependency (a member built for
 * itself too is a second unit of a proc-macro, built for the host with another profile). */
static const char manifest[] = "[workspace]\n"
			       "members = [\"heavy\", \"util\", \"macros\", \"native\", \"app\"]\n"
			       "default-members = [\"app\"]\n";

/* heavy/src/lib.rs: the kinds, the generic mix, and run_all() instantiating it. */
static int write_heavy(const struct cargo_workspace *ws, const char *top)
{
	FILE *f = file_tree__open(top, "heavy/src/lib.rs");
	unsigned int i;

	if (!f)
		return -errno;
	fprintf(f, "pub trait Step {\n    fn step(x: u64) -> u64;\n}\n");
	for (i = 0; i < STEP_KINDS; i++)
		fprintf(f,
			"pub struct K%u;\nimpl Step for K%u {\n"
			"    fn step(x: u64) -> u64 {\n"
			"        x.rotate_left(%u).wrapping_mul(0x9E37_79B9_7F4A_7C15 ^ %u)\n    }\n}\n",
			i, i, i + 1, i * 7919 + 1);
	fprintf(f, "#[inline(never)]\n"
		   "pub fn mix<A: Step, B: Step, C: Step>(seed: u64) -> u64 {\n"
		   "    let mut x = seed;\n"
		   "    let mut v: Vec<u64> = (0..64).map(|i| A::step(seed ^ i)).collect();\n"
		   "    v.sort_unstable_by_key(|&y| B::step(y));\n"
		   "    for (i, y) in v.iter().enumerate() {\n"
		   "        x = x.wrapping_add(C::step(*y ^ i as u64)) ^ A::step(x);\n"
		   "    }\n"
		   "    x\n}\n");
	fprintf(f, "pub fn run_all(seed: u64) -> u64 {\n    let mut acc = seed;\n");
	for (i = 0; i < ws->instances; i++)
		fprintf(f, "    acc ^= mix::<K%u, K%u, K%u>(acc);\n", i % STEP_KINDS, i / STEP_KINDS % STEP_KINDS,
			i / (STEP_KINDS * STEP_KINDS) % STEP_KINDS);
	fprintf(f, "    acc\n}\n");
	return file_tree__close(f);
}

/* name/Cargo.toml: a package of the workspace, with extra lines after [package]. */
static int write_package(const char *top, const char *name, const char *extra)
{
	char rel[64], text[1024];

	snprintf(rel, sizeof(rel), "%s/Cargo.toml", name);
	snprintf(text, sizeof(text), "[package]\nname = \"%s\"\nversion = \"0.1.0\"\nedition = \"2018\"\n%s", name,
		 extra);
	return file_tree__write(top, rel, text);
}

static const struct {
	const char *rel, *text;
} sources[] = {
	{ "util/src/lib.rs", "use heavy::Step;\n"
			     "pub fn summary(x: u64) -> u64 {\n"
			     "    (0..1000u64).fold(x, |a, i| heavy::K1::step(a ^ i).wrapping_add(heavy::K2::step(i)))\n"
			     "}\n" },
	{ "macros/src/lib.rs", "extern crate proc_macro;\n"
			       "use proc_macro::TokenStream;\n"
			       "#[proc_macro]\n"
			       "pub fn answer(_input: TokenStream) -> TokenStream {\n"
			       "    \"pub fn answer() -> u64 { 42 }\".parse().unwrap()\n"
			       "}\n" },
	{ "native/native.c", "unsigned int native_add(unsigned int a, unsigned int b) { return a + b; }\n" },
	/* cc and ar, run by the build script: the cc crate would need the registry. */
	{ "native/build.rs", "use std::{env, path::PathBuf, process::Command};\n"
			     "fn run(cmd: &mut Command) {\n"
			     "    assert!(cmd.status().expect(\"spawn\").success(), \"{:?} failed\", cmd);\n"
			     "}\n"
			     "fn main() {\n"
			     "    let out = PathBuf::from(env::var(\"OUT_DIR\").unwrap());\n"
			     "    let obj = out.join(\"native.o\");\n"
			     "    run(Command::new(\"cc\").args(&[\"-c\", \"-O2\", \"-fPIC\", \"native.c\", \"-o\"]).arg(&obj));\n"
			     "    run(Command::new(\"ar\").arg(\"crs\").arg(out.join(\"libnative.a\")).arg(&obj));\n"
			     "    println!(\"cargo:rustc-link-search=native={}\", out.display());\n"
			     "    println!(\"cargo:rustc-link-lib=static=native\");\n"
			     "    println!(\"cargo:rerun-if-changed=native.c\");\n"
			     "}\n" },
	{ "native/src/lib.rs", "extern \"C\" {\n    fn native_add(a: u32, b: u32) -> u32;\n}\n"
			       "pub fn add(a: u32, b: u32) -> u32 {\n    unsafe { native_add(a, b) }\n}\n" },
	{ "app/src/main.rs", "macros::answer!();\n"
			     "fn main() {\n"
			     "    let x = util::summary(answer()) ^ heavy::run_all(1) ^ native::add(1, 2) as u64;\n"
			     "    println!(\"{}\", x);\n"
			     "}\n" },
};

int cargo_workspace__write(const struct cargo_workspace *ws, const char *top)
{
	size_t i;
	int err = file_tree__write(top, "Cargo.toml", manifest);

	err = err ?: write_package(top, "heavy", "");
	err = err ?: write_heavy(ws, top);
	err = err ?: write_package(top, "util", "[dependencies]\nheavy = { path = \"../heavy\" }\n");
	err = err ?: write_package(top, "macros", "[lib]\nproc-macro = true\n");
	err = err ?: write_package(top, "native", "build = \"build.rs\"\n");
	err = err ?: write_package(top, "app",
				   "[dependencies]\nheavy = { path = \"../heavy\" }\nutil = { path = \"../util\" }\n"
				   "macros = { path = \"../macros\" }\nnative = { path = \"../native\" }\n");
	for (i = 0; i < sizeof(sources) / sizeof(*sources) && !err; i++)
		err = file_tree__write(top, sources[i].rel, sources[i].text);
	return err;
}
