/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-256 (FIPS 180-4) of a buffer, and the base64 of a digest: what a
 * content security policy names an inline script by ('sha256-…').
 */
#ifndef BUILDBPF_SHA256_H
#define BUILDBPF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32
/* Base64 of a digest (44 characters, padded) and its NUL. */
#define SHA256_BASE64_LEN 45

void sha256(const void *data, size_t len, uint8_t digest[SHA256_BYTES]);
/* The digest of data in standard base64 (RFC 4648, with padding). */
void sha256_base64(const void *data, size_t len, char out[SHA256_BASE64_LEN]);

#endif /* BUILDBPF_SHA256_H */
