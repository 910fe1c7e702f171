// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs and links of the machine, for the fallback tests: what
 * buildbpf holds while it traces, and that it leaves nothing behind.
 *
 *   bpf-census
 *
 * One line each, in id order: "prog ID NAME" (NAME as the kernel keeps it,
 * at most 15 characters) and "link ID PROG_ID".  Needs root (CAP_SYS_ADMIN);
 * exits 1 when the kernel refuses a look-up for another reason than an
 * object's coming or going.
 * Raw bpf(2), so the workloads need no libbpf.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The next id after id of a kind (BPF_PROG_GET_NEXT_ID, BPF_LINK_GET_NEXT_ID): 0 at the end, -1 on error. */
static long next_id(int cmd, __u32 id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = id;
	if (sys_bpf(cmd, &attr))
		return errno == ENOENT ? 0 : -1;
	return attr.next_id;
}

/* An fd of the object id (BPF_PROG_GET_FD_BY_ID, BPF_LINK_GET_FD_BY_ID), or -errno. */
static int fd_by_id(int cmd, __u32 id)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_id = id; /* link_id shares the field */
	fd = sys_bpf(cmd, &attr);
	return fd < 0 ? -errno : fd;
}

static int info_by_fd(int fd, void *info, __u32 len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

/* Prints one object; 0, or -1 when the kernel refused it for another reason than its going. */
static int print_one(int kind, __u32 id)
{
	int fd = fd_by_id(kind == BPF_PROG_GET_NEXT_ID ? BPF_PROG_GET_FD_BY_ID : BPF_LINK_GET_FD_BY_ID, id);
	struct bpf_prog_info prog;
	struct bpf_link_info link;
	int err;

	/* Gone meanwhile, or a link its owner is still setting up (EAGAIN). */
	if (fd == -ENOENT || fd == -EAGAIN)
		return 0;
	if (fd < 0)
		return -1;
	memset(&prog, 0, sizeof(prog));
	memset(&link, 0, sizeof(link));
	if (kind == BPF_PROG_GET_NEXT_ID) {
		err = info_by_fd(fd, &prog, sizeof(prog));
		if (!err)
			printf("prog %u %s\n", prog.id, prog.name[0] ? prog.name : "-");
	} else {
		err = info_by_fd(fd, &link, sizeof(link));
		if (!err)
			printf("link %u %u\n", link.id, link.prog_id);
	}
	close(fd);
	return err;
}

int main(void)
{
	static const int kinds[] = { BPF_PROG_GET_NEXT_ID, BPF_LINK_GET_NEXT_ID };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		long id = 0;

		while ((id = next_id(kinds[k], id)) > 0)
			if (print_one(kinds[k], id)) {
				perror("bpf-census");
				return 1;
			}
		if (id < 0) {
			perror("bpf-census");
			return 1;
		}
	}
	return 0;
}
