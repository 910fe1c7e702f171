/* SPDX-License-Identifier: GPL-2.0 */
/* A one-line reason for a caller to print, and the error it goes with. */
#ifndef BUILDBPF_ERROR_TEXT_H
#define BUILDBPF_ERROR_TEXT_H

#include <stdarg.h>
#include <stdio.h>

/* Formats the reason into buf; returns err, for `return error_text(...)`. */
__attribute__((format(printf, 4, 5))) static inline int error_text(int err, char *buf, size_t size,
								   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return err;
}

#endif /* BUILDBPF_ERROR_TEXT_H */
