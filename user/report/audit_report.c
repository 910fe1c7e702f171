// SPDX-License-Identifier: GPL-2.0
/*
 * The audit as a person reads it at the end of a run: a few lines on
 * stderr, every name from the build escaped (no raw control bytes reach the
 * terminal), and figures that were not recorded said to be missing rather
 * than printed as zero.
 */
#include <stdlib.h>
#include <string.h>
#include "report/audit_answers.h"
#include "report/audit_report.h"
#include "report/compiler_cache_report.h"
#include "model/memory.h"
#include "report/report_text.h"
#include "report/summary.h"
#include "report/whatif_report.h"

/* Chain members printed: the latest ones, which set the end time. */
#define REPORT_CHAIN_MAX 6

static double sec(__u64 ns)
{
	return ns / 1e9;
}

static double pct(__u64 part, __u64 whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void put_top(FILE *out, const struct model *m, const char *title, const struct audit_top *t, bool kb)
{
	size_t i;

	if (!t->nr)
		return;
	fprintf(out, "buildbpf:   %-15s", title);
	for (i = 0; i < t->nr; i++) {
		fputs(i ? ", " : " ", out);
		report_put_proc(out, m, t->items[i].proc);
		fputc(' ', out);
		if (kb)
			report_put_size(out, t->items[i].value * 1024);
		else
			fprintf(out, "%.2f s", sec(t->items[i].value));
	}
	fputc('\n', out);
}

/* "0: 3 %, 1: 45 %": the bins with time in them, as shares of the wall time. */
static void put_histogram(FILE *out, const char *title, const __u64 *bins, size_t nr, bool last_or_more,
			  __u64 wall)
{
	size_t k;
	bool first = true;

	fprintf(out, "buildbpf:   %-9s", title);
	for (k = 0; k < nr; k++) {
		if (!bins[k])
			continue;
		fprintf(out, "%s%zu%s: ", first ? " " : ", ", k, last_or_more && k == nr - 1 ? "+" : "");
		/* Some time, however little, is not "0 %". */
		if (pct(bins[k], wall) < 0.5)
			fputs("<1 %", out);
		else
			fprintf(out, "%.0f %%", pct(bins[k], wall));
		first = false;
	}
	fputs(first ? " none\n" : "\n", out);
}

static void put_parallelism(FILE *out, const struct audit *a)
{
	const struct parallelism *par = a->par;

	fprintf(out, "buildbpf: parallelism: average %.2f, peak %u running; ", a->avg_running, par->peak_running);
	audit_answers__put_jobs(out, &a->jobs);
	fputc('\n', out);
	put_histogram(out, "running", par->running_ns, par->nr_cpus + 1, false, a->wall_ns);
	put_histogram(out, "runnable", par->runnable_ns, par->nr_runnable, true, a->wall_ns);
	fprintf(out, "buildbpf:   lost parallelism: %.2f s (%.0f %% of wall) with fewer than %zu running while a CPU "
		     "idled; idle then %.2f s of CPU time (%.0f %% of %zu CPU%s over the wall)\n", sec(a->lost_ns),
		pct(a->lost_ns, a->wall_ns), a->jobs_target, sec(a->lost_cpu_ns),
		pct(a->lost_cpu_ns, a->wall_ns * a->jobs_target), a->jobs_target, a->jobs_target == 1 ? "" : "s");
	/* The sum over threads grows with their number (500 threads waiting
	 * 1 s is 500 s): the wall time any of them waited goes beside it. */
	fprintf(out, "buildbpf: run-queue wait: %.2f s summed over threads, during %.2f s of wall time; %.2f s with "
		     "build threads waiting while a CPU ran work outside the build\n",
		sec(a->runq_wait_ns), sec(a->runq_wall_ns), sec(a->noisy_ns));
}

static void put_phases(FILE *out, const struct audit *a, const struct model *m)
{
	size_t i, k;

	if (!a->nr_phases) {
		fprintf(out, "buildbpf: serial phases: none of %.2f s or more\n", sec(a->serial_threshold_ns));
		return;
	}
	fprintf(out, "buildbpf: serial phases (one build thread at most ran, one process at most made progress, CPUs "
		     "left to idle or others; >= %.2f s; overlaps of %.0f ms + %d %% tolerated), processes by share of "
		     "the phase's CPU:\n",
		sec(a->serial_threshold_ns), PAR_PHASE_PARALLEL_MIN_NS / 1e6, PAR_PHASE_PARALLEL_PERMILLE / 10);
	for (i = 0; i < a->nr_phases; i++) {
		const struct audit_phase *ph = &a->phases[i];

		fprintf(out, "buildbpf:   %.2f s at %.2f-%.2f s:", sec(ph->end_ns - ph->start_ns),
			sec(ph->start_ns - a->start_ns), sec(ph->end_ns - a->start_ns));
		for (k = 0; k < ph->nr_procs; k++) {
			/* The phase's own process first; one that barely ran in it
			 * (the previous job's last moments, make) is noise here. */
			if (k && ph->procs[k].on_cpu_ns * 100 < ph->end_ns - ph->start_ns)
				break;
			fputs(k ? ", " : " ", out);
			report_put_proc(out, m, ph->procs[k].proc);
			if (ph->procs[k].on_cpu_ns)
				fprintf(out, " %.0f %% (%.2f s CPU)", pct(ph->procs[k].on_cpu_ns, ph->cpu_ns),
					sec(ph->procs[k].on_cpu_ns));
			else
				fputs(" (waiting, not on a CPU)", out);
		}
		fputs(ph->nr_procs ? "\n" : " nothing ran\n", out);
	}
}

/*
 * What the path waited for before a step: the job whose end freed its
 * slot, the runner's order, a CPU..., from why the step after the longest
 * wait started (graph/start_cause.h), else from how the path reached it.
 */
static void put_step_wait(FILE *out, const struct audit *a, const struct model *m, size_t i)
{
	const struct graph_run *g = a->graph;
	size_t k;
	__u64 ns = audit__chain_wait_before(a, i, &k);
	const struct critical_step *s = &g->path.steps[k], *before = k ? s - 1 : NULL;
	const struct start_cause *c = a->starts ? &a->starts->procs[s->proc] : NULL;
	char text[128];

	if (ns < AUDIT_STEP_MIN_NS)
		return;
	fputs(", waited ", out);
	report_put_sec(out, ns);
	fputs(" for ", out);
	if (c && c->wait != START_UNKNOWN && c->wait != START_NONE && s->from_ns == m->procs[s->proc].start_ns)
		report_put_name(out, start_cause__text(c, m, text, sizeof(text)), REPORT_NAME_MAX);
	else if (before && before->via == LINK_SLOT)
		fputs("a job slot", out);
	else if (before && before->via == LINK_ORDER)
		fputs("its turn (the runner's order)", out);
	else if (before && before->via == LINK_INPUT)
		fputs("its input", out);
	else
		fputs("its parent", out);
}

/*
 * Why processes started late, summed: a job slot says more -j would have
 * started them sooner, an input that its writer was the step to speed up
 * (their time after the input was ready is only the parent's reaction).
 */
static void put_start_waits(FILE *out, const struct start_causes *sc)
{
	static const struct {
		enum start_wait wait;
		const char *label;
	} kinds[] = {
		{ START_JOB_SLOT, "a job slot" }, { START_AFTER_JOB, "another job's end" }, { START_INPUT, "input" },
		{ START_RUN_QUEUE, "a CPU" },
		{ START_PARENT_BUSY, "a busy parent" }, { START_WOKEN, "another process" },
		{ START_UNEXPLAINED, "unexplained" },
	};
	const char *sep = " ";
	struct report_line l;
	FILE *f = report_line__begin(&l, out);
	size_t i;

	/* Many wait at once: a sum says how many waited how long, not a stretch of the wall. */
	fputs("processes started after waiting for (their waits summed):", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = sc->counts[kinds[i].wait];
		__u64 ns = sc->waited_ns[kinds[i].wait];

		if (!n || (kinds[i].wait != START_INPUT && ns < AUDIT_STEP_MIN_NS))
			continue;
		fprintf(f, "%s%s %zu", sep, kinds[i].label, n);
		if (kinds[i].wait != START_INPUT) {
			fputs(" (", f);
			report_put_sec(f, ns);
			fputc(')', f);
		}
		sep = ", ";
	}
	fputs(*sep == ' ' ? " nothing" : "", f);
	if (sc->shell_calls)
		fprintf(f, "; and make's $(shell) calls %zu (make's own work, not counted)", sc->shell_calls);
	report_line__end(&l);
}

/*
 * The build graph's critical path: each step with the time it held the
 * path, and the file through which it waited for the step before.
 */
static void put_critical_path(FILE *out, const struct audit *a, const struct model *m)
{
	const struct graph_run *g = a->graph;
	size_t i, from = a->nr_chain > REPORT_CHAIN_MAX ? a->nr_chain - REPORT_CHAIN_MAX : 0;

	fprintf(out, "buildbpf: critical path (build graph, %zu file edge%s): %zu step%s; of %.2f s wall, steps held "
		"%.2f s, outside any job (a runner's own work, what no make or ninja ran) %.2f s, waits between them "
		"%.2f s:", g->data.nr_edges, g->data.nr_edges == 1 ? "" : "s", audit_whatif__nr_steps(a),
		audit_whatif__nr_steps(a) == 1 ? "" : "s", sec(a->wall_ns), sec(a->chain_busy_ns - a->chain_no_job_ns),
		sec(a->chain_no_job_ns), sec(a->chain_wait_ns));
	if (from)
		fputs(" ...", out);
	for (i = from; i < a->nr_chain; i++) {
		const struct critical_step *s = &g->path.steps[a->chain_step[i]];
		/* The link into this step is the one the step before holds. */
		const struct critical_step *before = a->chain_step[i] ? s - 1 : NULL;

		fputs(i > from || from ? " -> " : " ", out);
		report_put_proc(out, m, s->proc);
		compiler_cache_report__put_step(out, &a->cache, s->proc);
		if (before && before->via == LINK_INPUT) {
			fputs(" (reads ", out);
			report_put_path(out, g->data.edges[before->edge].path, REPORT_NAME_MAX);
			fputc(')', out);
		}
		fprintf(out, " %.2f s", sec(s->to_ns - s->from_ns));
		put_step_wait(out, a, m, i);
	}
	fputc('\n', out);
}

static void put_chain(FILE *out, const struct audit *a, const struct model *m)
{
	size_t i, from;

	if (a->graph) {
		put_critical_path(out, a, m);
		whatif_report__detail(out, a, m);
		return;
	}
	if (!a->nr_chain)
		return;
	fprintf(out, "buildbpf: chain to the end (estimate, no build graph): %zu process%s, %.2f s of %.2f s wall:",
		a->nr_chain, a->nr_chain == 1 ? "" : "es", sec(a->chain_busy_ns), sec(a->wall_ns));
	from = a->nr_chain > REPORT_CHAIN_MAX ? a->nr_chain - REPORT_CHAIN_MAX : 0;
	if (from)
		fputs(" ...", out);
	for (i = from; i < a->nr_chain; i++) {
		const struct proc_instance *p = &m->procs[a->chain[i]];

		fputs(i > from || from ? " -> " : " ", out);
		report_put_proc(out, m, a->chain[i]);
		compiler_cache_report__put_step(out, &a->cache, a->chain[i]);
		fprintf(out, " %.2f s", sec(p->end_ns - p->start_ns));
	}
	fputc('\n', out);
}

/* "cc1 src/mix.c 0.87 s": one entry of a top list; NULL without memory. */
static char *ranked_entry(const struct model *m, const struct audit_rank *r, bool kb)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	report_put_proc(f, m, r->proc);
	fputc(' ', f);
	if (kb)
		report_put_size(f, r->value * 1024);
	else
		report_put_sec(f, r->value);
	fclose(f);
	return text;
}

