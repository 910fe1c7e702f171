// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include "preflight.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* BPF ring buffers arrived in 5.8; tp_btf and BTF before that. */
#define MIN_KERNEL_MAJOR 5
#define MIN_KERNEL_MINOR 8

static int has_cap(const struct __user_cap_data_struct data[2], int cap)
{
	return !!(data[cap / 32].effective & (1u << (cap % 32)));
}

static int check_privileges(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data)) {
		fprintf(stderr, "buildbpf: cannot read this process's capabilities: %s\n", strerror(errno));
		return -1;
	}
	if (has_cap(data, CAP_SYS_ADMIN) || (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON)))
		return 0;
	fprintf(stderr, "buildbpf: loading BPF programs needs root or CAP_BPF+CAP_PERFMON "
			"(hint: sudo buildbpf ...)\n");
	return -1;
}

static int check_kernel(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2 &&
	    (major < MIN_KERNEL_MAJOR || (major == MIN_KERNEL_MAJOR && minor < MIN_KERNEL_MINOR))) {
		fprintf(stderr, "buildbpf: kernel %s is too old: BPF ring buffers need Linux %d.%d or later\n",
			u.release, MIN_KERNEL_MAJOR, MIN_KERNEL_MINOR);
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "buildbpf: no kernel BTF at /sys/kernel/btf/vmlinux (%s) "
				"(hint: a kernel built with CONFIG_DEBUG_INFO_BTF=y)\n", strerror(errno));
		return -1;
	}
	return 0;
}

int preflight__check(void)
{
	if (check_privileges())
		return -1;
	return check_kernel();
}
