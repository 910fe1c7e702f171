// SPDX-License-Identifier: GPL-2.0
/*
 * --follow with a real compile server: Debian's distccd on 127.0.0.1, a
 * small C project built with `make -j2 CC="distcc cc"`.  distcc's client
 * preprocesses locally and sends the compile to the daemon, whose
 * compilers are the daemon's children, not make's: with --follow they
 * are in the trace under it and in the audit; without it the build is
 * seen to wait on work the trace does not hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/distccd.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

static struct bb_distccd distccd;

static void daemon_setup(void)
{
	integration_setup();
	bb_distccd_start(&distccd);
}

static void daemon_teardown(void)
{
	bb_distccd_stop(&distccd);
	integration_teardown();
}

TestSuite(daemon, .init = daemon_setup, .fini = daemon_teardown, .timeout = 180);

#define NR_SOURCES 4
/* Functions per source: about half a second of cc1 at -O2 each. */
#define NR_FUNCS 60

/* NR_SOURCES files that each cost the compiler real CPU, and their Makefile. */
static void write_project(void)
{
	char name[16], *text;
	size_t cap = NR_FUNCS * 160 + 1, used;

	text = malloc(cap);
	cr_assert_not_null(text);
	for (int f = 0; f < NR_SOURCES; f++) {
		used = 0;
		for (int i = 0; i < NR_FUNCS; i++)
			used += snprintf(text + used, cap - used,
					 "int f%d_%d(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) "
					 "{ s += a[i] * %d + (s >> 3); if (s & %d) s ^= a[(i * %d) %% n]; } return s; }\n",
					 f, i, i, i + 1, i + 7);
		cr_assert(lt(sz, used, cap));
		snprintf(name, sizeof(name), "s%d.c", f);
		bb_write_file(&run, name, text);
	}
	free(text);
	bb_write_file(&run, "Makefile",
		      "OBJS = s0.o s1.o s2.o s3.o\n"
		      "all: $(OBJS)\n"
		      "%.o: %.c\n"
		      "\t$(CC) -O2 -c $< -o $@\n");
}

/* Served compiles in distccd's log: each is one "COMPILE_OK" line. */
static int served_compiles(void)
{
	char *log = bb_distccd_log(&distccd), *at;
	int n = 0;

	for (at = log; (at = strstr(at, "COMPILE_OK")); at++)
		n++;
	free(log);
	return n;
}

/*
 * Runs the build under buildbpf, with --follow distccd or not.  distcc
 * must not compile locally behind our back: DISTCC_FALLBACK=0 makes a
 * failed remote compile an error, and distccd's log must show every
 * compile served.
 */
static void build_with_distcc(bool follow)
{
	char pid_arg[16], hosts[64], distcc_dir[128];
	const char *env[] = { hosts, "DISTCC_FALLBACK=0", "DISTCC_SKIP_LOCAL_RETRY=1", distcc_dir, NULL };

	write_project();
	/* distcc's state and lock files: it makes only the last component. */
	cr_assert_eq(mkdir(bb_path(&run, ".distcc"), 0755), 0);
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)distccd.pid);
	snprintf(hosts, sizeof(hosts), "DISTCC_HOSTS=%s", distccd.hosts);
	snprintf(distcc_dir, sizeof(distcc_dir), "DISTCC_DIR=%s/.distcc", run.dir);
	if (follow)
		bb_run_in(&run,
			  (const char *const[]){ "-o", "t.json", "--summary-json", "s.json", "--follow", pid_arg, "--",
						 "make", "-j2", "CC=distcc cc", NULL },
			  env);
	else
		bb_run_in(&run,
			  (const char *const[]){ "-o", "t.json", "--summary-json", "s.json", "--", "make", "-j2",
						 "CC=distcc cc", NULL },
			  env);
	cr_log_info("%s", run.err);
	cr_assert_eq(run.status, 0, "buildbpf exited %d: %s", run.status, run.err);
	cr_assert_eq(served_compiles(), NR_SOURCES, "distccd served %d of the %d compiles", served_compiles(),
		     NR_SOURCES);
}

