// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <unistd.h>
#include "util/write_all.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		/* Only a device can take nothing for a non-empty write: looping on it would spin. */
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
