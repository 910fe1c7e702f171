// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/name_text.h"
#include "model/paths.h"
#include "model/proc_name.h"
#include "report/report_text.h"
#include "util/term_escape.h"

static const char prefix[] = "buildbpf: ";

void report_put_name(FILE *out, const char *name, size_t max)
{
	const unsigned char *c = (const unsigned char *)name;
	size_t shown = 0;

	for (; *c; c++, shown++) {
		if (shown >= max) {
			fputs("...", out);
			return;
		}
		if (term_ellipsis_len(c)) {
			fputs("...", out);
			c += term_ellipsis_len(c) - 1;
		} else if (term_byte_is_plain(*c)) {
			fputc(*c, out);
		} else {
			fprintf(out, "\\x%02x", *c);
		}
	}
}

void report_put_path(FILE *out, const char *path, size_t max)
{
	char *shown = strdup(path);

	/* The directories give way to the column, not the file name. */
	if (shown)
		path_shorten_to(shown, max);
	report_put_name(out, shown ? shown : path, max);
	free(shown);
}

void report_put_proc(FILE *out, const struct model *m, long idx)
{
	char *name;

	if (idx < 0 || (size_t)idx >= m->nr_procs) {
		fputs("?", out);
		return;
	}
	name = proc_display_name(m, &m->procs[idx]);
	/* A path's directories give way to the column, not its file name. */
	if (name)
		name_shorten(name, REPORT_NAME_MAX);
	report_put_name(out, name ? name : m->procs[idx].comm, REPORT_NAME_MAX);
	free(name);
}

void report_put_sec(FILE *out, __u64 ns)
{
	if (ns && ns < 5000000)
		fputs("<0.01 s", out);
	else
		fprintf(out, "%.2f s", ns / 1e9);
}

void report_put_share(FILE *out, __u64 part, __u64 whole)
{
	double pct = whole ? 100.0 * part / whole : 0;

	if (part && pct < 0.5)
		fputs("<1 %", out);
	else
		fprintf(out, "%.0f %%", pct);
}

void report_put_count(FILE *out, size_t n)
{
	if (n >= 1000) {
		report_put_count(out, n / 1000);
		fprintf(out, ",%03zu", n % 1000);
	} else {
		fprintf(out, "%zu", n);
	}
}

const char *report_size(char buf[REPORT_SIZE_LEN], __u64 bytes)
{
	if (bytes >= 1ull << 30)
		snprintf(buf, REPORT_SIZE_LEN, "%.1f GiB", bytes / (double)(1ull << 30));
	else if (bytes >= 1ull << 20)
		snprintf(buf, REPORT_SIZE_LEN, "%.1f MiB", bytes / (double)(1ull << 20));
	else if (bytes >= 1ull << 10) /* a small step's few KiB are not "0.0 MiB" */
		snprintf(buf, REPORT_SIZE_LEN, "%.0f KiB", bytes / 1024.0);
	else
		snprintf(buf, REPORT_SIZE_LEN, "%llu B", (unsigned long long)bytes);
	return buf;
}

void report_put_size(FILE *out, __u64 bytes)
{
	char buf[REPORT_SIZE_LEN];

	fputs(report_size(buf, bytes), out);
}

FILE *report_line__begin(struct report_line *l, FILE *out)
{
	memset(l, 0, sizeof(*l));
	l->out = out;
	l->mem = open_memstream(&l->text, &l->len);
	if (l->mem)
		return l->mem;
	fputs(prefix, out);
	return out;
}

/* The space in "9.12 s", "42 %", "3.2 MiB": a figure and its unit read as one word, never split. */
static bool joins_figure(const char *s, size_t i)
{
	static const char *const units[] = { "s", "%", "B", "KiB", "MiB", "GiB", "TiB" };
	size_t k, n;

	if (!i || s[i - 1] < '0' || s[i - 1] > '9')
		return false;
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		n = strlen(units[k]);
		if (!strncmp(s + i + 1, units[k], n) && !isalpha((unsigned char)s[i + 1 + n]))
			return true;
	}
	return false;
}

/*
 * Where to end a piece of at most room bytes of s (len > room): after a
 * ", " in its second half, else at a space (an early comma would leave
 * the line half empty) that does not split a figure from its unit.
 */
static size_t break_at(const char *s, size_t room, size_t *skip)
{
	size_t i;

	for (i = room; i > room / 2 + 1; i--) {
		if (s[i - 2] == ',' && s[i - 1] == ' ') {
			*skip = 1; /* the space */
			return i - 1;
		}
	}
	for (i = room; i > 0; i--) {
		if (s[i] == ' ' && !joins_figure(s, i)) {
			*skip = 1;
			return i;
		}
	}
	*skip = 0;
	return room; /* one word longer than the line: cut it */
}

void report_line__end(struct report_line *l)
{
	const char *s;
	size_t indent, room, len, n, skip;
	bool first = true;

	if (!l->mem) {
		fputc('\n', l->out);
		return;
	}
	fclose(l->mem);
	s = l->text;
	len = strlen(s);
	indent = strspn(s, " ") + 2;
	for (;;) {
		room = REPORT_WIDTH - (sizeof(prefix) - 1) - (first ? 0 : indent);
		fprintf(l->out, "%s%*s", prefix, first ? 0 : (int)indent, "");
		if (len <= room) {
			fprintf(l->out, "%s\n", s);
			break;
		}
		n = break_at(s, room, &skip);
		fprintf(l->out, "%.*s\n", (int)n, s);
		s += n + skip;
		len -= n + skip;
		first = false;
	}
	free(l->text);
}
