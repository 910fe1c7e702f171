/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every mode's options (cli_options.c): one row each, with its name, the
 * modes that take it, how its value is read, its limits and its --help
 * text.  The parser (cli_parse.c), --help (cli_usage.c) and the hidden
 * --list-options dump that the man page and completion are checked against
 * all read the same rows.
 */
#ifndef BUILDBPF_CLI_OPTIONS_H
#define BUILDBPF_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli/cli.h"

/* Modes as bits of cli_option.modes. */
#define CLI_IN_TRACE (1u << CLI_TRACE)
#define CLI_IN_RECORD (1u << CLI_RECORD)
#define CLI_IN_CONVERT (1u << CLI_CONVERT)
#define CLI_IN_REPORT (1u << CLI_REPORT)
#define CLI_IN_RUNS (CLI_IN_TRACE | CLI_IN_RECORD) /* a command runs */
#define CLI_IN_READING (CLI_IN_CONVERT | CLI_IN_REPORT) /* a recording is read */
/* Every mode but diff, whose options are rows of their own (its --force is not theirs). */
#define CLI_IN_ALL (CLI_IN_RUNS | CLI_IN_READING)
#define CLI_IN_DIFF (1u << CLI_DIFF)

/* How an option's value is read, and where it goes in struct cli_opts. */
enum cli_value {
	CLI_FLAG,     /* no value: sets a bool */
	CLI_TEXT,     /* a string; empty refused when needs is set */
	CLI_CHOICE,   /* one of the choices' words */
	CLI_NUMBER,   /* a plain decimal within min..max */
	CLI_SIZE,     /* a byte count with K/M/G (cli__parse_size) within min..max */
	CLI_DURATION, /* a duration with its unit (cli__parse_duration) within min..max */
	CLI_PARSED,   /* read by the row's parse() into its field (--fail-if's conditions) */
	CLI_HELP,     /* prints --help; exit now */
	CLI_VERSION,  /* prints --version; exit now */
};

/* How a limit is spelled in a message. */
enum cli_limit_unit {
	CLI_LIMIT_NUMBER,   /* 131072 */
	CLI_LIMIT_SIZE,     /* 4K, 1G; below 1K: "1 byte" */
	CLI_LIMIT_DURATION, /* 1ns, 1ms, 10s */
};

/* A word an option takes for a value (--sched full), tried before any number. */
struct cli_choice {
	const char *word;
	unsigned long long value;
};

struct cli_option {
	const char *name; /* long name, without "--" */
	char short_name;  /* 0: none */
	unsigned modes;	  /* CLI_IN_*: the modes that take it */
	enum cli_value value;
	/* Where the value goes: offset and size in struct cli_opts (CLI_FIELD);
	 * a list's items and count (CLI_LIST), its capacity in max_items. */
	size_t at, size, count_at, max_items;
	size_t given_at; /* the bool set once it is given; 0: none (mode lives at 0) */
	unsigned long long min, max;
	bool power_of_two;
	enum cli_limit_unit unit;
	const struct cli_choice *choices; /* ended by { NULL }; NULL: none */
	/* CLI_PARSED: reads text into the field; 0, or nonzero with why it
	 * cannot (a phrase) in why. */
	int (*parse)(void *field, const char *text, char *why, size_t why_size);
	/* The messages: what an empty value lacks ("a file name"), what a value
	 * should be ("expected {min} to {max} bytes"), what a full list says
	 * ("at most {max} daemons"); {min}/{max} are the limits, spelled by
	 * unit, {why} what parse() said. */
	const char *needs, *expect, *too_many;
	/* Said at once, with the mode's name, when a mode that does not take
	 * the option names it; NULL: refused later, in the mode's own checks. */
	const char *not_here;
	/* --help: the value's placeholder (NULL: none), the text (lines end
	 * with \n, continuation lines are indented; NULL: the row has no line
	 * of its own), the text's column when the name is too wide for the
	 * usual one (0: two spaces on), and the names the line starts with
	 * when not the row's own (NULL: "-x, --name ARG"): rows can share one. */
	const char *arg, *help;
	int help_at;
	const char *help_names;
};

#define CLI_MEMBER(f) (((struct cli_opts *)0)->f)
/* The struct cli_opts field an option's value goes to. */
#define CLI_FIELD(f) .at = offsetof(struct cli_opts, f), .size = sizeof(CLI_MEMBER(f))
/* A repeatable option's array and count: the capacity is the array's. */
#define CLI_LIST(f, nr)                                                                          \
	.at = offsetof(struct cli_opts, f), .size = sizeof(CLI_MEMBER(f)[0]),                   \
	.count_at = offsetof(struct cli_opts, nr), .max_items = sizeof(CLI_MEMBER(f)) / sizeof(CLI_MEMBER(f)[0])
#define CLI_GIVEN(f) .given_at = offsetof(struct cli_opts, f)

/* The rows, in --help's order (diff's last); *nr gets their count. */
const struct cli_option *cli__options(size_t *nr);
/* The --help lines of the rows of a family of modes (CLI_IN_ALL, CLI_IN_DIFF), one per row that has help. */
void cli__print_options_help(FILE *out, unsigned family);
/*
 * buildbpf --list-options (not in --help; as perf's --list-opts, for the
 * check that the man page and completion name every option and no other):
 * "MODES -x --name" per row ("-" for no short name; MODES: the modes that
 * take it, "trace,record,convert,report" or "diff").
 */
void cli__list_options(FILE *out);

#endif /* BUILDBPF_CLI_OPTIONS_H */
