/* mix.c — a 32-bit fingerprint through 300 distinct mixing functions.
 *
 * The functions are stamped out by macro expansion so that this one file
 * takes noticeably longer to compile than the others: it is the long bar in
 * the demo's trace. */
#include "demo.h"

#define MIXER(n)                                                     \
	static uint32_t mix##n(uint32_t x)                           \
	{                                                            \
		x ^= x >> (n % 13 + 1);                              \
		x *= 0x9E3779B1u + n##u;                             \
		x ^= x << (n % 7 + 1);                               \
		return x + (x >> 16) * n##u;                         \
	}
#define POINTER(n) mix##n,

/* TENS(M, 12) is M(120) M(121) ... M(129); HUNDREDS(M, 1) is M(100)..M(199). */
#define TENS(M, p) M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) \
		   M(p##5) M(p##6) M(p##7) M(p##8) M(p##9)
#define HUNDREDS(M, p) TENS(M, p##0) TENS(M, p##1) TENS(M, p##2) TENS(M, p##3) \
		       TENS(M, p##4) TENS(M, p##5) TENS(M, p##6) TENS(M, p##7) \
		       TENS(M, p##8) TENS(M, p##9)

HUNDREDS(MIXER, 1)
HUNDREDS(MIXER, 2)
HUNDREDS(MIXER, 3)

static uint32_t (*const mixers[])(uint32_t) = {
	HUNDREDS(POINTER, 1) HUNDREDS(POINTER, 2) HUNDREDS(POINTER, 3)
};

uint32_t mix_fingerprint(uint32_t x)
{
	for (size_t i = 0; i < sizeof mixers / sizeof mixers[0]; i++)
		x = mixers[i](x);
	return x;
}
