/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A link from one output file to another (the HTML report to its JSON
 * trace) that still works when both are moved together, as a CI artifact
 * is: relative to the linking file's directory, percent-encoded.
 */
#ifndef BUILDBPF_HREF_H
#define BUILDBPF_HREF_H

/*
 * The relative URL of to_file as seen from from_file's directory.  Both
 * directories must exist (they are resolved, symbolic links and all).
 * malloc'd, or NULL (a directory that cannot be resolved, no memory).
 */
char *href_relative(const char *from_file, const char *to_file);
/* raw with every byte but [A-Za-z0-9-._~/] as %XX: malloc'd, or NULL. */
char *href_encode(const char *raw);

#endif /* BUILDBPF_HREF_H */
