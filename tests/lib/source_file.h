/* SPDX-License-Identifier: GPL-2.0 */
/* A file of the source tree, for tests that check code against its docs. */
#ifndef BUILDBPF_TESTS_SOURCE_FILE_H
#define BUILDBPF_TESTS_SOURCE_FILE_H

/* The whole of path (relative to the top of the tree, where the tests run), malloc'd; fails the test if unreadable. */
char *bb_read_source(const char *path);

#endif /* BUILDBPF_TESTS_SOURCE_FILE_H */