/* A top list on one line: as many entries as fit (all of them in --verbose and the JSON). */
static void put_ranked(FILE *out, const struct model *m, const char *title, const struct audit_top *t, bool kb)
{
	size_t i, used, room = REPORT_WIDTH - strlen("buildbpf: ");
	char *entry;

	if (!t->nr)
		return;
	used = fprintf(out, "buildbpf:   %s:", title) - strlen("buildbpf: ");
	for (i = 0; i < t->nr; i++) {
		entry = ranked_entry(m, &t->items[i], kb);
		if (!entry)
			break;
		/* The first always: a name is cut to REPORT_NAME_MAX, so it fits. */
		if (i && used + 2 + strlen(entry) > room) {
			free(entry);
			break;
		}
		used += fprintf(out, "%s%s", i ? ", " : " ", entry);
		free(entry);
	}
	fputc('\n', out);
}

/* The build's memory at its peak, who held it, against the machine's RAM. */
static void put_build_memory(FILE *out, const struct audit *a, const struct model *m)
{
	const struct bb_mem_sample_event *peak = &m->mem_peak;
	struct audit_top holders = {};
	__u32 i;

	fputs("buildbpf: build memory: peak ", out);
	report_put_size(out, peak->total_kb * 1024);
	fprintf(out, " at %.2f s", sec(peak->hdr.ts_ns - a->start_ns));
	if (peak->ram_kb) {
		fprintf(out, " (%.0f %% of ", pct(peak->total_kb, peak->ram_kb));
		report_put_size(out, peak->ram_kb * 1024);
		fputs(" RAM)", out);
	}
	fputc('\n', out);
	for (i = 0; i < peak->nr_top && i < AUDIT_TOP; i++) {
		long proc = memory__proc_at(m, peak->top[i].tgid, peak->hdr.ts_ns);

		if (proc >= 0)
			holders.items[holders.nr++] = (struct audit_rank){ .proc = proc, .value = peak->top[i].rss_kb };
	}
	put_ranked(out, m, "held then by", &holders, true);
}

