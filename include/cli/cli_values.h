/* SPDX-License-Identifier: GPL-2.0 */
/* Option values as the command line spells them.  Each: 0, or -EINVAL. */
#ifndef BUILDBPF_CLI_VALUES_H
#define BUILDBPF_CLI_VALUES_H

#include <linux/types.h>

/* The leading decimal number of s; *end points past it.  No sign allowed. */
int cli__parse_u64(const char *s, unsigned long long *v, char **end);
/* "1ms", "500us", "2s", "100000ns": a duration; a bare number needs a unit (only 0 may go without). */
int cli__parse_duration(const char *s, __u64 *out);
/* "16K", "4M", "4096": a byte count with an optional binary suffix. */
int cli__parse_size(const char *s, unsigned long long *out);

#endif /* BUILDBPF_CLI_VALUES_H */
