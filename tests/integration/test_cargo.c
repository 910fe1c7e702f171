// SPDX-License-Identifier: GPL-2.0
/*
 * Integration: a cargo build traced.  A generated workspace
 * (lib/cargo_workspace.h: path dependencies only, nothing from a registry)
 * built by Debian's cargo and rustc with an empty target directory: one
 * rustc per unit, a build script compiled and then run (which runs cc and
 * ar), a proc-macro, a bin linked.
 *
 * What holds today is asserted: the build passes through, the trace is
 * valid and lost nothing, and every unit cargo ran is in it, once, with its
 * exit status and its parent.  cargo's own account of the same run
 * (--timings, lib/cargo_timings.h) is the oracle for which steps ran, in
 * what order and for how long.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/cargo_timings.h"
#include "lib/cargo_workspace.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

/* A release build of the workspace takes a minute of CPU on a loaded 2-CPU machine. */
TestSuite(cargo, .init = integration_setup, .fini = integration_teardown, .timeout = 1200);

/* Debian's cargo and rustc (make test-deps), whatever else PATH offers first (rustup's proxies). */
#define CARGO "/usr/bin/cargo"
#define CARGO_ENV(home) (const char *[]){ "RUSTC=/usr/bin/rustc", "PATH=/usr/bin:/bin", home, NULL }

/* Long enough a codegen in heavy to overlap util's rustc, short enough for the suite. */
#define HEAVY_INSTANCES 40

/* A slice's name, as the trace shows it. */
static const char *slice_name(struct json_object *slice)
{
	struct json_object *name;

	return json_object_object_get_ex(slice, "name", &name) ? json_object_get_string(name) : "";
}

/* The process slices whose argv[0] ends with suffix; how many (into found, at most max). */
static size_t slices_ending(struct json_object *slices, const char *suffix, struct json_object **found, size_t max)
{
	size_t i, n = 0, len = strlen(suffix);

	for (i = 0; i < json_object_array_length(slices); i++) {
		const char *a = bb_arg_argv(json_object_array_get_idx(slices, i), 0);

		if (a && strlen(a) >= len && !strcmp(a + strlen(a) - len, suffix)) {
			if (n < max)
				found[n] = json_object_array_get_idx(slices, i);
			n++;
		}
	}
	return n;
}

/* The workspace built from clean by `cargo build --release -j2 --timings`, traced with --deps=on: its trace. */
static struct json_object *traced_build(void)
{
	struct cargo_workspace ws = { .instances = HEAVY_INSTANCES };
	char home[PATH_MAX + 16];

	cr_assert(eq(int, cargo_workspace__write(&ws, run.dir), 0));
	snprintf(home, sizeof(home), "CARGO_HOME=%s", bb_path(&run, "cargo-home"));
	bb_run_in(&run,
		  (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", CARGO, "build",
				    "--release", "-j2", "--timings", NULL },
		  CARGO_ENV(home));
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	json_object_put(bb_load_summary(&run, "s.json"));
	return bb_load_trace(bb_path(&run, "t.json"));
}

/* Units cargo starts this much apart are started in that order, whatever delays its spawning a little. */
#define START_APART_S 2.0
/* The traced units' durations, summed, within this share of cargo's sum: cargo times each unit from
 * its own start record to its notice of the end, a little past the process's life at each end. */
#define DURATION_SUM_SHARE 0.1

/* A slice's start and end, in seconds of the trace. */
static double slice_start_s(struct json_object *slice)
{
	return int_field(slice, "ts") / 1e6;
}

static double slice_end_s(struct json_object *slice)
{
	return (int_field(slice, "ts") + int_field(slice, "dur")) / 1e6;
}

/* The slice of found[n] that started rank-th (0: first); ties by their order. */
static struct json_object *nth_started(struct json_object **found, size_t n, size_t rank)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		size_t before = 0;

		for (j = 0; j < n; j++)
			before += int_field(found[j], "ts") < int_field(found[i], "ts") ||
				  (int_field(found[j], "ts") == int_field(found[i], "ts") && j < i);
		if (before == rank)
			return found[i];
	}
	cr_fatal("no step started %zu-th of %zu", rank, n);
	return NULL;
}

