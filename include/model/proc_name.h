/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Short names that say which step of the build a process was: "cc1
 * kernel/sched/core.c", "as -o out/crc.o", "make -C lib", "sh -c make…".
 * Paths are shown from the build's directory: the recorded cwd of the
 * command (model->cwd) after the command's own -C.
 */
#ifndef BUILDBPF_PROC_NAME_H
#define BUILDBPF_PROC_NAME_H

#include "model/model.h"

/*
 * The display name of image k of process p in model m: its program's
 * basename plus what it works on where that is evident (its input, else
 * the output a compiler, linker or ar writes, the directory a make works
 * in).  m may be NULL (no directory known: paths stay as given).  Returns
 * a malloc'd, valid UTF-8 string (raw bytes are sanitised) of at most 80
 * bytes, or NULL on allocation failure.
 */
char *image_display_name(const struct model *m, const struct proc_instance *p, size_t k);
/*
 * The name of a process, the step the reports show: the model's step name
 * (model/step_names.h: told apart from the build's other steps) when it has
 * them, else proc_image_name().
 */
char *proc_display_name(const struct model *m, const struct proc_instance *p);
/* A process by itself: its last image's name, or "comm (fork)".  Two builds' match by it (diff). */
char *proc_image_name(const struct model *m, const struct proc_instance *p);

/* What tells a process apart from others of its name (model/step_names.h). */
struct proc_name_facts {
	char *name;	/* proc_image_name() */
	/* What the step makes, shown from the build's directory (no
	 * temporary): its own -o (made_own), else the -o of the compiler
	 * driver that ran it (cc1, as and ld under gcc).  NULL: none. */
	char *made;
	bool made_own;
	char *dir;	/* where it ran, from the build's directory; NULL: there, or unknown */
	bool bare;	/* a program we know nothing of, named by nothing but itself */
	bool alike;	/* a probe: none needs telling apart from another */
};

/* 0, or -ENOMEM (f then empty).  m must have its directories (model__finish()). */
int proc_name__facts(const struct model *m, const struct proc_instance *p, struct proc_name_facts *f);
void proc_name_facts__free(struct proc_name_facts *f);
/*
 * A path of the file records ("/a/b/c", or "…/b/c" when cut) as names show
 * it, in *shown (malloc'd; NULL for a temporary).  0 or -ENOMEM.
 */
int proc_name__file_shown(const struct model *m, const char *path, char **shown);
/* The name cut, in place, to leave room for a suffix of suffix_len bytes within a name's cap. */
void proc_name__make_room(char *name, size_t suffix_len);
/*
 * A command line as one valid UTF-8 string, arguments joined by spaces and
 * cut to max_bytes with an ellipsis (0: never cut).  malloc'd, or NULL.
 */
char *argv_display_name(char *const *argv, size_t argc, size_t max_bytes);

/*
 * The build's directory, the one names are shown from: the recorded cwd
 * after the command's own -C ("." when unknown).  malloc'd, or NULL.
 */
char *proc_name__build_dir(const struct model *m);

/*
 * Where every process and image of m ran, inferred from the recorded cwd
 * and the directory changes of each one's ancestors (make -C, sh -c "cd
 * dir && …", cmake -E chdir), in one pass: model__finish() keeps it in
 * m->dirs for the names above.  A directory longer than PATH_MAX counts
 * as unknown.  NULL without memory.
 */
struct proc_dirs *proc_dirs__new(const struct model *m);
void proc_dirs__free(struct proc_dirs *d);

#endif /* BUILDBPF_PROC_NAME_H */