static void put_lost_events(FILE *out, const struct audit *a)
{
	fprintf(out, "buildbpf: LOST EVENTS: %llu; every figure above may undercount (hint: --buffer-size)\n",
		(unsigned long long)a->lost_events);
}

/* In capitals like lost events: a build the kernel had to kill into is a build whose -j does not fit. */
static void put_oom_killed(FILE *out, const struct audit *a, const struct model *m)
{
	struct audit_top killed = {};
	size_t i;

	fprintf(out, "buildbpf: OOM KILLED: %zu process%s (hint: fewer jobs, or more memory)\n", a->oom_killed,
		a->oom_killed == 1 ? "" : "es");
	for (i = 0; i < m->nr_procs && killed.nr < AUDIT_TOP; i++)
		if (m->procs[i].oom_killed)
			killed.items[killed.nr++] = (struct audit_rank){ .proc = i, .value = m->procs[i].peak_rss_kb };
	put_ranked(out, m, "killed, with their peaks", &killed, true);
}

static void put_labelled_bytes(FILE *f, const char *label, __u64 bytes)
{
	fputs(label, f);
	report_put_size(f, bytes);
}

/* Programs by what they wrote to storage (a->programs is by CPU): the largest first. */
static void put_io_programs(FILE *f, const struct audit *a)
{
	bool *shown = calloc(a->nr_programs ? a->nr_programs : 1, sizeof(*shown));
	size_t i, k, best;

	if (!shown)
		return;
	fputs("  written by program:", f);
	for (k = 0; k < AUDIT_TOP; k++) {
		for (i = 0, best = a->nr_programs; i < a->nr_programs; i++)
			if (!shown[i] && a->programs[i].io.io.write_bytes &&
			    (best == a->nr_programs || a->programs[i].io.io.write_bytes >
							       a->programs[best].io.io.write_bytes))
				best = i;
		if (best == a->nr_programs)
			break;
		shown[best] = true;
		fputs(k ? ", " : " ", f);
		report_put_name(f, a->programs[best].name, REPORT_NAME_MAX);
		fputc(' ', f);
		report_put_size(f, a->programs[best].io.io.write_bytes);
		fputs(" in ", f);
		report_put_count(f, a->programs[best].io.nr_procs);
		if (!k)
			fputs(a->programs[best].io.nr_procs == 1 ? " process" : " processes", f);
	}
	if (!k)
		fputs(" nothing", f);
	free(shown);
}

