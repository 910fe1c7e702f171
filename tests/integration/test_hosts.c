// SPDX-License-Identifier: GPL-2.0
/*
 * convert --add: a real distcc build over two recordings.  distccd on
 * 127.0.0.1 stands in for a second machine (all traffic on loopback): it
 * is recorded with --attach while the client's `make -j2 CC="distcc cc"`
 * is recorded separately; both convert into one trace with a process
 * group per host, each client's wait linked to the daemon's compile.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <fcntl.h>
#include "lib/big_build.h"
#include "lib/distccd.h"
#include "lib/integration.h"

/* What a failed assertion would leave running: stopped by the suite's fini. */
static struct bb_distccd distccd;
static pid_t daemon_recording;

static void hosts_teardown(void)
{
	if (daemon_recording > 0) {
		kill(daemon_recording, SIGKILL);
		waitpid(daemon_recording, NULL, 0);
	}
	daemon_recording = 0;
	bb_distccd_stop(&distccd);
	integration_teardown();
}

TestSuite(hosts, .init = integration_setup, .fini = hosts_teardown, .timeout = 120);

#define SOURCES 4

/* Four independent compiles, each through distcc. */
static void write_build(void)
{
	char name[16], text[64];

	for (int i = 0; i < SOURCES; i++) {
		snprintf(name, sizeof(name), "s%d.c", i);
		snprintf(text, sizeof(text), "int f%d(int x) { return x * %d; }\n", i, i + 2);
		bb_write_file(&run, name, text);
	}
	bb_write_file(&run, "Makefile", "all: s0.o s1.o s2.o s3.o\n%.o: %.c\n\t$(CC) -c $< -o $@\n");
}

/* `buildbpf record --attach PID -o daemon.bbl` in the background; its pid once it records. */
static pid_t record_daemon(pid_t daemon, const char *out, const char *err)
{
	char pid_arg[16];
	const char *argv[BB_ARGV_MAX];
	pid_t bb;

	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)daemon);
	bb_argv(argv, (const char *const[]){ "record", "-q", "-o", "daemon.bbl", "--attach", pid_arg, NULL });
	bb = fork();
	cr_assert_geq(bb, 0);
	if (bb == 0)
		bb_exec(argv, run.dir, out, err, NULL);
	/* The log's header is written once the BPF programs are loaded and the tree seeded. */
	for (int i = 0; i < 3000; i++) {
		size_t len = 0;
		char *text = bb_read_file(bb_path(&run, "daemon.bbl"), &len);

		free(text);
		if (len > 0)
			break;
		cr_assert_eq(waitpid(bb, NULL, WNOHANG), 0, "the daemon's recording ended before it started");
		usleep(10 * 1000);
	}
	usleep(300 * 1000);
	return bb;
}

/* The trace pid a process_name event gives name, or -1. */
static long long pid_named(struct json_object *trace, const char *name)
{
	struct json_object *evs = json_object_object_get(trace, "traceEvents");

	for (size_t i = 0; i < json_object_array_length(evs); i++) {
		struct json_object *ev = json_object_array_get_idx(evs, i);

		if (!strcmp(json_object_get_string(json_object_object_get(ev, "name")), "process_name") &&
		    !strcmp(json_object_get_string(bb_arg(ev, "name")), name))
			return json_object_get_int64(json_object_object_get(ev, "pid"));
	}
	return -1;
}

static struct json_object *get_path(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v = json_object_object_get(o, a);

	cr_assert_not_null(v, "no %s", a);
	v = json_object_object_get(v, b);
	cr_assert_not_null(v, "no %s.%s", a, b);
	return v;
}

/* Each "remote job" flow: its s on the client's host, its f on the daemon's, at a distcc / compiler slice start. */
static int check_flows(struct json_object *trace, long long client_pid, long long daemon_pid)
{
	struct json_object *evs = json_object_object_get(trace, "traceEvents");
	int s = 0, f = 0;

	for (size_t i = 0; i < json_object_array_length(evs); i++) {
		struct json_object *ev = json_object_array_get_idx(evs, i);
		const char *ph = json_object_get_string(json_object_object_get(ev, "ph"));

		if (strcmp(json_object_get_string(json_object_object_get(ev, "name")), "remote job"))
			continue;
		if (!strcmp(ph, "s")) {
			cr_assert_eq(json_object_get_int64(json_object_object_get(ev, "pid")), client_pid);
			s++;
		} else {
			cr_assert_str_eq(ph, "f");
			cr_assert_eq(json_object_get_int64(json_object_object_get(ev, "pid")), daemon_pid);
			f++;
		}
	}
	cr_assert_eq(s, f);
	return s;
}

