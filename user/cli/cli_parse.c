// SPDX-License-Identifier: GPL-2.0
/*
 * argv read by the option table's rows (include/cli/cli_parse.h): getopt's
 * tables made from the rows of one family of modes, each value read as its
 * row says and stored where its row says, each message built from the row
 * (its limits, its words).  An option a mode of the family does not take is
 * parsed all the same (a bad value is said first) and refused after, in the
 * mode's own words, unless its row says otherwise at once (not_here).
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_parse.h"
#include "cli/cli_usage.h"
#include "cli/cli_values.h"
#include "util/term_escape.h"

/* A limit as a message spells it: 131072, 4K, 1 byte, 10s. */
static void spell_limit(char *buf, size_t len, unsigned long long v, enum cli_limit_unit unit)
{
	static const struct {
		const char *suffix;
		unsigned long long scale;
	} sizes[] = { { "G", 1ull << 30 }, { "M", 1ull << 20 }, { "K", 1ull << 10 } },
	  durations[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 } };
	size_t i;

	if (unit == CLI_LIMIT_SIZE) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			if (v && v % sizes[i].scale == 0) {
				snprintf(buf, len, "%llu%s", v / sizes[i].scale, sizes[i].suffix);
				return;
			}
		snprintf(buf, len, "%llu byte%s", v, v == 1 ? "" : "s");
	} else if (unit == CLI_LIMIT_DURATION) {
		for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++)
			if (v % durations[i].scale == 0 || durations[i].scale == 1) {
				snprintf(buf, len, "%llu%s", v / durations[i].scale, durations[i].suffix);
				return;
			}
	} else {
		snprintf(buf, len, "%llu", v);
	}
}

/* What a row's message leaves to the moment it is said. */
struct message_values {
	const char *min, *max; /* the limits, spelled */
	const char *why;       /* a CLI_PARSED value's parser's reason */
};

/* A message of the table, its {min}, {max} and {why} filled in. */
static void say_filled(FILE *err, const char *message, const struct message_values *v)
{
	const struct {
		const char *mark, *value;
	} marks[] = { { "{min}", v->min }, { "{max}", v->max }, { "{why}", v->why } };
	size_t i;

	while (*message) {
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			if (!strncmp(message, marks[i].mark, strlen(marks[i].mark)))
				break;
		if (i < sizeof(marks) / sizeof(marks[0])) {
			fputs(marks[i].value ? marks[i].value : "", err);
			message += strlen(marks[i].mark);
		} else {
			fputc(*message++, err);
		}
	}
}

/* What a value should have been: the choices' words, or the row's message with its limits. */
static void say_expected(FILE *err, const struct cli_option *opt)
{
	char min[32], max[32];

	if (opt->value == CLI_CHOICE) {
		fputs("expected ", err);
		for (const struct cli_choice *choice = opt->choices; choice->word; choice++)
			fprintf(err, "%s%s", choice == opt->choices ? "" : choice[1].word ? ", " : " or ",
				choice->word);
		return;
	}
	spell_limit(min, sizeof(min), opt->min, opt->unit);
	spell_limit(max, sizeof(max), opt->max, opt->unit);
	say_filled(err, opt->expect, &(struct message_values){ .min = min, .max = max });
}

/* A value that is a number: one of the row's words, or read as its kind says and within its limits. */
static int read_number(const struct cli_option *opt, const char *arg, unsigned long long *value)
{
	__u64 ns;
	char *end;

	for (const struct cli_choice *choice = opt->choices; choice && choice->word; choice++)
		if (!strcmp(arg, choice->word)) {
			*value = choice->value;
			return 0;
		}
	switch (opt->value) {
	case CLI_NUMBER:
		if (cli__parse_u64(arg, value, &end) || *end)
			return -EINVAL;
		break;
	case CLI_SIZE:
		if (cli__parse_size(arg, value))
			return -EINVAL;
		break;
	case CLI_DURATION:
		if (cli__parse_duration(arg, &ns))
			return -EINVAL;
		*value = ns;
		break;
	default: /* CLI_CHOICE: none of its words */
		return -EINVAL;
	}
	if (*value < opt->min || *value > opt->max || (opt->power_of_two && (*value & (*value - 1))))
		return -EINVAL;
	return 0;
}

