/* SPDX-License-Identifier: GPL-2.0 */
/* Short, recognisable names for process spans: "cc1 foo.c", "ld", "sh -c make…". */
#ifndef BUILDBPF_PROC_NAME_H
#define BUILDBPF_PROC_NAME_H

#include "model/model.h"

/*
 * The display name of an image: its program's basename plus the main input
 * file where one is evident.  Returns a malloc'd, valid UTF-8 string (raw
 * bytes are sanitised), or NULL on allocation failure.
 */
char *image_display_name(const struct exec_image *img);
/* The name of a process span: its last image's name, or "comm (fork)". */
char *proc_display_name(const struct proc_instance *p);
/*
 * A command line as one valid UTF-8 string, arguments joined by spaces and
 * cut to max_bytes with an ellipsis (0: never cut).  malloc'd, or NULL.
 */
char *argv_display_name(char *const *argv, size_t argc, size_t max_bytes);

#endif /* BUILDBPF_PROC_NAME_H */
