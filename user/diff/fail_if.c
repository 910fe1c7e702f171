// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/fail_if.h"

#define PROGRAM_PREFIX "program:"
#define NEW_RACES "race"


static bool is_time(const struct fail_if *c)
{
	return !strcmp(fail_if__unit(c), "s");
}

/* FIGURE up to the operator; 0 or -EINVAL. */
static int parse_figure(struct fail_if *c, const char *s, size_t len, char *err, size_t err_size)
{
	size_t k, plen = strlen(PROGRAM_PREFIX);

	if (len > plen && !strncmp(s, PROGRAM_PREFIX, plen)) {
		const char *name = s + plen, *dot = NULL, *p;

		for (p = name; p < s + len; p++)
			if (*p == '.')
				dot = p;
		if (!dot || dot == name) {
			snprintf(err, err_size, "expected program:NAME.cpu or program:NAME.procs");
			return -EINVAL;
		}
		if ((size_t)(dot - name) >= sizeof(c->program)) {
			snprintf(err, err_size, "program name longer than %d bytes", FAIL_IF_PROGRAM_MAX - 1);
			return -EINVAL;
		}
		if ((size_t)(s + len - dot - 1) == 3 && !strncmp(dot + 1, "cpu", 3))
			c->figure = FAIL_IF_PROGRAM_CPU;
		else if ((size_t)(s + len - dot - 1) == 5 && !strncmp(dot + 1, "procs", 5))
			c->figure = FAIL_IF_PROGRAM_PROCS;
		else {
			snprintf(err, err_size, "a program's figure is .cpu or .procs");
			return -EINVAL;
		}
		memcpy(c->program, name, dot - name);
		c->program[dot - name] = '\0';
		return 0;
	}
	if (len == strlen(NEW_RACES) && !strncmp(s, NEW_RACES, len)) {
		c->figure = FAIL_IF_NEW_RACES;
		return 0;
	}
	for (k = 0; k < DIFF_NR_METRICS; k++) {
		const char *name = diff_metric__name(k);

		if (strlen(name) == len && !strncmp(s, name, len)) {
			c->figure = FAIL_IF_METRIC;
			c->metric = k;
			return 0;
		}
	}
	snprintf(err, err_size, "unknown figure '%.*s' (expected wall, cpu, utilisation, parallelism, peak, lost, "
				"processes, lost_events, race or program:NAME.cpu/.procs)", (int)(len > 40 ? 40 : len), s);
	return -EINVAL;
}

int fail_if__parse(struct fail_if *c, const char *text, char *err, size_t err_size)
{
	const char *op = strpbrk(text, "<>"), *num;
	char *end;

	memset(c, 0, sizeof(*c));
	c->text = text;
	if (!op) {
		snprintf(err, err_size, "no '>' or '<' (expected e.g. 'wall>+10%%')");
		return -EINVAL;
	}
	if (parse_figure(c, text, op - text, err, err_size))
		return -EINVAL;
	c->op = *op;
	num = op + 1;
	if (*num == '=' || *num == '<' || *num == '>') {
		snprintf(err, err_size, "the operator is '>' or '<' alone");
		return -EINVAL;
	}
	if (!*num || *num == ' ') {
		snprintf(err, err_size, "no limit after '%c' (expected e.g. +10%% or +2s)", c->op);
		return -EINVAL;
	}
	errno = 0;
	c->limit = strtod(num, &end);
	if (errno || end == num || !isfinite(c->limit) || (*num != '+' && *num != '-' && (*num < '0' || *num > '9'))) {
		snprintf(err, err_size, "limit '%.40s' is not a number (expected e.g. +10%% or +2s)", num);
		return -EINVAL;
	}
	if (!strcmp(end, "%")) {
		c->relative = true;
	} else if (!strcmp(end, "s") || !strcmp(end, "ms")) {
		if (!is_time(c)) {
			snprintf(err, err_size, "'%s' is not a time: give its limit as a number or a percentage", end);
			return -EINVAL;
		}
		if (end[0] == 'm')
			c->limit /= 1000;
	} else if (*end) {
		snprintf(err, err_size, "unexpected '%.20s' after the limit (expected %%, s, ms or nothing)", end);
		return -EINVAL;
	}
	return 0;
}

const char *fail_if__unit(const struct fail_if *c)
{
	if (c->figure == FAIL_IF_METRIC)
		return diff_metric__unit(c->metric);
	return c->figure == FAIL_IF_PROGRAM_CPU ? "s" : "";
}

const char *fail_if__unrecorded_why(const struct fail_if *c)
{
	return c->figure == FAIL_IF_NEW_RACES ? "races need file dependencies: record both with --deps=on"
					      : "a recording made with --sched=off has no parallelism";
}

int fail_if__eval(const struct fail_if *c, const struct diff *d, struct diff_value *v)
{
	double change;
	size_t k;

	memset(v, 0, sizeof(*v));
	if (c->figure == FAIL_IF_METRIC) {
		*v = d->values[c->metric];
		if (!v->known)
			return -ENODATA;
	} else if (c->figure == FAIL_IF_NEW_RACES) {
		if (!d->races.known)
			return -ENODATA;
		v->known = true;
		v->new_v = (double)d->races.nr_fresh;
	} else {
		v->known = true;
		for (k = 0; k < d->nr_programs; k++) {
			const struct diff_program *p = &d->programs[k];

			if (strcmp(p->name, c->program))
				continue;
			if (c->figure == FAIL_IF_PROGRAM_CPU) {
				v->old_v = p->old_cpu_ns / 1e9;
				v->new_v = p->new_cpu_ns / 1e9;
			} else {
				v->old_v = (double)p->old_procs;
				v->new_v = (double)p->new_procs;
			}
		}
	}
	change = c->relative ? diff_value__percent(v) : diff_value__change(v);
	return c->op == '>' ? change > c->limit : change < c->limit;
}
