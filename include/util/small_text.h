/* SPDX-License-Identifier: GPL-2.0 */
/* A small text file read whole: the tools' config files the recorder reads as the user. */
#ifndef BUILDBPF_SMALL_TEXT_H
#define BUILDBPF_SMALL_TEXT_H

#include <stddef.h>

/*
 * The text of path, NUL-terminated, for the caller to free; NULL when it
 * is absent, unreadable, larger than max bytes, or memory runs out.
 */
char *small_text__read(const char *path, size_t max);

#endif /* BUILDBPF_SMALL_TEXT_H */