/*
 * I/O (model/io.h): the build's totals at the storage and the syscall
 * level, then who wrote most to storage.  A figure the kernel does not
 * count is said to be missing, not 0.
 */
static void put_io(FILE *out, const struct audit *a, const struct model *m)
{
	const struct bb_io_acct *io = &a->io.io;
	struct report_line l;
	FILE *f;
	size_t i;

	f = report_line__begin(&l, out);
	fprintf(f, "I/O of %zu process%s: ", a->io.nr_procs, a->io.nr_procs == 1 ? "" : "es");
	if (a->io.flags & BB_IO_STORAGE) {
		put_labelled_bytes(f, "storage read ", io->read_bytes);
		put_labelled_bytes(f, ", written ", io->write_bytes);
		put_labelled_bytes(f, " (", io->cancelled_write_bytes);
		fputs(" of it cancelled)", f);
	} else {
		fputs("storage not counted by this kernel (CONFIG_TASK_IO_ACCOUNTING)", f);
	}
	if (a->io.flags & BB_IO_SYSCALLS) {
		put_labelled_bytes(f, ", syscalls read ", io->rchar);
		fputs(" in ", f);
		report_put_count(f, io->syscr);
		put_labelled_bytes(f, ", wrote ", io->wchar);
		fputs(" in ", f);
		report_put_count(f, io->syscw);
	} else {
		fputs(", syscalls not counted by this kernel (CONFIG_TASK_XACCT)", f);
	}
	report_line__end(&l);
	if (!(a->io.flags & BB_IO_STORAGE))
		return;
	f = report_line__begin(&l, out);
	fputs("  most written to storage:", f);
	for (i = 0; i < a->top_write.nr; i++) {
		fputs(i ? ", " : " ", f);
		report_put_proc(f, m, a->top_write.items[i].proc);
		fputc(' ', f);
		report_put_size(f, a->top_write.items[i].value);
	}
	if (!a->top_write.nr)
		fputs(" nothing", f);
	report_line__end(&l);
	f = report_line__begin(&l, out);
	put_io_programs(f, a);
	report_line__end(&l);
}