Test(daemon, distccd_compiles_are_under_it_with_follow)
{
	struct json_object *trace, *slices, *summary, *daemons, *d, *wait, *name;
	double compiler_cpu_ms = 0, daemons_cpu_ms;
	int compilers = 0, build_procs = 0;
	char want[64];

	build_with_distcc(true);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	for (size_t i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i), *pid;
		const char *comm = bb_arg_str(s, "comm");
		long long by = bb_arg_int(s, "run_by_daemon");

		cr_assert(json_object_object_get_ex(s, "pid", &pid));
		if (by) {
			cr_assert_eq(by, distccd.pid, "run by another daemon than distccd");
			/* The daemon's trace process, not the build's. */
			cr_assert_eq(json_object_get_int(pid), 16, "a daemon's process in trace process %d",
				     json_object_get_int(pid));
			if (comm && !strcmp(comm, "cc1")) {
				compilers++;
				compiler_cpu_ms += bb_arg_double(s, "cpu_user_ms") + bb_arg_double(s, "cpu_sys_ms");
			}
		} else {
			cr_assert_eq(json_object_get_int(pid), 1, "a build process in trace process %d",
				     json_object_get_int(pid));
			build_procs++;
		}
	}
	cr_assert_geq(compilers, NR_SOURCES, "%d compilers (cc1) under distccd", compilers);
	cr_assert_geq(build_procs, 1 + NR_SOURCES, "make and the distcc clients");
	/* Named after the daemon. */
	snprintf(want, sizeof(want), "daemon %d: distccd", (int)distccd.pid);
	{
		struct json_object *events = json_object_object_get(trace, "traceEvents");
		bool named = false;

		for (size_t i = 0; i < json_object_array_length(events); i++) {
			struct json_object *e = json_object_array_get_idx(events, i), *args;
			const char *ph = json_object_get_string(json_object_object_get(e, "ph"));
			const char *what = json_object_get_string(json_object_object_get(e, "name"));

			if (strcmp(ph, "M") || strcmp(what, "process_name") ||
			    json_object_get_int(json_object_object_get(e, "pid")) != 16)
				continue;
			args = json_object_object_get(e, "args");
			name = json_object_object_get(args, "name");
			named = !strncmp(json_object_get_string(name), want, strlen(want));
			cr_assert(named, "trace process 16 is named '%s'", json_object_get_string(name));
		}
		cr_assert(named, "no process_name for the daemon's trace process");
	}
	/* The audit counts their CPU, split out per daemon. */
	summary = bb_load_summary(&run, "s.json");
	daemons = need_field(summary, "daemons");
	cr_assert_eq(json_object_array_length(daemons), 1);
	d = json_object_array_get_idx(daemons, 0);
	cr_assert_eq(json_object_get_int(json_object_object_get(d, "pid")), distccd.pid);
	cr_assert_geq(json_object_get_int(json_object_object_get(d, "processes")), NR_SOURCES * 2);
	daemons_cpu_ms = double_field(d, "cpu_ms");
	cr_assert_geq(daemons_cpu_ms, compiler_cpu_ms - 1, "daemon CPU %.1f ms < its compilers' %.1f ms",
		      daemons_cpu_ms, compiler_cpu_ms);
	cr_assert_geq(double_field(summary, "cpu_ms"), daemons_cpu_ms, "the audit's CPU leaves the daemon's out");
	/* The compiles were most of the build's CPU. */
	cr_assert(lt(dbl, double_field(summary, "cpu_ms"), 2 * daemons_cpu_ms), "daemon %.1f ms of %.1f ms CPU",
		  daemons_cpu_ms, double_field(summary, "cpu_ms"));
	wait = need_field(summary, "outside_wait");
	cr_assert_not(json_object_get_boolean(json_object_object_get(wait, "mostly_elsewhere")),
		      "the followed daemon's compiles did not count: %s", json_object_to_json_string(wait));
	snprintf(want, sizeof(want), "buildbpf: daemon %d (distccd): ", (int)distccd.pid);
	cr_assert_not_null(strstr(run.err, want), "no report line for the daemon: %s", run.err);
	cr_assert_null(strstr(run.err, "mostly waited"), "%s", run.err);
	bb_reliability("distccd followed, make -j2 CC=\"distcc cc\"", "compilers under the daemon, in its CPU", trace,
		       "%d cc1, %.0f ms CPU of %.0f", compilers, daemons_cpu_ms, double_field(summary, "cpu_ms"));
	json_object_put(summary);
	json_object_put(slices);
	json_object_put(trace);
}

Test(daemon, without_follow_the_build_is_seen_waiting)
{
	struct json_object *trace, *slices, *summary, *wait, *longest;
	double cpu_ms, wait_ms;

	build_with_distcc(false);
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	for (size_t i = 0; i < json_object_array_length(slices); i++)
		cr_assert_null(bb_arg(json_object_array_get_idx(slices, i), "run_by_daemon"));
	cr_assert_null(bb_slice_by_pid(slices, distccd.pid), "distccd was traced without --follow");
	summary = bb_load_summary(&run, "s.json");
	cr_assert_eq(json_object_array_length(need_field(summary, "daemons")), 0);
	wait = need_field(summary, "outside_wait");
	cpu_ms = double_field(summary, "cpu_ms");
	wait_ms = double_field(wait, "wait_ms");
	cr_assert(json_object_get_boolean(json_object_object_get(wait, "mostly_elsewhere")),
		  "waited %.1f ms, %.1f ms CPU, %.1f ms wall", wait_ms, cpu_ms, double_field(summary, "wall_ms"));
	cr_assert(lt(dbl, cpu_ms, wait_ms));
	/* The distcc clients are the ones that waited. */
	cr_assert_geq(json_object_get_int(json_object_object_get(wait, "processes")), NR_SOURCES);
	longest = json_object_object_get(wait, "longest");
	cr_assert_not_null(longest);
	cr_assert_not_null(strstr(json_object_get_string(json_object_object_get(longest, "name")), "distcc"),
			   "longest wait: %s", json_object_to_json_string(longest));
	cr_assert_not_null(strstr(run.err, "buildbpf: the build mostly waited outside the trace: "), "%s", run.err);
	cr_assert_not_null(strstr(run.err, "--follow PID"), "%s", run.err);
	/* The trace says it too: its otherData.audit is the summary. */
	wait = json_object_object_get(bb_other(trace, "audit"), "outside_wait");
	cr_assert(json_object_get_boolean(json_object_object_get(wait, "mostly_elsewhere")), "not in the trace");
	bb_reliability("distccd not followed, make -j2 CC=\"distcc cc\"", "the build seen waiting outside the trace", trace,
		       "waited %.0f ms, %.0f ms CPU traced", wait_ms, cpu_ms);
	json_object_put(summary);
	json_object_put(slices);
	json_object_put(trace);
}
