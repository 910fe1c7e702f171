// SPDX-License-Identifier: GPL-2.0
/* The -j that fits the memory (audit/jobs_fit.h) in words: include/report/jobs_fit_report.h. */
#include "model/proc_name.h"
#include "report/jobs_fit_report.h"
#include "report/report_text.h"

const char *jobs_fit_report__reason(enum jobs_fit_verdict v)
{
	switch (v) {
	case JOBS_FIT_OK:
		return NULL;
	case JOBS_FIT_NO_RAM:
		return "the machine's RAM was not recorded (--mem-period off)";
	case JOBS_FIT_NO_PEAKS:
		return "no job step has an exact peak";
	case JOBS_FIT_TOO_FEW:
		return "too few runs of the program that holds the most memory";
	}
	return "unknown";
}

/* The most jobs worth saying on cpus CPUs; 0: the CPUs are unknown, no limit. */
static long cpu_cap(size_t cpus)
{
	return cpus ? (long)(JOBS_FIT_CPU_MULTIPLE * cpus) : 0;
}

/* More jobs fit than the CPUs can use: memory is not the limit up to cap. */
static void put_capped(FILE *f, const struct jobs_fit *fit, long cap, size_t cpus)
{
	fprintf(f, "memory is not the limit up to -j%ld (%d x the %zu CPUs; it would allow -j%ld)", cap,
		JOBS_FIT_CPU_MULTIPLE, cpus, fit->jobs);
}

/* "-jN: N x " or "not even one: ", then one job's peak. */
static void put_jobs(FILE *f, const struct jobs_fit *fit)
{
	if (fit->jobs)
		fprintf(f, "-j%ld: %ld x ", fit->jobs, fit->jobs);
	else
		fputs("not even one: ", f);
	report_put_size(f, fit->job_kb * 1024);
}

/* ", within P % of R RAM" (over, when not even one job fits): the share of RAM the jobs may take. */
static void put_ram_share(FILE *f, const struct jobs_fit *fit)
{
	fprintf(f, ", %s %d %% of ", fit->jobs ? "within" : "over", JOBS_FIT_RAM_PERMILLE / 10);
	report_put_size(f, fit->ram_kb * 1024);
	fputs(" RAM", f);
}

void jobs_fit_report__print(FILE *out, const struct jobs_fit *fit, const struct model *m, size_t cpus)
{
	/* -j445 on 2 CPUs answers nothing: say memory is not the limit as far as the CPUs can use. */
	long cap = cpu_cap(cpus);
	bool capped = cap && fit->jobs > cap;
	long jobs = capped ? cap : fit->jobs;
	struct report_line l;
	__u64 total_kb;
	FILE *f;

	if (fit->verdict != JOBS_FIT_OK)
		return; /* the figures do not support an answer: --summary-json says why */
	f = report_line__begin(&l, out);
	fputs("jobs that fit in memory? ", f);
	if (capped) {
		put_capped(f, fit, cap, cpus);
		fprintf(f, ": %ld x ", jobs);
		report_put_size(f, fit->job_kb * 1024);
	} else {
		put_jobs(f, fit);
	}
	fputs(" (the 95th-percentile peak of ", f);
	report_put_name(f, fit->program, REPORT_NAME_MAX);
	fputs(" over ", f);
	report_put_count(f, fit->runs);
	fprintf(f, " runs, up to %zu at once here)", fit->at_once);
	if (fit->base_proc >= 0) {
		fputs(" + ", f);
		report_put_size(f, fit->base_kb * 1024);
		fputs(" for ", f);
		report_put_name(f, proc_program(&m->procs[fit->base_proc]), REPORT_NAME_MAX);
		if (fit->nr_base > 1)
			fprintf(f, " and %zu other%s", fit->nr_base - 1, fit->nr_base > 2 ? "s" : "");
	}
	fputs(fit->jobs ? " = " : " needs ", f);
	total_kb = capped ? fit->base_kb + (__u64)jobs * fit->job_kb :
		   fit->jobs ? fit->expected_kb : fit->base_kb + fit->job_kb;
	report_put_size(f, total_kb * 1024);
	put_ram_share(f, fit);
	if (fit->larger_program) {
		fputs("; not counted, larger but rarer: ", f);
		report_put_name(f, fit->larger_program, REPORT_NAME_MAX);
		fputs(" up to ", f);
		report_put_size(f, fit->larger_kb * 1024);
		fputs(" in ", f);
		report_put_count(f, fit->larger_runs);
		fputs(fit->larger_runs == 1 ? " run" : " runs", f);
	}
	report_line__end(&l);
}

void jobs_fit_report__brief(FILE *out, const struct jobs_fit *fit, size_t cpus)
{
	long cap = cpu_cap(cpus);
	struct report_line l;
	FILE *f;

	if (fit->verdict != JOBS_FIT_OK)
		return;
	f = report_line__begin(&l, out);
	fputs("jobs that fit in memory? ", f);
	if (cap && fit->jobs > cap) {
		put_capped(f, fit, cap, cpus);
	} else {
		put_jobs(f, fit);
		fputs(" for ", f);
		report_put_name(f, fit->program, REPORT_NAME_MAX);
		put_ram_share(f, fit);
	}
	report_line__end(&l);
}
