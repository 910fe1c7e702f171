/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF programs and links of the machine as tests/workloads/bpf_census.c
 * lists them: what a run of buildbpf holds while it traces, and what it
 * leaves behind.
 */
#ifndef BUILDBPF_TESTS_BPF_CENSUS_H
#define BUILDBPF_TESTS_BPF_CENSUS_H

#include <stdbool.h>
#include <stddef.h>

#define BB_CENSUS_MAX 512

struct bb_bpf_census {
	size_t nr_progs, nr_links;
	unsigned int prog_id[BB_CENSUS_MAX];
	char prog_name[BB_CENSUS_MAX][16]; /* the kernel keeps 15 characters */
	unsigned int link_id[BB_CENSUS_MAX], link_prog[BB_CENSUS_MAX];
};

/* Parses the workload's output; the test fails on a line it does not know or past BB_CENSUS_MAX. */
void bb_bpf_census_parse(const char *text, struct bb_bpf_census *c);
/* Takes one now (the workload run untraced, as root, in r's directory). */
struct bb_run;
void bb_bpf_census_take(const struct bb_run *r, struct bb_bpf_census *c);
/* Whether c has a program of that id / a link of that id. */
bool bb_bpf_census_has_prog(const struct bb_bpf_census *c, unsigned int id);
bool bb_bpf_census_has_link(const struct bb_bpf_census *c, unsigned int id);
/*
 * A run's own programs and links (those of during not in before): the test
 * fails unless every name of want is loaded once, none of unwanted is
 * (both NULL-ended: a program of a failed attempt still loaded shows
 * there), each program has one link at most and no new link is on a
 * program of before.  Names are the kernel's, cut at 15 characters, so two
 * programs may share one (handle_file_ren).  Returns how many programs the
 * run holds.
 */
size_t bb_bpf_census_check_run(const struct bb_bpf_census *before, const struct bb_bpf_census *during,
			       const char *const want[], const char *const unwanted[]);
/* The test fails unless now holds exactly before's programs and links (nothing left, nothing gone). */
void bb_bpf_census_assert_same(const struct bb_bpf_census *before, const struct bb_bpf_census *now);

#endif /* BUILDBPF_TESTS_BPF_CENSUS_H */
