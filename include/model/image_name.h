/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name of a process or image by itself: "cc1 kernel/sched/core.c",
 * "as -o out/crc.o", "make -C lib", "sh -c make…", and the facts that tell
 * it apart from others of its name (model/step_names.h reads them).  Paths
 * are shown from the build's directory: the recorded cwd of the command
 * (model->cwd) after the command's own -C.  Pure.
 */
#ifndef BUILDBPF_MODEL_IMAGE_NAME_H
#define BUILDBPF_MODEL_IMAGE_NAME_H

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
/* A process by itself: its last image's name, or "comm (fork)".  Two builds' match by it (diff). */
char *proc_image_name(const struct model *m, const struct proc_instance *p);

/* What tells a process apart from others of its name (model/step_names.h). */
struct proc_name_facts {
	char *name;	/* proc_image_name() */
	/* What the step makes, shown from the build's directory, whole (no
	 * temporary): its own -o, else the -o of the compiler driver that
	 * ran it (cc1, as and ld under gcc).  NULL: none. */
	char *made;
	char *dir;	/* where it ran, from the build's directory; NULL: there, or unknown */
	bool bare;	/* a program we know nothing of, named by nothing but itself */
	bool alike;	/* a probe: none needs telling apart from another */
};

/* 0, or -ENOMEM (f then empty).  d: m's directories (model/proc_dirs.h). */
int proc_name__facts(const struct model *m, const struct proc_dirs *d, const struct proc_instance *p,
		     struct proc_name_facts *f);
void proc_name_facts__free(struct proc_name_facts *f);
/*
 * A path of the file records ("/a/b/c", or "…/b/c" when cut) as names show
 * it from the build's directory of d (NULL: "."), in *shown (malloc'd; NULL for a temporary).  0 or -ENOMEM.
 */
int proc_name__file_shown(const struct proc_dirs *d, const char *path, char **shown);
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

#endif /* BUILDBPF_MODEL_IMAGE_NAME_H */
