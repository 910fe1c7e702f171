// SPDX-License-Identifier: GPL-2.0
/* SHA-256 as FIPS 180-4 specifies it: see include/util/sha256.h. */
#include <string.h>
#include "util/sha256.h"

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned int n)
{
	return x >> n | x << (32 - n);
}

/* One 64-byte block into the state h. */
static void compress(uint32_t h[8], const uint8_t block[64])
{
	uint32_t w[64], v[8], t1, t2;
	size_t i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3) + w[i - 7] +
		       (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
		t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

void sha256(const void *data, size_t len, uint8_t digest[SHA256_BYTES])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	uint8_t last[128] = { 0 };
	uint64_t bits = (uint64_t)len * 8;
	size_t i, rest, tail;

	for (; len >= 64; p += 64, len -= 64)
		compress(h, p);
	/* The rest, the 0x80 mark, zeros and the length in bits: one block or two. */
	rest = len;
	memcpy(last, p, rest);
	last[rest] = 0x80;
	tail = rest + 1 + 8 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[tail - 1 - i] = (uint8_t)(bits >> (8 * i));
	compress(h, last);
	if (tail == 128)
		compress(h, last + 64);
	for (i = 0; i < 8; i++) {
		digest[4 * i] = h[i] >> 24;
		digest[4 * i + 1] = h[i] >> 16;
		digest[4 * i + 2] = h[i] >> 8;
		digest[4 * i + 3] = h[i];
	}
}

void sha256_base64(const void *data, size_t len, char out[SHA256_BASE64_LEN])
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t d[SHA256_BYTES + 1] = { 0 }; /* 32 bytes: ten groups of three and two left, one zero pad */
	size_t i, o = 0;
	uint32_t g;

	sha256(data, len, d);
	for (i = 0; i < SHA256_BYTES; i += 3) {
		g = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | (i + 2 < SHA256_BYTES ? d[i + 2] : 0);
		out[o++] = alphabet[g >> 18 & 63];
		out[o++] = alphabet[g >> 12 & 63];
		out[o++] = alphabet[g >> 6 & 63];
		out[o++] = i + 2 < SHA256_BYTES ? alphabet[g & 63] : '=';
	}
	out[o] = '\0';
}