/* Whether units a and b are one by crate and kind (as bb_cargo_unit_is() tells them apart). */
static bool same_unit_key(const struct bb_cargo_unit *a, const struct bb_cargo_unit *b)
{
	return a->kind == b->kind && !strcmp(a->name, b->name) && !strcmp(a->crate, b->crate);
}

/*
 * Binds each unit of t to its traced step, into step[]: the steps named as
 * the unit, as many as cargo has units of that crate and kind, the k-th
 * started to the unit cargo started k-th.  Every traced step of a unit is
 * some unit of cargo's.
 */
static void bind_units(const struct bb_cargo_timings *t, struct json_object *slices, struct json_object **step)
{
	size_t i, j, k, nr_steps = 0;

	for (i = 0; i < t->nr; i++) {
		struct json_object *found[8];
		size_t n = 0, units = 0, rank = 0;

		for (j = 0; j < t->nr; j++) {
			if (!same_unit_key(&t->units[i], &t->units[j]))
				continue;
			units++;
			rank += t->units[j].start_s < t->units[i].start_s || (t->units[j].start_s == t->units[i].start_s && j < i);
		}
		for (k = 0; k < json_object_array_length(slices) && n < 8; k++) {
			struct json_object *s = json_object_array_get_idx(slices, k);

			if (bb_cargo_unit_is(&t->units[i], slice_name(s)))
				found[n++] = s;
		}
		cr_assert(eq(sz, n, units), "cargo ran %zu units of %s (%s), the trace shows %zu steps named so", units,
			  t->units[i].name, t->units[i].crate, n);
		step[i] = nth_started(found, n, rank);
	}
	/* rustc's compiles (its probes cargo names no crate: ___) and the build scripts' runs. */
	nr_steps = bb_slices_with_arg(slices, "rustc", "--crate-name", NULL, NULL, 0) -
		   bb_slices_with_arg(slices, "rustc", "--crate-name", "___", NULL, 0) +
		   slices_ending(slices, "/build-script-build", NULL, 0);
	cr_assert(eq(sz, nr_steps, t->nr), "%zu steps of units in the trace, cargo ran %zu units", nr_steps, t->nr);
}

/*
 * The input arrow of the .rmeta writer made its reader cargo started on it:
 * its "ready" end on the writer's lane while the writer still ran (the
 * rename), its "read" end, of the same file, at the reader's start.
 */
static bool rmeta_arrow(struct json_object *inputs, struct json_object *writer, struct json_object *reader)
{
	size_t i, j;

	for (i = 0; i < json_object_array_length(inputs); i++) {
		struct json_object *ready = json_object_array_get_idx(inputs, i);

		if (!str_field_is(ready, "name", "ready") || int_field(ready, "tid") != int_field(writer, "tid") ||
		    int_field(ready, "pid") != int_field(writer, "pid") || int_field(ready, "ts") < int_field(writer, "ts") ||
		    int_field(ready, "ts") >= int_field(writer, "ts") + int_field(writer, "dur"))
			continue;
		for (j = 0; j < json_object_array_length(inputs); j++) {
			struct json_object *read = json_object_array_get_idx(inputs, j);

			if (str_field_is(read, "name", "read") && int_field(read, "tid") == int_field(reader, "tid") &&
			    int_field(read, "pid") == int_field(reader, "pid") &&
			    int_field(read, "ts") == int_field(reader, "ts") &&
			    !strcmp(bb_arg_str(read, "file"), bb_arg_str(ready, "file")))
				return true;
		}
	}
	return false;
}

/*
 * cargo's --timings of the same run against the trace: every unit is one
 * traced step; a unit cargo started when another ended (its last
 * dependency) started after that step's end, traced; units cargo started
 * apart started in that order; and the durations agree in sum.
 */
