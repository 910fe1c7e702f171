// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <criterion/criterion.h>
#include "lib/make_fixture.h"
#include "lib/synth.h"

#define MS 1000000ull

void make_fixture__begin(struct make_fixture *f, const char *const argv[])
{
	make_fixture__begin_as(f, "/usr/bin/make", argv);
}

void make_fixture__begin_as(struct make_fixture *f, const char *program, const char *const argv[])
{
	memset(f, 0, sizeof(*f));
	f->m = model__new(MAKE_FIXTURE_PID, 0);
	f->fl = file_log__new();
	f->w = start_wakes__new();
	cr_assert(f->m && f->fl && f->w);
	synth_exec(f->m, 1 * MS, MAKE_FIXTURE_PID, 1, program, argv);
}

void make_fixture__end(struct make_fixture *f)
{
	graph_run__free(&f->run);
	start_wakes__free(f->w);
	file_log__free(f->fl);
	model__free(f->m);
}
