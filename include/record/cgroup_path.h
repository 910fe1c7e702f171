/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --cgroup PATH: where the cgroup v2 hierarchy is mounted, and what a PATH
 * names in it.  Pure (text in, paths out), so both layouts are tested from
 * mountinfo samples: the unified one (cgroup2 at /sys/fs/cgroup, Debian 12
 * desktops) and the hybrid one (v1 controllers, cgroup2 at
 * /sys/fs/cgroup/unified).
 */
#ifndef BUILDBPF_CGROUP_PATH_H
#define BUILDBPF_CGROUP_PATH_H

#include <stddef.h>

/*
 * The first cgroup2 mount of a /proc/PID/mountinfo text: its mount point
 * and the cgroup it shows as its root (field 4: "/" but in a cgroup
 * namespace), unescaped.  0, -ENOENT (none), or -ENAMETOOLONG.
 */
int cgroup_path__mount(const char *mountinfo, char *mnt, size_t mnt_size, char *root, size_t root_size);
/*
 * The directory PATH names: a path under the mount point as it is, or else
 * a cgroup path as /proc/PID/cgroup shows it ("0::/system.slice/x.scope")
 * relative to the mount.  *level is the cgroup's depth below the root
 * cgroup, as the kernel counts it (the mount's root included).  0,
 * -EINVAL (empty, or a ".." component), or -ENAMETOOLONG.
 */
int cgroup_path__resolve(const char *mnt, const char *mnt_root, const char *path, char *out, size_t size,
			 unsigned int *level);

#endif /* BUILDBPF_CGROUP_PATH_H */
