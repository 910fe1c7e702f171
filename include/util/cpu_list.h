/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's CPU list format ("0-3,8,10-11", as in
 * /sys/devices/system/cpu/online): which of the possible CPUs are online.
 */
#ifndef BUILDBPF_CPU_LIST_H
#define BUILDBPF_CPU_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* Sets set[i] for every CPU i < nr that text lists, clears the rest.  0 or -EINVAL. */
int cpu_list__parse(const char *text, bool *set, size_t nr);
/* The text of /sys/devices/system/cpu/online, without its newline: 0 or -errno. */
int cpu_list__read_online(char *buf, size_t size);

#endif /* BUILDBPF_CPU_LIST_H */
