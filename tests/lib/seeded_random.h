/* SPDX-License-Identifier: GPL-2.0 */
/* Random trees and streams for the unit tests that every run sees again. */
#ifndef BUILDBPF_TESTS_SEEDED_RANDOM_H
#define BUILDBPF_TESTS_SEEDED_RANDOM_H

#include <linux/types.h>

/* The next 31-bit number of the stream *state (Knuth's MMIX LCG): a fixed seed gives the same stream on every run. */
__u64 seeded_random(__u64 *state);

#endif /* BUILDBPF_TESTS_SEEDED_RANDOM_H */