/* An integer into the field of the row's size (bool, __u32, pid_t, size_t, ...). */
static void store_number(void *field, size_t size, unsigned long long value)
{
	union {
		__u8 u8;
		__u16 u16;
		__u32 u32;
		__u64 u64;
	} v;

	switch (size) {
	case 1: v.u8 = value; break;
	case 2: v.u16 = value; break;
	case 4: v.u32 = value; break;
	default: v.u64 = value; break; /* 8: a unit test holds every row to these sizes */
	}
	memcpy(field, &v, size);
}

/* Where the row's next value goes: its field, or its list's next item; NULL: the list is full. */
static char *slot_of(struct cli_opts *opts, const struct cli_option *opt)
{
	size_t count = opt->max_items ? *(size_t *)((char *)opts + opt->count_at) : 0;

	if (opt->max_items && count >= opt->max_items)
		return NULL;
	return (char *)opts + opt->at + count * opt->size;
}

/* The slot's value is kept: a list counts it. */
static void keep_slot(struct cli_opts *opts, const struct cli_option *opt)
{
	if (opt->max_items)
		++*(size_t *)((char *)opts + opt->count_at);
}

/* Says the row's list is full.  -EINVAL. */
static int say_full(const struct cli_parse *p, const struct cli_option *opt, FILE *err)
{
	char max[32];

	snprintf(max, sizeof(max), "%zu", opt->max_items);
	fprintf(err, "%s--%s: ", p->say, opt->name);
	say_filled(err, opt->too_many, &(struct message_values){ .max = max });
	fputc('\n', err);
	return -EINVAL;
}

/* Says a text option's value is empty.  -EINVAL. */
static int say_empty(const struct cli_parse *p, const struct cli_option *opt, FILE *err)
{
	if (opt->max_items)
		fprintf(err, "%s--%s: needs %s\n", p->say, opt->name, opt->needs);
	else if (opt->short_name)
		fprintf(err, "%s-%c/--%s needs %s\n", p->say, opt->short_name, opt->name, opt->needs);
	else
		fprintf(err, "%s--%s needs %s\n", p->say, opt->name, opt->needs);
	return -EINVAL;
}

/*
 * A value its row's parser reads (--fail-if's conditions), straight into
 * its slot: so the list's room is checked first.  0, or -EINVAL (said).
 */
static int apply_parsed(struct cli_opts *opts, const struct cli_parse *p, const struct cli_option *opt,
			const char *arg, FILE *err)
{
	char esc[TERM_ESCAPE_BUF], why[256];
	char *slot = slot_of(opts, opt);

	if (!slot)
		return say_full(p, opt, err);
	if (opt->parse(slot, arg, why, sizeof(why))) {
		fprintf(err, "%s--%s '%s': ", p->say, opt->name, term_escape(arg, esc, sizeof(esc)));
		say_filled(err, opt->expect, &(struct message_values){ .why = why });
		fputc('\n', err);
		return -EINVAL;
	}
	keep_slot(opts, opt);
	return 0;
}

/* Applies one option and its value (NULL: none).  > 0 go on, 0 exit now (--help, --version), < 0 said. */
static int apply_option(struct cli_opts *opts, const struct cli_parse *p, const struct cli_option *opt,
			const char *arg, FILE *out, FILE *err)
{
	char esc[TERM_ESCAPE_BUF], *slot;
	unsigned long long number = 1;

	if (opt->not_here && !(opt->modes & (1u << opts->mode))) {
		if (p->mode_name)
			fprintf(err, "%s%s: --%s %s\n", p->say, p->mode_name, opt->name, opt->not_here);
		else /* trace: the mode without a name */
			fprintf(err, "%s--%s %s\n", p->say, opt->name, opt->not_here);
		return -EINVAL;
	}
	if (opt->given_at)
		*(bool *)((char *)opts + opt->given_at) = true;
	switch (opt->value) {
	case CLI_HELP:
		cli__print_usage(out);
		return 0;
	case CLI_VERSION:
		cli__print_build_version(out);
		store_number(slot_of(opts, opt), opt->size, 1);
		return 0;
	case CLI_PARSED:
		return apply_parsed(opts, p, opt, arg, err) ? -EINVAL : 1;
	case CLI_FLAG:
		break;
	case CLI_TEXT:
		if (opt->needs && !*arg)
			return say_empty(p, opt, err);
		break;
	default:
		if (read_number(opt, arg, &number)) {
			fprintf(err, "%s--%s '%s': ", p->say, opt->name, term_escape(arg, esc, sizeof(esc)));
			say_expected(err, opt);
			fputc('\n', err);
			return -EINVAL;
		}
	}
	slot = slot_of(opts, opt);
	if (!slot)
		return say_full(p, opt, err);
	if (opt->value == CLI_TEXT)
		memcpy(slot, &arg, sizeof(arg));
	else
		store_number(slot, opt->size, number);
	keep_slot(opts, opt);
	return 1;
}

