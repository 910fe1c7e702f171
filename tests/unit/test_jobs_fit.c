// SPDX-License-Identifier: GPL-2.0
/* The -j that fits the RAM (audit/jobs_fit.h), from synthetic builds with known answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "model/model.h"
#include "audit/audit.h"
#include "report/audit_json.h"
#include "audit/jobs_fit.h"
#include "report/jobs_fit_report.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define S 1000000000ull
#define GIB_KB (1024ull * 1024)
#define MAKE_PID 100
#define WALL (60 * S)

/* make (pid 100) alive over the whole wall; its own peak make_kb. */
static struct model *build_start(__u64 make_kb)
{
	struct model *m = model__new(MAKE_PID, 0);

	cr_assert(not(eq(ptr, m, NULL)));
	synth_mem_image(m, 1 * MS, MAKE_PID, 0, 34000, 0);
	synth_exec(m, 1 * MS, MAKE_PID, 1, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	synth_mem_image(m, WALL, MAKE_PID, 1, make_kb, BB_MEM_IMAGE_EXITED);
	return m;
}

/* A job step: make forks pid, which runs path over [from, to) and peaks at peak_kb. */
static void step(struct model *m, __u32 pid, const char *path, __u64 from, __u64 to, __u64 peak_kb)
{
	synth_fork(m, from, MAKE_PID, pid, pid, false);
	/* The forked copy of make: not the step's own peak. */
	synth_mem_image(m, from + 1, pid, 0, 30000, 0);
	synth_exec(m, from + 1, pid, MAKE_PID, path, (const char *[]){ strrchr(path, '/') + 1, NULL });
	synth_mem_image(m, to, pid, 1, peak_kb, BB_MEM_IMAGE_EXITED);
	synth_exit_acct(m, to, pid, 0, MS, 0, MS, peak_kb + 30000);
}

/* n steps of path, two at a time, 2 s each, pids from first_pid. */
static void steps(struct model *m, __u32 first_pid, size_t n, const char *path, __u64 peak_kb)
{
	for (size_t i = 0; i < n; i++)
		step(m, first_pid + i, path, (1 + i / 2 * 2) * S, (3 + i / 2 * 2) * S, peak_kb);
}

/* The sampler's reading of the machine's RAM (any sample carries it). */
static void ram(struct model *m, __u64 ram_kb)
{
	struct bb_mem_sample_event e = { .hdr = { .ts_ns = 2 * S, .type = BB_EV_MEM_SAMPLE } };

	e.total_kb = 1;
	e.ram_kb = ram_kb;
	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), 0));
}

/* make exits at the end of the wall: the model is complete. */
static void end_build(struct model *m)
{
	synth_exit_acct(m, WALL, MAKE_PID, 0, 0, 0, 0, 34000);
	cr_assert(eq(int, model__finish(m, WALL), 0));
}

static void finish(struct model *m, struct jobs_fit *f, const bool *wrapper)
{
	end_build(m);
	cr_assert(eq(int, jobs_fit__compute(f, m, wrapper), 0));
}

/* n steps of 1 GiB cc1 on 16 GiB, through the whole audit: its --summary-json's memory.jobs_fit. */
static struct json_object *summary_jobs_fit(size_t n, struct json_object **summary)
{
	struct model *m = build_start(30 * 1024);
	struct audit_input in = { .nr_cpus = 2 };
	struct json_object *fit;
	struct audit a;

	steps(m, 200, n, "/usr/bin/cc1", GIB_KB);
	ram(m, 16 * GIB_KB);
	end_build(m);
	cr_assert(eq(int, with_slots__audit(&a, m, NULL, &in), 0));
	*summary = audit_json__new(&a, m);
	cr_assert(not(eq(ptr, *summary, NULL)));
	cr_assert(json_object_object_get_ex(json_object_object_get(*summary, "memory"), "jobs_fit", &fit));
	audit__free(&a);
	model__free(m);
	return fit;
}

/* The audit's line for f, its wrapped lines each <= 100 columns, joined again: "" when it prints none. */
static char *printed_on(const struct jobs_fit *f, const struct model *m, size_t cpus)
{
	static const char cont[] = "\nbuildbpf:   ";
	char *text = NULL, *at, *line;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	jobs_fit_report__print(out, f, m, cpus);
	fclose(out);
	for (line = text; *line; line = at + 1) {
		at = strchrnul(line, '\n');
		cr_assert(le(sz, (size_t)(at - line), 100), "%s", text);
		if (!*at)
			break;
	}
	while ((at = strstr(text, cont))) {
		*at = ' ';
		memmove(at + 1, at + sizeof(cont) - 1, strlen(at + sizeof(cont) - 1) + 1);
	}
	return text;
}

/* As printed on a machine of 64 CPUs: no -j here is past what they can use. */
static char *printed(const struct jobs_fit *f, const struct model *m)
{
	return printed_on(f, m, 64);
}

