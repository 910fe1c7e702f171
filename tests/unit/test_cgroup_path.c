// SPDX-License-Identifier: GPL-2.0
/* --cgroup PATH: the cgroup2 mount of both layouts, and what PATH names in it. */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/cgroup_path.h"

/* Debian 12 desktop: cgroup2 alone, at /sys/fs/cgroup. */
static const char unified[] =
	"22 1 0:21 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"25 22 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
	"28 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
	"rw,nsdelegate,memory_recursiveprot\n";

/* This project's machines: v1 controllers, cgroup2 at .../unified. */
static const char hybrid[] =
	"22 1 0:21 / / rw,relatime - ext4 /dev/vda1 rw\n"
	"31 25 0:30 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,mode=755\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	"42 31 0:39 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n";

Test(cgroup_path, finds_the_cgroup2_mount_of_both_layouts)
{
	char mnt[256], root[256];

	cr_assert(eq(int, cgroup_path__mount(unified, mnt, sizeof(mnt), root, sizeof(root)), 0));
	cr_assert(eq(str, mnt, "/sys/fs/cgroup"));
	cr_assert(eq(str, root, "/"));
	cr_assert(eq(int, cgroup_path__mount(hybrid, mnt, sizeof(mnt), root, sizeof(root)), 0));
	cr_assert(eq(str, mnt, "/sys/fs/cgroup/unified"));
	/* A v1-only system has none; a mount point too long is not cut. */
	cr_assert(eq(int, cgroup_path__mount("42 31 0:39 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw\n", mnt,
					     sizeof(mnt), root, sizeof(root)),
		     -ENOENT));
	cr_assert(eq(int, cgroup_path__mount(unified, mnt, 8, root, sizeof(root)), -ENAMETOOLONG));
}

Test(cgroup_path, an_escaped_mount_point_is_unescaped)
{
	char mnt[256], root[256];

	cr_assert(eq(int, cgroup_path__mount("50 1 0:40 / /mnt/my\\040cg rw - cgroup2 none rw\n", mnt, sizeof(mnt),
					     root, sizeof(root)),
		     0));
	cr_assert(eq(str, mnt, "/mnt/my cg"));
}

Test(cgroup_path, a_path_is_taken_under_the_mount_or_relative_to_it)
{
	char out[256];
	unsigned int level;

	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup/unified", "/", "/sys/fs/cgroup/unified/a/b", out,
					       sizeof(out), &level),
		     0));
	cr_assert(eq(str, out, "/sys/fs/cgroup/unified/a/b"));
	cr_assert(eq(u32, level, 2));
	/* As /proc/PID/cgroup shows it: relative to the mount on either layout. */
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup/unified", "/", "/system.slice/x.scope", out, sizeof(out),
					       &level),
		     0));
	cr_assert(eq(str, out, "/sys/fs/cgroup/unified/system.slice/x.scope"));
	cr_assert(eq(u32, level, 2));
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/", "user.slice", out, sizeof(out), &level), 0));
	cr_assert(eq(str, out, "/sys/fs/cgroup/user.slice"));
	cr_assert(eq(u32, level, 1));
	/* The root cgroup itself. */
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/", "/sys/fs/cgroup", out, sizeof(out), &level), 0));
	cr_assert(eq(u32, level, 0));
	/* A namespace's root sits below the real one: its depth counts. */
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/lxc/c1", "/a", out, sizeof(out), &level), 0));
	cr_assert(eq(u32, level, 3));
	/* "/sys/fs/cgroupfoo" is not under "/sys/fs/cgroup". */
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/", "/sys/fs/cgroupfoo", out, sizeof(out), &level),
		     0));
	cr_assert(eq(str, out, "/sys/fs/cgroup/sys/fs/cgroupfoo"));
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/", "/a/../b", out, sizeof(out), &level), -EINVAL));
	cr_assert(eq(int, cgroup_path__resolve("/sys/fs/cgroup", "/", "", out, sizeof(out), &level), -EINVAL));
}