Test(hosts, a_distcc_build_and_its_daemon_convert_into_one_trace)
{
	struct bb_distccd *d = &distccd;
	char out[128], err[128], hosts_env[256], distcc_dir[128], host[256];
	struct json_object *trace, *hosts, *remote, *slices;
	long long client_pid, daemon_pid;
	int status, flows, compiles = 0;
	pid_t bb;

	write_build();
	/* distcc's state and lock files: it makes only the last component. */
	cr_assert_eq(mkdir(bb_path(&run, ".distcc"), 0755), 0);
	bb_distccd_start(d);
	snprintf(out, sizeof(out), "%s.daemon-stdout", run.dir);
	snprintf(err, sizeof(err), "%s.daemon-stderr", run.dir);
	bb = daemon_recording = record_daemon(d->pid, out, err);
	snprintf(hosts_env, sizeof(hosts_env), "DISTCC_HOSTS=%s", d->hosts);
	snprintf(distcc_dir, sizeof(distcc_dir), "DISTCC_DIR=%s/.distcc", run.dir);
	bb_run_in(&run, (const char *const[]){ "record", "-q", "-o", "client.bbl", "--", "make", "-j2", "CC=distcc cc",
					       NULL },
		  (const char *const[]){ hosts_env, distcc_dir, "DISTCC_FALLBACK=0", "DISTCC_SKIP_LOCAL_RETRY=1", NULL });
	cr_assert_eq(run.status, 0, "the distcc build failed: %s\n%s", run.err, bb_distccd_log(d));
	cr_assert_eq(kill(bb, SIGINT), 0);
	cr_assert_eq(waitpid(bb, &status, 0), bb);
	daemon_recording = 0;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the daemon's recording ended %#x: %s", status,
		  bb_read_file(err, NULL));
	bb_distccd_stop(d);
	unlink(out);
	unlink(err);

	bb_run_in(&run, (const char *const[]){ "convert", "client.bbl", "--add", "daemon.bbl", "-o", "t.json", NULL },
		  NULL);
	cr_assert_eq(run.status, 0, "%s", run.err);
	cr_log_info("%s", run.err);
	cr_assert(strstr(run.err, "remote jobs: 4 of 4 linked") != NULL, "%s", run.err);
	trace = bb_load_trace(bb_path(&run, "t.json"));

	/* Two host groups: the client's build at pid 1, the daemon's at 65 (pids 64 apart per host). */
	hosts = get_path(trace, "otherData", "hosts");
	cr_assert_eq(json_object_array_length(json_object_object_get(hosts, "hosts")), 2);
	cr_assert_eq(gethostname(host, sizeof(host)), 0);
	cr_assert_str_eq(json_object_get_string(
				 json_object_object_get(json_object_array_get_idx(json_object_object_get(hosts, "hosts"), 0),
							"name")),
			 host);
	client_pid = json_object_get_int64(
		json_object_object_get(json_object_array_get_idx(json_object_object_get(hosts, "hosts"), 0), "trace_pid"));
	daemon_pid = json_object_get_int64(
		json_object_object_get(json_object_array_get_idx(json_object_object_get(hosts, "hosts"), 1), "trace_pid"));
	cr_assert_eq(client_pid, 1);
	cr_assert_eq(daemon_pid, 65);
	{
		char want[300];

		snprintf(want, sizeof(want), "%s #2: CPUs", host);
		cr_assert_eq(pid_named(trace, want), 66, "the daemon host's CPUs are not its own trace process");
		snprintf(want, sizeof(want), "%s: CPUs", host);
		cr_assert_eq(pid_named(trace, want), 2);
	}
	/* One machine, one clock: the accuracy is the two reads' windows. */
	cr_assert_not(json_object_is_type(get_path(hosts, "alignment", "accuracy_ms"), json_type_null));
	cr_assert_lt(json_object_get_int64(get_path(hosts, "alignment", "accuracy_ns")), 1000000);
	cr_assert_lt(0, json_object_get_int64(get_path(hosts, "alignment", "accuracy_ns")));

	/* The daemon's compiles are on the daemon host's lanes, each linked to the client that waited. */
	slices = bb_slices(trace, "process");
	for (size_t i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *ev = json_object_array_get_idx(slices, i);
		const char *a1 = bb_arg_argv(ev, 1), *a2 = bb_arg_argv(ev, 2);

		/* The compiler driver on distccd's input (its cc1 has it too). */
		if (a1 && a2 && !strcmp(a1, "-c") && strstr(a2, "distccd_")) {
			cr_assert_eq(json_object_get_int64(json_object_object_get(ev, "pid")), daemon_pid);
			compiles++;
		}
	}
	json_object_put(slices);
	cr_assert_eq(compiles, SOURCES, "the daemon ran %d compiles", compiles);
	remote = json_object_object_get(hosts, "remote_jobs");
	cr_assert_eq(json_object_get_int64(json_object_object_get(remote, "clients")), SOURCES);
	cr_assert_eq(json_object_get_int64(json_object_object_get(remote, "jobs")), SOURCES);
	cr_assert_eq(json_object_get_int64(json_object_object_get(remote, "matched")), SOURCES);
	flows = check_flows(trace, client_pid, daemon_pid);
	cr_assert_eq(flows, SOURCES - json_object_get_int64(json_object_object_get(remote, "arrows_not_drawn")));
	cr_assert_eq(json_object_get_int64(get_path(hosts, "audit", "cpu_count")), 2 * sysconf(_SC_NPROCESSORS_ONLN));
	bb_reliability("convert --add (distcc on loopback)", "4 remote compiles linked to their clients", trace,
		       "%d flows", flows);
	json_object_put(trace);

	/* Bad input: one clear line each. */
	bb_run_in(&run, (const char *const[]){ "convert", "client.bbl", "--add", "./client.bbl", "-o", "u.json", NULL },
		  NULL);
	cr_assert_eq(run.status, 1);
	cr_assert(strstr(run.err, "is the same recording as 'client.bbl'") != NULL, "%s", run.err);
	bb_run_in(&run, (const char *const[]){ "convert", "client.bbl", "--add", "Makefile", "-o", "u.json", NULL },
		  NULL);
	cr_assert_eq(run.status, 1);
	cr_assert(strstr(run.err, "'Makefile': ") != NULL, "%s", run.err);
	cr_assert_eq(access(bb_path(&run, "u.json"), F_OK), -1, "a trace was left behind");
}

