/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cargo build's own account of itself, as the integration suites use it
 * for an oracle: `cargo build --timings` writes an HTML page whose script
 * holds `const UNIT_DATA = [...]`, one JSON object per unit (crate x kind)
 * cargo ran: its package name, its target as cargo describes it ("" for a
 * library or proc-macro, " build script", " build script (run)",
 * " bin \"NAME\""), its start and duration in seconds since cargo's own
 * start, when its .rmeta was ready, and the units it was the last
 * dependency of ("unlocked_units", "unlocked_rmeta_units": indexes "i").
 */
#ifndef BUILDBPF_TESTS_CARGO_TIMINGS_H
#define BUILDBPF_TESTS_CARGO_TIMINGS_H

#include <stdbool.h>
#include <stddef.h>

enum bb_cargo_kind { BB_CARGO_LIB, BB_CARGO_BIN, BB_CARGO_BUILD_SCRIPT, BB_CARGO_RUN_BUILD_SCRIPT };

enum { BB_CARGO_MAX_UNITS = 256, BB_CARGO_MAX_UNLOCKED = 32 };

struct bb_cargo_unit {
	char name[64];	       /* the package */
	char crate[64];	       /* the crate rustc compiles: the package's, a bin's own name; none to run a script */
	enum bb_cargo_kind kind;
	double start_s, duration_s;
	double rmeta_s;	       /* since its start; -1: none reported */
	int unlocked[BB_CARGO_MAX_UNLOCKED];	   /* units that waited for its end last */
	size_t nr_unlocked;
	int unlocked_rmeta[BB_CARGO_MAX_UNLOCKED]; /* units that waited for its .rmeta last */
	size_t nr_unlocked_rmeta;
};

struct bb_cargo_timings {
	struct bb_cargo_unit units[BB_CARGO_MAX_UNITS];
	size_t nr; /* units[i] is cargo's unit "i" */
};

/* Reads target_dir/cargo-timings/cargo-timing.html; the test fails if it is missing or not as above. */
void bb_cargo_timings_read(struct bb_cargo_timings *t, const char *target_dir);
/*
 * Whether a step buildbpf named so ("rustc heavy (lib)", "rustc app (bin)",
 * "rustc build script of native", "run build script of native") is the
 * unit u: by crate and kind.  A library unit is a lib or a proc-macro
 * (cargo's page does not say which), built for the program or as a build
 * dependency.
 */
bool bb_cargo_unit_is(const struct bb_cargo_unit *u, const char *step_name);

#endif /* BUILDBPF_TESTS_CARGO_TIMINGS_H */