/* Everything the audit has, in its own terms (docs/audit.md defines them). */
static void put_verbose(FILE *out, const struct audit *a, const struct model *m)
{
	if (a->par) {
		put_parallelism(out, a);
		put_phases(out, a, m);
	} else {
		fputs("buildbpf: parallelism histograms, lost parallelism, run-queue wait and serial phases: "
		      "unavailable (traced with --sched=off)\n", out);
	}
	put_chain(out, a, m);
	fputs("buildbpf: top processes (wrappers left out):\n", out);
	put_top(out, m, "by wall:", &a->top_wall, false);
	put_top(out, m, "by CPU:", &a->top_cpu, false);
	put_top(out, m, "by peak RSS:", &a->top_rss, true);
	if (a->par)
		put_top(out, m, "by run-queue:", &a->top_wait, false);
}

void audit_report__put_nothing_compiled(FILE *f, const struct audit *a)
{
	if (!a->fresh.by_units) {
		fprintf(f, "nothing compiled: %s ran no job, every target was up to date: no parallelism to audit",
			a->fresh.runner);
		return;
	}
	fprintf(f, "nothing compiled: %s found every unit fresh", a->fresh.runner);
	if (a->fresh.nr_probes) {
		fputs("; its compilers ran ", f);
		report_put_count(f, a->fresh.nr_probes);
		fputs(a->fresh.nr_probes == 1 ? " time" : " times", f);
		fputs(", only to tell their version", f);
	}
	fputs(": no parallelism to audit", f);
}

