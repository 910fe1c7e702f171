/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What follows an image's program in its name, by what the program is:
 * the one table of how each kind of tool (model/tool_kind.h) names its
 * step.  A shell is named by its script file, or by the step its -c
 * script runs (itself named by this table).  Pure.
 */
#ifndef BUILDBPF_MODEL_STEP_DETAIL_H
#define BUILDBPF_MODEL_STEP_DETAIL_H

#include "model/model.h"
#include "model/paths.h"

/* img's detail, run in dirs, in *detail (malloc'd), NULL when nothing names its step.  0 or -ENOMEM. */
int step_detail(const struct exec_image *img, const struct name_dirs *dirs, char **detail);

#endif /* BUILDBPF_MODEL_STEP_DETAIL_H */
