/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where every process and image of a model ran.  The kernel reports no
 * process's working directory; only the command's is recorded (m->cwd).
 * Where a process ran is inferred from it and the directory changes its
 * ancestors' command lines show (make -C, ninja -C, cmake -E chdir and
 * --build, sh -c "cd dir && …", the makes of automake's loop over its
 * SUBDIRS): a program that chdir()s on its own is not followed.  Inferred once for the whole model, so that a name costs no
 * walk up its ancestors.  A directory longer than PATH_MAX counts as
 * unknown ("."), as does every new one past a budget of the command
 * lines' size.  Pure.
 *
 *   proc_dirs__attach(model);              after model__finish(); model__free() frees them
 *   proc_dirs__image_dir(model->dirs, model, p, k)
 */
#ifndef BUILDBPF_MODEL_PROC_DIRS_H
#define BUILDBPF_MODEL_PROC_DIRS_H

#include "model/model.h"

/* The directories of every process of m.  NULL without memory. */
struct proc_dirs *proc_dirs__new(const struct model *m);
void proc_dirs__free(struct proc_dirs *d);
/* Makes m's directories, m->dirs, replacing any it had.  0 or -ENOMEM. */
int proc_dirs__attach(struct model *m);

/*
 * Where image k of p started, normalised ("." when unknown); p outside m's
 * processes (a process built by hand) ran in the recorded cwd.
 */
const char *proc_dirs__image_dir(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p,
				 size_t k);
/* The build's directory, the one names are shown from: the recorded cwd after the command's own -C. */
const char *proc_dirs__build(const struct proc_dirs *d);

/*
 * The sources' root: the deepest directory the build's and every source a
 * compiler was given share, when it is the build's or up to two levels
 * above it ("/src/pkg" for an out-of-tree build in "/src/pkg/build"); else
 * the build's.  Names show a source outside the build's directory from it.
 */
const char *proc_dirs__source_root(const struct proc_dirs *d);

/*
 * The directory img leaves its children in, started in dir: dir after its
 * make -C, ninja -C, cmake -E chdir / --build or the cds its sh -c script
 * makes before its step.  malloc'd; NULL on allocation failure.
 */
char *image_dir_after(const char *dir, const struct exec_image *img);

#endif /* BUILDBPF_MODEL_PROC_DIRS_H */
