// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/make_args.h"

/* "8" -> 8; anything else that is not all digits -> -1. */
static long parse_count(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/*
 * One word of make's options.  *jobs set when it says -j; returns how many
 * following words it consumed (a separate -j count, or an option argument).
 */
static int make_word(const char *w, const char *next, bool cluster_without_dash, long *jobs)
{
	static const char takes_arg[] = "CfIoWlO"; /* short options with an argument */
	const char *c;
	long v;

	if (!strcmp(w, "--jobs")) {
		*jobs = -1;
		return 0;
	}
	if (!strncmp(w, "--jobs=", 7)) {
		v = parse_count(w + 7);
		*jobs = v > 0 ? v : -1;
		return 0;
	}
	if (!cluster_without_dash) {
		if (w[0] != '-' || w[1] == '-' || !w[1])
			return 0;
		w++;
	}
	for (c = w; *c; c++) {
		if (*c == 'j') {
			if (c[1]) {
				v = parse_count(c + 1);
				*jobs = v > 0 ? v : -1;
				return 0;
			}
			v = next ? parse_count(next) : -1;
			*jobs = v > 0 ? v : -1;
			return v > 0;
		}
		if (strchr(takes_arg, *c))
			return !c[1] && next; /* the rest, or the next word, is its argument */
	}
	return 0;
}

/* $MAKEFLAGS: "kj8 --no-print-directory -- VAR=x" or " -j8". */
long make_args__makeflags_jobs(const char *flags)
{
	long jobs = 0;
	char *copy = strdup(flags), *save = NULL, *w, *next;
	bool first = true;

	if (!copy)
		return 0;
	for (w = strtok_r(copy, " ", &save); w; w = next, first = false) {
		next = strtok_r(NULL, " ", &save);
		if (!strcmp(w, "--"))
			break; /* variable definitions follow */
		if (make_word(w, next, first && w[0] != '-' && !strchr(w, '='), &jobs) && next)
			next = strtok_r(NULL, " ", &save);
	}
	free(copy);
	return jobs;
}

long make_args__jobs(char *const *argv, size_t argc)
{
	long jobs = 0;
	size_t i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		i += make_word(argv[i], i + 1 < argc ? argv[i + 1] : NULL, false, &jobs);
	}
	return jobs;
}

long make_args__ninja_jobs(char *const *argv, size_t argc)
{
	long jobs = 0, v;
	size_t i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "-j", 2)) {
			v = parse_count(argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : "");
			jobs = v == 0 ? -1 : v; /* ninja -j0: no limit */
		}
	}
	return jobs;
}
