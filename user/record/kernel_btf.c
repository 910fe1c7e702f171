// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record/kernel_btf.h"
#include "util/array_grow.h"

int kernel_btf__has(const char *const names[], bool found[], size_t nr)
{
	size_t len = 0, cap = 0, i;
	char *btf = NULL, key[128];
	ssize_t n = 1;
	int err = 0, fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);

	memset(found, 0, nr * sizeof(*found));
	if (fd < 0)
		return -errno;
	while (n > 0) {
		if (len == cap && array_grow((void **)&btf, &cap, cap ? cap * 2 : 8 << 20, 1)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, btf + len, cap - len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			err = -errno;
		else
			len += n;
	}
	close(fd);
	for (i = 0; !err && i < nr; i++) {
		int klen = snprintf(key, sizeof(key), "%c%s%c", 0, names[i], 0);

		found[i] = klen < (int)sizeof(key) && memmem(btf, len, key, klen);
	}
	free(btf);
	return err;
}
