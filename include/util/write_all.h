/* SPDX-License-Identifier: GPL-2.0 */
/* A whole buffer written to a file descriptor, however write() splits it. */
#ifndef BUILDBPF_UTIL_WRITE_ALL_H
#define BUILDBPF_UTIL_WRITE_ALL_H

#include <stddef.h>

/*
 * All len bytes of buf to fd, on through short writes and EINTR: 0, or
 * -errno of the failed write() (-EIO when it wrote nothing and said no error).
 */
int write_all(int fd, const void *buf, size_t len);

#endif /* BUILDBPF_UTIL_WRITE_ALL_H */