/* The example: 20 jobs of 1 GiB, 16 GiB at 80 %: 12.8 GiB, so 12 (make's 30 MB does not tip it). */
Test(jobs_fit, twenty_jobs_of_1_gib_on_16_gib_fit_j12)
{
	struct model *m = build_start(30 * 1024);
	struct jobs_fit f;
	char *text;

	steps(m, 200, 20, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_OK));
	cr_assert(eq(str, (char *)f.program, "cc1"));
	cr_assert(eq(sz, f.runs, 20));
	cr_assert(eq(u64, f.job_kb, GIB_KB));
	cr_assert(eq(sz, f.at_once, 2));
	cr_assert(eq(u64, f.base_kb, 30 * 1024));
	cr_assert(eq(sz, f.nr_base, 1));
	cr_assert(eq(u64, f.limit_kb, 16 * GIB_KB * 8 / 10));
	cr_assert(eq(i64, f.jobs, 12));
	cr_assert(eq(u64, f.expected_kb, 30 * 1024 + 12 * GIB_KB));
	cr_assert(eq(ptr, (char *)f.larger_program, NULL));
	text = printed(&f, m);
	cr_assert(not(eq(ptr, strstr(text, "jobs that fit in memory? -j12: 12 x 1.0 GiB"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "cc1 over 20 runs, up to 2 at once"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "+ 30.0 MiB for make = 12.0 GiB, within 80 % of 16.0 GiB RAM"), NULL)), "%s",
		  text);
	free(text);
	/* On 2 CPUs -j12 is past what they can use: memory is not the limit up to 4 x 2. */
	text = printed_on(&f, m, 2);
	cr_assert(not(eq(ptr, strstr(text, "jobs that fit in memory? memory is not the limit up to -j8 (4 x the 2 CPUs; "
					   "it would allow -j12): 8 x 1.0 GiB"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "+ 30.0 MiB for make = 8.0 GiB, within 80 % of 16.0 GiB RAM"), NULL)), "%s", text);
	free(text);
	text = printed_on(&f, m, 3); /* -j12 is 4 x 3 CPUs: said as it is */
	cr_assert(not(eq(ptr, strstr(text, "jobs that fit in memory? -j12: 12 x 1.0 GiB"), NULL)), "%s", text);
	free(text);
	model__free(m);
}

/* Nine runs are too few to trust a 95th percentile: no line, and the reason kept. */
Test(jobs_fit, too_few_runs_give_no_answer)
{
	struct model *m = build_start(30 * 1024);
	struct jobs_fit f;
	char *text;

	steps(m, 200, JOBS_FIT_MIN_RUNS - 1, "/usr/bin/cc1", GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_TOO_FEW));
	cr_assert(eq(sz, f.runs, JOBS_FIT_MIN_RUNS - 1));
	cr_assert(eq(i64, f.jobs, 0));
	cr_assert(not(eq(ptr, (char *)jobs_fit_report__reason(f.verdict), NULL)));
	text = printed(&f, m);
	cr_assert(eq(str, text, ""));
	free(text);
	model__free(m);
}

/* --mem-period off: no sample, so no RAM to fit into. */
Test(jobs_fit, without_the_ram_no_answer)
{
	struct model *m = build_start(30 * 1024);
	struct jobs_fit f;

	steps(m, 200, 20, "/usr/bin/cc1", GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_NO_RAM));
	cr_assert(eq(u64, f.job_kb, GIB_KB)); /* the figures are still there */
	model__free(m);
}

/* Peaks from maxrss (an old recording) are inherited in part: not used. */
Test(jobs_fit, peaks_that_are_not_exact_are_not_used)
{
	struct model *m = build_start(30 * 1024);
	struct jobs_fit f;

	for (__u32 i = 0; i < 20; i++) {
		synth_fork(m, (1 + i) * S, MAKE_PID, 200 + i, 200 + i, false);
		synth_exec(m, (1 + i) * S, 200 + i, MAKE_PID, "/usr/bin/cc1", (const char *[]){ "cc1", NULL });
		synth_exit_acct(m, (2 + i) * S, 200 + i, 0, MS, 0, MS, GIB_KB);
	}
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_NO_PEAKS));
	model__free(m);
}

/* Nearest rank over 20 runs is the 19th: one outlier does not set it, two do. */
Test(jobs_fit, the_95th_percentile_ignores_one_outlier_not_two)
{
	struct model *m = build_start(0);
	struct jobs_fit f;

	steps(m, 200, 19, "/usr/bin/cc1", GIB_KB);
	steps(m, 300, 1, "/usr/bin/cc1", 3 * GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(u64, f.job_kb, GIB_KB));
	cr_assert(eq(i64, f.jobs, 12));
	model__free(m);

	m = build_start(0);
	steps(m, 200, 18, "/usr/bin/cc1", GIB_KB);
	steps(m, 300, 2, "/usr/bin/cc1", 3 * GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(u64, f.job_kb, 3 * GIB_KB));
	cr_assert(eq(i64, f.jobs, 4)); /* 12.8 / 3 */
	model__free(m);
}

/* A 4 GiB make stays all along: (12.8 - 4) / 1 = 8.8, so -j8. */
Test(jobs_fit, long_lived_processes_are_the_base)
{
	struct model *m = build_start(4 * GIB_KB);
	struct jobs_fit f;

	steps(m, 200, 20, "/usr/bin/cc1", GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(u64, f.base_kb, 4 * GIB_KB));
	cr_assert(eq(i64, f.jobs, 8));
	model__free(m);
}

