/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a generated project's files: text at a path under a top
 * directory, the directories between made as needed.  For the project
 * generators (lib/cargo_workspace.h, lib/go_module.h).  Plain C.
 */
#ifndef BUILDBPF_TESTS_FILE_TREE_H
#define BUILDBPF_TESTS_FILE_TREE_H

#include <stdio.h>

/* Writes text to top/rel, making rel's directories (mode 0755).  0, or -errno. */
int file_tree__write(const char *top, const char *rel, const char *text);

/*
 * A file being written piece by piece (a generated source too long for one
 * string): open, printf, close.  A failed write shows at close.
 */
FILE *file_tree__open(const char *top, const char *rel);
/* Closes f; 0, or -errno of the first failed write or of the close. */
int file_tree__close(FILE *f);

#endif /* BUILDBPF_TESTS_FILE_TREE_H */
