/* SPDX-License-Identifier: GPL-2.0 */
/* The --help and --version texts, which every mode's parser prints (cli_usage.c). */
#ifndef BUILDBPF_CLI_USAGE_H
#define BUILDBPF_CLI_USAGE_H

#include <stdio.h>

/* The --help text. */
void cli__print_usage(FILE *out);
/*
 * The build's part of --version, one "name: value" line each after the
 * first: the version, the git commit built from (commit NULL or "": not
 * built from a git checkout) and the libbpf it runs with.
 */
void cli__print_version(FILE *out, const char *commit, const char *libbpf_version);
/* --version of this build: its commit and the libbpf it runs with. */
void cli__print_build_version(FILE *out);

#endif /* BUILDBPF_CLI_USAGE_H */
