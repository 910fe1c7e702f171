/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A generated cargo workspace, path dependencies only (no registry, no
 * network), shaped to show what a cargo build does that a make build does
 * not:
 *
 *   heavy   lib: one generic function instantiated `instances` times in a
 *           non-generic one, so its rustc spends long in code generation
 *           (threads of its codegen units) after writing its .rmeta;
 *   util    lib, depends on heavy: with pipelining its rustc starts once
 *           heavy's .rmeta is written, while heavy's rustc still runs;
 *   macros  proc-macro (answer!()), compiled for the host and loaded by
 *           the rustc of app;
 *   native  lib with a build.rs that runs cc and ar on a small C file
 *           (the build script compiled, then run);
 *   app     bin, depends on all four: its rustc links (cc, ld).
 *
 * Rust 2018, so that Debian's rustc 1.63 builds it as well as a newer one.
 * No Cargo.lock: cargo writes one in the format of the cargo that runs.
 * Plain C.
 */
#ifndef BUILDBPF_TESTS_CARGO_WORKSPACE_H
#define BUILDBPF_TESTS_CARGO_WORKSPACE_H

/* The crates of the workspace, in dependency order: every unit's crate name. */
#define CARGO_WORKSPACE_CRATES { "heavy", "util", "macros", "native", "app" }
#define CARGO_WORKSPACE_NR_CRATES 5

struct cargo_workspace {
	/* Instances of heavy's generic function: its code generation grows
	 * with them (about 0.25 s of CPU each in a release build). */
	unsigned int instances;
};

/* Writes the workspace under top (which exists).  0, or -errno. */
int cargo_workspace__write(const struct cargo_workspace *ws, const char *top);

#endif /* BUILDBPF_TESTS_CARGO_WORKSPACE_H */
