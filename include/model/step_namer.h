/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every way of naming a step has in common: a function from an
 * image to what follows its program in its name.  Each kind of tool has
 * one, listed in the table of model/step_detail.c.
 */
#ifndef BUILDBPF_MODEL_STEP_NAMER_H
#define BUILDBPF_MODEL_STEP_NAMER_H

#include "model/model.h"
#include "model/paths.h"
#include "model/tool_kind.h"

/*
 * The detail of img, run as tool in dirs: what follows its program in its
 * name ("src/foo.c", "-o out/crc.o", "-C lib"), in *detail (malloc'd),
 * NULL when nothing names its step.  0 or -ENOMEM.
 */
typedef int step_namer_fn(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs,
			  char **detail);

#endif /* BUILDBPF_MODEL_STEP_NAMER_H */
