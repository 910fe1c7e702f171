// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
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

/* The value of a short option at argv[*i], "-jN" or "-j N" (long: "--jobs=N" or "--jobs N"); NULL when not it. */
static const char *option_value(char *const *argv, size_t argc, size_t *i, const char *opt, const char *long_opt)
{
	const char *arg = argv[*i];
	size_t ol = strlen(opt), ll = long_opt ? strlen(long_opt) : 0;

	if (!strcmp(arg, opt) || (long_opt && !strcmp(arg, long_opt)))
		return *i + 1 < argc ? argv[++*i] : NULL;
	if (!strncmp(arg, opt, ol) && arg[ol])
		return arg + ol + (arg[ol] == '=');
	if (long_opt && !strncmp(arg, long_opt, ll) && arg[ll] == '=')
		return arg + ll + 1;
	return NULL;
}

long make_args__cargo_jobs(char *const *argv, size_t argc)
{
	long jobs = 0, v;
	const char *value;
	size_t i;

	for (i = 1; i < argc && argv[i] && strcmp(argv[i], "--"); i++) {
		if ((value = option_value(argv, argc, &i, "-j", "--jobs")) && (v = parse_count(value)) > 0)
			jobs = v;
	}
	return jobs;
}

long make_args__go_jobs(char *const *argv, size_t argc)
{
	long jobs = 0, v;
	const char *value;
	size_t i;

	/* argv[1] is the subcommand; its flags come before the packages, which end them. */
	for (i = 2; i < argc && argv[i] && argv[i][0] == '-'; i++) {
		if ((value = option_value(argv, argc, &i, "-p", "--p")) && (v = parse_count(value)) > 0)
			jobs = v;
	}
	return jobs;
}

/* The value of --config build.jobs=V at argv[*i] (--config KEY=V, --config=KEY=V); NULL when not it. */
static const char *cargo_config_arg(char *const *argv, size_t argc, size_t *i)
{
	const char *value = option_value(argv, argc, i, "--config", NULL);

	if (!value || strncmp(value, "build.jobs", 10))
		return NULL;
	value += 10;
	while (*value == ' ')
		value++;
	if (*value != '=')
		return NULL;
	for (value++; *value == ' ' || *value == '"' || *value == '\''; value++)
		;
	return value;
}

const char *make_args__cargo_jobs_arg(char *const *argv, size_t argc)
{
	const char *jobs = NULL, *config = NULL, *value;
	size_t i;

	for (i = 1; i < argc && argv[i] && strcmp(argv[i], "--"); i++) {
		if ((value = option_value(argv, argc, &i, "-j", "--jobs")))
			jobs = value;
		else if ((value = cargo_config_arg(argv, argc, &i)))
			config = value;
	}
	/* -j is taken before any --config. */
	return jobs ? jobs : config;
}

long make_args__cargo_jobs_value(const char *value, size_t nr_cpus)
{
	long v;

	if (!value)
		return 0;
	if (*value == '-') {
		/* cargo 1.68 and later: that many fewer than the CPUs, at least one. */
		v = parse_count(value + 1);
		if (v <= 0)
			return 0;
		return (long)nr_cpus - v > 0 ? (long)nr_cpus - v : 1;
	}
	/* "default" (cargo 1.75), 0 (refused), or not a count: cargo's default. */
	v = parse_count(value[0] == '+' ? value + 1 : value);
	return v > 0 ? v : 0;
}

long make_args__goflags_jobs(const char *goflags)
{
	long jobs = 0, v;
	const char *w = goflags;

	/* Space-separated flags, each -flag=value (go refuses "-p 4" there). */
	while (w && *w) {
		size_t len;

		while (*w == ' ' || *w == '\t')
			w++;
		len = strcspn(w, " \t");
		if ((!strncmp(w, "-p=", 3) || !strncmp(w, "--p=", 4)) && len < 24) {
			char word[24];
			size_t skip = w[1] == '-' ? 4 : 3;

			snprintf(word, sizeof(word), "%.*s", (int)(len - skip), w + skip);
			if ((v = parse_count(word)) > 0)
				jobs = v;
		}
		w += len;
	}
	return jobs;
}