/* getopt_long's val for a row: its short name, or past every character. */
#define LONG_ONLY_VAL 0x100

/* Whether the row's option is followed by a value. */
static bool takes_value(const struct cli_option *opt)
{
	switch (opt->value) {
	case CLI_TEXT:
	case CLI_CHOICE:
	case CLI_NUMBER:
	case CLI_SIZE:
	case CLI_DURATION:
	case CLI_PARSED:
		return true;
	case CLI_FLAG:
	case CLI_HELP:
	case CLI_VERSION:
		break;
	}
	return false;
}

/* getopt_long's tables from the family's rows: each one's long name, and the short names after prefix. */
static void getopt_tables(const struct cli_option *rows, size_t nr, unsigned family, const char *prefix,
			  struct option *longopts, char *shortopts)
{
	char *at = stpcpy(shortopts, prefix);
	size_t n = 0;

	for (size_t i = 0; i < nr; i++) {
		if (!(rows[i].modes & family))
			continue;
		longopts[n] = (struct option){ rows[i].name, takes_value(&rows[i]) ? required_argument : no_argument,
					       NULL, rows[i].short_name ? rows[i].short_name : LONG_ONLY_VAL + (int)i };
		if (rows[i].short_name) {
			*at++ = rows[i].short_name;
			if (longopts[n].has_arg)
				*at++ = ':';
		}
		n++;
	}
	*at = '\0';
	longopts[n] = (struct option){};
}

/* The family's row getopt_long's c names; NULL: not an option of ours. */
static const struct cli_option *row_of(const struct cli_option *rows, size_t nr, unsigned family, int c)
{
	if (c >= LONG_ONLY_VAL)
		return c - LONG_ONLY_VAL < (int)nr ? &rows[c - LONG_ONLY_VAL] : NULL;
	for (size_t i = 0; i < nr; i++)
		if ((rows[i].modes & family) && rows[i].short_name == c)
			return &rows[i];
	return NULL;
}

/* An option none of the family's rows names.  -EINVAL. */
static int say_unknown(const struct cli_parse *p, const struct cli_option *rows, size_t nr, const char *given,
		       FILE *err)
{
	char esc[TERM_ESCAPE_BUF];
	const char *sep = "";

	fprintf(err, "%sunknown option '%s' (", p->say, term_escape(given, esc, sizeof(esc)));
	if (p->names_options) {
		/* Each by its shortest name; --help goes without saying. */
		fprintf(err, "%s takes ", p->mode_name);
		for (size_t i = 0; i < nr; i++) {
			if (!(rows[i].modes & p->family) || rows[i].value == CLI_HELP)
				continue;
			if (rows[i].short_name)
				fprintf(err, "%s-%c", sep, rows[i].short_name);
			else
				fprintf(err, "%s--%s", sep, rows[i].name);
			sep = ", ";
		}
		fputs("; ", err);
	}
	fputs("see --help)\n", err);
	return -EINVAL;
}

int cli__parse_rows(struct cli_opts *opts, struct cli_parse *p, int argc, char **argv, FILE *out, FILE *err)
{
	size_t nr;
	const struct cli_option *rows = cli__options(&nr), *opt;
	struct option longopts[nr + 1];
	char shortopts[strlen(p->getopt_prefix) + 2 * nr + 1], esc[TERM_ESCAPE_BUF];
	int c, ret;

	getopt_tables(rows, nr, p->family, p->getopt_prefix, longopts, shortopts);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == ':') {
			fprintf(err, "%soption '%s' needs an argument (see --help)\n", p->say,
				term_escape(argv[optind - 1], esc, sizeof(esc)));
			return -EINVAL;
		}
		opt = row_of(rows, nr, p->family, c);
		if (!opt)
			return say_unknown(p, rows, nr, optopt ? (char[]){ '-', (char)optopt, '\0' } : argv[optind - 1],
					   err);
		if (!(opt->modes & CLI_IN_READING))
			p->run_only = opt->name;
		ret = apply_option(opts, p, opt, optarg, out, err);
		if (ret <= 0)
			return ret;
	}
	return 1;
}