/* A made-up make build with file records and start wakes, written to name in the run's directory. */
static void write_big_build(const char *name)
{
	const struct big_build b = {
		.procs = 200, .cpus = 2, .deps = true, .seed = 7, .realtime_offset_ns = 1764600000ll * 1000000000ll
	};
	int fd = open(bb_path(&run, name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	cr_assert(fd >= 0, "%s", name);
	cr_assert_eq(big_build__write(&b, fd, NULL), 0);
	cr_assert_eq(close(fd), 0);
}

/*
 * The first log of convert --add is analysed as a lone convert analyses
 * it: the same audit, start causes and the critical path walked through
 * them (the second log, a copy, lies on the same span and changes none).
 */
Test(hosts, the_first_log_is_audited_as_a_lone_convert_audits_it)
{
	struct json_object *alone, *with_host, *audit_alone, *audit_hosts;

	write_big_build("a.bbl");
	write_big_build("b.bbl");
	bb_run_in(&run, (const char *const[]){ "convert", "-q", "a.bbl", "-o", "alone.json", NULL }, NULL);
	cr_assert_eq(run.status, 0, "%s", run.err);
	bb_run_in(&run, (const char *const[]){ "convert", "-q", "a.bbl", "--add", "b.bbl", "-o", "hosts.json", NULL },
		  NULL);
	cr_assert_eq(run.status, 0, "%s", run.err);
	alone = bb_load_trace(bb_path(&run, "alone.json"));
	with_host = bb_load_trace(bb_path(&run, "hosts.json"));
	audit_alone = get_path(alone, "otherData", "audit");
	audit_hosts = get_path(with_host, "otherData", "audit");
	cr_assert(json_object_is_type(json_object_object_get(audit_alone, "start_waits"), json_type_object),
		  "the fixture has start wakes");
	cr_assert_str_eq(json_object_to_json_string(audit_hosts), json_object_to_json_string(audit_alone));
	json_object_put(alone);
	json_object_put(with_host);
}