char *audit_report__nothing_compiled_text(const struct audit *a)
{
	char *text = NULL;
	size_t len;
	FILE *f;

	if (!fresh_build__nothing_compiled(&a->fresh) || !(f = open_memstream(&text, &len)))
		return NULL;
	audit_report__put_nothing_compiled(f, a);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* A build that compiled nothing: what happened, in place of an audit of nothing. */
static void put_nothing_compiled(FILE *out, const struct audit *a)
{
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	audit_report__put_nothing_compiled(f, a);
	report_line__end(&l);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * The brief audit's own line: the traced line above has the wall, so it
 * says what the audit counted, the processes and the events lost, then the
 * CPU time and how much of the machine it was.
 */
static void put_brief_counts(FILE *out, const struct audit *a, const struct model *m)
{
	struct report_line l;
	FILE *f = report_line__begin(&l, out);

	fputs("audit: ", f);
	summary__put_processes(f, m);
	fputs(", ", f);
	summary__put_lost_events(f, a->lost_events);
	fprintf(f, ", %.2f s CPU on %zu CPU%s: %.0f %% utilisation", sec(a->cpu_ns), a->nr_cpus,
		a->nr_cpus == 1 ? "" : "s", 100.0 * a->utilisation);
	report_line__end(&l);
}

/* What would make the answers wrong, said whatever the room. */
static void put_warnings(FILE *out, const struct audit *a, const struct model *m)
{
	if (a->lost_events)
		put_lost_events(out, a);
	if (a->oom_killed)
		put_oom_killed(out, a, m);
}

void audit_report__print_brief(FILE *out, const struct audit *a, const struct model *m, size_t room)
{
	char *head = NULL, *tail = NULL;
	size_t len, used;
	FILE *f;

	/* Each part is measured before the answers take what room is left. */
	if ((f = open_memstream(&head, &len))) {
		put_brief_counts(f, a, m);
		if (fresh_build__nothing_compiled(&a->fresh))
			put_nothing_compiled(f, a);
		fclose(f);
	}
	if ((f = open_memstream(&tail, &len))) {
		put_warnings(f, a, m);
		fclose(f);
	}
	if (!head || !tail) { /* without memory: the counts and the warnings, no answers */
		put_brief_counts(out, a, m);
		put_warnings(out, a, m);
		free(head);
		free(tail);
		return;
	}
	fputs(head, out);
	used = count_lines(head) + count_lines(tail);
	if (!fresh_build__nothing_compiled(&a->fresh) && room > used)
		audit_answers__print_brief(out, a, m, room - used);
	fputs(tail, out);
	free(head);
	free(tail);
}

void audit_report__print(FILE *out, const struct audit *a, const struct model *m, bool verbose)
{
	if (!verbose) {
		audit_report__print_brief(out, a, m, AUDIT_REPORT_BRIEF_LINES - 1);
		return;
	}
	fprintf(out, "buildbpf: audit: %.2f s wall on %zu CPU%s, %.2f s CPU: %.0f %% utilisation\n", sec(a->wall_ns),
		a->nr_cpus, a->nr_cpus == 1 ? "" : "s", sec(a->cpu_ns), 100.0 * a->utilisation);
	if (fresh_build__nothing_compiled(&a->fresh))
		put_nothing_compiled(out, a);
	audit_answers__print(out, a, m);
	put_verbose(out, a, m);
	if (a->starts)
		put_start_waits(out, a->starts);
	if (a->lost_events)
		put_lost_events(out, a);
	if (m->nr_mem_samples)
		put_build_memory(out, a, m);
	if (a->psi_known)
		fprintf(out, "buildbpf: memory stall (PSI, whole machine): some %.2f s (%.0f %% of wall), full %.2f s\n",
			sec(a->psi_some_us * 1000), pct(a->psi_some_us * 1000, a->wall_ns), sec(a->psi_full_us * 1000));
	if (a->oom_killed)
		put_oom_killed(out, a, m);
	if (a->io.nr_procs)
		put_io(out, a, m);
	compiler_cache_report__print(out, &a->cache);
	if (a->par && a->par->late_ns)
		fprintf(out, "buildbpf: note: %.3f s of run-queue wait arrived too late for the histograms\n",
			sec(a->par->late_ns));
}
