/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BUILDBPF_COMMAND_PATH_H
#define BUILDBPF_COMMAND_PATH_H

#include <stdbool.h>

/*
 * Whether a file (not a directory) named name is in a directory of path
 * (colon-separated, an empty element the current one) that the caller can
 * search: a shell's test before "Permission denied" (126) rather than
 * "command not found" (127).
 */
bool command_path__found(const char *name, const char *path);

#endif /* BUILDBPF_COMMAND_PATH_H */
