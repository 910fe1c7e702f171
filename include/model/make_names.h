/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How build runners and generators name their steps (rows of
 * model/step_detail.c): make and ninja by the directory they work in
 * ("-C lib", from the build's directory), kbuild's "obj=dir", else the
 * makefile; cmake by its -E command, -P script, --build directory or
 * .cmake file.  Pure.
 */
#ifndef BUILDBPF_MODEL_MAKE_NAMES_H
#define BUILDBPF_MODEL_MAKE_NAMES_H

#include "model/step_namer.h"

/* make and ninja: "-C dir", "obj=dir", else "-f makefile". */
step_namer_fn make_step_name;
/*
 * cmake: "-E command" and its first plain operand (cmake_depends: its
 * target's directory), "-P script", "--build dir", else its .cmake operand.
 */
step_namer_fn cmake_step_name;

#endif /* BUILDBPF_MODEL_MAKE_NAMES_H */