/* 30 assembler runs of 20 MB and 12 compiles of 500 MB: the compiler decides. */
Test(jobs_fit, the_program_holding_the_most_memory_decides)
{
	struct model *m = build_start(0);
	struct jobs_fit f;

	steps(m, 200, 30, "/usr/bin/as", 20 * 1024);
	steps(m, 300, 12, "/usr/bin/cc1", 500 * 1024);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_OK));
	cr_assert(eq(str, (char *)f.program, "cc1"));
	cr_assert(eq(sz, f.runs, 12));
	cr_assert(eq(i64, f.jobs, 26)); /* 13,421,772 KB / 512,000 */
	model__free(m);
}

/* Three 4 GiB links beside twenty 1 GiB compiles: the compiles decide, the links are named as left out. */
Test(jobs_fit, a_larger_but_rarer_program_is_named_not_counted)
{
	struct model *m = build_start(0);
	struct jobs_fit f;
	char *text;

	steps(m, 200, 20, "/usr/bin/cc1", GIB_KB);
	steps(m, 300, 3, "/usr/bin/ld", 4 * GIB_KB);
	steps(m, 400, 30, "/usr/bin/as", 20 * 1024);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(str, (char *)f.program, "cc1"));
	cr_assert(eq(i64, f.jobs, 12));
	cr_assert(eq(str, (char *)f.larger_program, "ld"));
	cr_assert(eq(u64, f.larger_kb, 4 * GIB_KB));
	cr_assert(eq(sz, f.larger_runs, 3));
	text = printed(&f, m);
	cr_assert(not(eq(ptr, strstr(text, "; not counted, larger but rarer: ld up to 4.0 GiB in 3 runs"), NULL)),
		  "%s", text);
	free(text);
	model__free(m);
}

/* Wrappers hand their work on: the heavy program behind them decides, however large they are. */
Test(jobs_fit, wrappers_are_not_job_steps)
{
	struct model *m = build_start(0);
	struct jobs_fit f;
	bool *wrapper;

	steps(m, 200, 20, "/usr/bin/ccwrap", 2 * GIB_KB);
	steps(m, 300, 12, "/usr/bin/cc1", GIB_KB);
	ram(m, 16 * GIB_KB);
	end_build(m);
	wrapper = calloc(m->nr_procs, sizeof(*wrapper));
	cr_assert(not(eq(ptr, wrapper, NULL)));
	for (size_t i = 0; i < m->nr_procs; i++)
		wrapper[i] = m->procs[i].pid >= 200 && m->procs[i].pid < 300;
	cr_assert(eq(int, jobs_fit__compute(&f, m, wrapper), 0));
	cr_assert(eq(str, (char *)f.program, "cc1"));
	cr_assert(eq(i64, f.jobs, 12));
	cr_assert(eq(int, jobs_fit__compute(&f, m, NULL), 0));
	cr_assert(eq(str, (char *)f.program, "ccwrap"));
	free(wrapper);
	model__free(m);
}

/* One job larger than the share of RAM: the line says so instead of -j0. */
Test(jobs_fit, not_even_one_job_fits)
{
	struct model *m = build_start(0);
	struct jobs_fit f;
	char *text;

	steps(m, 200, 20, "/usr/bin/cc1", 14 * GIB_KB);
	ram(m, 16 * GIB_KB);
	finish(m, &f, NULL);
	cr_assert(eq(int, f.verdict, JOBS_FIT_OK));
	cr_assert(eq(i64, f.jobs, 0));
	text = printed(&f, m);
	cr_assert(not(eq(ptr, strstr(text, "jobs that fit in memory? not even one: 14.0 GiB"), NULL)), "%s", text);
	cr_assert(not(eq(ptr, strstr(text, "over 80 % of 16.0 GiB RAM"), NULL)), "%s", text);
	free(text);
	model__free(m);
}

/* --summary-json: memory.jobs_fit, with the answer or the reason, through the audit (wrappers known there). */
Test(jobs_fit, the_summary_json_carries_the_figure_and_its_assumptions)
{
	struct json_object *o, *fit, *v;

	fit = summary_jobs_fit(20, &o);
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(fit, "jobs")), 12));
	cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(fit, "program")), "cc1"));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(fit, "job_peak_kb")), (__s64)GIB_KB));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(fit, "percentile")), 95));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(fit, "most_at_once")), 2));
	cr_assert(eq(i64, json_object_get_int64(json_object_object_get(fit, "base_kb")), 30 * 1024));
	cr_assert(json_object_object_get_ex(fit, "reason", &v));
	cr_assert(eq(ptr, v, NULL));
	json_object_put(o);

	fit = summary_jobs_fit(3, &o);
	cr_assert(json_object_object_get_ex(fit, "jobs", &v));
	cr_assert(eq(ptr, v, NULL));
	cr_assert(not(eq(ptr, strstr(json_object_get_string(json_object_object_get(fit, "reason")), "too few"), NULL)));
	json_object_put(o);
}

