/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the go command's steps are named (rows of model/step_detail.c): each
 * go tool by the package it works on ("compile net/http", "asm
 * golang.org/x/sys/unix", "cgo example.com/x/ckit"), never by its files,
 * which sit in a $WORK directory named anew in every run.  The link's
 * output is in $WORK too: image_name.c names it by the go command's -o.
 * Pure.
 */
#ifndef BUILDBPF_MODEL_GO_NAMES_H
#define BUILDBPF_MODEL_GO_NAMES_H

#include <stdbool.h>
#include "model/step_namer.h"

/* compile and asm by -p, cgo by -importpath (-dynpackage for its import pass), link by a -o that is no temporary. */
step_namer_fn go_tool_step_name;
/* The go command: by its subcommand ("build"). */
step_namer_fn go_step_name;
/* Whether img is the go command asking a tool its version (-V=full). */
bool go_tool_is_probe(const struct exec_image *img);
/* Whether img is go's link. */
bool go_tool_is_link(const struct exec_image *img);

#endif /* BUILDBPF_MODEL_GO_NAMES_H */
