/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a build tool is, by its program's name: one table, read by the
 * step names (model/step_detail.c: how each kind names its step), the job
 * graph's runners (graph/schedule_sim.c) and the audit's job count
 * (audit/audit.c).  A new toolchain is a row here and one there.
 */
#ifndef BUILDBPF_MODEL_TOOL_KIND_H
#define BUILDBPF_MODEL_TOOL_KIND_H

#include <stdbool.h>
#include <stddef.h>

enum tool_kind {
	TOOL_OTHER,	/* not a tool the table knows */
	TOOL_SHELL,	/* sh, bash, dash, ... */
	TOOL_CC_DRIVER, /* the compiler driver: cc, gcc, clang */
	TOOL_CC_PROPER, /* the compiler itself: cc1, cc1plus, lto1 (and clang -cc1) */
	TOOL_ASSEMBLER, /* as, nasm */
	TOOL_LINKER,	/* ld, collect2, mold */
	TOOL_AR,	/* the archiver */
	TOOL_RANLIB,	/* indexes an archive */
	TOOL_MAKE,	/* a runner: make, gmake */
	TOOL_NINJA,	/* a runner: ninja, samu */
	TOOL_CMAKE,	/* a generator that also runs commands (-E, -P, --build) */
	TOOL_CACHE,	/* a cache or distributor in front of the driver: ccache, sccache, distcc, icecc */
	TOOL_CARGO,	/* a runner: rust's build tool, its jobs rustc and build scripts */
	TOOL_RUSTC,	/* the rust compiler: one crate per run */
	TOOL_BUILD_SCRIPT, /* a package's build.rs, compiled and run by cargo */
	TOOL_GO,	/* a runner: the go command, its jobs the go tools below */
	TOOL_GO_TOOL,	/* go's compile, asm, cgo, link: one package per run */
	/* (Fewer than 255 kinds: an image keeps its own + 1 in a byte, model_types.h.) */
};

/* The kind of exactly name (a base name, or a comm): no version or prefix taken off. */
enum tool_kind tool_kind__lookup(const char *name);
/*
 * The kind of a program's base name of len bytes, as toolchains name
 * their programs: "gcc-12" and "x86_64-linux-gnu-gcc" are gcc, "gcc-ar"
 * and "llvm-ar" are ar.
 */
enum tool_kind tool_kind__of(const char *base, size_t len);
/*
 * Whether the program name runs another tool of its kind and waits for it
 * (gcc's collect2 runs ld): such a process with a child is a wrapper
 * whatever its own CPU time, its link counted with the linker it ran.
 */
bool tool_kind__wraps(const char *name);
/* A runner starts the build's jobs and waits for them: make, ninja, cargo, go. */
bool tool_kind__is_runner(enum tool_kind kind);
/*
 * A runner that starts, among its ready jobs, the one the most of its
 * others depend on, transitively (cargo's DependencyQueue, each unit of one
 * cost); the others start them in the order they became ready.
 */
bool tool_kind__starts_most_needed_first(enum tool_kind kind);
/*
 * A compiler, assembler or linker, or a cache in front of them: what a
 * configure probe runs, and what a compiler driver runs as part of its job.
 */
bool tool_kind__is_toolchain(enum tool_kind kind);

#endif /* BUILDBPF_MODEL_TOOL_KIND_H */
