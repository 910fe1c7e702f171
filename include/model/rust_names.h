/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How cargo's steps are named (rows of model/step_detail.c): a rustc run
 * by the crate it builds and what kind ("regex (lib)"), a build.rs by the
 * package it belongs to ("build script of ring"), cargo by its subcommand.
 * cargo runs every crate from a registry path or a hashed target
 * directory, so the crate, not a file, is what tells two runs apart.  Pure.
 */
#ifndef BUILDBPF_MODEL_RUST_NAMES_H
#define BUILDBPF_MODEL_RUST_NAMES_H

#include <stdbool.h>
#include "model/step_namer.h"

/* rustc: "CRATE (KIND)", KIND the first --crate-type or "test"; a build.rs "build script of PKG". */
step_namer_fn rustc_step_name;
/* A build script's run: "build script of PKG", PKG from its .../build/PKG-HASH/ directory. */
step_namer_fn build_script_step_name;
/* cargo: by its subcommand ("build"). */
step_namer_fn cargo_step_name;
/* Whether img is cargo asking rustc what it is (-vV) or what it makes (rustc - --print=...). */
bool rustc_is_probe(const struct exec_image *img);

#endif /* BUILDBPF_MODEL_RUST_NAMES_H */
