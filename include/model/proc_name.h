/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Short names that say which step of the build a process was: "cc1
 * kernel/sched/core.c", "as -o out/crc.o", "make -C lib", "sh -c make…".
 * The top of naming, where reports start; the rooms below it:
 *   model/image_name.h    a process's or image's name by itself
 *   model/step_names.h    names told apart from the build's other steps
 *   model/step_detail.h   the table of how each kind of tool names its step
 *   model/proc_dirs.h     where each process ran
 *   model/shell_words.h   the one shell tokenizer
 *   model/file_words.h    the one rule for "this word names a file"
 *   model/paths.h         paths as names show them
 */
#ifndef BUILDBPF_PROC_NAME_H
#define BUILDBPF_PROC_NAME_H

#include "model/image_name.h"
#include "model/model.h"

/*
 * The name of a process, the step the reports show: the model's step name
 * (model/step_names.h: told apart from the build's other steps) when it has
 * them, else proc_image_name().
 */
char *proc_display_name(const struct model *m, const struct proc_instance *p);

#endif /* BUILDBPF_PROC_NAME_H */