static void check_against_cargo_timings(struct json_object *trace, struct json_object *slices)
{
	static struct bb_cargo_timings t;
	struct json_object *inputs = bb_slices(trace, "input");
	struct json_object *step[BB_CARGO_MAX_UNITS];
	double cargo_sum = 0, traced_sum = 0;
	size_t i, k, ordered = 0, unlocked = 0, rmeta_unlocked = 0;

	bb_cargo_timings_read(&t, bb_path(&run, "target"));
	cr_assert(eq(sz, t.nr, CARGO_WORKSPACE_NR_CRATES + 2), "a unit per crate, the build script's and its run");
	bind_units(&t, slices, step);
	for (i = 0; i < t.nr; i++) {
		const struct bb_cargo_unit *u = &t.units[i];

		/* Pipelined: the .rmeta's rename made the dependent ready, whenever cargo had a slot for it. */
		for (k = 0; k < u->nr_unlocked_rmeta; k++, rmeta_unlocked++)
			cr_assert(rmeta_arrow(inputs, step[i], step[u->unlocked_rmeta[k]]),
				  "no input arrow from %s's .rmeta, ready at its rename, to %s, which cargo started on it",
				  slice_name(step[i]), slice_name(step[u->unlocked_rmeta[k]]));
		for (k = 0; k < u->nr_unlocked; k++, unlocked++)
			cr_assert(ge(dbl, slice_start_s(step[u->unlocked[k]]), slice_end_s(step[i])),
				  "%s started before %s, the dependency cargo waited for, ended",
				  slice_name(step[u->unlocked[k]]), slice_name(step[i]));
		for (k = 0; k < t.nr; k++) {
			if (t.units[k].start_s - u->start_s <= START_APART_S)
				continue;
			ordered++;
			cr_assert(lt(dbl, slice_start_s(step[i]), slice_start_s(step[k])), "cargo started %s %.2f s before %s",
				  slice_name(step[i]), t.units[k].start_s - u->start_s, slice_name(step[k]));
		}
		cargo_sum += u->duration_s;
		traced_sum += int_field(step[i], "dur") / 1e6;
	}
	/* The workspace's chain (native's script, then its run, then app) and heavy's long codegen give both. */
	cr_assert(ge(sz, unlocked, 3));
	cr_assert(ge(sz, rmeta_unlocked, 1), "heavy's .rmeta unlocks util");
	json_object_put(inputs);
	cr_assert(ge(sz, ordered, 3));
	cr_assert(le(dbl, traced_sum, cargo_sum * (1 + DURATION_SUM_SHARE)), "traced %.2f s, cargo %.2f s", traced_sum,
		  cargo_sum);
	cr_assert(ge(dbl, traced_sum, cargo_sum * (1 - DURATION_SUM_SHARE)), "traced %.2f s, cargo %.2f s", traced_sum,
		  cargo_sum);
}

/* The same build again, every unit fresh: the report says nothing compiled, not how parallel cargo's probes were. */
static void check_fresh_rebuild(void)
{
	char home[PATH_MAX + 16], *html;
	struct json_object *s, *nc;

	snprintf(home, sizeof(home), "CARGO_HOME=%s", bb_path(&run, "cargo-home"));
	bb_run_in(&run,
		  (const char *[]){ "-o", "fresh.json", "--summary-json", "fresh-s.json", "--html", "fresh.html", "--",
				    CARGO, "build", "--release", "-j2", NULL },
		  CARGO_ENV(home));
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	cr_assert(not(eq(ptr, strstr(run.err, "nothing compiled: cargo found every unit fresh"), NULL)), "%s", run.err);
	cr_assert(eq(ptr, strstr(run.err, "parallel?"), NULL), "%s", run.err);
	/* The summary and the page say it too. */
	s = bb_load_summary(&run, "fresh-s.json");
	cr_assert(json_object_object_get_ex(s, "nothing_compiled", &nc) && nc, "summary: nothing_compiled");
	cr_assert(str_field_is(nc, "runner", "cargo"));
	cr_assert(str_field_is(nc, "found", "every_unit_fresh"));
	json_object_put(s);
	html = bb_read_file(bb_path(&run, "fresh.html"), NULL);
	cr_assert(not(eq(ptr, html, NULL)));
	cr_assert(not(eq(ptr, strstr(html, "nothing compiled: cargo found every unit fresh"), NULL)), "the page says it");
	free(html);
}

/* A fresh rebuild without -j: its summary's jobs, from where cargo took them (extra: one more variable, or NULL). */
static struct json_object *fresh_jobs(const char *extra, const char *summary)
{
	char home[PATH_MAX + 16];
	struct json_object *s, *jobs;

