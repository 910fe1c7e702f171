/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of a build's processes as steps a person can tell apart,
 * computed once after the replay for every report that names a step.
 * Each starts from the process's own name (model/image_name.h).  A program
 * nothing else names, with file records, is named by the first file it
 * wrote ("gen > include/tables.h").  Steps that still share a name get
 * what tells them apart, the first of these that differs among them: what
 * the step makes ("cc1 json_tokener.c for CMakeFiles/json-c.dir/…" and
 * "… for CMakeFiles/json-c-static.dir/…"), the first file it wrote, the
 * directory it ran in (a fork, which makes nothing itself, by the last
 * two).  Probes keep their names: a person needs none of them told apart.
 * Pure.
 *
 *   struct step_names *n = step_names__new(model, files_or_NULL);
 *   step_names__of(n, i)      the name of model->procs[i]
 *   step_names__image_of(n, i)  its name by itself, before any of that
 *   step_names__free(n);
 */
#ifndef BUILDBPF_STEP_NAMES_H
#define BUILDBPF_STEP_NAMES_H

#include <stddef.h>
#include "model/file_log.h"
#include "model/model.h"

struct step_names;

/* files: the recording's file records, NULL without them.  NULL without memory. */
struct step_names *step_names__new(const struct model *m, const struct file_log *files);
/* Makes m's step names, m->names, replacing any it had.  0 or -ENOMEM. */
int step_names__attach(struct model *m, const struct file_log *files);
/* The name of model->procs[proc]: valid UTF-8, at most 80 bytes; NULL past the model's processes. */
const char *step_names__of(const struct step_names *n, size_t proc);
/*
 * Its name by itself, before anything told it apart from the build's other
 * steps (proc_image_name()): what two builds' steps are matched by (diff).
 */
const char *step_names__image_of(const struct step_names *n, size_t proc);
void step_names__free(struct step_names *n);

#endif /* BUILDBPF_STEP_NAMES_H */
