/* SPDX-License-Identifier: GPL-2.0 */
/* A writer that takes a FILE, run on an output file's descriptor (output/output.h keeps it open). */
#ifndef BUILDBPF_FD_STREAM_H
#define BUILDBPF_FD_STREAM_H

#include <stdio.h>

/*
 * writer(f, ctx) on a stream over a copy of fd (fd stays open), flushed
 * and closed: writer's error, else 0 or -errno (-EIO for a stream error).
 */
int fd_stream__write(int fd, int (*writer)(FILE *f, const void *ctx), const void *ctx);

#endif /* BUILDBPF_FD_STREAM_H */
