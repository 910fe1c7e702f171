/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe is a check of what the toolchain accepts, not a step that makes
 * part of the build: a toolchain program whose input or output is a probe
 * file (/dev/null, stdin "-", configure's conftest and conftest.*, kbuild's
 * try-run scratch directory .tmp_<pid>), and the conftest program itself;
 * cargo asking rustc its version and what it makes (rustc -vV, rustc -
 * --print=...), the go command asking a tool its version (-V=full).
 * configure's are named by their conftest file ("cc1 conftest.c (probe)");
 * the others' files say nothing ("cc1 (probe)" for kbuild's cc-option on
 * /dev/null).  Pure.
 */
#ifndef BUILDBPF_MODEL_PROBES_H
#define BUILDBPF_MODEL_PROBES_H

#include "model/model.h"
#include "model/tool_kind.h"

enum probe_kind { PROBE_NONE, PROBE_CONFTEST, PROBE_OTHER };

/* Whether img, run as tool, is a probe, and which. */
enum probe_kind image_probe(const struct exec_image *img, enum tool_kind tool);

#endif /* BUILDBPF_MODEL_PROBES_H */