	snprintf(home, sizeof(home), "CARGO_HOME=%s", bb_path(&run, "cargo-home"));
	bb_run_in(&run,
		  (const char *[]){ "-f", "-o", "fresh.json", "--summary-json", summary, "--", CARGO, "build", "--release",
				    NULL },
		  (const char *[]){ "RUSTC=/usr/bin/rustc", "PATH=/usr/bin:/bin", home, extra, NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	s = bb_load_summary(&run, summary);
	cr_assert(json_object_object_get_ex(s, "jobs", &jobs));
	json_object_get(jobs);
	json_object_put(s);
	return jobs;
}

/*
 * cargo's -j from wherever cargo took it, said so: $CARGO_BUILD_JOBS, else
 * build.jobs in the workspace's .cargo/config.toml (read when the command
 * was launched), else the CPU count.
 */
static void check_jobs_sources(void)
{
	struct json_object *jobs = fresh_jobs("CARGO_BUILD_JOBS=3", "env-s.json");
	const char *file;

	cr_assert(str_field_is(jobs, "source", "cargo_build_jobs"));
	cr_assert(eq(i64, int_field(jobs, "requested"), 3));
	json_object_put(jobs);
	cr_assert(eq(int, mkdir(bb_path(&run, ".cargo"), 0755), 0));
	bb_write_file(&run, ".cargo/config.toml", "[build]\njobs = 1\n");
	jobs = fresh_jobs(NULL, "config-s.json");
	cr_assert(str_field_is(jobs, "source", "cargo_config"));
	cr_assert(eq(i64, int_field(jobs, "requested"), 1));
	file = str_field(jobs, "config_file");
	cr_assert(not(eq(ptr, strstr(file, "/.cargo/config.toml"), NULL)), "%s", file);
	json_object_put(jobs);
	/* The variable comes before the file, as cargo takes them. */
	jobs = fresh_jobs("CARGO_BUILD_JOBS=2", "both-s.json");
	cr_assert(str_field_is(jobs, "source", "cargo_build_jobs"));
	json_object_put(jobs);
}

Test(cargo, every_unit_of_a_workspace_build_is_seen)
{
	static const char *const crates[] = CARGO_WORKSPACE_CRATES;
	struct json_object *trace = traced_build(), *slices = bb_slices(trace, "process"), *cargo, *script, *cc, *ar;
	struct json_object *found[4];
	char want[64];
	size_t i;

	cargo = bb_only_slice_with_arg(slices, "cargo", "build", NULL);
	cr_assert(eq(str, (char *)slice_name(cargo), "cargo build"));
	cr_assert(eq(i64, bb_arg_int(cargo, "exit_code"), 0));
	/* One rustc per crate, and one for the build script, each run by cargo. */
	for (i = 0; i < CARGO_WORKSPACE_NR_CRATES + 1; i++) {
		const char *crate = i < CARGO_WORKSPACE_NR_CRATES ? crates[i] : "build_script_build";
		struct json_object *rustc = bb_only_slice_with_arg(slices, "rustc", "--crate-name", crate);

		cr_assert(eq(i64, bb_arg_int(rustc, "exit_code"), 0), "rustc of %s", crate);
		cr_assert(eq(i64, bb_arg_int(rustc, "ppid"), bb_arg_int(cargo, "pid")), "rustc of %s", crate);
		/* Named by crate and kind, the build script by its package: never by a hashed path. */
		snprintf(want, sizeof(want), i < CARGO_WORKSPACE_NR_CRATES ? "rustc %s (" : "rustc build script of native",
			 crate);
		cr_assert(eq(int, strncmp(slice_name(rustc), want, strlen(want)), 0), "%s, not %s...",
			  slice_name(rustc), want);
	}
	/* The build script ran once, by cargo, and ran cc and ar itself. */
	cr_assert(eq(sz, slices_ending(slices, "/build-script-build", found, 4), 1));
	script = found[0];
	cr_assert(eq(i64, bb_arg_int(script, "exit_code"), 0));
	cr_assert(eq(i64, bb_arg_int(script, "ppid"), bb_arg_int(cargo, "pid")));
	cr_assert(eq(str, (char *)slice_name(script), "run build script of native"));
	cc = bb_only_slice_with_arg(slices, "cc", "-c", NULL);
	ar = bb_only_slice_with_arg(slices, "ar", "crs", NULL);
	cr_assert(eq(i64, bb_arg_int(cc, "ppid"), bb_arg_int(script, "pid")));
	cr_assert(eq(i64, bb_arg_int(ar, "ppid"), bb_arg_int(script, "pid")));
	cr_assert(eq(i64, bb_arg_int(cc, "exit_code"), 0));
	cr_assert(eq(i64, bb_other_int(trace, "lost_events"), 0));
	check_against_cargo_timings(trace, slices);
	check_fresh_rebuild();
	check_jobs_sources();
	bb_reliability("generated cargo workspace (5 crates, build script, proc-macro), cargo build --release -j2",
		       "every rustc, the build script and its cc seen, once, exit 0", trace, "%zu processes",
		       json_object_array_length(slices));
	json_object_put(slices);
	json_object_put(trace);
}

/*
 * A Makefile whose recipe runs `make -C rust`, where the workspace is
 * built by a recipe that sets cargo's -j in its shell
 * (`CARGO_BUILD_JOBS=1 cargo build`): a job count no argv shows and the
 * environment buildbpf gave the command does not hold.  cargo's units are
 * named as at the top, are cargo's children and run one at a time; the
 * report and the summary give cargo's -j, not the makes' (their slots held
 * one recipe each).  Why each unit started is logged, not held: on a
 * loaded machine cargo itself is most often late (its parent, busy).
 */
Test(cargo, under_make_c_with_its_jobs_set_in_the_recipe)
{
	static const char *const crates[] = CARGO_WORKSPACE_CRATES;
	struct cargo_workspace ws = { .instances = 4 };
	struct json_object *trace, *slices, *cargo, *rustc[CARGO_WORKSPACE_NR_CRATES], *s, *jobs;
	char home[PATH_MAX + 16], want[64];
	size_t i, k;

	cr_assert(eq(int, mkdir(bb_path(&run, "rust"), 0755), 0));
	cr_assert(eq(int, cargo_workspace__write(&ws, bb_path(&run, "rust")), 0));
	bb_write_file(&run, "Makefile", "all:\n\t$(MAKE) -C rust\n");
	bb_write_file(&run, "rust/Makefile", "all:\n\tCARGO_BUILD_JOBS=1 " CARGO " build --release\n");
	snprintf(home, sizeof(home), "CARGO_HOME=%s", bb_path(&run, "cargo-home"));
	bb_run_in(&run, (const char *[]){ "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", "make", NULL },
		  CARGO_ENV(home));
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	cargo = bb_only_slice_with_arg(slices, "cargo", "build", NULL);
	cr_assert(eq(str, (char *)slice_name(cargo), "cargo build"));
	for (i = 0; i < CARGO_WORKSPACE_NR_CRATES; i++) {
		rustc[i] = bb_only_slice_with_arg(slices, "rustc", "--crate-name", crates[i]);
		snprintf(want, sizeof(want), "rustc %s (", crates[i]);
		cr_assert(eq(int, strncmp(slice_name(rustc[i]), want, strlen(want)), 0), "%s", slice_name(rustc[i]));
		cr_assert(eq(i64, bb_arg_int(rustc[i], "ppid"), bb_arg_int(cargo, "pid")));
	}
	/* One at a time: no two crates' rustc overlap. */
	for (i = 0; i < CARGO_WORKSPACE_NR_CRATES; i++)
		for (k = i + 1; k < CARGO_WORKSPACE_NR_CRATES; k++)
			cr_assert(slice_end_s(rustc[i]) <= slice_start_s(rustc[k]) ||
					  slice_end_s(rustc[k]) <= slice_start_s(rustc[i]),
				  "%s and %s overlap", crates[i], crates[k]);
	for (i = 0; i < CARGO_WORKSPACE_NR_CRATES; i++)
		cr_log_info("%s: waited for %s", crates[i], bb_arg_str(rustc[i], "waited_for"));
	cr_assert(not(eq(ptr, strstr(run.err, "cargo -j1 (from CARGO_BUILD_JOBS)"), NULL)), "%s", run.err);
	/* The report and the summary say the -j cargo took, and where from. */
	s = bb_load_summary(&run, "s.json");
	cr_assert(json_object_object_get_ex(s, "jobs", &jobs));
	cr_log_info("jobs: %s; stderr: %s", json_object_to_json_string(jobs), run.err);
	cr_assert(str_field_is(jobs, "tool", "cargo"), "%s", json_object_to_json_string(jobs));
	cr_assert(str_field_is(jobs, "source", "cargo_build_jobs"));
	cr_assert(eq(i64, int_field(jobs, "requested"), 1));
	json_object_put(s);
	json_object_put(slices);
	json_object_put(trace);
}
