// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <unistd.h>
#include "util/fd_stream.h"

int fd_stream__write(int fd, int (*writer)(FILE *f, const void *ctx), const void *ctx)
{
	int dup_fd = dup(fd), err;
	FILE *f;

	if (dup_fd < 0)
		return -errno;
	f = fdopen(dup_fd, "w");
	if (!f) {
		err = -errno;
		close(dup_fd);
		return err;
	}
	err = writer(f, ctx);
	if (fflush(f) && !err)
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	return err;
}
