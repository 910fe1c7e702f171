// SPDX-License-Identifier: GPL-2.0
#include "seeded_random.h"

__u64 seeded_random(__u64 *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}
