// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/bpf_census.h"
#include "lib/integration.h"

void bb_bpf_census_parse(const char *text, struct bb_bpf_census *c)
{
	const char *line = text;

	memset(c, 0, sizeof(*c));
	while (line && *line) {
		unsigned int a, b;
		char name[16];

		if (sscanf(line, "prog %u %15s", &a, name) == 2) {
			cr_assert(lt(sz, c->nr_progs, (size_t)BB_CENSUS_MAX), "more than %d BPF programs", BB_CENSUS_MAX);
			c->prog_id[c->nr_progs] = a;
			snprintf(c->prog_name[c->nr_progs++], sizeof(c->prog_name[0]), "%s", name);
		} else if (sscanf(line, "link %u %u", &a, &b) == 2) {
			cr_assert(lt(sz, c->nr_links, (size_t)BB_CENSUS_MAX), "more than %d BPF links", BB_CENSUS_MAX);
			c->link_id[c->nr_links] = a;
			c->link_prog[c->nr_links++] = b;
		} else {
			cr_fail("bpf-census: unknown line: %.80s", line);
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
}

void bb_bpf_census_take(const struct bb_run *r, struct bb_bpf_census *c)
{
	char *text = bb_run_plain(r, r->dir, (const char *[]){ bb_test_prog("bpf-census"), NULL }, false, NULL);

	bb_bpf_census_parse(text, c);
	free(text);
}

bool bb_bpf_census_has_prog(const struct bb_bpf_census *c, unsigned int id)
{
	for (size_t i = 0; i < c->nr_progs; i++)
		if (c->prog_id[i] == id)
			return true;
	return false;
}

bool bb_bpf_census_has_link(const struct bb_bpf_census *c, unsigned int id)
{
	for (size_t i = 0; i < c->nr_links; i++)
		if (c->link_id[i] == id)
			return true;
	return false;
}

/* How many programs of c named name, among those not in before. */
static size_t count_new(const struct bb_bpf_census *before, const struct bb_bpf_census *c, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr_progs; i++)
		n += !bb_bpf_census_has_prog(before, c->prog_id[i]) && !strcmp(c->prog_name[i], name);
	return n;
}

size_t bb_bpf_census_check_run(const struct bb_bpf_census *before, const struct bb_bpf_census *during,
			       const char *const want[], const char *const unwanted[])
{
	size_t n = 0;

	for (size_t i = 0; want[i]; i++)
		cr_assert(eq(sz, count_new(before, during, want[i]), 1), "BPF program %s: loaded %zu times", want[i],
			  count_new(before, during, want[i]));
	for (size_t i = 0; unwanted[i]; i++)
		cr_assert(eq(sz, count_new(before, during, unwanted[i]), 0), "BPF program %s is loaded", unwanted[i]);
	for (size_t i = 0; i < during->nr_progs; i++) {
		size_t links = 0;

		if (bb_bpf_census_has_prog(before, during->prog_id[i]))
			continue;
		n++;
		for (size_t k = 0; k < during->nr_links; k++)
			links += during->link_prog[k] == during->prog_id[i];
		cr_assert(le(sz, links, 1), "BPF program %s attached %zu times", during->prog_name[i], links);
	}
	for (size_t k = 0; k < during->nr_links; k++)
		cr_assert(bb_bpf_census_has_link(before, during->link_id[k]) ||
				  !bb_bpf_census_has_prog(before, during->link_prog[k]),
			  "a new link %u on BPF program %u of before the run", during->link_id[k], during->link_prog[k]);
	return n;
}

void bb_bpf_census_assert_same(const struct bb_bpf_census *before, const struct bb_bpf_census *now)
{
	for (size_t i = 0; i < now->nr_progs; i++)
		cr_assert(bb_bpf_census_has_prog(before, now->prog_id[i]), "BPF program %u (%s) left behind",
			  now->prog_id[i], now->prog_name[i]);
	for (size_t i = 0; i < now->nr_links; i++)
		cr_assert(bb_bpf_census_has_link(before, now->link_id[i]), "BPF link %u (program %u) left behind",
			  now->link_id[i], now->link_prog[i]);
	cr_assert(eq(sz, now->nr_progs, before->nr_progs), "a BPF program went");
	cr_assert(eq(sz, now->nr_links, before->nr_links), "a BPF link went");
}
