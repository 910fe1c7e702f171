/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The short tag that tells apart steps of one name by what they make: the
 * part of their outputs' paths that differs, "[json-c]" and
 * "[json-c-static]" for CMake's "CMakeFiles/json-c.dir/x.c.o" and
 * "CMakeFiles/json-c-static.dir/x.c.o" (a target's directory is its name
 * and ".dir"), "[PIC]" for libtool's ".libs/x.o" beside "x.o" (libtool
 * keeps the position-independent objects of a shared library in .libs).
 * Pure.
 */
#ifndef BUILDBPF_MODEL_STEP_TAGS_H
#define BUILDBPF_MODEL_STEP_TAGS_H

#include <stddef.h>

/*
 * tags[i]: the tag of the step that makes made[i] (a path as names show
 * it; NULL: it makes nothing known, and gets no tag), without its
 * brackets; NULL where nothing of its path differs from the others'.  One
 * step that makes something among others that do not: its output's file
 * name ("liblz4.so.1.9.4").  Each tags[i] malloc'd.  0, or -ENOMEM (tags
 * then all NULL).
 */
int step_tags(const char *const *made, size_t nr, char **tags);

#endif /* BUILDBPF_MODEL_STEP_TAGS_H */
